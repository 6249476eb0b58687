#!/usr/bin/env python3
"""Builds Kyma's buildless Function controller and its nodejs24 runtime image from a checkout of
github.com/kyma-project/serverless, with no container engine, for the benchmark that runs Kyma beside gitfn.

    python3 scripts/build-kyma-serverless.py [--commit SHA] KYMA_SERVERLESS_CHECKOUT   # prints kyma.json's path

The checkout is an argument because neither GitHub nor the Go module proxy serves Kyma's module here. It writes,
into ${GITFN_TESTENV_DIR:-~/.cache/gitfn-testenv}/kyma-serverless-<key>/:

  manager  the controller, `go build ./components/buildless-serverless/cmd` of the checkout's root module, with
           CGO_ENABLED=0 and GOFIPS140=v1.0.0 as components/buildless-serverless/Dockerfile builds it (Kyma's
           image runs it with GODEBUG=fips140=off,tlsmlkem=0, which kyma.json records under managerEnv);
  function-runtime-nodejs24.tar
           an OCI image archive made as components/runtimes/nodejs24/Dockerfile makes it, on the test bed's
           nodejs24 image (scripts/build-node-images.py) instead of node:24-alpine: that image's layers byte for
           byte, then one layer with /usr/src/app (Kyma's package.json, server.mjs, lib/ and the node_modules
           that the image's own npm installs), NODE_ENV= and npm_config_cache=/tmp/, WorkingDir /usr/src/app,
           User 1000, Cmd npm start, EXPOSE 8888 (Kyma's, though server.mjs listens on 8080);
  nodejs24-runtime-package-lock.json
           the lock file that install wrote (Kyma ships none: it records what the registry served that day);
  kyma.json
           key, commit, the file names, the image's reference and digest, the base image, the Go version.

The key hashes this script, build-node-images.py, the base image's manifest digest and the checkout's commit
(from git, --commit or KYMA_SERVERLESS_COMMIT; without one, or with local changes, a hash of the files that go into
the build): a run with nothing changed finds the folder and takes about a second.
"""

import argparse
import fcntl
import gzip
import hashlib
import importlib.util
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
NODE_IMAGES_SCRIPT = HERE / "build-node-images.py"

# build-node-images.py's layer, archive and chroot helpers, reused as they are. Imported without leaving a
# __pycache__ beside it in the checkout (it imports build-image-base.py the same way).
sys.dont_write_bytecode = True
_spec = importlib.util.spec_from_file_location("build_node_images", NODE_IMAGES_SCRIPT)
nodeimages = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(nodeimages)

EPOCH = "1970-01-01T00:00:00Z"
RUNTIME = "nodejs24"
MANAGER_PACKAGE = "./components/buildless-serverless/cmd"
RUNTIME_DIR = f"components/runtimes/{RUNTIME}"
# What tells a Kyma serverless checkout apart, and what the build reads.
REQUIRED = ["components/buildless-serverless/cmd/main.go", f"{RUNTIME_DIR}/package.json", f"{RUNTIME_DIR}/server.mjs",
            "go.mod", "go.sum"]
# Kyma's Dockerfile copies the whole folder; .dockerignore keeps out its own files, and the image needs only these.
APP_FILES = ["package.json", "server.mjs"]
APP_DIRS = ["lib"]
# As Kyma's builder stage and its final image have them.
GO_BUILD_ENV = {"CGO_ENABLED": "0", "GOFIPS140": "v1.0.0"}
MANAGER_ENV = {"GODEBUG": "fips140=off,tlsmlkem=0"}
# The Dockerfile's ENV lines: `ARG NODE_ENV` without a value makes NODE_ENV empty.
DOCKERFILE_ENV = ["NODE_ENV=", "npm_config_cache=/tmp/"]
APP = "usr/src/app"


def log(message):
    print(f"build-kyma-serverless: {message}", file=sys.stderr, flush=True)


def fail(message):
    print(f"build-kyma-serverless: {message}", file=sys.stderr, flush=True)
    sys.exit(1)


# in_root reports a failed command through the module's fail: under this script's name.
nodeimages.fail = fail
nodeimages.log = log


# ---------------------------------------------------------------------------------------------------------------
# The checkout

def check_checkout(checkout):
    if not checkout.is_dir():
        fail(f"{checkout} is not a directory; give a checkout of github.com/kyma-project/serverless")
    missing = [rel for rel in REQUIRED if not (checkout / rel).is_file()]
    if missing:
        fail(f"{checkout} is not a Kyma serverless checkout: it has no {', no '.join(missing)} "
             "(github.com/kyma-project/serverless, e.g. `git archive` of /work/.mirror/kyma-project+serverless/repo)")
    module = re.search(r"^module\s+(\S+)", (checkout / "go.mod").read_text(), re.M)
    if not module or module.group(1) != "github.com/kyma-project/serverless":
        fail(f"{checkout / 'go.mod'} is not the module github.com/kyma-project/serverless")


