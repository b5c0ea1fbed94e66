#!/usr/bin/env bash
# Builds the S3-compatible store of compose.yaml, catalogd-versitygw:latest, with podman (installed
# when missing): versitygw at the version tools/versitygw/go.mod pins (the S3 tests' server), built
# statically, from deploy/compose/versitygw.Containerfile. Prints the image's name on its last line.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-podman.sh
IMAGE=${IMAGE:-catalogd-versitygw:latest}
ctx=$(mktemp -d)
trap 'rm -rf "$ctx"' EXIT
mkdir -p "$ctx/data"
GOWORK=off GOFLAGS=-buildvcs=false CGO_ENABLED=0 go build -modfile=tools/versitygw/go.mod -trimpath -ldflags "-s -w" \
	-o "$ctx/versitygw" github.com/versity/versitygw/cmd/versitygw
cp deploy/compose/versitygw.Containerfile "$ctx/Containerfile"
podman build --quiet -f "$ctx/Containerfile" -t "$IMAGE" "$ctx" >&2
echo "$IMAGE"
