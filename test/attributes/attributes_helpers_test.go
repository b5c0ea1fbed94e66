package attributes

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"slices"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	. "github.com/catalogd/catalogd/server/apptest"
)

// attributeKeys are the keys of an attribute as get, list and update answer it (the spec's
// AttributeHydratedResponse; nullable ones as null).
var attributeKeys = []string{"uuid", "createdAt", "updatedAt", "removedAt", "status", "code", "displayName", "contentUuids", "contents"}

// viewKeys are the views of an attribute that create, bulk and lifecycle answers leave out: the spec
// returns the attribute there "without contentUuids and contents" (the keys are absent, not null).
var viewKeys = []string{"contentUuids", "contents"}

// answerKeys are the keys of an attribute as create, bulk and lifecycle answer it.
var answerKeys = []string{"uuid", "createdAt", "updatedAt", "removedAt", "status", "code", "displayName"}

// create makes one attribute (displayName optional) and returns it.
func create(t *testing.T, c *Client, code string, displayName ...string) map[string]any {
	t.Helper()
	body := map[string]any{"code": code}
	if len(displayName) > 0 {
		body["displayName"] = displayName[0]
	}
	return Want(t, c.Post("/v1/attributes", body), 201).Obj()
}

// bulkCreate makes attributes with the given codes in one bulk request.
func bulkCreate(t *testing.T, c *Client, codes ...string) []map[string]any {
	t.Helper()
	body := make([]map[string]any, len(codes))
	for i, code := range codes {
		body[i] = map[string]any{"code": code}
	}
	return Want(t, c.Post("/v1/attributes/bulk", body), 201).Objs()
}

// get fetches one attribute, failing unless it exists.
// get reads an attribute (without include or expand: its views are null) and returns it as create,
// bulk and lifecycle answer it, without the view keys, so that the two compare directly.
func get(t *testing.T, c *Client, id string) map[string]any {
	t.Helper()
	g := Want(t, c.Get("/v1/attributes/"+id), 200).Obj()
	for _, k := range viewKeys {
		if v, ok := g[k]; !ok || v != nil {
			t.Errorf("GET %s: %s = %v (present %v), want null", id, k, v, ok)
		}
		delete(g, k)
	}
	return g
}

// transition moves one attribute and returns the raw response.
func transition(c *Client, id, tr string) Resp {
	return c.Patch("/v1/attributes/"+id+"/actions/lifecycle", map[string]any{"transition": tr})
}

// moveTo brings a fresh draft attribute into status st through the allowed moves.
func moveTo(t *testing.T, c *Client, id, st string) map[string]any {
	t.Helper()
	var path []string
	switch st {
	case "draft":
		return get(t, c, id)
	case "published":
		path = []string{"publish"}
	case "unpublished":
		path = []string{"publish", "unpublish"}
	case "removed":
		path = []string{"remove"}
	default:
		t.Fatalf("moveTo: unknown status %s", st)
	}
	var out map[string]any
	for _, tr := range path {
		out = Want(t, transition(c, id, tr), 200).Obj()
	}
	if out["status"] != st {
		t.Fatalf("moveTo %s: got status %v", st, out["status"])
	}
	return out
}

// list runs GET /v1/attributes with a query string (from q) and returns the page.
func list(t *testing.T, c *Client, query string) Resp {
	t.Helper()
	return Want(t, c.Get("/v1/attributes"+query), 200)
}

// listCodes runs a list and returns the codes of its items in order.
func listCodes(t *testing.T, c *Client, query string) []string {
	t.Helper()
	return codesOf(list(t, c, query).Items())
}

func codesOf(items []map[string]any) []string {
	out := make([]string, 0, len(items))
	for _, it := range items {
		out = append(out, Str(it, "code"))
	}
	return out
}

// wantCodes fails unless got equals want (in order).
func wantCodes(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if want == nil {
		want = []string{}
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s: codes %q, want %q", what, got, want)
	}
}

// wantCodeSet fails unless got holds exactly want, in any order.
func wantCodeSet(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	g := slices.Clone(got)
	w := slices.Clone(want)
	sort.Strings(g)
	sort.Strings(w)
	if w == nil {
		w = []string{}
	}
	if !slices.Equal(g, w) {
		t.Errorf("%s: codes %q, want (any order) %q", what, got, want)
	}
}

