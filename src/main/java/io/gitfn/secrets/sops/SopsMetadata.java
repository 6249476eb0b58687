package io.gitfn.secrets.sops;

import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * The {@code sops:} block of a file, as sops' {@code stores/stores.go} reads it: the age recipients, the encrypted
 * MAC, the timestamp the MAC is authenticated with, the one rule saying which values are encrypted, and whether the
 * MAC covers only encrypted values. Other master keys (pgp, kms, ...) may sit beside age and are ignored.
 */
record SopsMetadata(
    List<AgeRecipient> age, String mac, String macAdditionalData, EncryptionRule rule, boolean macOnlyEncrypted,
    String version) {

  /** Go's {@code time.RFC3339} layout, which sops formats {@code lastmodified} with to authenticate the MAC. */
  private static final DateTimeFormatter RFC3339 = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ssXXX");
  private static final Set<String> RULES =
      Set.of("unencrypted_suffix", "encrypted_suffix", "unencrypted_regex", "encrypted_regex",
          "unencrypted_comment_regex", "encrypted_comment_regex");

  static SopsMetadata read(Node block, String file) throws SopsException {
    if (!(block instanceof MappingNode mapping)) {
      throw notSops(file, "sops", "is not a mapping; is this a file sops wrote?");
    }
    Map<String, Node> fields = fields(mapping, file, "sops");
    if (fields.containsKey("key_groups") || fields.containsKey("shamir_threshold")) {
      throw new SopsException(SopsException.Reason.UNSUPPORTED, file, "sops.key_groups",
          "Shamir key groups are not supported; encrypt to age recipients in a single group");
    }
    String lastModified = text(fields, "lastmodified", file);
    String mac = text(fields, "mac", file);
    return new SopsMetadata(age(fields.get("age"), file), mac, rfc3339(lastModified, file), rule(fields, file),
        fields.containsKey("mac_only_encrypted") && "true".equalsIgnoreCase(scalar(fields, "mac_only_encrypted",
            file)), fields.containsKey("version") ? scalar(fields, "version", file) : "");
  }

  private static List<AgeRecipient> age(Node node, String file) throws SopsException {
    if (node == null) {
      throw new SopsException(SopsException.Reason.UNSUPPORTED, file, "sops.age",
          "is missing: the file has no age recipient, and age is the only key type gitfn decrypts with");
    }
    if (!(node instanceof SequenceNode list) || list.getValue().isEmpty()) {
      throw notSops(file, "sops.age", "is not a list of {recipient, enc} entries");
    }
    List<AgeRecipient> recipients = new ArrayList<>();
    for (int i = 0; i < list.getValue().size(); i++) {
      String path = "sops.age[" + i + "]";
      if (!(list.getValue().get(i) instanceof MappingNode entry)) {
        throw notSops(file, path, "is not a {recipient, enc} mapping");
      }
      Map<String, Node> fields = fields(entry, file, path);
      recipients.add(new AgeRecipient(text(fields, "recipient", file, path), text(fields, "enc", file, path)));
    }
    return List.copyOf(recipients);
  }

  /** A mapping's fields by key; a key given twice is refused, as sops' YAML decoder refuses it. */
  private static Map<String, Node> fields(MappingNode mapping, String file, String path) throws SopsException {
    Map<String, Node> fields = new HashMap<>();
    for (NodeTuple tuple : mapping.getValue()) {
      String key = ((ScalarNode) tuple.getKeyNode()).getValue();
      if (fields.put(key, tuple.getValueNode()) != null) {
        throw new SopsException(SopsException.Reason.NOT_YAML, file, path + "." + key,
            "is given twice in the same mapping");
      }
    }
    return fields;
  }

  private static EncryptionRule rule(Map<String, Node> fields, String file) throws SopsException {
    List<String> named = RULES.stream().filter(fields::containsKey).sorted().toList();
    if (named.size() > 1) {
      throw notSops(file, "sops", "names " + String.join(" and ", named) + "; sops allows one of them");
    }
    if (named.isEmpty()) {
      return new EncryptionRule.UnencryptedSuffix(EncryptionRule.DEFAULT_UNENCRYPTED_SUFFIX);
    }
    String field = named.get(0);
    String value = scalar(fields, field, file);
    return switch (field) {
      case "unencrypted_suffix" -> new EncryptionRule.UnencryptedSuffix(value);
      case "encrypted_suffix" -> new EncryptionRule.EncryptedSuffix(value);
      case "unencrypted_regex" -> new EncryptionRule.UnencryptedRegex(EncryptionRule.compile(value, field, file));
      case "encrypted_regex" -> new EncryptionRule.EncryptedRegex(EncryptionRule.compile(value, field, file));
      // The rule reads the YAML comments above a value, which are not part of a Kubernetes object.
      default -> throw new SopsException(SopsException.Reason.UNSUPPORTED, file, "sops." + field,
          "is not supported: gitfn does not read YAML comments; use encrypted_regex or unencrypted_suffix");
    };
  }

  /** The MAC's authenticated data: sops parses {@code lastmodified} and formats it again as Go's RFC 3339. */
  private static String rfc3339(String lastModified, String file) throws SopsException {
    try {
      return RFC3339.format(OffsetDateTime.parse(lastModified));
    } catch (DateTimeParseException e) {
      throw notSops(file, "sops.lastmodified", "is not an RFC 3339 timestamp");
    }
  }

  private static String text(Map<String, Node> fields, String name, String file) throws SopsException {
    return text(fields, name, file, "sops");
  }

  private static String text(Map<String, Node> fields, String name, String file, String parent)
      throws SopsException {
    if (!fields.containsKey(name)) {
      throw notSops(file, parent + "." + name, "is missing; is this a file sops wrote?");
    }
    if (!(fields.get(name) instanceof ScalarNode scalar) || scalar.getValue().isEmpty()) {
      throw notSops(file, parent + "." + name, "is not a text value");
    }
    return scalar.getValue();
  }

  private static String scalar(Map<String, Node> fields, String name, String file) throws SopsException {
    if (!(fields.get(name) instanceof ScalarNode scalar)) {
      throw notSops(file, "sops." + name, "is not a text value");
    }
    return scalar.getValue();
  }

  private static SopsException notSops(String file, String path, String problem) {
    return new SopsException(SopsException.Reason.NOT_SOPS, file, path, problem);
  }
}
