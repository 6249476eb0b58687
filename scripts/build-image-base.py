#!/usr/bin/env python3
"""Builds the base of the controller image from Debian packages, with no container engine and no registry.

    python3 scripts/build-image-base.py OUT_DIR

writes OUT_DIR/base.tar, a `docker save` style tarball (manifest.json, config.json, gzipped layers) that Jib
takes as `tar://` base, and OUT_DIR/base-packages.txt. The base holds:

  layer 1  glibc, libgcc, libstdc++ and zlib from their Debian packages, /etc/passwd and /etc/group with the
           user gitfn (65532), /tmp, the home and cache directory /var/cache/gitfn (owned by gitfn), and
           /usr/share/gitfn/base-packages.txt with every package version;
  layer 2  a Java 17 runtime in /usr/lib/jvm/java-17, jlinked from Debian's openjdk-17 jmods by the jlink of
           the same Debian build, with the modules of src/image/jre.modules.

The packages come from the machine's apt sources through `apt-get download`, which checks them against the
signed Release files; their versions are whatever apt offers, and are recorded in the image. Given the same
package versions the tarball is byte for byte the same: sorted entries, fixed times, fixed owners.

Built bases are cached in ${GITFN_IMAGE_CACHE:-~/.cache/gitfn-image}, keyed by a hash of this script, the
package and module lists and the resolved versions, so that a later build with nothing changed takes a second.
"""

import fcntl
import gzip
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
IMAGE_DIR = HERE.parent / "src" / "image"
PACKAGES_FILE = IMAGE_DIR / "base.packages"
MODULES_FILE = IMAGE_DIR / "jre.modules"

GITFN_UID = 65532
HOME = "var/cache/gitfn"
JAVA_HOME = "usr/lib/jvm/java-17"
EPOCH = "1970-01-01T00:00:00Z"

# Natives of java.desktop for windows, fonts, images and sound. The controller is headless and only needs
# java.desktop's classes (java.beans); these libraries would need X11, freetype, ALSA and more.
DESKTOP_NATIVES = ["libawt_xawt.so", "libjawt.so", "libsplashscreen.so", "libjsound.so", "libfontmanager.so",
                   "liblcms.so", "libjavajpeg.so", "libmlib_image.so", "libawt.so", "libawt_headless.so"]

# What a package's files may keep of /usr/share: licences, not manuals, changelogs or translations.
PRUNED = ["usr/share/man", "usr/share/info", "usr/share/locale", "usr/share/lintian", "usr/share/bug"]


def log(message):
    print(f"build-image-base: {message}", flush=True)


def fail(message):
    print(f"build-image-base: {message}", file=sys.stderr, flush=True)
    sys.exit(1)


def run(*args, **kwargs):
    return subprocess.run(args, check=True, text=True, stdout=subprocess.PIPE, **kwargs).stdout


def read_list(path):
    """The non-comment lines of a list file, split into words."""
    lines = (line.split("#", 1)[0].split() for line in path.read_text().splitlines())
    return [words for words in lines if words]


def candidate_version(package):
    """The version apt would install, as `apt-cache policy` says."""
    out = run("apt-cache", "policy", package)
    match = re.search(r"^\s*Candidate:\s*(\S+)", out, re.M)
    if not match or match.group(1) == "(none)":
        fail(f"apt knows no version of {package}; run `apt-get update` (as root) so that its lists are there")
    return match.group(1)


def download(package, version, debs):
    """The .deb of package at version, from the cache or through `apt-get download` (no root needed)."""
    quoted = version.replace(":", "%3a")
    found = sorted(debs.glob(f"{package}_{quoted}_*.deb"))
    if found:
        return found[0]
    log(f"downloading {package}={version}")
    with tempfile.TemporaryDirectory(dir=debs) as tmp:
        # As root apt would hand the download to its _apt user, who cannot write into this cache.
        sandbox = ["-o", "APT::Sandbox::User=root"] if os.geteuid() == 0 else []
        subprocess.run(["apt-get", "download", "-q", *sandbox, f"{package}={version}"], cwd=tmp, check=True,
                       stdout=subprocess.DEVNULL)
        (deb,) = Path(tmp).glob("*.deb")
        return Path(shutil.move(str(deb), debs / deb.name))


