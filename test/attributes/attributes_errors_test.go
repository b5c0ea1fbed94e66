package attributes

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	. "github.com/catalogd/catalogd/server/apptest"
)

// rawDo sends a request with full control over the body (unknown length when chunked) and the
// Authorization header; the response is decoded like Client.Do.
func rawDo(t *testing.T, method, path, authorization string, body []byte, chunked bool) Resp {
	t.Helper()
	var rdr io.Reader
	if body != nil {
		rdr = bytes.NewReader(body)
		if chunked {
			rdr = io.MultiReader(rdr) // hides the length: sent chunked
		}
	}
	req, err := http.NewRequest(method, env.BaseURL+path, rdr)
	if err != nil {
		t.Fatal(err)
	}
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	r := Resp{Status: res.StatusCode, Header: res.Header, Raw: raw}
	if len(bytes.TrimSpace(raw)) > 0 {
		if err := json.Unmarshal(raw, &r.Body); err != nil {
			t.Fatalf("%s %s: response is not JSON: %.300s", method, path, raw)
		}
	}
	return r
}

func TestValidationCodeLength(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	for _, tc := range []struct {
		name string
		body map[string]any
	}{
		{"missing", map[string]any{}},
		{"missing with displayName", map[string]any{"displayName": "x"}},
		{"null", map[string]any{"code": nil}},
		{"empty", map[string]any{"code": ""}},
		{"101 ascii", map[string]any{"code": strings.Repeat("a", 101)}},
		{"101 é", map[string]any{"code": strings.Repeat("é", 101)}},
		{"101 emoji", map[string]any{"code": strings.Repeat("😀", 101)}},
	} {
		r := c.Post("/v1/attributes", tc.body)
		if r.Status != 400 {
			t.Errorf("%s: status %d, want 400: %.300s", tc.name, r.Status, r.Raw)
			continue
		}
		WantProblem(t, r, 400, "VALIDATION_FAILED", "code")
	}
	wantCodes(t, "nothing created", listCodes(t, c, ""))

	// 100 characters are fine, whatever their byte length (é: 2 bytes, 😀: 4 bytes).
	for _, code := range []string{strings.Repeat("a", 100), strings.Repeat("é", 100), strings.Repeat("😀", 100), "x"} {
		a := create(t, c, code)
		if a["code"] != code || a["displayName"] != code {
			t.Errorf("create %d-rune code: got code %v", len([]rune(code)), a["code"])
		}
	}
}

func TestValidationDisplayNameLength(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	for _, tc := range []struct {
		name string
		dn   string
	}{
		{"empty", ""},
		{"101 ascii", strings.Repeat("d", 101)},
		{"101 é", strings.Repeat("é", 101)},
		{"101 emoji", strings.Repeat("🎨", 101)},
	} {
		r := c.Post("/v1/attributes", map[string]any{"code": "c", "displayName": tc.dn})
		if r.Status != 400 {
			t.Errorf("displayName %s: status %d, want 400: %.300s", tc.name, r.Status, r.Raw)
			continue
		}
		WantProblem(t, r, 400, "VALIDATION_FAILED", "displayName")
	}
	wantCodes(t, "nothing created", listCodes(t, c, ""))
	for i, dn := range []string{strings.Repeat("d", 100), strings.Repeat("é", 100), strings.Repeat("🎨", 100), "x"} {
		a := create(t, c, fmt.Sprintf("c%d", i), dn)
		if a["displayName"] != dn {
			t.Errorf("displayName of %d runes: got %v", len([]rune(dn)), a["displayName"])
		}
	}
	// Both bad at once: both named.
	p := WantProblem(t, c.Post("/v1/attributes", map[string]any{"code": "", "displayName": ""}), 400, "VALIDATION_FAILED")
	if f := ProblemFields(p); !slices.Contains(f, "code") || !slices.Contains(f, "displayName") {
		t.Errorf("both invalid: fields %v, want code and displayName", f)
	}
}

