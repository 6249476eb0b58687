package io.gitfn.controller.cache;

/** How informers list what they cache. */
public final class ListPages {

  /**
   * Informers list in pages of this many objects, as client-go's reflectors do: a first list of 10,000 Deployments
   * in one answer would be tens of MiB of JSON held at once, next to the cache it fills.
   */
  public static final long SIZE = 500;

  private ListPages() {}
}