def extract(deb, into):
    into.mkdir(parents=True, exist_ok=True)
    subprocess.run(["dpkg-deb", "-x", str(deb), str(into)], check=True)


def prune(root):
    for rel in PRUNED:
        shutil.rmtree(root / rel, ignore_errors=True)
    docs = root / "usr/share/doc"
    if docs.is_dir():
        for path in sorted(docs.rglob("*"), reverse=True):
            if path.is_file() or path.is_symlink():
                if path.name != "copyright":
                    path.unlink()
            elif path.is_dir() and not any(path.iterdir()):
                path.rmdir()


def jlink(tools, debs, versions, arch, output):
    """A runtime with the listed modules, made by the packaged JDK's own jlink from its own jmods."""
    jdk_root = tools / "jdk"
    for package in ("openjdk-17-jre-headless", "openjdk-17-jdk-headless"):
        extract(download(package, versions[package], debs), jdk_root)
    # Debian links the JDK's configuration to /etc/java-17-openjdk; point the links into the unpacked tree.
    for link in jdk_root.rglob("*"):
        target = os.readlink(link) if link.is_symlink() else None
        if target and target.startswith("/") and (jdk_root / target[1:]).exists():
            link.unlink()
            link.symlink_to(jdk_root / target[1:])
    jdk = jdk_root / f"usr/lib/jvm/java-17-openjdk-{arch}"
    modules = [words[0] for words in read_list(MODULES_FILE)]
    output.parent.mkdir(parents=True, exist_ok=True)
    # No --strip-debug: it drops line numbers, and a controller's stack traces need them.
    run(str(jdk / "bin/jlink"), "--module-path", str(jdk / "jmods"), "--add-modules", ",".join(modules),
        "--no-header-files", "--no-man-pages",
        "--exclude-files=" + ",".join(f"**/{name}" for name in DESKTOP_NATIVES),
        "--output", str(output))
    return modules


