package io.gitfn.testbed.git;

import java.nio.file.Path;

/** A bare repository that both test Git servers serve under {@code name}. */
public record BareRepository(String name, Path directory) {}
