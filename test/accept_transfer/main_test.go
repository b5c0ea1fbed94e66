// Package accept_transfer is a black-box acceptance test of ../shared/API.md "Import and export
// (jobs)": it starts catalogd with the shared harness and talks to it only over HTTP (REST /v1),
// asserting what API.md states, without any knowledge of the implementation.
//
// Where API.md is ambiguous nothing is asserted (each place says so): whether an export's
// itemCount counts lines or resources; whether a dry run records the job's own import.* events;
// whether a bad upload is refused by the upload or by start (either is accepted, start's refusal as
// 409 like the asset-file checks); whether two lines referring to each other resolve.
//
// Run: go run ./cmd/testpg -install -- go test -count=1 ./test/accept_transfer
package accept_transfer

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/catalogd/catalogd/server/apptest"
)

var (
	env  *apptest.Env
	pool *pgxpool.Pool
)

func TestMain(m *testing.M) { apptest.Main(m, &env, &pool) }

var httpc = &http.Client{Timeout: 60 * time.Second}

// api is one tenant seen through one token.
type api struct {
	t      *testing.T
	tenant string
	token  string
}

// newTenant is a fresh tenant with every scope.
func newTenant(t *testing.T) *api {
	t.Helper()
	_, tenant := env.TenantClient(t)
	return &api{t: t, tenant: tenant, token: apptest.Token(tenant)}
}

// as is the same tenant with a token of other scopes.
func (a *api) as(scopes ...string) *api {
	return &api{t: a.t, tenant: a.tenant, token: apptest.Token(a.tenant, scopes...)}
}

type resp struct {
	status int
	header http.Header
	raw    []byte
	body   any
}

func (r resp) obj() map[string]any { m, _ := r.body.(map[string]any); return m }

