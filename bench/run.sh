#!/usr/bin/env bash
# `make bench`: catalogd under load against pgbench on the same PostgreSQL (see bench/README.md).
#
#  1. A private PostgreSQL cluster (cmd/testpg -durable: PostgreSQL's own durability settings and
#     shared_buffers, in a temporary directory, removed afterwards) unless TEST_DATABASE_URL names a
#     server to use; catalogd built, a fresh database, `catalogd serve` on free ports, /readyz.
#  2. bench/load: seed through REST, bulk create vs COPY, GET by uuid and two list pages under load
#     (REST and gRPC); writes the list SQL the service runs as pgbench scripts.
#  3. pgbench with the same clients and duration: -S on a `pgbench -i` database, the attributes
#     primary-key SELECT, and the list scripts.
#  4. The summary table (bench/results/latest.txt).
#  5. The Go micro-benchmarks of server/auth, server/jsonpb and server/store.
#  6. Webhooks: deliveries per second and commit-to-receipt latency (bench/webhooks).
#  7. Products: the hydrated product GET (20 attributes, 10 assets, 5 categories, 30 input values,
#     every association expanded) and the bulk publication lifecycle of 100 (bench/products).
#  8. The front door: an anonymous 1 MiB body against an empty one, and one tenant flooding while
#     another makes steady GETs (bench/hardening, against `catalogd serve` with its default rate
#     limit; steps 2-3 run with CATALOG_RATE_LIMIT_RPS=0: they measure one tenant's throughput).
#     Then the hostile input of the hardening issue replayed against it (bench/attack): 5xx counted.
#  9. Retention: the size of events, deliveries and attempts under a steady write load for several
#     retention windows (bench/retention, CATALOG_RETENTION=30s, about 4 minutes).
# 10. Asset files: a BENCH_FILE_MB file uploaded and downloaded through the signed URLs of the local
#     store next to a plain copy on the same disk, the renditions of 12-megapixel photos (time per
#     megapixel, the server's peak memory), and the Go benchmarks of server/blobstore (both backends),
#     server/assetfiles and server/renditions.
# The databases are dropped and the server stopped on exit, also on failure.
#
# Settings: BENCH_CLIENTS (4), BENCH_DURATION seconds per timed run (10), BENCH_ITEMS (100000),
# BENCH_BULK_N batches per method in bulk vs COPY (200), BENCH_RETENTION_WINDOW (30s) and
# BENCH_RETENTION_WINDOWS (8) of step 9, BENCH_FILE_MB (256) of step 10,
# TEST_DATABASE_URL (a private cluster when unset; else the "postgres" database of a server to use).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="$PATH:/usr/local/go/bin"
export GOFLAGS="${GOFLAGS:--buildvcs=false}" GOTOOLCHAIN="${GOTOOLCHAIN:-local}"

# Without TEST_DATABASE_URL: run this script again under testpg, which sets it to a private cluster.
if [ -z "${TEST_DATABASE_URL:-}" ]; then
	exec go run ./cmd/testpg -install -durable -- bash "$0" "$@"
fi
# psql and pgbench connect with the PG* variables: taken from TEST_DATABASE_URL.
re='^postgres(ql)?://(([^:@/]*)(:([^@/]*))?@)?([^:/?]+)(:([0-9]+))?(/|$)'
[[ $TEST_DATABASE_URL =~ $re ]] || { echo "bench: TEST_DATABASE_URL is not a postgres://user@host:port/db URL" >&2; exit 1; }
export PGUSER="${BASH_REMATCH[3]:-postgres}" PGHOST="${BASH_REMATCH[6]}" PGPORT="${BASH_REMATCH[8]:-5432}"
[ -z "${BASH_REMATCH[5]}" ] || export PGPASSWORD="${BASH_REMATCH[5]}"

