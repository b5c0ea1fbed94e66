# catalogd — every tool is pinned in tools/go.mod and run through `go tool`.
SHELL := /bin/bash
GO ?= go
TOOL := $(GO) tool -modfile=tools/go.mod
GATEWAY_V1 := github.com/grpc-ecosystem/grpc-gateway@v1.16.0
# google/rpc's status and error details for the SDKs: grpc-gateway v1's googleapis snapshot predates
# google.rpc.ErrorInfo, which every error of the API carries; this module's copy has it.
GOOGLEAPIS_RPC := github.com/gogo/googleapis@v1.4.1
export GOFLAGS := -buildvcs=false
export GOTOOLCHAIN := local
# The shared black-box contract suite (run.sh): shared/ beside the checkout or beside a parent directory
# of it, else the workplace's /work/shared (a fresh clone may live anywhere).
CONTRACT_DIR ?= $(patsubst %/run.sh,%,$(firstword $(foreach d,.. ../.. ../../.. ../../../..,$(wildcard $(abspath $(CURDIR)/$(d)/shared/contract/run.sh))) $(wildcard /work/shared/contract/run.sh)))

# `make test` links the ~30 test binaries (and the binaries the tests build) without DWARF debugger
# data: -ldflags=-w halves each link; stack traces keep their file:line.
TEST_GOFLAGS := $(GOFLAGS) -ldflags=-w
# The slowest test packages, named first so that `go test -p 2` starts them first: last in the usual
# order, test/webhooks (~45 s, mostly waiting for retries) ran alone at the end with a core idle.
# Listed only while they exist; ./... adds every other package once.
SLOW_TESTS := $(foreach d,test/webhooks test/e2e test/fault test/sdk_typescript server/pgembed test/docs test/openapi_ts,$(if $(wildcard $(d)/*_test.go),./$(d)))

.PHONY: test-topology run mock build image check-image compose-images generate sdk-tools third_party check-generated check-clients lint test test-go bench contract clean

## run: build bin/catalogd and start it (embedded PostgreSQL in ./.data unless DATABASE_URL is set);
## its banner's TOKEN=$$(./bin/catalogd token) works from here. Ctrl-C stops it (exit 0, no make error).
run: build
	./bin/catalogd serve

## mock: build bin/catalogd and start the spec's mock server (catalogd mock: a fresh demo catalog,
## any well-formed token)
mock: build
	./bin/catalogd mock

# The commit `catalogd version` prints: HEAD, with -modified when tracked files differ from it;
# empty outside a git checkout (the binary then says "unknown").
COMMIT = $(shell c=$$(git rev-parse HEAD 2>/dev/null) && { git diff --quiet HEAD -- 2>/dev/null || c=$$c-modified; echo $$c; })

## build: bin/catalogd, stamped with the commit (catalogd version)
build:
	$(GO) build -ldflags "-X main.commit=$(COMMIT)" -o bin/catalogd ./cmd/catalogd

## image: the container image (Containerfile) with podman, installed from Debian when missing: a static
## catalogd on an empty base, non-root, CA certificates, labels with version and commit
## (IMAGE=name:tag; default catalogd:<closest tag, else dev>, also catalogd:latest)
image:
	COMMIT=$(COMMIT) bash scripts/image.sh

## compose-images: the images compose.yaml runs that this repository builds: catalogd:latest (make image)
## and catalogd-versitygw:latest, the S3-compatible store of the S3 tests (scripts/versitygw-image.sh)
compose-images: image
	bash scripts/versitygw-image.sh

## check-image: build the image, export its filesystem (podman create + export), run its entrypoint from
## it against a private PostgreSQL and the README tour against that (test/image, build tag `image`;
## minutes of compiling on a cold cache, so not part of `make test`; CI runs it)
check-image:
	GOFLAGS="$(TEST_GOFLAGS)" $(GO) run ./cmd/testpg -install -- $(GO) test -tags image -count=1 -timeout 30m -v ./test/image

## third_party: the google/api HTTP annotations, and google/rpc's status and error details (for the
## SDKs), taken from Go modules (no Buf Schema Registry here)
third_party:
	@dir=$$($(GO) mod download -json $(GATEWAY_V1) | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$$/\1/p'); \
	test -n "$$dir" || { echo "cannot download $(GATEWAY_V1)"; exit 1; }; \
	mkdir -p third_party/googleapis/google/api third_party/googleapis/google/rpc; \
	install -m 644 $$dir/third_party/googleapis/google/api/annotations.proto $$dir/third_party/googleapis/google/api/http.proto third_party/googleapis/google/api/; \
	dir=$$($(GO) mod download -json $(GOOGLEAPIS_RPC) | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$$/\1/p'); \
	test -n "$$dir" || { echo "cannot download $(GOOGLEAPIS_RPC)"; exit 1; }; \
	install -m 644 $$dir/google/rpc/status.proto $$dir/google/rpc/error_details.proto third_party/googleapis/google/rpc/

## generate: protobuf, gRPC, gateway (buf), the descriptor image the OpenAPI document is built from
## (with the proto comments), and queries (sqlc) into gen/; then the TypeScript and Python SDKs
## (buf.gen.sdk.yaml) into sdk/*/
generate: third_party sdk-tools
	$(TOOL) buf lint
	$(TOOL) buf generate
	$(TOOL) buf build --exclude-imports --exclude-path third_party/googleapis/google/rpc -o gen/openapi/catalog.binpb
	CGO_ENABLED=0 $(TOOL) sqlc generate -f db/sqlc.yaml
	rm -rf $(SDK_GENERATED)
	$(TOOL) buf generate --template buf.gen.sdk.yaml
	node sdk/typescript/scripts/barrel.mjs
	for d in catalog/v1 google/api google/rpc; do : > sdk/python/src/$$d/py.typed; done

# What buf.gen.sdk.yaml writes (removed first, so that a deleted proto leaves no file behind).
SDK_GENERATED := sdk/typescript/src/gen sdk/python/src/catalog sdk/python/src/google
# Everything the generated-code check compares.
GENERATED := gen $(SDK_GENERATED)

## sdk-tools: protoc-gen-es (sdk/typescript's pinned devDependency: npm ci, without the package's own
## build, when node_modules is missing or older than the lockfile), protoc and the gRPC Python plugin
## (Debian packages, scripts/install-sdk-tools.sh)
sdk-tools:
	@command -v npm >/dev/null || { echo "make generate needs Node.js >= 20.19 and npm (the TypeScript SDK's generator)"; exit 1; }
	@if [ ! -x sdk/typescript/node_modules/.bin/protoc-gen-es ] || [ sdk/typescript/package-lock.json -nt sdk/typescript/node_modules/.package-lock.json ]; then \
		cd sdk/typescript && npm ci --ignore-scripts --no-audit --no-fund --prefer-offline --loglevel=error; fi
	@bash scripts/install-sdk-tools.sh
	@v=$$(/usr/bin/protoc --version); [ "$$v" = "libprotoc 3.21.12" ] || { echo "sdk/python is generated by protoc 3.21.12 (Debian 12's protobuf-compiler); /usr/bin/protoc is $$v"; exit 1; }

## check-generated: regenerate gen/ and the SDKs (buf lint, buf, sqlc) and fail when it differed from what the sources
## generate. Compiles buf, the protoc plugins and sqlc (minutes on a cold Go cache), so it is not part of
## `make test`; CI (.ci/run) runs it before `make test`.
check-generated:
	@before=$$(find $(GENERATED) -type f -not -path '*/__pycache__/*' | LC_ALL=C sort | xargs sha256sum); \
	$(MAKE) --no-print-directory generate >/dev/null || exit 1; \
	after=$$(find $(GENERATED) -type f -not -path '*/__pycache__/*' | LC_ALL=C sort | xargs sha256sum); \
	if [ "$$before" != "$$after" ]; then \
		diff <(echo "$$before") <(echo "$$after"); git --no-pager diff --stat -- $(GENERATED); \
		echo "gen/ or sdk/ was out of date with proto/ and db/: it is regenerated now; commit it"; exit 1; fi; \
	echo "generated code is up to date"

## lint: gofmt and go vet (cheap: no code generator is compiled; `buf lint` runs in check-generated)
lint:
	@test -z "$$(gofmt -l server cmd test db bench examples sdk/go)" || { gofmt -l server cmd test db bench examples sdk/go; echo "gofmt: run gofmt -w on the files above"; exit 1; }
	$(GO) vet ./...

## test: vet, then unit, integration and end-to-end tests on a private PostgreSQL cluster that
## cmd/testpg starts in a temporary directory around `go test` (and deletes after), installing the
## server binaries with apt-get if there are none. TEST_DATABASE_URL=postgres://... uses that server instead.
## Then the main integration packages again, every catalogd they start behind a private PgBouncer in
## transaction mode (TEST_POOLER) with a streaming standby of the cluster for its reads
## (TEST_READ_REPLICA): the production topology of docs/operations.md (issue 28).
TOPOLOGY_SUITE := ./test/webhooks ./test/products ./test/attributes ./test/etag ./test/idempotency ./test/transfer ./test/keyset
TOPOLOGY_TEST := env TEST_POOLER=transaction TEST_READ_REPLICA=1 $(GO) test -count=1 -p 2 -timeout 20m $(TOPOLOGY_SUITE)
test: lint
	GOFLAGS="$(TEST_GOFLAGS)" $(GO) run ./cmd/testpg -install -- bash -c '$(GO) test -count=1 -p 2 -timeout 30m $(SLOW_TESTS) ./... && \
		echo "== the main packages through PgBouncer (transaction mode) with reads on a standby" && \
		$(TOPOLOGY_TEST)'

## test-topology: only the second part of `make test` (the main packages through the pooler, reads on a standby)
test-topology:
	GOFLAGS="$(TEST_GOFLAGS)" $(GO) run ./cmd/testpg -install -- $(TOPOLOGY_TEST)

## check-clients: generate the Go clients of oapi-codegen and ogen (tools/go.mod) from the served
## /openapi.json, compile them and run the attribute flow with each against a live catalogd
## (test/clients, build tag `clients`). Compiling ogen's client takes minutes and gigabytes, so it is not
## part of `make test`; CI (.ci/run) runs it after `make test`.
check-clients:
	GOFLAGS="$(TEST_GOFLAGS)" $(GO) run ./cmd/testpg -install -- $(GO) test -tags clients -count=1 -timeout 60m ./test/clients

## bench: Go benchmarks of the hot paths plus the pgbench comparisons (see bench/README.md)
bench:
	bash bench/run.sh

## contract: the shared black-box contract check against a freshly built service
## (CONTRACT_DIR=/path/to/shared/contract when it is not beside the checkout or above it)
contract:
	@test -f "$(CONTRACT_DIR)/run.sh" || { echo "make contract: no shared contract suite (shared/contract/run.sh) beside this checkout or in a parent directory$(if $(CONTRACT_DIR), (nor in CONTRACT_DIR=$(CONTRACT_DIR))); set CONTRACT_DIR=/path/to/shared/contract"; exit 1; }
	bash "$(CONTRACT_DIR)/run.sh"

clean:
	rm -rf bin third_party