func TestValidationUpdate(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	a := create(t, c, "size", "Size")
	path := "/v1/attributes/" + Str(a, "uuid")
	WantProblem(t, c.Patch(path, map[string]any{"code": ""}), 400, "VALIDATION_FAILED", "code")
	WantProblem(t, c.Patch(path, map[string]any{"code": strings.Repeat("é", 101)}), 400, "VALIDATION_FAILED", "code")
	WantProblem(t, c.Patch(path, map[string]any{"displayName": ""}), 400, "VALIDATION_FAILED", "displayName")
	WantProblem(t, c.Patch(path, map[string]any{"displayName": strings.Repeat("x", 101)}), 400, "VALIDATION_FAILED", "displayName")
	if g := get(t, c, Str(a, "uuid")); !reflect.DeepEqual(g, a) {
		t.Errorf("invalid updates changed the attribute: %v", g)
	}
	u := Want(t, c.Patch(path, map[string]any{"code": strings.Repeat("😀", 100), "displayName": strings.Repeat("é", 100)}), 200).Obj()
	if u["code"] != strings.Repeat("😀", 100) || u["displayName"] != strings.Repeat("é", 100) {
		t.Errorf("100-character update: %v", u)
	}
}

func TestValidationBulkItemsNamedByIndex(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	WantProblem(t, c.Post("/v1/attributes/bulk", []map[string]any{{"code": "ok"}, {"code": ""}}), 400, "VALIDATION_FAILED", "[1].code")
	WantProblem(t, c.Post("/v1/attributes/bulk", []map[string]any{{"code": "ok"}, {}}), 400, "VALIDATION_FAILED", "[1].code")
	WantProblem(t, c.Post("/v1/attributes/bulk", []map[string]any{{"code": "ok", "displayName": ""}}), 400, "VALIDATION_FAILED", "[0].displayName")
	WantProblem(t, c.Post("/v1/attributes/bulk", []map[string]any{{"code": "a"}, {"code": "b"}, {"code": strings.Repeat("é", 101)}}), 400, "VALIDATION_FAILED", "[2].code")
	p := WantProblem(t, c.Post("/v1/attributes/bulk", []map[string]any{{"code": ""}, {"code": "b"}, {"code": "c", "displayName": strings.Repeat("x", 101)}}), 400, "VALIDATION_FAILED")
	if f := ProblemFields(p); !slices.Contains(f, "[0].code") || !slices.Contains(f, "[2].displayName") {
		t.Errorf("every bad item is named: %v", f)
	}
	wantCodes(t, "nothing created by invalid bulks", listCodes(t, c, ""))

	a := create(t, c, "a")
	id := Str(a, "uuid")
	WantProblem(t, c.Patch("/v1/attributes/bulk", []map[string]any{{"code": "x"}}), 400, "VALIDATION_FAILED", "[0].uuid")
	WantProblem(t, c.Patch("/v1/attributes/bulk", []map[string]any{{"uuid": id, "code": "ok"}, {"uuid": "not-a-uuid"}}), 400, "VALIDATION_FAILED", "[1].uuid")
	WantProblem(t, c.Patch("/v1/attributes/bulk", []map[string]any{{"uuid": id, "code": "ok"}, {"uuid": id, "code": ""}}), 400, "VALIDATION_FAILED", "[1].code")
	WantProblem(t, c.Patch("/v1/attributes/bulk", []map[string]any{{"uuid": id, "displayName": strings.Repeat("é", 101)}}), 400, "VALIDATION_FAILED", "[0].displayName")
	if g := get(t, c, id); !reflect.DeepEqual(g, a) {
		t.Errorf("invalid bulk updates changed the attribute: %v", g)
	}
}