CLIENTS="${BENCH_CLIENTS:-4}"
DURATION="${BENCH_DURATION:-10}"
ITEMS="${BENCH_ITEMS:-100000}"
BULK_N="${BENCH_BULK_N:-200}"
RETENTION_WINDOW="${BENCH_RETENTION_WINDOW:-30s}"
RETENTION_WINDOWS="${BENCH_RETENTION_WINDOWS:-8}"
FILE_MB="${BENCH_FILE_MB:-256}"
CORES="$(nproc)"
THREADS=$((CLIENTS < CORES ? CLIENTS : CORES))
OUT=bench/results
ISSUER=catalogd-bench AUDIENCE=catalog TENANT=bench

log() { echo "bench: $*" >&2; }
psql_admin() { PGOPTIONS="-c client_min_messages=warning" psql -w -X -q -v ON_ERROR_STOP=1 -d postgres "$@"; }
free_port() { # a port nothing listens on, other than $1
	local p
	while :; do
		p=$((20000 + RANDOM % 40000))
		[ "$p" != "${1:-}" ] && ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null && { echo "$p"; return; }
	done
}

START=$SECONDS
log "PostgreSQL: $PGUSER@$PGHOST:$PGPORT"

suffix="$(date +%s)_$$"
DB="catalogd_bench_$suffix"
PGB_DB="catalogd_pgbench_$suffix"
TMP="$(mktemp -d)"
SERVER_PID=""

