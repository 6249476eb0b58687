#!/usr/bin/env python3
"""Checks the controller image tarball that `mvn -B -Pimage package` or `mvn -B verify` builds, then runs it, with no
container engine.

    python3 scripts/check-image.py target/gitfn-image.tar --version=0.1.0-SNAPSHOT --modules=src/image/jre.modules

1. The OCI layout: index.json names one manifest; every blob's digest and size match; each layer's diff_id is
   the digest of its uncompressed tar.
2. The config: user 65532, the entrypoint, the environment (home, cache, JVM flags), the working directory,
   the ports and the labels.
3. The files, all layers merged in order: the runtimes under /opt/gitfn/runtimes, the same as their sources;
   the user in /etc/passwd; /tmp and the home; the base's package list; nothing owned by anyone but root
   outside the home, nothing writable by others outside /tmp; no path of this build machine
   (the checkout, ~/.m2, ~/.cache) in any file name or content.
4. The run: the layers are unpacked into a temporary root file system, and the entrypoint runs in it as a
   container would run it: the image's environment and working directory, as uid 65532, the root file system
   read-only with tmpfs at /tmp and /var/cache/gitfn (as the chart mounts them). This needs unprivileged user
   namespaces (`unshare --user`); where there are none the check fails and says so, unless run with
   --run=false (`-Dimage.check.run=false`), which checks 1-3 only and says loudly that nothing ran. It runs:
     `version`, which must print the project version; `controller --help`; `render` of gitops-examples,
     which must print Functions; `java --list-modules`, which must hold every module jdeps finds the
     application's classes and libraries need; and `java -XshowSettings:properties`, whose user, home,
     encoding and heap must be what the image promises.
"""

import argparse
import gzip
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent

UID = 65532
HOME = "/var/cache/gitfn"
ENTRYPOINT = ["java", "-cp", "@/app/jib-classpath-file", "io.gitfn.cli.Main"]
JVM_FLAGS = ["-XX:+UseSerialGC", "-Xms32m", "-Xmx96m", "-XX:MaxMetaspaceSize=96m", "-XX:ReservedCodeCacheSize=48m",
             "-XX:TieredStopAtLevel=1", "-Xss512k", "-XX:MaxDirectMemorySize=32m",
             "-XX:+ExitOnOutOfMemoryError"]
ENV = {"HOME": HOME, "XDG_CACHE_HOME": "/var/cache", "LANG": "C.UTF-8", "MALLOC_ARENA_MAX": "2"}
PORTS = {"9292/tcp", "8080/tcp"}
LABELS = ["org.opencontainers.image.source", "org.opencontainers.image.version", "org.opencontainers.image.title"]
RUNTIMES = PROJECT / "src/main/resources/io/gitfn/runtimes"


class Failures:
    def __init__(self):
        self.messages = []
        self.passed = 0

    def check(self, condition, message):
        if condition:
            self.passed += 1
        else:
            self.messages.append(message)
            print(f"check-image: FAILED: {message}", flush=True)
        return condition


def log(message):
    print(f"check-image: {message}", flush=True)


def sha256(data):
    return "sha256:" + hashlib.sha256(data).hexdigest()


def read_layout(tarball, f):
    """index.json, the manifest, the config and the uncompressed layers, with their digests checked."""
    with tarfile.open(tarball) as tar:
        members = {m.name: m for m in tar.getmembers() if m.isfile()}

        def blob(descriptor):
            data = tar.extractfile(members[f"blobs/sha256/{descriptor['digest'].split(':', 1)[1]}"]).read()
            f.check(sha256(data) == descriptor["digest"] and len(data) == descriptor["size"],
                    f"blob {descriptor['digest']} does not match its digest or size")
            return data

        f.check(json.loads(tar.extractfile(members["oci-layout"]).read()).get("imageLayoutVersion") == "1.0.0",
                "oci-layout is not version 1.0.0")
        index = json.loads(tar.extractfile(members["index.json"]).read())
        f.check(len(index["manifests"]) == 1, f"index.json names {len(index['manifests'])} manifests, not one")
        log(f"image {index['manifests'][0].get('annotations', {}).get('org.opencontainers.image.ref.name')}")
        manifest = json.loads(blob(index["manifests"][0]))
        f.check(manifest["mediaType"] == "application/vnd.oci.image.manifest.v1+json", "the manifest is not OCI")
        config = json.loads(blob(manifest["config"]))
        layers = []
        for descriptor, diff_id in zip(manifest["layers"], config["rootfs"]["diff_ids"], strict=True):
            raw = gzip.decompress(blob(descriptor))
            f.check(sha256(raw) == diff_id, f"layer {descriptor['digest']}: diff_id {diff_id} does not match")
            layers.append(raw)
        return config, layers


