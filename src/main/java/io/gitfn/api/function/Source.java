package io.gitfn.api.function;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.ValidationRule;

/** Where a Function's code comes from: exactly one of inline text or a Git repository directory. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Source {

  @JsonPropertyDescription("Defines the Function as git-sourced. Can't be used together with inline.")
  @ValidationRule(value = "has(self.baseDir) && (self.baseDir.trim().size() != 0)",
      message = "BaseDir is required and cannot be empty")
  @ValidationRule(value = "has(self.reference) && (self.reference.trim().size() != 0)",
      message = "Reference is required and cannot be empty")
  private GitRepositorySource gitRepository;

  @JsonPropertyDescription("Defines the Function as an inline Function. Can't be used together with gitRepository.")
  private InlineSource inline;

  public GitRepositorySource getGitRepository() {
    return gitRepository;
  }

  public void setGitRepository(GitRepositorySource gitRepository) {
    this.gitRepository = gitRepository;
  }

  public InlineSource getInline() {
    return inline;
  }

  public void setInline(InlineSource inline) {
    this.inline = inline;
  }
}
