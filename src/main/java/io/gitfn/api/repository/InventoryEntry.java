package io.gitfn.api.repository;

import com.fasterxml.jackson.annotation.JsonInclude;

/** A Function that a FunctionRepository applied and will prune when it leaves Git. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class InventoryEntry {

  private String name;
  private String namespace;

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
}