func TestBulkItemCount(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	items := func(n int, mk func(i int) map[string]any) []map[string]any {
		out := make([]map[string]any, n)
		for i := range out {
			out[i] = mk(i)
		}
		return out
	}
	code := func(i int) map[string]any { return map[string]any{"code": fmt.Sprintf("c%03d", i)} }
	r := c.Post("/v1/attributes/bulk", items(0, code))
	if r.Status != 400 {
		t.Errorf("bulk create of 0: %d %s", r.Status, r.Raw)
	}
	r = c.Post("/v1/attributes/bulk", items(101, code))
	if r.Status != 400 {
		t.Errorf("bulk create of 101: %d %.300s", r.Status, r.Raw)
	}
	wantCodes(t, "nothing created", listCodes(t, c, ""))
	created := Want(t, c.Post("/v1/attributes/bulk", items(100, code)), 201).Objs()
	if len(created) != 100 {
		t.Fatalf("bulk create of 100: %d items", len(created))
	}
	r = c.Patch("/v1/attributes/bulk", items(0, code))
	if r.Status != 400 {
		t.Errorf("bulk update of 0: %d %s", r.Status, r.Raw)
	}
	upd := func(i int) map[string]any {
		return map[string]any{"uuid": created[i%100]["uuid"], "displayName": fmt.Sprintf("d%d", i)}
	}
	r = c.Patch("/v1/attributes/bulk", items(101, upd))
	if r.Status != 400 {
		t.Errorf("bulk update of 101: %d %.300s", r.Status, r.Raw)
	}
	if g := get(t, c, Str(created[0], "uuid")); g["displayName"] != "c000" {
		t.Errorf("a refused bulk update of 101 changed item 0: %v", g)
	}
	items100 := Want(t, c.Patch("/v1/attributes/bulk", items(100, upd)), 200).Objs()
	if len(items100) != 100 || items100[99]["displayName"] != "d99" {
		t.Errorf("bulk update of 100: %d items", len(items100))
	}
}

func TestMalformedRequests(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	a := create(t, c, "existing")
	id := Str(a, "uuid")
	one := "/v1/attributes/" + id
	for _, tc := range []struct {
		name, method, path string
		body               any
		field              string // "" when any field is fine
	}{
		{"create: unknown field", "POST", "/v1/attributes", map[string]any{"code": "x", "color": "red"}, "color"},
		{"create: read-only field", "POST", "/v1/attributes", map[string]any{"code": "x", "status": "published"}, "status"},
		{"create: malformed JSON", "POST", "/v1/attributes", `{"code": "x"`, ""},
		{"create: not JSON", "POST", "/v1/attributes", `code=x`, ""},
		{"create: code is a number", "POST", "/v1/attributes", `{"code": 5}`, "code"},
		{"create: displayName is a bool", "POST", "/v1/attributes", `{"code": "x", "displayName": true}`, "displayName"},
		{"create: array body", "POST", "/v1/attributes", `[{"code": "x"}]`, ""},
		{"create: trailing garbage", "POST", "/v1/attributes", `{"code": "x"} {}`, ""},
		{"bulk create: object body", "POST", "/v1/attributes/bulk", map[string]any{"code": "x"}, ""},
		{"bulk create: unknown item field", "POST", "/v1/attributes/bulk", `[{"code": "x", "colour": 1}]`, ""},
		{"bulk create: item is a string", "POST", "/v1/attributes/bulk", `["x"]`, ""},
		{"bulk create: code is a number", "POST", "/v1/attributes/bulk", `[{"code": "x"}, {"code": 7}]`, ""},
		{"bulk update: object body", "PATCH", "/v1/attributes/bulk", map[string]any{"uuid": id, "code": "x"}, ""},
		{"bulk update: unknown item field", "PATCH", "/v1/attributes/bulk", []map[string]any{{"uuid": id, "x": 1}}, ""},
		{"update: unknown field", "PATCH", one, map[string]any{"displayName": "x", "status": "published"}, "status"},
		{"update: malformed JSON", "PATCH", one, `{"displayName":`, ""},
		{"update: code is a number", "PATCH", one, `{"code": 5}`, "code"},
		{"update: array body", "PATCH", one, `[]`, ""},
	} {
		r := c.Do(tc.method, tc.path, tc.body)
		if r.Status != 400 || r.Obj()["code"] != "MALFORMED_REQUEST" {
			t.Errorf("%s: %d %.300s, want 400 MALFORMED_REQUEST", tc.name, r.Status, r.Raw)
			continue
		}
		WantProblem(t, r, 400, "MALFORMED_REQUEST")
		if tc.field != "" && !slices.Contains(ProblemFields(r.Obj()), tc.field) {
			t.Errorf("%s: errors %v do not name %q", tc.name, r.Obj()["errors"], tc.field)
		}
	}
	wantCodes(t, "nothing created", listCodes(t, c, ""), "existing")
	if g := get(t, c, id); !reflect.DeepEqual(g, a) {
		t.Errorf("malformed requests changed the attribute: %v", g)
	}
}

