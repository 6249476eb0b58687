package io.gitfn.api.function;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** A Function's handler and dependencies written into the resource itself. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class InlineSource {

  @Required
  @Size(min = 1)
  @JsonPropertyDescription("The Function's full source code: the whole handler file.")
  private String source;

  @JsonPropertyDescription("The Function's dependencies: the body of package.json or requirements.txt.")
  private String dependencies;

  public String getSource() {
    return source;
  }

  public void setSource(String source) {
    this.source = source;
  }

  public String getDependencies() {
    return dependencies;
  }

  public void setDependencies(String dependencies) {
    this.dependencies = dependencies;
  }
}
