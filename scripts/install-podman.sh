#!/usr/bin/env bash
# Installs podman (Debian's package) for `make image` and the image test, when it is missing.
# Debian/Ubuntu only: `apt-get update` (skipped when APT_UPDATED=1 says a caller such as .ci/run just
# did it) and `apt-get install -y podman`. Nothing else on the machine is changed.
set -euo pipefail

log() { echo "install-podman: $*" >&2; }

command -v podman >/dev/null && exit 0
SUDO=()
if [ "$(id -u)" != 0 ]; then
	command -v sudo >/dev/null || { log "not root and no sudo: install podman yourself"; exit 1; }
	SUDO=(sudo)
fi
command -v apt-get >/dev/null || { log "no apt-get here: install podman with the system's package manager"; exit 1; }
if [ "${APT_UPDATED:-}" != 1 ]; then
	log "apt-get update"
	"${SUDO[@]}" apt-get update -q
fi
log "apt-get install podman"
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends podman
