#!/usr/bin/env bash
# Builds catalogd's container image with podman from the Containerfile (`make image`):
#   IMAGE=catalogd:dev   the image's name (default catalogd:<version>, also tagged catalogd:latest)
#   COMMIT, VERSION      its labels (default: HEAD, with -modified when tracked files differ; the
#                        closest tag, else "dev")
# Installs podman (Debian's package, scripts/install-podman.sh) and the CA certificates when they are
# missing. Prints the image's name on its last line.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-podman.sh
if [ ! -f /etc/ssl/certs/ca-certificates.crt ]; then
	SUDO=(); [ "$(id -u)" = 0 ] || SUDO=(sudo)
	[ "${APT_UPDATED:-}" = 1 ] || "${SUDO[@]}" apt-get update -q
	"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q ca-certificates
fi

if [ -z "${COMMIT:-}" ]; then
	COMMIT=$(git rev-parse HEAD 2>/dev/null || echo unknown)
	if [ "$COMMIT" != unknown ] && ! git diff --quiet HEAD -- 2>/dev/null; then COMMIT=$COMMIT-modified; fi
fi
VERSION=${VERSION:-$(git describe --tags --abbrev=0 2>/dev/null || echo dev)}
IMAGE=${IMAGE:-catalogd:$VERSION}

ctx=$(mktemp -d)
trap 'rm -rf "$ctx"' EXIT
mkdir -p "$ctx/data" "$ctx/tmp"
CGO_ENABLED=0 GOFLAGS=-buildvcs=false go build -trimpath -ldflags "-s -w -X main.commit=$COMMIT" -o "$ctx/catalogd" ./cmd/catalogd
cp /etc/ssl/certs/ca-certificates.crt "$ctx/"
# A name for the image's user, so that tools that look the uid up find it (nothing in catalogd does).
printf 'root:x:0:0:root:/:/nonexistent\ncatalogd:x:65532:65532:catalogd:/data:/nonexistent\n' >"$ctx/passwd"
printf 'root:x:0:\ncatalogd:x:65532:\n' >"$ctx/group"
cp Containerfile "$ctx/"
podman build --quiet -f "$ctx/Containerfile" --build-arg "VERSION=$VERSION" --build-arg "COMMIT=$COMMIT" -t "$IMAGE" "$ctx" >&2
case "$IMAGE" in catalogd:*) [ "$IMAGE" = catalogd:latest ] || podman tag "$IMAGE" catalogd:latest ;; esac
echo "$IMAGE"