func TestPayloadTooLarge(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	auth := "Bearer " + c.Token

	// A bulk array padded with long strings, over 1 MiB.
	var items []map[string]any
	for i := 0; i < 12; i++ {
		items = append(items, map[string]any{"code": fmt.Sprintf("c%d", i), "displayName": strings.Repeat("x", 100_000)})
	}
	big, _ := json.Marshal(items)
	if len(big) <= 1<<20 {
		t.Fatalf("test body only %d bytes", len(big))
	}
	// A 2 MiB string in a single create.
	huge, _ := json.Marshal(map[string]any{"code": strings.Repeat("y", 2<<20)})

	for _, tc := range []struct {
		name, method, path string
		body               []byte
		chunked            bool
	}{
		{"bulk create with Content-Length", "POST", "/v1/attributes/bulk", big, false},
		{"bulk create chunked", "POST", "/v1/attributes/bulk", big, true},
		{"create 2 MiB code", "POST", "/v1/attributes", huge, false},
		{"create 2 MiB code chunked", "POST", "/v1/attributes", huge, true},
		{"update 2 MiB", "PATCH", "/v1/attributes/" + RandomUUID(), huge, false},
	} {
		r := rawDo(t, tc.method, tc.path, auth, tc.body, tc.chunked)
		if r.Status != 413 {
			t.Errorf("%s: status %d, want 413: %.300s", tc.name, r.Status, r.Raw)
			continue
		}
		wantTooLarge(t, tc.name, r)
	}
	wantCodes(t, "nothing created by refused bodies", listCodes(t, c, ""))

	// Exactly 1 MiB is not over the limit; one byte more is.
	body := func(size int) []byte {
		b := []byte(`[{"code":"edge"}]`)
		return append(b, bytes.Repeat([]byte(" "), size-len(b))...)
	}
	r := rawDo(t, "POST", "/v1/attributes/bulk", auth, body(1<<20+1), false)
	wantTooLarge(t, "1 MiB + 1", r)
	r = rawDo(t, "POST", "/v1/attributes/bulk", auth, body(1<<20+1), true)
	wantTooLarge(t, "1 MiB + 1 chunked", r)
	r = rawDo(t, "POST", "/v1/attributes/bulk", auth, body(1<<20), false)
	if r.Status != 201 {
		t.Errorf("body of exactly 1 MiB: status %d, want 201: %.300s", r.Status, r.Raw)
	}
	r = rawDo(t, "POST", "/v1/attributes", auth, append([]byte(`{"code":"edge2"}`), bytes.Repeat([]byte("\n"), 1<<20-16)...), true)
	if r.Status != 201 {
		t.Errorf("chunked body of exactly 1 MiB: status %d, want 201: %.300s", r.Status, r.Raw)
	}
	wantCodeSet(t, "the bodies within the limit were created", listCodes(t, c, ""), "edge", "edge2")
}

// wantTooLarge checks a 413: whichever check refused the body (the Content-Length, the reader
// cutting a chunked body while the gateway decodes it), the detail is the API's own sentence and no
// library text (grpc's "received message larger than max", Go's "http: request body too large")
// shows.
func wantTooLarge(t *testing.T, what string, r Resp) {
	t.Helper()
	p := WantProblem(t, r, 413, "PAYLOAD_TOO_LARGE")
	if p["detail"] != "request body exceeds 1048576 bytes" {
		t.Errorf("%s: detail %q", what, p["detail"])
	}
	for _, leak := range []string{"grpc", "larger than max", "http:", "body too large"} {
		if strings.Contains(string(r.Raw), leak) {
			t.Errorf("%s: body shows %q: %s", what, leak, r.Raw)
		}
	}
}