func (r resp) items() []map[string]any {
	var out []map[string]any
	arr, _ := r.obj()["items"].([]any)
	for _, x := range arr {
		if m, ok := x.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

func (r resp) String() string { return fmt.Sprintf("%d %s", r.status, truncate(string(r.raw), 600)) }

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// raw sends a request with a raw body and content type.
func (a *api) raw(method, path, contentType string, body []byte) resp {
	a.t.Helper()
	u := path
	if !strings.HasPrefix(u, "http") {
		u = env.BaseURL + path
	}
	req, err := http.NewRequest(method, u, bytes.NewReader(body))
	if err != nil {
		a.t.Fatal(err)
	}
	if a.token != "" {
		req.Header.Set("Authorization", "Bearer "+a.token)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	res, err := httpc.Do(req)
	if err != nil {
		a.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	r := resp{status: res.StatusCode, header: res.Header, raw: b}
	_ = json.Unmarshal(b, &r.body)
	return r
}

func (a *api) do(method, path string, body any) resp {
	a.t.Helper()
	var b []byte
	if body != nil {
		var err error
		if b, err = json.Marshal(body); err != nil {
			a.t.Fatal(err)
		}
		return a.raw(method, path, "application/json", b)
	}
	return a.raw(method, path, "", nil)
}

func (a *api) get(path string) resp { a.t.Helper(); return a.do("GET", path, nil) }

// want fails the test unless r has the status.
func want(t *testing.T, r resp, status int, what string) resp {
	t.Helper()
	if r.status != status {
		t.Fatalf("%s: got %s, want %d", what, r, status)
	}
	return r
}

// wantProblem checks an RFC 9457 problem with a status and (when not empty) a code.
func wantProblem(t *testing.T, r resp, status int, code, what string) {
	t.Helper()
	if r.status != status {
		t.Errorf("%s: got %s, want %d %s", what, r, status, code)
		return
	}
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/problem+json") {
		t.Errorf("%s: content type %q, want application/problem+json", what, ct)
	}
	if code != "" && str(r.obj(), "code") != code {
		t.Errorf("%s: code %q, want %q (%s)", what, str(r.obj(), "code"), code, r)
	}
}

func str(m map[string]any, k string) string { s, _ := m[k].(string); return s }

func num(m map[string]any, k string) float64 {
	switch v := m[k].(type) {
	case float64:
		return v
	case string: // int64 as a JSON string (proto3 JSON)
		var f float64
		fmt.Sscan(v, &f)
		return f
	}
	return -1
}

func sha(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

// --- imports ---

var finalImport = map[string]bool{"completed": true, "failed": true, "cancelled": true}
var finalExport = finalImport

// waitJob polls GET path until its status is final (a job is asynchronous), up to 90 s.
func (a *api) waitJob(path string, final map[string]bool) map[string]any {
	a.t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for {
		r := want(a.t, a.get(path), 200, "GET "+path)
		if final[str(r.obj(), "status")] {
			return r.obj()
		}
		if time.Now().After(deadline) {
			a.t.Fatalf("%s: still %q after 90 s: %s", path, str(r.obj(), "status"), r)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// postInline creates and queues an import from a body in one call (API.md: 201 with the import
// itself, status queued).
func (a *api) postInline(contentType, body string, dryRun bool) map[string]any {
	a.t.Helper()
	p := "/v1/imports"
	if dryRun {
		p += "?dryRun=true"
	}
	r := a.raw("POST", p, contentType, []byte(body))
	want(a.t, r, 201, "POST /v1/imports inline")
	im := r.obj()
	if str(im, "uuid") == "" {
		a.t.Fatalf("inline import: no uuid in %s", r)
	}
	if st := str(im, "status"); st != "queued" {
		a.t.Errorf("inline import: status %q, want queued (API.md: \"answers 201 with the import itself (status `queued`)\")", st)
	}
	return im
}

// importNDJSON imports lines inline and waits for the job's end.
func (a *api) importNDJSON(lines ...string) map[string]any {
	a.t.Helper()
	im := a.postInline("application/x-ndjson", strings.Join(lines, "\n")+"\n", false)
	return a.waitJob("/v1/imports/"+str(im, "uuid"), finalImport)
}

func (a *api) importCSV(body string) map[string]any {
	a.t.Helper()
	im := a.postInline("text/csv", body, false)
	return a.waitJob("/v1/imports/"+str(im, "uuid"), finalImport)
}

// counts checks a finished import's status and line counts.
func counts(t *testing.T, im map[string]any, created, updated, unchanged, failed int) {
	t.Helper()
	if str(im, "status") != "completed" {
		t.Errorf("import status %q (failureReason %v), want completed", str(im, "status"), im["failureReason"])
	}
	got := []float64{num(im, "createdCount"), num(im, "updatedCount"), num(im, "unchangedCount"), num(im, "failedCount")}
	exp := []float64{float64(created), float64(updated), float64(unchanged), float64(failed)}
	for i := range got {
		if got[i] != exp[i] {
			t.Errorf("import counts created/updated/unchanged/failed = %v, want %v", got, exp)
			break
		}
	}
}

// lines is the import's listed (failed) lines with an optional query.
func (a *api) lines(importUUID, query string) []map[string]any {
	a.t.Helper()
	p := "/v1/imports/" + importUUID + "/lines?size=100"
	if query != "" {
		p += "&" + query
	}
	return want(a.t, a.get(p), 200, "GET "+p).items()
}

// --- reading the catalog by code ---

// byCode is the resource of a collection with a code, nil when none.
func (a *api) byCode(collection, code string) map[string]any {
	a.t.Helper()
	r := want(a.t, a.get(collection+"?codes[eq]="+url.QueryEscape(code)), 200, "GET "+collection)
	for _, it := range r.items() {
		if str(it, "code") == code {
			return it
		}
	}
	return nil
}

func (a *api) mustCode(collection, code string) map[string]any {
	a.t.Helper()
	m := a.byCode(collection, code)
	if m == nil {
		a.t.Fatalf("%s: no %q", collection, code)
	}
	return m
}

func (a *api) uuidOf(collection, code string) string {
	a.t.Helper()
	return str(a.mustCode(collection, code), "uuid")
}

// all pages of a list.
func (a *api) all(path string) []map[string]any {
	a.t.Helper()
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	var out []map[string]any
	for page := 1; page < 1000; page++ {
		r := want(a.t, a.get(fmt.Sprintf("%s%spage=%d&size=100", path, sep, page)), 200, "GET "+path)
		its := r.items()
		out = append(out, its...)
		if len(its) < 100 {
			return out
		}
	}
	return out
}

// field set of a list: the values of key k, sorted.
func fieldSet(items []map[string]any, k string) []string {
	var out []string
	for _, it := range items {
		out = append(out, str(it, k))
	}
	sort.Strings(out)
	return out
}

// eventTypes is the tenant's recorded event types, oldest first, following cursors.
func (a *api) eventTypes() []string {
	a.t.Helper()
	// GET /v1/events shows an event once every transaction older than it has ended (commit order,
	// DESIGN.md): another tenant's open write transaction (an import line's) can hold a committed
	// event back for a moment. Wait until the log shows every event the tenant has committed (the
	// database's count is read only to know when to read, never asserted on).
	var committed int
	if err := pool.QueryRow(context.Background(), "SELECT count(*) FROM events WHERE tenant_id = $1", a.tenant).Scan(&committed); err != nil {
		a.t.Fatal(err)
	}
	var out []string
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if out = a.eventTypesNow(); len(out) >= committed || time.Now().After(deadline) {
			return out
		}
	}
}

// eventTypesNow is the types of every event GET /v1/events shows the tenant now.
func (a *api) eventTypesNow() []string {
	a.t.Helper()
	var out []string
	cursor := ""
	for i := 0; i < 200; i++ {
		p := "/v1/events?size=100"
		if cursor != "" {
			p += "&cursor=" + url.QueryEscape(cursor)
		}
		r := want(a.t, a.get(p), 200, "GET "+p)
		for _, it := range r.items() {
			out = append(out, str(it, "type"))
		}
		pg, _ := r.obj()["pagination"].(map[string]any)
		next := str(pg, "nextCursor")
		if next == "" || next == cursor || len(r.items()) == 0 {
			return out
		}
		cursor = next
	}
	return out
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