def check_config(config, version, f):
    c = config["config"]
    f.check(c.get("User") == f"{UID}:{UID}", f"user is {c.get('User')!r}, not {UID}:{UID}")
    f.check(c.get("Entrypoint") == ENTRYPOINT, f"entrypoint is {c.get('Entrypoint')}, not {ENTRYPOINT}")
    f.check(not c.get("Cmd"), f"the image has a command {c.get('Cmd')}; Pods' args would replace it")
    env = dict(entry.split("=", 1) for entry in c.get("Env", []))
    for name, value in ENV.items():
        f.check(env.get(name) == value, f"{name} is {env.get(name)!r}, not {value!r}")
    flags = env.get("JAVA_TOOL_OPTIONS", "").split()
    f.check(all(flag in flags for flag in JVM_FLAGS), f"JAVA_TOOL_OPTIONS {flags} lacks some of {JVM_FLAGS}")
    f.check(c.get("WorkingDir") == HOME, f"working directory is {c.get('WorkingDir')!r}, not {HOME}")
    f.check(set(c.get("ExposedPorts", {})) == PORTS, f"ports are {sorted(c.get('ExposedPorts', {}))}")
    labels = c.get("Labels", {})
    for label in LABELS:
        f.check(labels.get(label), f"label {label} is missing")
    f.check(labels.get("org.opencontainers.image.version") == version, f"version label is not {version}")
    f.check(labels.get("io.gitfn.image.base.packages"), "label io.gitfn.image.base.packages is missing")
    f.check(config.get("architecture") and config.get("os") == "linux", "architecture or os missing")
    return env


def merged_files(layers, f):
    """Path -> (tar member, content) of the image's file system, later layers over earlier ones."""
    files = {}
    for raw in layers:
        with tarfile.open(fileobj=io.BytesIO(raw)) as tar:
            for member in tar.getmembers():
                name = member.name.lstrip("./").rstrip("/")
                f.check(".wh." not in name, f"{name}: whiteouts are unexpected in this image")
                data = tar.extractfile(member).read() if member.isfile() else b""
                files[name] = (member, data)
    return files


