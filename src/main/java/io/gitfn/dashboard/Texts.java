package io.gitfn.dashboard;

/** Text someone else wrote, cut to what a page shows. */
final class Texts {

  /** {@code text}, or its first {@code limit} characters and an ellipsis; null stays null. */
  static String cut(String text, int limit) {
    return text == null || text.length() <= limit ? text : text.substring(0, limit) + "…";
  }

  private Texts() {}
}
