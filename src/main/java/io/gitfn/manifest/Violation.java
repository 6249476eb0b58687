package io.gitfn.manifest;

/** A rule a Function breaks: the field (as a path in the Function) and what is wrong with it. */
record Violation(String field, String message) {}