def check_files(files, f):
    for runtime in ("nodejs/server.mjs", "python/server.py"):
        f.check(f"opt/gitfn/runtimes/{runtime}" in files, f"/opt/gitfn/runtimes/{runtime} is not in the image")
    for source in RUNTIMES.rglob("*"):
        rel = source.relative_to(RUNTIMES)
        if source.is_file() and not {"node_modules", "__pycache__"} & set(rel.parts):
            entry = files.get(f"opt/gitfn/runtimes/{rel.as_posix()}")
            f.check(entry and entry[1] == source.read_bytes(), f"/opt/gitfn/runtimes/{rel} differs from {source}")
    f.check(not any(("node_modules" in n or "__pycache__" in n) for n in files), "node_modules or __pycache__")

    passwd = files.get("etc/passwd", (None, b""))[1].decode()
    f.check(f"gitfn:x:{UID}:{UID}:gitfn:{HOME}:" in passwd, f"/etc/passwd has no user gitfn {UID} with home {HOME}")
    home = files.get(HOME.lstrip("/"), (None,))[0]
    f.check(home is not None and home.isdir() and home.uid == UID, f"{HOME} is not a directory owned by {UID}")
    tmp = files.get("tmp", (None,))[0]
    f.check(tmp is not None and tmp.isdir() and tmp.mode & 0o7777 == 0o1777, "/tmp is not a 1777 directory")
    packages = files.get("usr/share/gitfn/base-packages.txt", (None, b""))[1].decode()
    f.check("libc6=" in packages and "openjdk-17" in packages, "/usr/share/gitfn/base-packages.txt lacks versions")
    f.check("app/jib-classpath-file" in files, "/app/jib-classpath-file is missing")

    for name, (member, _) in files.items():
        if name == HOME.lstrip("/"):
            continue
        f.check(member.uid == 0 and member.gid == 0, f"/{name} is owned by {member.uid}:{member.gid}, not root")
        if name != "tmp" and not member.issym():
            f.check(not member.mode & 0o002, f"/{name} is writable by others")

    home_dir = Path.home()
    leaks = [s.encode() for s in {str(PROJECT), str(home_dir / ".m2"), str(home_dir / ".cache")}]
    for name, (member, data) in files.items():
        text = name.encode() + b"\0" + member.linkname.encode() + b"\0" + data
        for leak in leaks:
            f.check(leak not in text, f"/{name} holds the build machine's path {leak.decode()}")


def unpack(layers, root):
    for raw in layers:
        with tarfile.open(fileobj=io.BytesIO(raw)) as tar:
            if hasattr(tarfile, "fully_trusted_filter"):
                tar.extraction_filter = tarfile.fully_trusted_filter
            tar.extractall(root, numeric_owner=True)


# Runs in a new user and mount namespace where this user is root: makes the unpacked root file system look
# like a container's (read-only, tmpfs at /tmp and the home, the host's /proc and /dev), then enters a second
# user namespace as 65532 and chroots into it. Arguments: root, working directory, the command.
CONTAINER = r"""
set -eu
root=$1 wd=$2; shift 2
mount --rbind "$root" "$root"
mount --rbind /proc "$root/proc"
mount --rbind /dev "$root/dev"
mount -t tmpfs -o mode=1777 tmpfs "$root/tmp"
mount -t tmpfs -o mode=0755 tmpfs "$root/var/cache/gitfn"
mount --bind -o ro "$PROJECT" "$root/mnt/project"
mount -o remount,bind,ro "$root"
exec "$UNSHARE" --user --map-user=65532 --map-group=65532 --root="$root" --wd="$wd" "$@"
"""


