#!/usr/bin/env bash
# Installs PostgreSQL's server binaries (initdb, pg_ctl, postgres) for the tests' private clusters.
# `go run ./cmd/testpg -install` (so `make test`) runs it only when it finds none; it does not check
# again itself. Debian/Ubuntu only: `apt-get update` (skipped when APT_UPDATED=1 says a caller
# such as .ci/run just did it) and `apt-get install -y postgresql`.
#
# The package's own scripts create and start a "main" cluster on port 5432. The tests never use it
# (they run on private clusters), and a server nobody asked for should not be left running: every
# cluster that appeared with this installation and is running is stopped again. Clusters that
# existed before are not touched, and no configuration of any cluster is changed.
set -euo pipefail

log() { echo "install-postgres: $*" >&2; }

SUDO=()
if [ "$(id -u)" != 0 ]; then
	command -v sudo >/dev/null || { log "not root and no sudo: install PostgreSQL's server package yourself"; exit 1; }
	SUDO=(sudo)
fi
command -v apt-get >/dev/null || {
	log "no apt-get here: install PostgreSQL's server (initdb, pg_ctl, postgres) with the system's package manager"
	exit 1
}

# "version/name" of every cluster pg_lsclusters knows (none before postgresql-common is installed).
clusters() { pg_lsclusters -h 2>/dev/null | awk '{ print $1 "/" $2 }' || :; }
before=" $(clusters | tr '\n' ' ') "

if [ "${APT_UPDATED:-}" != 1 ]; then
	log "apt-get update"
	"${SUDO[@]}" apt-get update -q
fi
log "apt-get install postgresql"
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql

pg_lsclusters -h 2>/dev/null | while read -r ver name port status _; do
	case "$before" in *" $ver/$name "*) continue ;; esac
	case "$status" in online*) ;; *) continue ;; esac
	log "stopping cluster $ver/$name (port $port), which the installation started: the tests do not use it"
	if [ -d /run/systemd/system ]; then
		"${SUDO[@]}" systemctl stop "postgresql@$ver-$name"
	else
		"${SUDO[@]}" pg_ctlcluster --skip-systemctl-redirect "$ver" "$name" stop
	fi
done
log "done"