def git_commit(checkout):
    """(HEAD, whether files differ from it) when checkout is the top of a git work tree, else (None, False). A
    checkout unpacked inside some other repository's work tree must not take that repository's HEAD."""
    if not shutil.which("git"):
        return None, False
    top = subprocess.run(["git", "-C", str(checkout), "rev-parse", "--show-toplevel"], text=True,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    if top.returncode != 0 or Path(top.stdout.strip()).resolve() != checkout:
        return None, False
    head = subprocess.run(["git", "-C", str(checkout), "rev-parse", "HEAD"], text=True, stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL).stdout.strip()
    status = subprocess.run(["git", "-C", str(checkout), "status", "--porcelain", "--untracked-files=no"],
                            text=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout.strip()
    return head or None, bool(status)


def commit_of(checkout, given):
    """The commit: git's HEAD when the checkout is a work tree, else --commit, else KYMA_SERVERLESS_COMMIT."""
    head, dirty = git_commit(checkout)
    given = given or os.environ.get("KYMA_SERVERLESS_COMMIT") or None
    # The full id: an abbreviated one would name the same build by another key.
    if given and not re.fullmatch(r"[0-9a-fA-F]{40}", given):
        fail(f"--commit / KYMA_SERVERLESS_COMMIT `{given}` is not a full commit id (40 hex digits)")
    if head and given and head != given.lower():
        fail(f"{checkout} is at {head}, not at the commit given ({given})")
    return (head or (given.lower() if given else "unknown")), dirty


def source_digest(checkout):
    """The files a build reads, for a key without a commit: the runtime's folder, the controller's component,
    components/common (which it imports) and go.mod and go.sum (the dependencies)."""
    h = hashlib.sha256()
    files = [checkout / "go.mod", checkout / "go.sum"]
    for folder in (RUNTIME_DIR, "components/buildless-serverless", "components/common"):
        if (checkout / folder).is_dir():
            files += sorted((p for p in (checkout / folder).rglob("*") if p.is_file() and not p.is_symlink()),
                            key=lambda p: p.relative_to(checkout).as_posix())
    for path in files:
        h.update(path.relative_to(checkout).as_posix().encode() + b"\0")
        h.update(hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()


# ---------------------------------------------------------------------------------------------------------------
# The base image

def node_images():
    """build-node-images.py's images.json, read; its progress goes to this script's stderr."""
    result = subprocess.run([sys.executable, str(NODE_IMAGES_SCRIPT)], text=True, stdout=subprocess.PIPE)
    lines = result.stdout.strip().splitlines()
    for line in lines[:-1]:
        print(line, file=sys.stderr, flush=True)
    if result.returncode != 0 or not lines or not lines[-1].endswith("images.json"):
        fail(f"{NODE_IMAGES_SCRIPT.name} failed (exit {result.returncode})")
    path = Path(lines[-1])
    return path, json.loads(path.read_text())


def read_oci_archive(path):
    """(manifest digest, config, [layer blobs]) of a single-image OCI archive, the blobs as stored."""
    with tarfile.open(path) as tar:
        def read(name):
            return tar.extractfile(name).read()

        index = json.loads(read("index.json"))
        if len(index["manifests"]) != 1:
            fail(f"{path} holds {len(index['manifests'])} manifests, not one")
        digest = index["manifests"][0]["digest"]
        manifest_bytes = read(f"blobs/sha256/{digest[7:]}")
        if nodeimages.blob(manifest_bytes) != digest:
            fail(f"{path}: the manifest does not match its digest {digest}")
        manifest = json.loads(manifest_bytes)
        config = json.loads(read(f"blobs/sha256/{manifest['config']['digest'][7:]}"))
        layers = []
        for descriptor in manifest["layers"]:
            if not descriptor["mediaType"].endswith("tar+gzip"):
                fail(f"{path}: layer {descriptor['digest']} is {descriptor['mediaType']}, not a gzip tar")
            data = read(f"blobs/sha256/{descriptor['digest'][7:]}")
            if nodeimages.blob(data) != descriptor["digest"]:
                fail(f"{path}: layer {descriptor['digest']} does not match its digest")
            layers.append(data)
    return digest, config, layers


def unpack_layers(layers, root):
    """The layers applied in order into root, whiteouts included (the test bed's have none, but a base may)."""
    root.mkdir(parents=True, exist_ok=True)
    for data in layers:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
            members = []
            for member in tar.getmembers():
                name = Path(member.name)
                if name.name == ".wh..wh..opq":
                    for child in (root / name.parent).glob("*"):
                        shutil.rmtree(child) if child.is_dir() and not child.is_symlink() else child.unlink()
                elif name.name.startswith(".wh."):
                    gone = root / name.parent / name.name[4:]
                    if gone.is_dir() and not gone.is_symlink():
                        shutil.rmtree(gone)
                    elif gone.exists() or gone.is_symlink():
                        gone.unlink()
                else:
                    members.append(member)
            # Our own layers, with absolute symlinks such as /usr/lib/ssl/certs: trusted as they are.
            if hasattr(tarfile, "fully_trusted_filter"):
                tar.extractall(root, members=members, filter="fully_trusted")
            else:
                tar.extractall(root, members=members)


def env_value(env, name):
    return next((e.split("=", 1)[1] for e in env if e.startswith(name + "=")), None)


def with_env(env, additions):
    """env with each NAME=value of additions set, replacing an earlier NAME, as ENV in a Dockerfile does."""
    result = list(env)
    for entry in additions:
        name = entry.split("=", 1)[0]
        result = [e for e in result if e.split("=", 1)[0] != name] + [entry]
    return result


# ---------------------------------------------------------------------------------------------------------------
# The runtime image

def app_sources(checkout, into):
    """Kyma's runtime files as its Dockerfile copies them: package.json, server.mjs and lib/, owned by root, lib
    755 and server.mjs 644 (the chmods); the Dockerfile, Makefile, README and dotfiles are not needed to run."""
    source = checkout / RUNTIME_DIR
    into.mkdir(parents=True)
    for name in APP_FILES:
        shutil.copyfile(source / name, into / name)
        (into / name).chmod(0o644)
    for name in APP_DIRS:
        if (source / name).is_dir():
            shutil.copytree(source / name, into / name, symlinks=True)
            for path in [into / name, *(into / name).rglob("*")]:
                if not path.is_symlink():
                    path.chmod(0o755)  # chmod -R 755: lib's files are executable in Kyma's image


def host_ca_bundle():
    """The certificates this machine trusts for node: NODE_EXTRA_CA_CERTS, else the system bundle. Where a proxy
    intercepts TLS its certificate is only there, and node in the root would answer SELF_SIGNED_CERT_IN_CHAIN."""
    for candidate in (os.environ.get("NODE_EXTRA_CA_CERTS"), "/etc/ssl/certs/ca-certificates.crt"):
        if candidate and Path(candidate).is_file():
            return Path(candidate)
    return None


def npm_install(root, env, app):
    """`npm install && npm cache clean --force` in /usr/src/app with the image's own node and npm, chrooted into
    the unpacked base with the host's resolv.conf and CA certificates for the registry (neither goes into the
    layer, which holds /usr/src/app only). Returns npm's version and its output."""
    resolv = root / "etc/resolv.conf"
    had_resolv = resolv.exists() or resolv.is_symlink()
    if not had_resolv and Path("/etc/resolv.conf").exists():
        shutil.copyfile("/etc/resolv.conf", resolv)
    install_env = with_env(env, DOCKERFILE_ENV + [
        "HOME=/tmp", "npm_config_cache=/tmp/npm-cache", "npm_config_update_notifier=false",
        "npm_config_fund=false"])
    ca = host_ca_bundle()
    if ca:
        shutil.copyfile(ca, root / "tmp/host-ca-certificates.crt")
        install_env.append("NODE_EXTRA_CA_CERTS=/tmp/host-ca-certificates.crt")
    target = root / APP
    shutil.copytree(app, target, symlinks=True, dirs_exist_ok=True)
    try:
        npm = nodeimages.in_root(root, install_env, "npm", "--version")
        output = nodeimages.in_root(root, install_env, "sh", "-c",
                                    f"cd /{APP} && npm install && npm cache clean --force")
    finally:
        if not had_resolv:
            resolv.unlink(missing_ok=True)
    shutil.rmtree(app)
    shutil.copytree(target, app, symlinks=True)
    return npm, output


def check_image(layers, env, tmp):
    """The final image unpacked: Kyma's files are in /usr/src/app and its lib/ modules load with every package
    they require (which includes express' and OpenTelemetry's dependencies that only arrive transitively)."""
    root = tmp / "check"
    unpack_layers(layers, root)
    for rel in ("server.mjs", "lib/helper.js", "package.json", "package-lock.json"):
        if not (root / APP / rel).is_file():
            fail(f"the runtime image has no /{APP}/{rel}")
    script = ("const p={paths:['/usr/src/app']};"
              "for (const m of ['express','body-parser','morgan','axios','cloudevents']) require.resolve(m,p);"
              "for (const f of ['helper','ce','tracer','metrics']) require('/usr/src/app/lib/'+f+'.js');"
              "console.log(require('/usr/src/app/node_modules/express/package.json').version)")
    express = nodeimages.in_root(root, env + ["HOME=/tmp"], "node", "-e", script)
    shutil.rmtree(root)
    return express.splitlines()[-1]


def build_runtime(checkout, base_archive, base_reference, key, commit, out, tmp):
    digest, base_config, base_layers = read_oci_archive(base_archive)
    env = base_config["config"].get("Env", [])
    node_version = env_value(env, "NODE_VERSION")
    if not node_version:
        fail(f"{base_archive} has no NODE_VERSION in its Env")

    app = tmp / "app"
    app_sources(checkout, app)
    root = tmp / "root"
    log(f"unpacking {base_reference} ({len(base_layers)} layers)")
    unpack_layers(base_layers, root)
    log(f"npm install of {RUNTIME_DIR}/package.json with the image's node {node_version}")
    npm, output = npm_install(root, env, app)
    for line in output.splitlines():
        log(f"  npm: {line}")
    shutil.rmtree(root)
    lock = app / "package-lock.json"
    if not lock.is_file():
        fail("npm install wrote no package-lock.json")
    shutil.copyfile(lock, out / f"{RUNTIME}-runtime-package-lock.json")
    packages = sum(1 for path in json.loads(lock.read_text())["packages"] if path)

    staging = tmp / "layer"
    (staging / APP).parent.mkdir(parents=True)
    shutil.move(str(app), staging / APP)
    diff_id, app_layer = nodeimages.layer(staging, {})

    config = json.loads(json.dumps(base_config))
    config["created"] = EPOCH
    settings = config["config"]
    settings["Env"] = with_env(env, DOCKERFILE_ENV)
    settings["WorkingDir"] = f"/{APP}"
    settings["User"] = "1000"
    settings["Cmd"] = ["npm", "start"]
    settings.pop("Entrypoint", None)
    settings["ExposedPorts"] = {"8888/tcp": {}}
    settings.setdefault("Labels", {})["io.gitfn.image.kyma"] = (
        f"github.com/kyma-project/serverless {commit} {RUNTIME_DIR}, on {base_reference}")
    config["rootfs"]["diff_ids"] = config["rootfs"]["diff_ids"] + [diff_id]
    config["history"] = config.get("history", []) + [
        {"created": EPOCH, "created_by": f"scripts/build-kyma-serverless.py: /{APP} from {RUNTIME_DIR} "
         f"(package.json, server.mjs, lib/) and `npm install` (npm {npm}, {packages} packages)"},
        {"created": EPOCH, "empty_layer": True, "created_by": "scripts/build-kyma-serverless.py: "
         "ENV NODE_ENV= npm_config_cache=/tmp/, WORKDIR /usr/src/app, USER 1000, CMD npm start, EXPOSE 8888"},
    ]
    layers = base_layers + [app_layer]
    express = check_image(layers, settings["Env"], tmp)
    reference = f"kyma-runtimes/function-runtime-{RUNTIME}:{node_version}-{key}"
    archive = out / f"function-runtime-{RUNTIME}.tar"
    manifest_digest = nodeimages.oci_archive(archive, reference, config, layers)
    size = archive.stat().st_size
    log(f"{archive.name}: {size / (1024 * 1024):.1f} MiB ({len(app_layer) / (1024 * 1024):.1f} MiB app layer, "
        f"{packages} npm packages, express {express}), {reference}")
    return {"archive": archive.name, "reference": reference, "manifestDigest": manifest_digest, "sizeBytes": size,
            "node": node_version, "npm": npm, "npmInstalledBy": "the base image's npm, chrooted",
            "packageLock": f"{RUNTIME}-runtime-package-lock.json", "base": {"reference": base_reference,
                                                                           "manifestDigest": digest}}


# ---------------------------------------------------------------------------------------------------------------
# The controller

def go_command():
    go = shutil.which("go") or ("/usr/local/go/bin/go" if Path("/usr/local/go/bin/go").is_file() else None)
    if not go:
        fail("go is missing (neither on PATH nor /usr/local/go/bin/go); the controller is built with it")
    return go


def build_manager(go, checkout, out):
    """go build of the controller into out/manager. Go reports the toolchain it builds with from inside the
    module: go.mod may make it switch to a newer one."""
    env = {**os.environ, **GO_BUILD_ENV, "PATH": f"{Path(go).parent}:{os.environ.get('PATH', '')}"}
    version = subprocess.run([go, "env", "GOVERSION"], cwd=checkout, env=env, text=True, stdout=subprocess.PIPE,
                             check=True).stdout.strip()
    log(f"go build {MANAGER_PACKAGE} ({version}, {' '.join(f'{k}={v}' for k, v in GO_BUILD_ENV.items())})")
    started = time.monotonic()
    result = subprocess.run([go, "build", "-trimpath", "-o", str(out / "manager"), MANAGER_PACKAGE], cwd=checkout,
                            env=env, stdout=sys.stderr)
    if result.returncode != 0:
        fail(f"go build {MANAGER_PACKAGE} failed in {checkout} (exit {result.returncode}); its dependencies come "
             "from the Go module proxy (GOPROXY) or ~/go/pkg/mod")
    log(f"manager: {(out / 'manager').stat().st_size / (1024 * 1024):.1f} MiB in "
        f"{time.monotonic() - started:.0f} s")
    return version


# ---------------------------------------------------------------------------------------------------------------

def main():
    started = time.monotonic()
    # Stopped by a test's timeout or ^C: unwind, so that the temporary root (hundreds of MiB) goes away.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkout", help="a checkout of github.com/kyma-project/serverless")
    parser.add_argument("--commit", help="its commit, when it is not a git work tree (else KYMA_SERVERLESS_COMMIT)")
    args = parser.parse_args()
    checkout = Path(args.checkout).resolve()
    check_checkout(checkout)
    commit, dirty = commit_of(checkout, args.commit)
    go = go_command()

    images_json, node_manifest = node_images()
    base_image = node_manifest["images"][RUNTIME]
    inputs = hashlib.sha256()
    for part in (Path(__file__).read_bytes(), NODE_IMAGES_SCRIPT.read_bytes(), base_image["manifestDigest"].encode(),
                 commit.encode(), (source_digest(checkout) if commit == "unknown" or dirty else "").encode()):
        inputs.update(hashlib.sha256(part).digest())
    key = inputs.hexdigest()[:12]

    root = Path(os.environ.get("GITFN_TESTENV_DIR") or Path.home() / ".cache/gitfn-testenv")
    root.mkdir(parents=True, exist_ok=True)
    out = root / f"kyma-serverless-{key}"
    with open(root / "kyma-serverless.lock", "w") as lock:
        # One build at a time per cache: checkouts building at once share it.
        fcntl.flock(lock, fcntl.LOCK_EX)
        if cached(out, key):
            log(f"cached: {out}")
        else:
            build(checkout, commit, dirty, key, go, images_json.parent / base_image["archive"],
                  base_image["reference"], root, out)
            log(f"built in {time.monotonic() - started:.0f} s")
    print(out / "kyma.json", flush=True)


def cached(out, key):
    manifest = out / "kyma.json"
    if not manifest.is_file():
        return False
    data = json.loads(manifest.read_text())
    files = [data.get("manager", "")] + [image.get("archive", "") for image in data.get("images", {}).values()]
    return data.get("key") == key and all(name and (out / name).is_file() for name in files)


def build(checkout, commit, dirty, key, go, base_archive, base_reference, root, out):
    log(f"building {out} from {checkout} (commit {commit}{', with local changes' if dirty else ''})")
    shutil.rmtree(out, ignore_errors=True)
    for stale in root.glob("kyma-serverless-*.partial"):
        shutil.rmtree(stale)  # left by an interrupted build; the lock says no build is running now
    partial = out.with_name(out.name + ".partial")
    partial.mkdir(parents=True)
    go_version = build_manager(go, checkout, partial)
    with tempfile.TemporaryDirectory(prefix="gitfn-kyma-serverless-") as tmp:
        runtime = build_runtime(checkout, base_archive, base_reference, key, commit, partial, Path(tmp))
    manifest = {
        "key": key,
        "commit": commit,
        "localChanges": dirty,
        "source": "github.com/kyma-project/serverless",
        "manager": "manager",
        "managerPackage": MANAGER_PACKAGE,
        "managerEnv": MANAGER_ENV,
        "go": {"version": go_version, "env": GO_BUILD_ENV},
        "nodeBase": {"reference": base_reference, "manifestDigest": runtime["base"]["manifestDigest"]},
        "images": {RUNTIME: runtime},
    }
    (partial / "kyma.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    partial.rename(out)


if __name__ == "__main__":
    main()
