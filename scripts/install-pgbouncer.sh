#!/usr/bin/env bash
# Installs PgBouncer (Debian's pgbouncer package) for the tests that put a connection pooler in
# front of their private cluster (server/pgembed/bouncer.go). `go run ./cmd/testpg -install` (so
# `make test`) runs it only when no pgbouncer binary is found. Debian/Ubuntu only: `apt-get update`
# (skipped when APT_UPDATED=1 says a caller such as .ci/run just did it) and
# `apt-get install -y pgbouncer`.
#
# The package may start a PgBouncer service of its own (port 6432). The tests never use it (they
# start private ones), and a server nobody asked for should not be left running: when no pgbouncer
# ran before the installation and the package's service runs after it, that service is stopped
# again. A PgBouncer that ran before is not touched, and no configuration is changed.
set -euo pipefail

log() { echo "install-pgbouncer: $*" >&2; }

SUDO=()
if [ "$(id -u)" != 0 ]; then
	command -v sudo >/dev/null || { log "not root and no sudo: install PgBouncer yourself"; exit 1; }
	SUDO=(sudo)
fi
command -v apt-get >/dev/null || {
	log "no apt-get here: install PgBouncer with the system's package manager"
	exit 1
}

running() { pgrep -x pgbouncer >/dev/null 2>&1; }
was_running=false
if running; then was_running=true; fi

if [ "${APT_UPDATED:-}" != 1 ]; then
	log "apt-get update"
	"${SUDO[@]}" apt-get update -q -o DPkg::Lock::Timeout=300
fi
log "apt-get install pgbouncer"
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q -o DPkg::Lock::Timeout=300 pgbouncer

if ! $was_running && running; then
	log "stopping the pgbouncer service, which the installation started: the tests do not use it"
	if [ -d /run/systemd/system ]; then
		"${SUDO[@]}" systemctl stop pgbouncer
	else
		"${SUDO[@]}" /etc/init.d/pgbouncer stop || :
	fi
fi
log "done"