stop_server() {
	if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
		kill -TERM "$SERVER_PID" 2>/dev/null || true
		for _ in $(seq 100); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.2; done
		kill -KILL "$SERVER_PID" 2>/dev/null || true
		wait "$SERVER_PID" 2>/dev/null || true
	fi
	SERVER_PID=""
}
cleanup() {
	local rc=$?
	stop_server
	psql_admin -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "DROP DATABASE IF EXISTS $PGB_DB WITH (FORCE)" || true
	rm -rf "$TMP"
	[ "$rc" = 0 ] || log "failed (exit $rc); databases dropped"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

rm -rf "$OUT"
mkdir -p "$OUT"

# --- 1. the service on a fresh database --------------------------------------------------------
log "building catalogd"
go build -o "$TMP/catalogd" ./cmd/catalogd
psql_admin -c "CREATE DATABASE $DB" -c "CREATE DATABASE $PGB_DB"
DB_URL="postgres://$PGUSER${PGPASSWORD:+:$PGPASSWORD}@$PGHOST:$PGPORT/$DB?sslmode=disable"
SECRET="bench-$(od -An -N24 -tx1 /dev/urandom | tr -d ' \n')"
HTTP_PORT="$(free_port)"
GRPC_PORT="$(free_port "$HTTP_PORT")"
# start_server [VAR=value ...]: `catalogd serve` on $DB and the ports above, with the extra settings
# given, in the background (SERVER_PID); returns when /readyz answers.
start_server() {
	env DATABASE_URL="$DB_URL" CATALOG_DATA_DIR="$TMP/data" CATALOG_JWT_HS256_SECRET="$SECRET" \
		CATALOG_JWT_ISSUER="$ISSUER" CATALOG_JWT_AUDIENCE="$AUDIENCE" \
		CATALOG_HTTP_ADDR="127.0.0.1:$HTTP_PORT" CATALOG_GRPC_ADDR="127.0.0.1:$GRPC_PORT" \
		"$@" "$TMP/catalogd" serve >"$TMP/server.log" 2>&1 &
	SERVER_PID=$!
	for i in $(seq 300); do
		curl -fsS -o /dev/null "http://127.0.0.1:$HTTP_PORT/readyz" 2>/dev/null && return 0
		if ! kill -0 "$SERVER_PID" 2>/dev/null || [ "$i" = 300 ]; then
			log "catalogd did not get ready"; tail -n 30 "$TMP/server.log" >&2; exit 1
		fi
		sleep 0.2
	done
}
start_server CATALOG_RATE_LIMIT_RPS=0
log "catalogd ready: http 127.0.0.1:$HTTP_PORT, grpc 127.0.0.1:$GRPC_PORT, database $DB"

# --- 2. load through the API ---------------------------------------------------------------------
go run ./bench/load -base "http://127.0.0.1:$HTTP_PORT" -grpc "127.0.0.1:$GRPC_PORT" -db "$DB_URL" \
	-secret "$SECRET" -issuer "$ISSUER" -audience "$AUDIENCE" -tenant "$TENANT" -items "$ITEMS" -bulk-n "$BULK_N" \
	-clients "$CLIENTS" -duration "${DURATION}s" -server-pid "$SERVER_PID" -out "$OUT" ||
	{ log "load failed; server log:"; tail -n 30 "$TMP/server.log" >&2; exit 1; }
stop_server # pgbench gets the machine to itself

# --- 3. pgbench: the same clients, duration and SQL -------------------------------------------------
# pgb NAME DB ARGS...: one run; output in $OUT/NAME.txt, per-transaction latencies in $OUT/NAME.log.*
pgb() {
	local name=$1 db=$2
	shift 2
	if ! pgbench -c "$CLIENTS" -j "$THREADS" -T "$DURATION" -l --log-prefix="$OUT/$name.log" "$@" "$db" >"$OUT/$name.txt" 2>&1; then
		cat "$OUT/$name.txt" >&2; exit 1
	fi
	printf '%-26s %s\n' "$name" "$(grep -E '^tps' "$OUT/$name.txt")"
}
echo
echo "== pgbench, $CLIENTS clients, $THREADS threads, ${DURATION} s each"
log "pgbench -i -s 10 $PGB_DB"
pgbench -i -s 10 -q "$PGB_DB" >"$OUT/pgbench_init.txt" 2>&1 || { cat "$OUT/pgbench_init.txt" >&2; exit 1; }
pgb pgbench_select "$PGB_DB" -S
pgb pgbench_select_prepared "$PGB_DB" -S -M prepared
pgb pgbench_get_pk "$DB" -n -M prepared -f "$OUT/get_pk.sql"
for shape in list_a list_b; do
	pgb "pgbench_$shape" "$DB" -n -M prepared -f "$OUT/$shape.sql"
	mapfile -t vars <"$OUT/${shape}_param.vars"
	pgb "pgbench_${shape}_param" "$DB" -n -M prepared "${vars[@]}" -f "$OUT/${shape}_param.sql"
	# The same with PostgreSQL held to the generic plan (no re-planning per execution).
	PGOPTIONS="-c plan_cache_mode=force_generic_plan" \
		pgb "pgbench_${shape}_generic" "$DB" -n -M prepared "${vars[@]}" -f "$OUT/${shape}_param.sql"
done

# --- 4. summary ------------------------------------------------------------------------------------
echo
go run ./bench/load -summary -out "$OUT"
stop_server
psql_admin -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "DROP DATABASE IF EXISTS $PGB_DB WITH (FORCE)"

# --- 5. Go micro-benchmarks --------------------------------------------------------------------------
pkgs=(./server/auth ./server/jsonpb ./server/store)
echo
echo "== Go micro-benchmarks: ${pkgs[*]}"
go test -run '^$' -bench . -benchtime=2s -benchmem "${pkgs[@]}" 2>&1 | tee "$OUT/micro.txt"
{ echo; echo "Go micro-benchmarks (go test -run '^\$' -bench . -benchtime=2s -benchmem ${pkgs[*]}):"; grep -E '^(Benchmark|ok|FAIL|---)' "$OUT/micro.txt" || true; } >>"$OUT/latest.txt"

# --- 6. webhooks: deliveries per second and commit-to-receipt latency ----------------------------------
echo
echo "== webhooks (bench/webhooks: in-process catalogd, local receiver)"
go run ./bench/webhooks 2>/dev/null | tee "$OUT/webhooks.txt"
{ echo; cat "$OUT/webhooks.txt"; } >>"$OUT/latest.txt"

# --- 7. products: hydrated GET and bulk publication lifecycle -----------------------------------------
echo
echo "== products (bench/products: in-process catalogd, $CLIENTS clients, ${DURATION} s per timed run)"
go run ./bench/products -clients "$CLIENTS" -duration "${DURATION}s" 2>/dev/null | tee "$OUT/products.txt"
{ echo; echo "Products (go run ./bench/products):"; cat "$OUT/products.txt"; } >>"$OUT/latest.txt"
# --- 8. the front door: anonymous bodies, a flooding tenant ------------------------------------------
echo
echo "== front door (bench/hardening: catalogd serve with the default rate limit)"
psql_admin -c "CREATE DATABASE $DB"
start_server CATALOG_LOG_LEVEL=warn
go run ./bench/hardening -url "http://127.0.0.1:$HTTP_PORT" -secret "$SECRET" -issuer "$ISSUER" -audience "$AUDIENCE" \
	-pid "$SERVER_PID" -duration "${DURATION}s" | tee "$OUT/hardening.txt"
{ echo; cat "$OUT/hardening.txt"; } >>"$OUT/latest.txt"
stop_server
# The hostile input of the hardening issue replayed (bench/attack): every operation of /openapi.json
# with U+0000, invalid UTF-8, bidi characters, over-long strings, deep nesting and broken JSON in each
# parameter and body string, and the header tricks; rate limit off so that every probe is served.
# Any 5xx is listed (and reported, not fatal here: `make test` holds the same property in test/badinput).
echo
echo "== hostile input replay (bench/attack)"
start_server CATALOG_LOG_LEVEL=error CATALOG_RATE_LIMIT_RPS=0
go run ./bench/attack -base "http://127.0.0.1:$HTTP_PORT" -secret "$SECRET" -issuer "$ISSUER" -audience "$AUDIENCE" |
	tee "$OUT/attack.txt" || log "bench/attack found 5xx answers (see $OUT/attack.txt)"
{ echo; echo "Hostile input replay (go run ./bench/attack):"; grep '^attack:' "$OUT/attack.txt"; } >>"$OUT/latest.txt"
stop_server

# --- 9. retention: database size under a steady write load past the window ----------------------------
echo
echo "== retention (bench/retention: in-process catalogd, CATALOG_RETENTION=${RETENTION_WINDOW}, ${RETENTION_WINDOWS} windows)"
# A verdict of GROWING (exit 1) is reported, not fatal: the other figures are still worth having.
go run ./bench/retention -window "$RETENTION_WINDOW" -windows "$RETENTION_WINDOWS" 2>/dev/null | tee "$OUT/retention.txt" ||
	log "bench/retention failed or found the tables growing (see $OUT/retention.txt)"
{ echo; echo "Retention (go run ./bench/retention -window $RETENTION_WINDOW -windows $RETENTION_WINDOWS):"; sed -n '/^3 tables:/,$p' "$OUT/retention.txt"; } >>"$OUT/latest.txt"

# --- 10. asset files: transfer through the signed URLs, renditions --------------------------------------
echo
echo "== asset files (bench/assetfiles: catalogd serve with the local blob store in its data dir)"
start_server CATALOG_LOG_LEVEL=warn CATALOG_RATE_LIMIT_RPS=0
go run ./bench/assetfiles -url "http://127.0.0.1:$HTTP_PORT" -secret "$SECRET" -issuer "$ISSUER" -audience "$AUDIENCE" \
	-pid "$SERVER_PID" -dir "$TMP" -size-mb "$FILE_MB" | tee "$OUT/assetfiles.txt"
{ echo; cat "$OUT/assetfiles.txt"; } >>"$OUT/latest.txt"
stop_server
pkgs=(./server/blobstore ./server/assetfiles ./server/renditions)
echo
echo "== Go benchmarks of the blob store and the renditions: ${pkgs[*]}"
go test -run '^$' -bench . -benchtime=5x -benchmem "${pkgs[@]}" 2>&1 | tee "$OUT/assetfiles_micro.txt"
{ echo; echo "Asset files, Go benchmarks (go test -run '^\$' -bench . -benchtime=5x -benchmem ${pkgs[*]}):"; grep -E '^(Benchmark|ok|FAIL|---)' "$OUT/assetfiles_micro.txt" || true; } >>"$OUT/latest.txt"
log "done in $((SECONDS - START)) s; summary in $OUT/latest.txt"
