package io.gitfn.api.repository;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/**
 * The last full sync of a FunctionRepository's applied revision that applied something or recorded a new revision,
 * generation or labels: every Function compared with Git and the cluster, and applied where it differed. Until the
 * next full sync, a pass that finds nothing new (the same revision, generation and labels, no request, no Function
 * edited by someone else) only reports how the Functions roll out; this is what it checks, so that the decision
 * survives a restart. A periodic full sync that finds nothing to change leaves it as it was, so that a repository at
 * rest is never written to.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class LastSync {

  @JsonPropertyDescription("When the sync ran (RFC 3339).")
  private String time;

  @JsonPropertyDescription("The FunctionRepository's metadata.generation it applied.")
  private Long generation;

  @JsonPropertyDescription("A digest of the FunctionRepository's labels it applied, which the shard labels of its"
      + " Functions come from.")
  private String labels;

  public LastSync() {}

  public LastSync(String time, Long generation, String labels) {
    this.time = time;
    this.generation = generation;
    this.labels = labels;
  }

  public String getTime() {
    return time;
  }

  public void setTime(String time) {
    this.time = time;
  }

  public Long getGeneration() {
    return generation;
  }

  public void setGeneration(Long generation) {
    this.generation = generation;
  }

  public String getLabels() {
    return labels;
  }

  public void setLabels(String labels) {
    this.labels = labels;
  }
}
