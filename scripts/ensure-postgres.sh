#!/usr/bin/env bash
# Makes sure a PostgreSQL server answers on 127.0.0.1:$CI_PG_PORT for the tests (Debian 12; as root
# or with sudo): installs the server when missing, starts the Debian cluster or a private one, trusts
# local TCP logins as postgres, and checks the pg_trgm extension. `make test` runs it first.
#
# Overrides, mainly for testing this script:
#   CI_PG_PORT=5432   port to check / start PostgreSQL on
#   CI_PG_DIR=...     data directory of the private cluster (default /var/tmp/catalogd-ci-pg-$CI_PG_PORT)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

PG_PORT="${CI_PG_PORT:-5432}"
PG_DIR="${CI_PG_DIR:-/var/tmp/catalogd-ci-pg-$PG_PORT}"
export DEBIAN_FRONTEND=noninteractive
export HOME="${HOME:-$(getent passwd "$(id -u)" | cut -d: -f6)}"
export PATH="$PATH:/usr/local/go/bin"

SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"

log() { echo "ci/run: $*" >&2; }

apt_updated=""
apt_install() {
	[ -n "$apt_updated" ] || { $SUDO apt-get update -q; apt_updated=1; }
	$SUDO apt-get install -y -q "$@"
}

# Run a command as the postgres user (initdb and postgres refuse to run as root).
as_postgres() {
	if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

pg_up() { pg_isready -q -h 127.0.0.1 -p "$PG_PORT" -U postgres -t 2; }
psql_postgres() { psql -w -X -Atq -h 127.0.0.1 -p "$PG_PORT" -U postgres -d postgres "$@" 2>/dev/null; }
can_login() { psql_postgres -c "SELECT 1" >/dev/null; }

# Highest installed server version's bin dir (Debian layout), or "".
pg_bindir() {
	local d best=""
	for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V); do
		[ -x "$d/initdb" ] && best="$d"
	done
	echo "$best"
}

# --- 1. PostgreSQL ---------------------------------------------------------
command -v pg_isready >/dev/null || apt_install postgresql-client

if pg_up && can_login; then
	log "PostgreSQL already answers on 127.0.0.1:$PG_PORT"
else
	if ! pg_up && [ -z "$(pg_bindir)" ]; then
		log "installing PostgreSQL"
		apt_install postgresql postgresql-contrib postgresql-client
	fi

	# A Debian cluster (pg_createcluster; installing the package makes 15/main) on our port?
	ver="" name=""
	read -r ver name < <(pg_lsclusters -h 2>/dev/null | awk -v p="$PG_PORT" '$3 == p { print $1, $2; exit }') || true
	if [ -n "$ver" ]; then
		# Debian defaults to password (scram) auth over TCP; tests connect as
		# postgres without a password, so trust local TCP connections.
		log "Debian cluster $ver/$name on port $PG_PORT: trusting localhost TCP connections, starting or reloading it"
		hba="/etc/postgresql/$ver/$name/pg_hba.conf"
		if ! grep -Eq '^host\s+all\s+all\s+127\.0\.0\.1/32\s+trust' "$hba"; then
			$SUDO sed -i '1i host all all 127.0.0.1/32 trust\nhost all all ::1/128 trust' "$hba"
		fi
		# The package's postinst may have started it already: then reload pg_hba.conf.
		if pg_ctlcluster "$ver" "$name" status >/dev/null 2>&1; then
			$SUDO pg_ctlcluster --skip-systemctl-redirect "$ver" "$name" reload
		else
			$SUDO pg_ctlcluster --skip-systemctl-redirect "$ver" "$name" start
		fi
	elif pg_up; then
		log "warning: a server answers on 127.0.0.1:$PG_PORT but user postgres cannot log in without a password"
	else
		BINDIR="$(pg_bindir)"
		log "starting a private cluster in $PG_DIR on 127.0.0.1:$PG_PORT ($BINDIR)"
		if [ "$(id -u)" = 0 ]; then
			install -d -o postgres -g postgres -m 700 "$PG_DIR"
		else
			install -d -m 700 "$PG_DIR"
		fi
		if [ ! -f "$PG_DIR/PG_VERSION" ]; then
			as_postgres "$BINDIR/initdb" -D "$PG_DIR" -A trust -U postgres -E UTF8 --locale=C.UTF-8 >/dev/null
		fi
		# Retried: processes of a killed server may take a moment to exit.
		for try in 1 2 3; do
			as_postgres "$BINDIR/pg_ctl" start -D "$PG_DIR" -l "$PG_DIR/postgres.log" -w -t 60 \
				-o "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $PG_DIR" && break
			[ "$try" = 3 ] && { tail -n 20 "$PG_DIR/postgres.log"; exit 1; }
			sleep 3
		done
	fi

	for _ in $(seq 60); do pg_up && break; sleep 1; done
	pg_up || { log "PostgreSQL does not answer on 127.0.0.1:$PG_PORT"; exit 1; }
	log "PostgreSQL is up on 127.0.0.1:$PG_PORT"
fi

# pg_trgm: on Debian 12 it ships with the server package (postgresql-contrib
# only depends on it). Check the server itself when we can log in.
trgm_available() {
	psql_postgres -c "SELECT count(*) FROM pg_available_extensions WHERE name = 'pg_trgm'"
}
case "$(trgm_available || echo unknown)" in
1) log "pg_trgm is available" ;;
0)
	log "pg_trgm is missing: installing postgresql-contrib"
	apt_install postgresql-contrib
	[ "$(trgm_available)" = 1 ] || { log "pg_trgm is still not available"; exit 1; }
	;;
*) log "warning: cannot log in as postgres without a password to check pg_trgm" ;;
esac

log "PostgreSQL ready for the tests"
