package io.gitfn.cli;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesList;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** How a command prints what it read: a table, or the objects as YAML or JSON, as kubectl's {@code -o} does. */
final class Output {

  /** The values of {@code -o}; {@code table} is what no {@code -o} means. */
  enum Format { table, wide, yaml, json }

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private final Format format;
  private final PrintWriter out;

  Output(Format format, PrintWriter out) {
    this.format = format == null ? Format.table : format;
    this.out = out;
  }

  boolean isTable() {
    return format == Format.table || format == Format.wide;
  }

  boolean isWide() {
    return format == Format.wide;
  }

  void table(List<String> header, List<List<String>> rows) {
    out.print(Table.render(header, rows));
    out.flush();
  }

  /** One object as itself, several (or a listing that found one) as a List, like kubectl. */
  void objects(List<? extends HasMetadata> objects, boolean asList) {
    objects.forEach(o -> o.getMetadata().setManagedFields(null));
    if (!asList && objects.size() == 1) {
      value(objects.get(0));
      return;
    }
    KubernetesList list = new KubernetesList();
    list.setItems(new ArrayList<>(objects));
    value(list);
  }

  /** Any value, such as a status field, as YAML or JSON. */
  void value(Object value) {
    if (format == Format.json) {
      out.println(SERIALIZATION.asJson(value));
    } else {
      String yaml = SERIALIZATION.asYaml(value);
      out.print(yaml.startsWith("---\n") ? yaml.substring(4) : yaml);
    }
    out.flush();
  }
}
