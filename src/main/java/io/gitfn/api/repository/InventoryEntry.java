package io.gitfn.api.repository;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** A Function that a FunctionRepository applied and will prune when it leaves Git. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class InventoryEntry {

  private String name;
  private String namespace;

  @JsonPropertyDescription("The Function's metadata.generation after the repository applied it: another one means"
      + " someone else changed its spec, which the next pass sets back.")
  private Long generation;

  public InventoryEntry() {}

  public InventoryEntry(String name, String namespace) {
    this.name = name;
    this.namespace = namespace;
  }

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public String getNamespace() {
    return namespace;
  }

  public void setNamespace(String namespace) {
    this.namespace = namespace;
  }

  public Long getGeneration() {
    return generation;
  }

  public void setGeneration(Long generation) {
    this.generation = generation;
  }
}
