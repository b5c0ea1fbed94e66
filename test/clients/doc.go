// Package clients generates the two main Go clients from the served /openapi.json, oapi-codegen and
// ogen (both pinned in tools/go.mod), compiles them and runs the attribute flow (create → list → get →
// transition → delete) with each against a live catalogd. Compiling ogen's client takes minutes and
// gigabytes, so the test has the build tag `clients` and its own target, `make check-clients`, which
// .ci/run runs after `make test`.
package clients
