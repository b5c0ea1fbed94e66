# catalogd — every tool is pinned in tools/go.mod and run through `go tool`.
SHELL := /bin/bash
GO ?= go
TOOL := $(GO) tool -modfile=tools/go.mod
GATEWAY_V1 := github.com/grpc-ecosystem/grpc-gateway@v1.16.0
export GOFLAGS := -buildvcs=false
export GOTOOLCHAIN := local
# The test database server (scripts/ensure-postgres.sh makes sure one answers there).
export TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable

.PHONY: run build generate third_party check-generated lint test test-go bench contract clean

## run: start the service (embedded PostgreSQL in ./.data unless DATABASE_URL is set)
run:
	$(GO) run ./cmd/catalogd serve

build:
	$(GO) build -o bin/catalogd ./cmd/catalogd

## third_party: the google/api HTTP annotations, taken from a Go module (no Buf Schema Registry here)
third_party:
	@dir=$$($(GO) mod download -json $(GATEWAY_V1) | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$$/\1/p'); \
	test -n "$$dir" || { echo "cannot download $(GATEWAY_V1)"; exit 1; }; \
	mkdir -p third_party/googleapis/google/api; \
	install -m 644 $$dir/third_party/googleapis/google/api/annotations.proto $$dir/third_party/googleapis/google/api/http.proto third_party/googleapis/google/api/

## generate: protobuf, gRPC, gateway (buf), the descriptor image the OpenAPI document is built from
## (with the proto comments), and queries (sqlc) into gen/
generate: third_party
	$(TOOL) buf lint
	$(TOOL) buf generate
	$(TOOL) buf build --exclude-imports -o gen/openapi/catalog.binpb
	CGO_ENABLED=0 $(TOOL) sqlc generate -f db/sqlc.yaml

## check-generated: fail when the generated code in gen/ differs from what the sources generate
check-generated:
	@before=$$(find gen -type f | LC_ALL=C sort | xargs sha256sum); \
	$(MAKE) --no-print-directory generate >/dev/null || exit 1; \
	after=$$(find gen -type f | LC_ALL=C sort | xargs sha256sum); \
	if [ "$$before" != "$$after" ]; then \
		diff <(echo "$$before") <(echo "$$after"); git --no-pager diff --stat -- gen; \
		echo "gen/ was out of date with proto/ and db/: it is regenerated now; commit it"; exit 1; fi; \
	echo "generated code is up to date"

lint:
	@test -z "$$(gofmt -l server cmd test db bench)" || { gofmt -l server cmd test db bench; echo "gofmt: run gofmt -w on the files above"; exit 1; }
	$(GO) vet ./...
	$(TOOL) buf lint

## test: the whole suite (generated code check, vet, unit and integration tests on a real PostgreSQL)
test: check-generated lint
	bash scripts/ensure-postgres.sh
	$(GO) test -count=1 -p 2 -timeout 30m ./...

## bench: Go benchmarks of the hot paths plus the pgbench comparisons (see bench/README.md)
bench:
	bash bench/run.sh

## contract: the shared black-box contract check against a freshly built service
contract:
	bash ../shared/contract/run.sh

clean:
	rm -rf bin third_party