// wantAttribute checks the shape of an attribute as create, bulk and lifecycle answer it (and as get
// returns it): every key (none of the views), uuid and timestamp formats, status, code and displayName.
func wantAttribute(t *testing.T, what string, a map[string]any, status, code, displayName string) {
	t.Helper()
	checkAttribute(t, what, a, answerKeys, status, code, displayName)
}

// wantHydrated checks an attribute as list and update answer it: with contentUuids and contents.
func wantHydrated(t *testing.T, what string, a map[string]any, status, code, displayName string) {
	t.Helper()
	checkAttribute(t, what, a, attributeKeys, status, code, displayName)
}

func checkAttribute(t *testing.T, what string, a map[string]any, keys []string, status, code, displayName string) {
	t.Helper()
	WantKeys(t, what, a, keys...)
	if s := Str(a, "uuid"); !UUIDRe.MatchString(s) {
		t.Errorf("%s: uuid %q is not a lowercase uuid", what, s)
	}
	for _, k := range []string{"createdAt", "updatedAt"} {
		if s := Str(a, k); !TimestampRe.MatchString(s) {
			t.Errorf("%s: %s %q is not <YYYY-MM-DD>T<hh:mm:ss.ffffff>Z", what, k, a[k])
		}
	}
	if status == "removed" {
		if s := Str(a, "removedAt"); !TimestampRe.MatchString(s) {
			t.Errorf("%s: removedAt %v is not a timestamp", what, a["removedAt"])
		}
	} else if a["removedAt"] != nil {
		t.Errorf("%s: removedAt %v, want null", what, a["removedAt"])
	}
	if a["status"] != status || a["code"] != code || a["displayName"] != displayName {
		t.Errorf("%s: status/code/displayName %v/%v/%v, want %s/%s/%s", what, a["status"], a["code"], a["displayName"], status, code, displayName)
	}
}

// ---- database (outbox) ----

var (
	poolOnce sync.Once
	dbPool   *pgxpool.Pool
	poolErr  error
)

func db(t *testing.T) *pgxpool.Pool {
	t.Helper()
	poolOnce.Do(func() { dbPool, poolErr = pgxpool.New(context.Background(), env.DBURL) })
	if poolErr != nil {
		t.Fatalf("connect to %s: %v", env.DBURL, poolErr)
	}
	return dbPool
}

type event struct {
	Type    string
	Payload map[string]any
}

// events returns the outbox rows of a tenant, oldest first.
func events(t *testing.T, tenant string) []event {
	t.Helper()
	rows, err := db(t).Query(context.Background(),
		`SELECT type, payload FROM events WHERE tenant_id = $1 ORDER BY created_at, uuid`, tenant)
	if err != nil {
		t.Fatalf("query events: %v", err)
	}
	defer rows.Close()
	var out []event
	for rows.Next() {
		var e event
		var raw []byte
		if err := rows.Scan(&e.Type, &raw); err != nil {
			t.Fatalf("scan event: %v", err)
		}
		if err := json.Unmarshal(raw, &e.Payload); err != nil {
			t.Fatalf("payload %s: %v", raw, err)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("events: %v", err)
	}
	return out
}

// ---- tokens ----

func b64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

// rawJWT signs claims with HS256 and secret, by hand (so tests can make tokens the helper refuses to).
func rawJWT(secret string, claims map[string]any) string {
	h, _ := json.Marshal(map[string]any{"alg": "HS256", "typ": "JWT"})
	p, _ := json.Marshal(claims)
	signing := b64(h) + "." + b64(p)
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(signing))
	return signing + "." + b64(mac.Sum(nil))
}

// validClaims are the claims of a good token for tenant; callers change them to break it.
func validClaims(tenant string) map[string]any {
	now := time.Now()
	return map[string]any{
		"iss": Issuer, "aud": Audience, "sub": "tester", "tenant_id": tenant,
		"scope": "catalog:read catalog:write",
		"iat":   now.Unix(), "nbf": now.Unix(), "exp": now.Add(time.Hour).Unix(),
	}
}