// endpoints lists every attribute operation with a valid body (for the auth tests).
func endpoints(id string) []struct {
	name, method, path string
	body               any
	write              bool
} {
	return []struct {
		name, method, path string
		body               any
		write              bool
	}{
		{"list", "GET", "/v1/attributes", nil, false},
		{"get", "GET", "/v1/attributes/" + id, nil, false},
		{"create", "POST", "/v1/attributes", map[string]any{"code": "new"}, true},
		{"bulk create", "POST", "/v1/attributes/bulk", []map[string]any{{"code": "new-bulk"}}, true},
		{"bulk update", "PATCH", "/v1/attributes/bulk", []map[string]any{{"uuid": id, "displayName": "changed"}}, true},
		{"update", "PATCH", "/v1/attributes/" + id, map[string]any{"displayName": "changed"}, true},
		{"lifecycle", "PATCH", "/v1/attributes/" + id + "/actions/lifecycle", map[string]any{"transition": "publish"}, true},
		{"bulk lifecycle", "PATCH", "/v1/attributes/bulk/actions/lifecycle", map[string]any{"transition": "publish", "uuids": []string{id}}, true},
		{"delete", "DELETE", "/v1/attributes/" + id, nil, true},
	}
}

func TestUnauthenticated(t *testing.T) {
	t.Parallel()
	owner, tenant := env.TenantClient(t)
	a := create(t, owner, "secret-attr")
	id := Str(a, "uuid")

	expired := validClaims(tenant)
	expired["iat"], expired["nbf"], expired["exp"] = time.Now().Add(-3*time.Hour).Unix(), time.Now().Add(-3*time.Hour).Unix(), time.Now().Add(-time.Hour).Unix()
	noTenant := validClaims(tenant)
	delete(noTenant, "tenant_id")
	emptyTenant := validClaims(tenant)
	emptyTenant["tenant_id"] = ""
	wrongIss := validClaims(tenant)
	wrongIss["iss"] = "someone-else"
	wrongAud := validClaims(tenant)
	wrongAud["aud"] = "another-api"
	noExp := validClaims(tenant)
	delete(noExp, "exp")
	future := validClaims(tenant)
	future["nbf"] = time.Now().Add(time.Hour).Unix()
	nonePayload, _ := json.Marshal(validClaims(tenant))
	alg := b64([]byte(`{"alg":"none","typ":"JWT"}`)) + "." + b64(nonePayload) + "."

	// Control: a hand-minted token with valid claims is accepted, so the failures below are due to
	// the one defect each carries.
	Want(t, rawDo(t, "GET", "/v1/attributes/"+id, "Bearer "+rawJWT(Secret, validClaims(tenant)), nil, false), 200)

	for _, tc := range []struct{ name, authorization string }{
		{"no token", ""},
		{"garbage", "Bearer garbage"},
		{"empty bearer", "Bearer "},
		{"basic scheme", "Basic dXNlcjpwYXNz"},
		{"expired", "Bearer " + rawJWT(Secret, expired)},
		{"wrong secret", "Bearer " + rawJWT("another-secret-0123456789abcdef0123456789", validClaims(tenant))},
		{"missing tenant_id", "Bearer " + rawJWT(Secret, noTenant)},
		{"empty tenant_id", "Bearer " + rawJWT(Secret, emptyTenant)},
		{"wrong issuer", "Bearer " + rawJWT(Secret, wrongIss)},
		{"wrong audience", "Bearer " + rawJWT(Secret, wrongAud)},
		{"missing exp", "Bearer " + rawJWT(Secret, noExp)},
		{"not yet valid", "Bearer " + rawJWT(Secret, future)},
		{"alg none", "Bearer " + alg},
	} {
		r := rawDo(t, "GET", "/v1/attributes/"+id, tc.authorization, nil, false)
		if r.Status != 401 {
			t.Errorf("%s: status %d, want 401: %.300s", tc.name, r.Status, r.Raw)
			continue
		}
		WantProblem(t, r, 401, "UNAUTHENTICATED")
		if h := r.Header.Get("WWW-Authenticate"); !strings.HasPrefix(h, "Bearer") {
			t.Errorf("%s: WWW-Authenticate %q, want a Bearer challenge", tc.name, h)
		}
	}

	// Every operation refuses a missing token, and nothing happens.
	for _, ep := range endpoints(id) {
		var body []byte
		if ep.body != nil {
			body, _ = json.Marshal(ep.body)
		}
		r := rawDo(t, ep.method, ep.path, "", body, false)
		if r.Status != 401 {
			t.Errorf("%s without token: status %d, want 401", ep.name, r.Status)
			continue
		}
		WantProblem(t, r, 401, "UNAUTHENTICATED")
		if h := r.Header.Get("WWW-Authenticate"); !strings.HasPrefix(h, "Bearer") {
			t.Errorf("%s: WWW-Authenticate %q", ep.name, h)
		}
	}
	if g := get(t, owner, id); !reflect.DeepEqual(g, a) {
		t.Errorf("unauthenticated requests changed the attribute: %v", g)
	}
	wantCodes(t, "nothing created", listCodes(t, owner, ""), "secret-attr")
}

