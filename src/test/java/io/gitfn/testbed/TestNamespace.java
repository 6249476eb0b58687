package io.gitfn.testbed;

/** The namespace a test owns: made for it before it runs, deleted after. */
public record TestNamespace(String name) {}
