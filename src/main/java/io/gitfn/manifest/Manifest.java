package io.gitfn.manifest;

import io.gitfn.api.Annotations;
import io.gitfn.api.function.Function;
import java.util.List;

/**
 * The desired Functions of one revision, sorted by name, each annotated with {@link Annotations#SOURCE_PATH} (the
 * file or folder it came from); its SOPS-encrypted Secrets, still encrypted, sorted by file; its ConfigMaps, checked
 * and sorted by name; the objects of other allowed kinds (routes), sorted by kind and name; and what the reader
 * skipped.
 */
public record Manifest(List<Function> functions, List<ManifestNotice> notices,
    List<EncryptedDocument> encryptedSecrets, List<DeclaredConfigMap> configMaps, List<DeclaredObject> objects) {

  public Manifest {
    functions = List.copyOf(functions);
    notices = List.copyOf(notices);
    encryptedSecrets = List.copyOf(encryptedSecrets);
    configMaps = List.copyOf(configMaps);
    objects = List.copyOf(objects);
  }

  /** A revision without objects of other kinds. */
  public Manifest(List<Function> functions, List<ManifestNotice> notices, List<EncryptedDocument> encryptedSecrets,
      List<DeclaredConfigMap> configMaps) {
    this(functions, notices, encryptedSecrets, configMaps, List.of());
  }

  /** A revision without ConfigMaps. */
  public Manifest(List<Function> functions, List<ManifestNotice> notices, List<EncryptedDocument> encryptedSecrets) {
    this(functions, notices, encryptedSecrets, List.of());
  }

  /** A revision of Functions alone. */
  public Manifest(List<Function> functions, List<ManifestNotice> notices) {
    this(functions, notices, List.of());
  }
}
