package io.gitfn.manifest;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.gitfn.api.function.ProfileOrResources;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The rules of one {@code resourceConfiguration} block (function or build): a profile from the allowed set or
 * explicit resources, never both; explicit requests and limits at least the controller's minimums and at most its
 * maximums, and requests no more than limits.
 *
 * @param maxCpu and {@code maxMemory}: the most one container may ask for, or null for no maximum
 */
record ResourceRules(String name, List<String> profiles, Quantity minCpu, Quantity minMemory, Quantity maxCpu,
    Quantity maxMemory) {

  static final ResourceRules FUNCTION = new ResourceRules("function", List.of("XS", "S", "M", "L", "XL"),
      new Quantity("10m"), new Quantity("16Mi"), null, null);
  /**
   * A build is one tenant's Pod that runs whatever its dependencies' install scripts do: it may ask for at most
   * four times Kyma's largest build profile ({@code fast}: 1700m, 1100Mi), so one Function cannot claim a node.
   */
  static final ResourceRules BUILD = new ResourceRules("build", List.of("local-dev", "slow", "normal", "fast"),
      new Quantity("200m"), new Quantity("200Mi"), new Quantity("4"), new Quantity("8Gi"));

  void check(ProfileOrResources block, String field, List<Violation> violations) {
    if (block == null) {
      return;
    }
    if (block.getProfile() != null && block.getResources() != null) {
      violations.add(new Violation(field, "set profile or resources, not both"));
    }
    if (block.getProfile() == null && block.getResources() == null) {
      violations.add(new Violation(field, "set profile or resources"));
    }
    if (block.getProfile() != null && !profiles.contains(block.getProfile())) {
      violations.add(new Violation(field + ".profile",
          "profile `" + block.getProfile() + "` is not one of " + String.join(", ", profiles)));
    }
    ResourceRequirements resources = block.getResources();
    if (resources != null) {
      String at = field + ".resources";
      checkMinimums(resources.getRequests(), at + ".requests", violations);
      checkMinimums(resources.getLimits(), at + ".limits", violations);
      checkRequestsWithinLimits(resources, at, violations);
    }
  }

  private void checkMinimums(Map<String, Quantity> values, String field, List<Violation> violations) {
    if (values == null) {
      return;
    }
    Map<String, Quantity> minimums = Map.of("cpu", minCpu, "memory", minMemory);
    Map<String, Quantity> maximums = new java.util.HashMap<>();
    if (maxCpu != null) {
      maximums.put("cpu", maxCpu);
    }
    if (maxMemory != null) {
      maximums.put("memory", maxMemory);
    }
    for (Map.Entry<String, Quantity> entry : values.entrySet()) {
      String at = field + "." + entry.getKey();
      Optional<BigDecimal> amount = amount(entry.getValue(), at, violations);
      Quantity minimum = minimums.get(entry.getKey());
      Quantity maximum = maximums.get(entry.getKey());
      if (amount.isPresent() && minimum != null
          && amount.get().compareTo(Quantity.getAmountInBytes(minimum)) < 0) {
        violations.add(new Violation(at, entry.getKey() + " " + entry.getValue() + " is below the minimum of "
            + minimum + " for " + name + " resources"));
      }
      if (amount.isPresent() && maximum != null
          && amount.get().compareTo(Quantity.getAmountInBytes(maximum)) > 0) {
        violations.add(new Violation(at, entry.getKey() + " " + entry.getValue() + " is above the maximum of "
            + maximum + " for " + name + " resources"));
      }
    }
  }

  private static void checkRequestsWithinLimits(
      ResourceRequirements resources, String field, List<Violation> violations) {
    Map<String, Quantity> requests = resources.getRequests();
    Map<String, Quantity> limits = resources.getLimits();
    if (requests == null || limits == null) {
      return;
    }
    for (String resource : Set.copyOf(requests.keySet())) {
      if (!limits.containsKey(resource)) {
        continue;
      }
      Optional<BigDecimal> request = amount(requests.get(resource), null, null);
      Optional<BigDecimal> limit = amount(limits.get(resource), null, null);
      if (request.isPresent() && limit.isPresent() && request.get().compareTo(limit.get()) > 0) {
        violations.add(new Violation(field + ".requests." + resource,
            resource + " request " + requests.get(resource) + " is more than its limit " + limits.get(resource)));
      }
    }
  }

  private static Optional<BigDecimal> amount(Quantity quantity, String field, List<Violation> violations) {
    try {
      return Optional.of(Quantity.getAmountInBytes(quantity));
    } catch (RuntimeException e) {
      if (violations != null) {
        violations.add(new Violation(field, "`" + quantity + "` is not a quantity (like 100m, 0.5, 128Mi or 1Gi)"));
      }
      return Optional.empty();
    }
  }
}