func TestForbidden(t *testing.T) {
	t.Parallel()
	owner, tenant := env.TenantClient(t)
	a := create(t, owner, "guarded")
	id := Str(a, "uuid")
	reader := env.ClientFor(t, tenant, "catalog:read")
	writer := env.ClientFor(t, tenant, "catalog:write")
	webhooks := env.ClientFor(t, tenant, "webhooks:read", "webhooks:write")

	for _, ep := range endpoints(id) {
		if ep.write {
			r := reader.Do(ep.method, ep.path, ep.body)
			if r.Status != 403 {
				t.Errorf("%s with catalog:read: status %d, want 403: %.300s", ep.name, r.Status, r.Raw)
			} else {
				WantProblem(t, r, 403, "FORBIDDEN")
			}
		} else {
			// Reads work with catalog:read alone...
			Want(t, reader.Do(ep.method, ep.path, nil), 200)
			// ...and are refused with catalog:write alone.
			r := writer.Do(ep.method, ep.path, nil)
			if r.Status != 403 {
				t.Errorf("%s with catalog:write only: status %d, want 403: %.300s", ep.name, r.Status, r.Raw)
			} else {
				WantProblem(t, r, 403, "FORBIDDEN")
			}
		}
		r := webhooks.Do(ep.method, ep.path, ep.body)
		if r.Status != 403 {
			t.Errorf("%s with webhook scopes only: status %d, want 403", ep.name, r.Status)
		}
	}
	if g := get(t, owner, id); !reflect.DeepEqual(g, a) {
		t.Errorf("forbidden requests changed the attribute: %v", g)
	}
	wantCodes(t, "nothing created", listCodes(t, owner, ""), "guarded")
	// catalog:write alone is enough for writes.
	Want(t, writer.Patch("/v1/attributes/"+id, map[string]any{"displayName": "by writer"}), 200)
}

