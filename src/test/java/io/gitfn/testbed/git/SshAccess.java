package io.gitfn.testbed.git;

import java.nio.file.Path;

/** What an SSH client needs to reach the test SSH server: a key, and known_hosts that trusts it. */
public record SshAccess(SshKey key, Path knownHostsFile) {}