def check_libraries(root, java_home, triplet):
    """Every program and library of the runtime finds what it links against inside the image.

    The image's own dynamic loader lists each one's dependencies; it falls back to the build machine's
    default directories, so a dependency found outside root counts as missing."""
    (loader,) = [*(root / "lib64").glob("ld-linux*.so*")] or [*(root / "lib").glob("ld-linux*.so*")]
    path = ":".join(str(p) for p in (root / "lib" / triplet, root / "usr/lib" / triplet,
                                     java_home / "lib", java_home / "lib/server"))
    missing = []
    for elf in sorted([*(java_home / "bin").iterdir(), *(java_home / "lib").rglob("*.so")]):
        result = subprocess.run([str(loader), "--library-path", path, "--list", str(elf)], text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        outside = [line.strip() for line in result.stdout.splitlines()
                   if "=>" in line and not line.split("=>", 1)[1].strip().startswith(str(root))]
        if result.returncode != 0 or outside:
            missing.append(f"{elf.relative_to(root)}: " + "; ".join(outside or result.stdout.strip().splitlines()))
    if missing:
        fail("libraries the image lacks:\n  " + "\n  ".join(missing))


def system_files(root, packages_text):
    """The files no package provides: users, name service, the home and cache directory, the version list."""
    etc = root / "etc"
    etc.mkdir(exist_ok=True)
    (etc / "passwd").write_text("root:x:0:0:root:/root:/sbin/nologin\n"
                                "nobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin\n"
                                f"gitfn:x:{GITFN_UID}:{GITFN_UID}:gitfn:/{HOME}:/sbin/nologin\n")
    (etc / "group").write_text(f"root:x:0:\nnobody:x:65534:\ngitfn:x:{GITFN_UID}:\n")
    (etc / "nsswitch.conf").write_text("passwd: files\ngroup: files\nhosts: files dns\n")
    for directory in ("tmp", "root", HOME):
        (root / directory).mkdir(parents=True, exist_ok=True)
    share = root / "usr/share/gitfn"
    share.mkdir(parents=True, exist_ok=True)
    (share / "base-packages.txt").write_text(packages_text)


def dpkg_status(root, debs, packages):
    """distroless-style /var/lib/dpkg/status.d entries, so that scanners see the packages and versions."""
    status = root / "var/lib/dpkg/status.d"
    status.mkdir(parents=True, exist_ok=True)
    for package, deb in packages:
        fields = run("dpkg-deb", "-f", str(deb))
        fields = re.sub(r"^(Package: .*)$", r"\1\nStatus: install ok installed", fields, count=1, flags=re.M)
        (status / package).write_text(fields)


def layer(root, owners):
    """A deterministic tar of root: sorted, owned by root unless owners says otherwise, time 0."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for path in sorted(root.rglob("*"), key=lambda p: p.relative_to(root).as_posix()):
            rel = path.relative_to(root).as_posix()
            info = tarfile.TarInfo(rel)
            info.mtime = 0
            info.uid = info.gid = owners.get(rel, 0)
            if path.is_symlink():
                info.type = tarfile.SYMTYPE
                info.linkname = os.readlink(path)
                info.mode = 0o777
                tar.addfile(info)
            elif path.is_dir():
                info.type = tarfile.DIRTYPE
                info.mode = 0o1777 if rel == "tmp" else 0o700 if rel == "root" else 0o755
                tar.addfile(info)
            else:
                info.size = path.stat().st_size
                info.mode = 0o755 if path.stat().st_mode & 0o111 else 0o644
                with path.open("rb") as data:
                    tar.addfile(info, data)
    raw = buffer.getvalue()
    compressed = io.BytesIO()
    with gzip.GzipFile(fileobj=compressed, mode="wb", compresslevel=6, mtime=0) as gz:
        gz.write(raw)
    return "sha256:" + hashlib.sha256(raw).hexdigest(), compressed.getvalue()


def save_tarball(path, config, layers):
    """A `docker save` tarball: manifest.json, the config and the layers, which is what Jib's tar:// reads."""
    config_bytes = json.dumps(config, indent=2, sort_keys=True).encode()
    files = [("config.json", config_bytes)]
    files += [(f"layer{i}.tar.gz", data) for i, data in enumerate(layers, 1)]
    manifest = [{"Config": "config.json", "RepoTags": ["gitfn-base:latest"],
                 "Layers": [name for name, _ in files[1:]]}]
    files.insert(0, ("manifest.json", json.dumps(manifest, indent=2).encode()))
    with tarfile.open(path, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for name, data in files:
            info = tarfile.TarInfo(name)
            info.size, info.mode, info.mtime = len(data), 0o644, 0
            tar.addfile(info, io.BytesIO(data))


def build(cache, key, base_tar, entries, versions, arch):
    debs = cache / "debs"
    debs.mkdir(parents=True, exist_ok=True)
    triplet = run("dpkg-architecture", "-qDEB_HOST_MULTIARCH").strip() if shutil.which("dpkg-architecture") \
        else {"amd64": "x86_64-linux-gnu", "arm64": "aarch64-linux-gnu"}[arch]
    with tempfile.TemporaryDirectory(prefix="gitfn-image-base-") as tmp:
        tmp = Path(tmp)
        system, java, tools = tmp / "system", tmp / "java", tmp / "tools"
        image_debs = []
        for kind, package, *paths in entries:
            if kind == "tool":
                continue
            deb = download(package, versions[package], debs)
            if kind == "files":
                extract(deb, tools / package)
                for rel in [*paths, f"usr/share/doc/{package}/copyright"]:
                    (system / rel).parent.mkdir(parents=True, exist_ok=True)
                    source = tools / package / rel
                    if source.is_dir() and not source.is_symlink():
                        shutil.copytree(source, system / rel, symlinks=True)
                    else:
                        shutil.copy2(source, system / rel, follow_symlinks=False)
            else:
                extract(deb, system)
            image_debs.append((package, deb))
        prune(system)

        java_home = java / JAVA_HOME
        modules = jlink(tools, debs, versions, arch, java_home)
        (java / "usr/bin").mkdir(parents=True)
        (java / "usr/bin/java").symlink_to(f"../lib/jvm/java-17/bin/java")

        jdk = f"openjdk-17-jdk-headless={versions['openjdk-17-jdk-headless']}"
        packages_text = "".join(
            [f"# The Debian packages of this image's base (scripts/build-image-base.py, key {key}).\n"]
            + [f"{package}={versions[package]}\n" for package, _ in image_debs]
            + [f"# /{JAVA_HOME}: jlink of {jdk} (the jlink and jmods of that build), modules:\n",
               f"# {','.join(modules)}\n"])
        system_files(system, packages_text)
        # The runtime counts as Debian's openjdk-17-jre-headless for scanners: same source, same version.
        dpkg_status(system, debs, image_debs + [("openjdk-17-jre-headless", download(
            "openjdk-17-jre-headless", versions["openjdk-17-jre-headless"], debs))])

        # The runtime's libraries resolve inside the image: checked with the image's own dynamic loader.
        merged = tmp / "merged"
        shutil.copytree(system, merged, symlinks=True)
        shutil.copytree(java, merged, symlinks=True, dirs_exist_ok=True)
        check_libraries(merged, merged / JAVA_HOME, triplet)

        log("writing layers")
        system_id, system_layer = layer(system, {HOME: GITFN_UID})
        java_id, java_layer = layer(java, {})
        config = {
            "architecture": arch, "os": "linux", "created": EPOCH,
            "config": {
                "Env": [f"PATH=/{JAVA_HOME}/bin:/usr/local/bin:/usr/bin:/bin", f"JAVA_HOME=/{JAVA_HOME}",
                        # UTF-8 file names and default charset; glibc 2.35+ has C.UTF-8 built in.
                        "LANG=C.UTF-8"],
                "Labels": {
                    "io.gitfn.image.base.packages": " ".join(f"{p}={versions[p]}" for p, _ in image_debs),
                    "io.gitfn.image.base.java": f"jlink of {jdk}",
                },
            },
            "rootfs": {"type": "layers", "diff_ids": [system_id, java_id]},
            "history": [
                {"created": EPOCH, "created_by": "scripts/build-image-base.py: "
                 + " ".join(p for p, _ in image_debs) + ", users, directories"},
                {"created": EPOCH, "created_by": f"scripts/build-image-base.py: jlink of {jdk}"},
            ],
        }
        partial = base_tar.with_suffix(".partial")
        save_tarball(partial, config, [system_layer, java_layer])
        base_tar.with_suffix(".packages.txt").write_text(packages_text)
        partial.replace(base_tar)


def main():
    if len(sys.argv) != 2:
        fail("usage: build-image-base.py OUT_DIR")
    out = Path(sys.argv[1])
    for tool in ("apt-get", "apt-cache", "dpkg-deb", "dpkg"):
        if not shutil.which(tool):
            fail(f"{tool} is missing: the image base is built from Debian packages, on a Debian or Ubuntu machine")
    arch = run("dpkg", "--print-architecture").strip()
    entries = read_list(PACKAGES_FILE)
    for words in entries:
        if words[0] not in ("image", "files", "tool") or len(words) < 2 or (words[0] == "files") != (len(words) > 2):
            fail(f"{PACKAGES_FILE}: cannot read the line `{' '.join(words)}`")
    versions = {words[1]: candidate_version(words[1]) for words in entries}

    digest = hashlib.sha256()
    for part in (Path(__file__).read_bytes(), PACKAGES_FILE.read_bytes(), MODULES_FILE.read_bytes(),
                 arch.encode(), *(f"{p}={v}\n".encode() for p, v in sorted(versions.items()))):
        digest.update(hashlib.sha256(part).digest())
    key = digest.hexdigest()[:16]

    cache = Path(os.environ.get("GITFN_IMAGE_CACHE") or Path.home() / ".cache/gitfn-image")
    cache.mkdir(parents=True, exist_ok=True)
    base_tar = cache / f"base-{key}.tar"
    # One build at a time per cache: checkouts building at once share it.
    with open(cache / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if base_tar.exists():
            log(f"cached: {base_tar}")
        else:
            log(f"building {base_tar}")
            build(cache, key, base_tar, entries, versions, arch)

    out.mkdir(parents=True, exist_ok=True)
    for name, source in (("base.tar", base_tar), ("base-packages.txt", base_tar.with_suffix(".packages.txt"))):
        target = out / name
        target.unlink(missing_ok=True)
        try:
            os.link(source, target)
        except OSError:
            shutil.copyfile(source, target)
    log(f"{out / 'base.tar'}: {base_tar.stat().st_size // (1024 * 1024)} MiB, key {key}")


if __name__ == "__main__":
    main()