func TestNotFoundAndMalformedUUID(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	a := create(t, c, "present")
	missing := RandomUUID()
	for _, tc := range []struct {
		method, path string
		body         any
	}{
		{"GET", "/v1/attributes/" + missing, nil},
		{"PATCH", "/v1/attributes/" + missing, map[string]any{"displayName": "x"}},
		{"DELETE", "/v1/attributes/" + missing, nil},
		{"PATCH", "/v1/attributes/" + missing + "/actions/lifecycle", map[string]any{"transition": "publish"}},
		{"PATCH", "/v1/attributes/bulk", []map[string]any{{"uuid": missing, "displayName": "x"}}},
		{"PATCH", "/v1/attributes/bulk/actions/lifecycle", map[string]any{"transition": "publish", "uuids": []string{missing}}},
	} {
		r := c.Do(tc.method, tc.path, tc.body)
		if r.Status != 404 {
			t.Errorf("%s %s: status %d, want 404: %.300s", tc.method, tc.path, r.Status, r.Raw)
			continue
		}
		p := WantProblem(t, r, 404, "NOT_FOUND")
		if !strings.Contains(Str(p, "detail"), missing) {
			t.Errorf("%s %s: detail %q does not name the uuid", tc.method, tc.path, p["detail"])
		}
	}
	// A malformed uuid in the path is a validation error naming the path parameter.
	for _, bad := range []string{"not-a-uuid", "12345", strings.ToUpper(RandomUUID())[:35], "00000000-0000-0000-0000-00000000000g"} {
		for _, tc := range []struct {
			method, path string
			body         any
		}{
			{"GET", "/v1/attributes/" + bad, nil},
			{"PATCH", "/v1/attributes/" + bad, map[string]any{"displayName": "x"}},
			{"DELETE", "/v1/attributes/" + bad, nil},
			{"PATCH", "/v1/attributes/" + bad + "/actions/lifecycle", map[string]any{"transition": "publish"}},
		} {
			r := c.Do(tc.method, tc.path, tc.body)
			if r.Status != 400 {
				t.Errorf("%s %s: status %d, want 400: %.300s", tc.method, tc.path, r.Status, r.Raw)
				continue
			}
			WantProblem(t, r, 400, "VALIDATION_FAILED", "attributeUuid")
		}
	}
	// Unknown paths under /v1/attributes are problem 404s too.
	WantProblem(t, c.Get("/v1/attributes/"+Str(a, "uuid")+"/nothing-here"), 404, "NOT_FOUND")
	if g := get(t, c, Str(a, "uuid")); !reflect.DeepEqual(g, a) {
		t.Errorf("attribute changed: %v", g)
	}
}

func TestAlreadyExists(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	color := create(t, c, "color")
	size := create(t, c, "size")
	count := func() float64 {
		return pagination(t, list(t, c, Q("isRemoved[eq]", "false")))["totalItems"].(float64) +
			pagination(t, list(t, c, Q("isRemoved[eq]", "true")))["totalItems"].(float64)
	}
	if n := count(); n != 2 {
		t.Fatalf("setup: %v attributes", n)
	}

	// Single create.
	p := WantProblem(t, c.Post("/v1/attributes", map[string]any{"code": "color", "displayName": "Other"}), 409, "ALREADY_EXISTS", "code")
	if !strings.Contains(Str(p, "detail"), `an attribute with code "color" already exists`) {
		t.Errorf("detail %q does not name the code in plain English", p["detail"])
	}
	// Bulk create: an existing code at index 1; nothing created.
	WantProblem(t, c.Post("/v1/attributes/bulk", []map[string]any{{"code": "new-1"}, {"code": "color"}, {"code": "new-2"}}), 409, "ALREADY_EXISTS", "[1].code")
	if n := count(); n != 2 {
		t.Errorf("after a refused bulk create: %v attributes, want 2", n)
	}
	// Bulk create: a duplicate within the same bulk; nothing created.
	WantProblem(t, c.Post("/v1/attributes/bulk", []map[string]any{{"code": "twin"}, {"code": "twin"}}), 409, "ALREADY_EXISTS", "[1].code")
	if n := count(); n != 2 {
		t.Errorf("after a bulk with a duplicate: %v attributes, want 2", n)
	}
	wantCodeSet(t, "no twin", listCodes(t, c, Q("codes[eq]", "twin", "codes[eq]", "new-1", "codes[eq]", "new-2")))

	// Update to an existing code.
	WantProblem(t, c.Patch("/v1/attributes/"+Str(size, "uuid"), map[string]any{"code": "color"}), 409, "ALREADY_EXISTS", "code")
	if g := get(t, c, Str(size, "uuid")); !reflect.DeepEqual(g, size) {
		t.Errorf("refused update changed the attribute: %v", g)
	}
	// A removed attribute still holds its code.
	moveTo(t, c, Str(color, "uuid"), "removed")
	WantProblem(t, c.Post("/v1/attributes", map[string]any{"code": "color"}), 409, "ALREADY_EXISTS", "code")
	// Bulk update to an existing code.
	WantProblem(t, c.Patch("/v1/attributes/bulk", []map[string]any{{"uuid": size["uuid"], "code": "color"}}), 409, "ALREADY_EXISTS", "[0].code")
	if n := count(); n != 2 {
		t.Errorf("at the end: %v attributes, want 2", n)
	}
}
