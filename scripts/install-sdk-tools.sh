#!/usr/bin/env bash
# Installs, from Debian's packages, what the Python SDK needs to be generated and tested: protoc and
# its gRPC Python plugin (`make generate`, buf.gen.sdk.yaml), the gRPC and protobuf runtimes of
# Debian's python3, venv and wheel (the SDK's tests install it into a venv, sdk/python/README.md). Runs apt-get only for what is missing;
# `make generate` and the SDK tests call it. Debian/Ubuntu only; APT_UPDATED=1 skips apt-get update.
#
# The generated Python code depends on protoc's version: the committed sdk/python was made by
# protoc 3.21.12 (Debian 12), and `make check-generated` compares against it.
set -euo pipefail

log() { echo "install-sdk-tools: $*" >&2; }

need=()
[ -x /usr/bin/protoc ] || need+=(protobuf-compiler)
[ -x /usr/bin/grpc_python_plugin ] || need+=(protobuf-compiler-grpc)
/usr/bin/python3 -c 'import grpc' 2>/dev/null || need+=(python3-grpcio)
/usr/bin/python3 -c 'import google.protobuf' 2>/dev/null || need+=(python3-protobuf)
# The SDK's tests install it as a user would: into a venv (ensurepip) with setuptools' wheel build.
/usr/bin/python3 -c 'import ensurepip' 2>/dev/null || need+=(python3-venv)
/usr/bin/python3 -c 'import wheel' 2>/dev/null || need+=(python3-wheel)
[ ${#need[@]} -eq 0 ] && exit 0

SUDO=()
if [ "$(id -u)" != 0 ]; then
	command -v sudo >/dev/null || { log "not root and no sudo: install ${need[*]} yourself"; exit 1; }
	SUDO=(sudo)
fi
command -v apt-get >/dev/null || { log "no apt-get here: install protoc 3.21, its grpc python plugin, and python3's grpcio and protobuf"; exit 1; }
# One installer at a time (concurrent test packages may call this at once).
exec 9>"${TMPDIR:-/tmp}/catalogd-sdk-tools.lock"
flock 9
if [ "${APT_UPDATED:-}" != 1 ]; then
	log "apt-get update"
	"${SUDO[@]}" apt-get -o DPkg::Lock::Timeout=300 update -q >&2
fi
log "apt-get install ${need[*]}"
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -q "${need[@]}" >&2