def run_in_image(root, env, workdir, command):
    unshare, sh = shutil.which("unshare"), shutil.which("sh")
    # The whole checkout, not gitops-examples alone: orders-from-git's url ./ is the Git repository around the folder.
    environment = dict(env, UNSHARE=unshare, PROJECT=str(PROJECT))
    started = time.monotonic()
    result = subprocess.run([unshare, "--user", "--map-root-user", "--mount", sh, "-c", CONTAINER, "container",
                             str(root), workdir, *command], env=environment, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    log(f"ran {' '.join(command[:6])}{' ...' if len(command) > 6 else ''}: exit {result.returncode} "
        f"in {time.monotonic() - started:.1f} s")
    return result


def application_modules(root):
    """The modules the application needs, as jdeps reads them from the image's /app."""
    jars = sorted(str(p) for p in (root / "app/libs").glob("*.jar"))
    out = subprocess.run(["jdeps", "--ignore-missing-deps", "--multi-release", "17", "--print-module-deps",
                          str(root / "app/classes"), *jars],
                         check=True, text=True, stdout=subprocess.PIPE).stdout
    return set(out.strip().split(","))


def check_run(layers, env, config, version, modules_file, f):
    if not shutil.which("unshare") or subprocess.run(["unshare", "--user", "--map-root-user", "--mount", "true"],
                                                      stderr=subprocess.DEVNULL).returncode != 0:
        f.check(False, "cannot run the image: this machine has no unprivileged user namespaces "
                "(`unshare --user --map-root-user --mount true` fails); -Dimage.check.run=false checks the rest only")
        return
    with tempfile.TemporaryDirectory(prefix="gitfn-image-root-") as tmp:
        root = Path(tmp) / "rootfs"
        root.mkdir()
        unpack(layers, root)
        # Mount points a container runtime would provide; added to the unpacked copy only.
        for mount_point in ("proc", "dev", "mnt/project"):
            (root / mount_point).mkdir(parents=True, exist_ok=True)
        workdir = config["config"]["WorkingDir"]
        entrypoint = config["config"]["Entrypoint"]

        result = run_in_image(root, env, workdir, [*entrypoint, "version"])
        f.check(result.returncode == 0 and version in result.stdout,
                f"`gitfn version` in the image did not print {version}: {result.stdout}{result.stderr}")
        f.check("Picked up JAVA_TOOL_OPTIONS: " + env.get("JAVA_TOOL_OPTIONS", "") in result.stderr,
                "the JVM did not pick up JAVA_TOOL_OPTIONS")
        log("gitfn version: " + " | ".join(result.stdout.strip().splitlines()[:3]))

        result = run_in_image(root, env, workdir, [*entrypoint, "controller", "--help"])
        f.check(result.returncode == 0 and "--webhook-port" in result.stdout,
                f"`gitfn controller --help` in the image failed: {result.stdout}{result.stderr}")

        result = run_in_image(root, env, workdir, [*entrypoint, "render", "/mnt/project/gitops-examples"])
        f.check(result.returncode == 0 and 'kind: "Function"' in result.stdout,
                f"`gitfn render` in the image failed: {result.stdout[-2000:]}{result.stderr[-2000:]}")

        result = run_in_image(root, env, workdir, ["java", "-XshowSettings:properties", "-XX:+PrintFlagsFinal",
                                                   "-version"])
        settings = result.stdout + result.stderr
        for expected in (f"user.home = {HOME}", "user.name = gitfn", f"user.dir = {HOME}",
                         "sun.jnu.encoding = UTF-8", "file.encoding = UTF-8"):
            f.check(expected in settings, f"the image's JVM lacks `{expected}`")
        xmx = next(flag for flag in JVM_FLAGS if flag.startswith("-Xmx"))
        f.check(any(line.split()[:3] == ["size_t", "MaxHeapSize", "="]
                    and line.split()[3] == str(int(xmx[len("-Xmx"):-1]) * 1024 * 1024)
                    for line in settings.splitlines()), f"the image's JVM does not run with {xmx}")

        result = run_in_image(root, env, workdir, ["java", "--list-modules"])
        present = {line.split("@")[0] for line in result.stdout.split()}
        listed = {line.split("#")[0].strip() for line in Path(modules_file).read_text().splitlines()} - {""}
        f.check(listed <= present, f"modules of {modules_file} missing in the image: {sorted(listed - present)}")
        needed = application_modules(root)
        f.check(needed <= present, f"the application needs modules the image lacks: {sorted(needed - present)}; "
                f"add them to {modules_file}")
        log(f"jdeps: the application needs {','.join(sorted(needed))}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("tarball")
    parser.add_argument("--version", required=True)
    parser.add_argument("--modules", required=True)
    parser.add_argument("--run", choices=["true", "false"], default="true")
    args = parser.parse_args()

    started = time.monotonic()
    f = Failures()
    config, layers = read_layout(args.tarball, f)
    env = check_config(config, args.version, f)
    files = merged_files(layers, f)
    check_files(files, f)
    size = Path(args.tarball).stat().st_size
    log(f"{len(layers)} layers, {size / 1024 / 1024:.1f} MiB compressed, "
        f"{sum(len(raw) for raw in layers) / 1024 / 1024:.1f} MiB unpacked")
    if args.run == "false":
        log("NOT RUN: -Dimage.check.run=false (--run=false) was given; the image's entrypoint did not run")
    else:
        check_run(layers, env, config, args.version, args.modules, f)
    if f.messages:
        log(f"{len(f.messages)} of {len(f.messages) + f.passed} checks failed")
        sys.exit(1)
    log(f"all {f.passed} checks passed in {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
