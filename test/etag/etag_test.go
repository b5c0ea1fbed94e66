// Package etag tests entity tags end to end (API.md "Safe writes", docs/design.md "Safe writes:
// ETags") on a real PostgreSQL: the ETag of every single-resource answer, If-Match on updates,
// deletes and lifecycle moves (412 with the current tag, nothing written, no event), If-None-Match
// and 304, the gRPC etag fields (AIP-154) and the per-item etags of bulk updates and moves.
package etag

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/app"
	. "github.com/catalogd/catalogd/server/apptest"
)

var (
	env  *Env
	pool *pgxpool.Pool
)

func TestMain(m *testing.M) {
	// The mock replica of TestEveryFamily shares this one's database but not its blob store: its
	// imports and exports are run by its own workers.
	Main(m, &env, &pool, func(c *app.Config) {
		c.WebhookAllowPrivate, c.DisableDispatcher, c.DisableTransferWorker = true, true, true
	})
}

// strongTag is the form of every ETag: a strong tag of 22 base64url characters.
var strongTag = regexp.MustCompile(`^"[A-Za-z0-9_-]{22}"$`)

// do sends a request with extra headers (kv: name, value, …), checked against the OpenAPI document
// like every test client's request.
func do(t *testing.T, c *Client, method, path string, body any, kv ...string) Resp {
	t.Helper()
	var payload []byte
	var rdr io.Reader
	if body != nil {
		payload, _ = json.Marshal(body)
		rdr = bytes.NewReader(payload)
	}
	req, err := http.NewRequest(method, env.BaseURL+path, rdr)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+c.Token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(kv); i += 2 {
		req.Header.Set(kv[i], kv[i+1])
	}
	res, err := c.HTTP.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	r := Resp{Status: res.StatusCode, Header: res.Header, Raw: raw}
	if len(bytes.TrimSpace(raw)) > 0 {
		if err := json.Unmarshal(raw, &r.Body); err != nil {
			t.Fatalf("%s %s: not JSON: %s", method, path, raw)
		}
	}
	env.Contract(t).Check(t, req, payload, r)
	return r
}

// tagOf is the ETag of an answer, checked strong; the body never carries etag over REST.
func tagOf(t *testing.T, what string, r Resp) string {
	t.Helper()
	tag := r.Header.Get("ETag")
	if !strongTag.MatchString(tag) {
		t.Fatalf("%s: ETag %q is not a strong tag", what, tag)
	}
	if _, ok := r.Obj()["etag"]; ok {
		t.Errorf("%s: the REST body carries etag: %s", what, r.Raw)
	}
	return tag
}

// precondition checks a 412 PRECONDITION_FAILED whose meta.etag is current.
func precondition(t *testing.T, what string, r Resp, current string) {
	t.Helper()
	p := WantProblem(t, r, 412, "PRECONDITION_FAILED")
	if got := Meta(p)["etag"]; got != current {
		t.Errorf("%s: meta.etag %v, want %s", what, got, current)
	}
}

// The core contract on attributes: ETag on create, get, update and move; If-Match on PATCH, DELETE
// and the lifecycle; `*`, lists and weak tags; If-None-Match.
func TestAttributeETags(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	cr := Want(t, c.Post("/v1/attributes", Body("code", "color")), 201)
	id := Str(cr.Obj(), "uuid")
	path := "/v1/attributes/" + id
	t0 := tagOf(t, "create", cr)
	g := Want(t, c.Get(path), 200)
	if got := tagOf(t, "get", g); got != t0 {
		t.Fatalf("get ETag %s, create's %s", got, t0)
	}
	// Reading changes nothing; include/expand views do not change the resource's tag.
	if got := tagOf(t, "get again", Want(t, c.Get(path), 200)); got != t0 {
		t.Errorf("second get ETag %s, want %s", got, t0)
	}
	if got := tagOf(t, "get with expand", Want(t, c.Get(path+Q("expand[contents]", "true")), 200)); got != t0 {
		t.Errorf("expand ETag %s, want %s", got, t0)
	}

	// If-None-Match: 304 without a body while unchanged, weak comparison, `*`.
	for _, inm := range []string{t0, "W/" + t0, `"other", ` + t0, "*"} {
		r := do(t, c, "GET", path, nil, "If-None-Match", inm)
		if r.Status != 304 || len(r.Raw) != 0 || r.Header.Get("ETag") != t0 {
			t.Errorf("If-None-Match %s: %d %q ETag %q, want 304, no body, %s", inm, r.Status, r.Raw, r.Header.Get("ETag"), t0)
		}
	}
	if r := do(t, c, "GET", path, nil, "If-None-Match", `"other"`); r.Status != 200 || tagOf(t, "other tag", r) != t0 {
		t.Errorf("If-None-Match other: %d", r.Status)
	}
	if r := do(t, c, "GET", path+Q("include[contents]", "true"), nil, "If-None-Match", t0); r.Status != 200 {
		t.Errorf("If-None-Match with include: %d, want 200 (views are always answered in full)", r.Status)
	}

	log := NewEventLog(pool, tenant).Skip(t)
	// A stale If-Match: 412 with the current tag, nothing written, no event.
	stale := `"AAAAAAAAAAAAAAAAAAAAAA"`
	precondition(t, "stale PATCH", do(t, c, "PATCH", path, Body("displayName", "Colour"), "If-Match", stale), t0)
	precondition(t, "weak PATCH", do(t, c, "PATCH", path, Body("displayName", "Colour"), "If-Match", "W/"+t0), t0)
	precondition(t, "stale body etag", c.Patch(path, Body("displayName", "Colour", "etag", stale)), t0)
	precondition(t, "stale DELETE", do(t, c, "DELETE", path, nil, "If-Match", stale), t0)
	precondition(t, "stale move", do(t, c, "PATCH", path+"/actions/lifecycle", Body("transition", "publish"), "If-Match", stale), t0)
	precondition(t, "stale move body", c.Patch(path+"/actions/lifecycle", Body("transition", "publish", "etag", stale)), t0)
	if got := Want(t, c.Get(path), 200).Obj(); got["displayName"] != "color" || got["status"] != "draft" {
		t.Fatalf("a refused write changed the attribute: %v", got)
	}
	log.Expect(t, "refused writes")

	// Malformed conditions and a body etag that contradicts If-Match: 400.
	Problem(t, "malformed If-Match", do(t, c, "PATCH", path, Body("displayName", "x"), "If-Match", "nope"), 400, "VALIDATION_FAILED", "If-Match")
	Problem(t, "body etag differs", do(t, c, "PATCH", path, Body("displayName", "x", "etag", stale), "If-Match", t0), 400, "VALIDATION_FAILED", "etag")
	Problem(t, "malformed body etag", c.Patch(path, Body("displayName", "x", "etag", `"a b"`)), 400, "VALIDATION_FAILED", "etag")
	Problem(t, "etag as a query parameter", c.Delete(path+Q("etag", t0)), 400, "MALFORMED_REQUEST")

	// A matching If-Match writes, and the tag changes.
	r := Want(t, do(t, c, "PATCH", path, Body("displayName", "Colour"), "If-Match", `"x", `+t0), 200)
	t1 := tagOf(t, "update", r)
	if t1 == t0 {
		t.Fatal("the ETag did not change with an update")
	}
	log.Expect(t, "update", Ev("attribute.updated", "attributeUuid", id))
	if got := tagOf(t, "get after update", Want(t, c.Get(path), 200)); got != t1 {
		t.Errorf("get ETag %s, update's %s", got, t1)
	}
	if r := do(t, c, "GET", path, nil, "If-None-Match", t0); r.Status != 200 {
		t.Errorf("If-None-Match with the old tag: %d, want 200", r.Status)
	}
	// The old tag is now stale; the body's etag alone works too (unquoted as well).
	precondition(t, "old tag", do(t, c, "PATCH", path, Body("code", "colour"), "If-Match", t0), t1)
	t2 := tagOf(t, "body etag", Want(t, c.Patch(path, Body("code", "colour", "etag", t1[1:len(t1)-1])), 200))
	// The lifecycle with If-Match, then `*`; a same-state move writes nothing and keeps the tag.
	t3 := tagOf(t, "publish", Want(t, do(t, c, "PATCH", path+"/actions/lifecycle", Body("transition", "publish"), "If-Match", t2), 200))
	if t3 == t2 {
		t.Error("the ETag did not change with a move")
	}
	if got := tagOf(t, "same-state", Want(t, do(t, c, "PATCH", path+"/actions/lifecycle", Body("transition", "publish"), "If-Match", "*"), 200)); got != t3 {
		t.Errorf("a same-state move changed the ETag: %s, want %s", got, t3)
	}
	// DELETE: stale refused, then the current tag deletes.
	precondition(t, "stale delete", do(t, c, "DELETE", path, nil, "If-Match", t2), t3)
	Want(t, do(t, c, "DELETE", path, nil, "If-Match", t3), 204)
	// `*` on a missing resource is its 404.
	Problem(t, "If-Match * on a deleted one", do(t, c, "PATCH", path, Body("code", "x"), "If-Match", "*"), 404, "NOT_FOUND")
}

// A child family (terms of an attribute) and a link family (a product's categories): the tag of a
// child, its conditional update and delete.
func TestChildAndLinkFamilies(t *testing.T) {
	t.Parallel()
	c, _ := env.TenantClient(t)
	attr := Str(Want(t, c.Post("/v1/attributes", Body("code", "size")), 201).Obj(), "uuid")
	terms := "/v1/attributes/" + attr + "/terms"
	cr := Want(t, c.Post(terms, Body("code", "xl")), 201)
	term := terms + "/" + Str(cr.Obj(), "uuid")
	t0 := tagOf(t, "term create", cr)
	if got := tagOf(t, "term get", Want(t, c.Get(term), 200)); got != t0 {
		t.Fatalf("term get %s, create %s", got, t0)
	}
	precondition(t, "term stale", do(t, c, "PATCH", term, Body("displayName", "XL"), "If-Match", `"stale"`), t0)
	t1 := tagOf(t, "term update", Want(t, do(t, c, "PATCH", term, Body("displayName", "XL"), "If-Match", t0), 200))
	precondition(t, "term delete stale", do(t, c, "DELETE", term, nil, "If-Match", t0), t1)
	Want(t, do(t, c, "DELETE", term, nil, "If-Match", t1), 204)

	cat := Str(Want(t, c.Post("/v1/categories", Body("code", "shoes")), 201).Obj(), "uuid")
	p := Str(Want(t, c.Post("/v1/products", Body("code", "P1", "kind", "simple")), 201).Obj(), "uuid")
	links := "/v1/products/" + p + "/categories"
	lr := Want(t, c.Post(links, Body("categoryUuid", cat)), 201)
	link := links + "/" + Str(lr.Obj(), "uuid")
	l0 := tagOf(t, "link create", lr)
	if got := tagOf(t, "link get", Want(t, c.Get(link), 200)); got != l0 {
		t.Fatalf("link get %s, create %s", got, l0)
	}
	precondition(t, "link delete stale", do(t, c, "DELETE", link, nil, "If-Match", `"stale"`), l0)
	Want(t, do(t, c, "DELETE", link, nil, "If-Match", l0), 204)
}

// Products and publications: update and lifecycle with If-Match; the tag of a product does not
// depend on include/expand views.
func TestProductAndPublicationLifecycle(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	cr := Want(t, c.Post("/v1/products", Body("code", "P2", "kind", "simple")), 201)
	p := "/v1/products/" + Str(cr.Obj(), "uuid")
	t0 := tagOf(t, "product create", cr)
	if got := tagOf(t, "product get", Want(t, c.Get(p+Q("include[productCategories]", "true", "expand[publications]", "true")), 200)); got != t0 {
		t.Fatalf("product get %s, create %s", got, t0)
	}
	t1 := tagOf(t, "product update", Want(t, do(t, c, "PATCH", p, Body("displayName", "Boot"), "If-Match", t0), 200))
	precondition(t, "product move stale", do(t, c, "PATCH", p+"/actions/lifecycle", Body("transition", "activate"), "If-Match", t0), t1)
	Want(t, do(t, c, "PATCH", p+"/actions/lifecycle", Body("transition", "activate"), "If-Match", t1), 200)

	ch := Str(Want(t, c.Post("/v1/channels", Body("code", "web", "localeUuids", []string{})), 201).Obj(), "uuid")
	pr := Want(t, c.Post(p+"/publications", Body("channelUuid", ch)), 201)
	pub := p + "/publications/" + Str(pr.Obj(), "uuid")
	u0 := tagOf(t, "publication create", pr)
	log := NewEventLog(pool, tenant).Skip(t)
	precondition(t, "publish stale", do(t, c, "PATCH", pub+"/actions/lifecycle", Body("transition", "publish"), "If-Match", `"stale"`), u0)
	log.Expect(t, "refused publish")
	u1 := tagOf(t, "publish", Want(t, do(t, c, "PATCH", pub+"/actions/lifecycle", Body("transition", "publish"), "If-Match", u0), 200))
	if u1 == u0 {
		t.Error("publishing did not change the publication's tag")
	}
	if r := do(t, c, "GET", pub, nil, "If-None-Match", u1); r.Status != 304 {
		t.Errorf("publication If-None-Match: %d, want 304", r.Status)
	}
}

// Bulk updates and moves over REST: per-item etags; one stale item refuses the whole request
// (naming it) and If-Match on a bulk is refused.
func TestBulkREST(t *testing.T) {
	t.Parallel()
	c, _ := env.TenantClient(t)
	var ids, tags []string
	for _, code := range []string{"a", "b", "c"} {
		r := Want(t, c.Post("/v1/attributes", Body("code", code)), 201)
		ids, tags = append(ids, Str(r.Obj(), "uuid")), append(tags, tagOf(t, "create "+code, r))
	}
	items := []any{Body("uuid", ids[0], "displayName", "A", "etag", tags[0]), Body("uuid", ids[1], "displayName", "B", "etag", `"stale"`),
		Body("uuid", ids[2], "displayName", "C")}
	p := Problem(t, "bulk stale", c.Patch("/v1/attributes/bulk", items), 412, "PRECONDITION_FAILED", "[1].etag")
	_ = p
	r := c.Patch("/v1/attributes/bulk", items)
	if m := Meta(r.Obj()); m == nil || m["etags"].(map[string]any)[ids[1]] != tags[1] {
		t.Errorf("bulk meta %v, want etags[%s] = %s", Meta(r.Obj()), ids[1], tags[1])
	}
	for i, id := range ids {
		if got := tagOf(t, "unchanged", Want(t, c.Get("/v1/attributes/"+id), 200)); got != tags[i] {
			t.Errorf("item %d changed by a refused bulk", i)
		}
	}
	Problem(t, "bulk If-Match", do(t, c, "PATCH", "/v1/attributes/bulk", []any{Body("uuid", ids[0], "displayName", "A")}, "If-Match", tags[0]), 400, "VALIDATION_FAILED", "If-Match")
	// A repeated uuid with an etag on the later item: 400, since the first item's write changes
	// the tag the second names (outside audit); a repeat without one applies in order.
	Problem(t, "bulk repeated uuid with an etag", c.Patch("/v1/attributes/bulk", []any{Body("uuid", ids[0], "displayName", "Z1"),
		Body("uuid", ids[0], "displayName", "Z2", "etag", tags[0])}), 400, "VALIDATION_FAILED", "[1].etag")
	if got := tagOf(t, "after the refused repeat", Want(t, c.Get("/v1/attributes/"+ids[0]), 200)); got != tags[0] {
		t.Errorf("a refused bulk changed the attribute")
	}
	items[1] = Body("uuid", ids[1], "displayName", "B", "etag", tags[1])
	Want(t, c.Patch("/v1/attributes/bulk", items), 200)

	// Bulk moves: etags by uuid.
	newTags := make([]string, len(ids))
	for i, id := range ids {
		newTags[i] = tagOf(t, "get", Want(t, c.Get("/v1/attributes/"+id), 200))
	}
	move := Body("transition", "publish", "uuids", ids, "etags", map[string]string{ids[0]: newTags[0], ids[2]: tags[2]})
	Problem(t, "bulk move stale", c.Patch("/v1/attributes/bulk/actions/lifecycle", move), 412, "PRECONDITION_FAILED", "etags."+ids[2])
	Problem(t, "bulk move unknown key", c.Patch("/v1/attributes/bulk/actions/lifecycle",
		Body("transition", "publish", "uuids", ids[:1], "etags", map[string]string{ids[1]: newTags[1]})), 400, "VALIDATION_FAILED", "etags."+ids[1])
	move["etags"] = map[string]string{ids[0]: newTags[0], ids[2]: newTags[2]}
	for _, it := range Want(t, c.Patch("/v1/attributes/bulk/actions/lifecycle", move), 200).Arr() {
		if it.(map[string]any)["status"] != "published" {
			t.Errorf("bulk move: %v", it)
		}
	}
}

// gRPC: resource messages carry etag (lists too), requests take it (AIP-154), a stale one is
// FAILED_PRECONDITION with the same details as the REST 412.
func TestGRPC(t *testing.T) {
	t.Parallel()
	tenant := "t-" + RandomHex(6)
	ctx := GRPCContext(t, tenant)
	cl := pb.NewAttributeServiceClient(env.GRPC)
	cr, err := cl.CreateAttribute(ctx, &pb.CreateAttributeRequest{Attribute: &pb.AttributeCreate{Code: "g"}})
	if err != nil {
		t.Fatal(err)
	}
	a := cr.Attribute
	if !strongTag.MatchString(a.Etag) {
		t.Fatalf("create etag %q", a.Etag)
	}
	rest := env.ClientFor(t, tenant)
	if got := tagOf(t, "REST get", Want(t, rest.Get("/v1/attributes/"+a.Uuid), 200)); got != a.Etag {
		t.Errorf("REST ETag %s, gRPC etag %s", got, a.Etag)
	}
	ls, err := cl.ListAttributes(ctx, &pb.ListAttributesRequest{})
	if err != nil || len(ls.Items) != 1 || ls.Items[0].Etag != a.Etag {
		t.Fatalf("list: %v %v", ls, err)
	}
	_, err = cl.UpdateAttribute(ctx, &pb.UpdateAttributeRequest{AttributeUuid: a.Uuid,
		Attribute: &pb.AttributeUpdate{DisplayName: proto.String("x"), Etag: proto.String(`"stale"`)}})
	WantGRPC(t, "stale update", err, codes.FailedPrecondition, "PRECONDITION_FAILED")
	if m := GRPCMeta(err); m["etag"] != a.Etag {
		t.Errorf("stale update meta %v, want etag %s", m, a.Etag)
	}
	// If-Match as metadata is the same condition.
	_, err = cl.DeleteAttribute(metadata.AppendToOutgoingContext(ctx, "if-match", `"stale"`), &pb.DeleteAttributeRequest{AttributeUuid: a.Uuid})
	WantGRPC(t, "stale delete (metadata)", err, codes.FailedPrecondition, "PRECONDITION_FAILED")
	_, err = cl.TransitionAttribute(ctx, &pb.TransitionAttributeRequest{AttributeUuid: a.Uuid, Transition: pb.AttributeTransition_ATTRIBUTE_TRANSITION_PUBLISH, Etag: proto.String(`"stale"`)})
	WantGRPC(t, "stale move", err, codes.FailedPrecondition, "PRECONDITION_FAILED")
	up, err := cl.UpdateAttribute(ctx, &pb.UpdateAttributeRequest{AttributeUuid: a.Uuid,
		Attribute: &pb.AttributeUpdate{DisplayName: proto.String("x"), Etag: proto.String(a.Etag)}})
	if err != nil || up.Attribute.Etag == a.Etag || !strongTag.MatchString(up.Attribute.Etag) {
		t.Fatalf("update: %v %v", up, err)
	}
	// Bulk update: one stale item refuses all, naming it.
	b, err := cl.CreateAttribute(ctx, &pb.CreateAttributeRequest{Attribute: &pb.AttributeCreate{Code: "h"}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = cl.BulkUpdateAttributes(ctx, &pb.BulkUpdateAttributesRequest{Items: []*pb.AttributeUpdate{
		{Uuid: a.Uuid, DisplayName: proto.String("y"), Etag: proto.String(up.Attribute.Etag)},
		{Uuid: b.Attribute.Uuid, DisplayName: proto.String("y"), Etag: proto.String(a.Etag)}}})
	WantGRPC(t, "stale bulk item", err, codes.FailedPrecondition, "PRECONDITION_FAILED", "[1].etag")
	g, err := cl.GetAttribute(ctx, &pb.GetAttributeRequest{AttributeUuid: a.Uuid})
	if err != nil || g.Attribute.Etag != up.Attribute.Etag || g.Attribute.DisplayName != "x" {
		t.Fatalf("after a refused bulk: %v %v", g, err)
	}
	mv, err := cl.BulkTransitionAttributes(ctx, &pb.BulkTransitionAttributesRequest{Transition: pb.AttributeTransition_ATTRIBUTE_TRANSITION_PUBLISH,
		Uuids: []string{a.Uuid, b.Attribute.Uuid}, Etags: map[string]string{b.Attribute.Uuid: b.Attribute.Etag}})
	if err != nil || len(mv.Items) != 2 || mv.Items[1].Etag == b.Attribute.Etag {
		t.Fatalf("bulk move: %v %v", mv, err)
	}
}

// Over gRPC a hydrated product carries the tag of every resource in it (each the one its own GET
// gives); over REST, whose bodies carry none, the hydrated GET's ETag is the product's own, the
// same as gRPC's, and its list answers no ETag.
func TestNestedTagsOfAHydratedProduct(t *testing.T) {
	t.Parallel()
	tenant := "t-" + RandomHex(6)
	ctx := GRPCContext(t, tenant)
	rest := env.ClientFor(t, tenant)
	p := Str(Want(t, rest.Post("/v1/products", Body("code", "P1", "kind", "simple")), 201).Obj(), "uuid")
	tag := Str(Want(t, rest.Post("/v1/tags", Body("code", "t1")), 201).Obj(), "uuid")
	link := Str(Want(t, rest.Post("/v1/products/"+p+"/tags", Body("tagUuid", tag)), 201).Obj(), "uuid")
	g, err := pb.NewProductServiceClient(env.GRPC).GetProduct(ctx, &pb.GetProductRequest{ProductUuid: p, Expand: &pb.ProductInclude{ProductTags: true}})
	if err != nil {
		t.Fatal(err)
	}
	own, err := pb.NewProductTagServiceClient(env.GRPC).GetProductTag(ctx, &pb.GetProductTagRequest{ProductUuid: p, ProductTagUuid: link})
	if err != nil {
		t.Fatal(err)
	}
	items := g.Product.GetProductTags().GetItems()
	if len(items) != 1 || !strongTag.MatchString(items[0].Etag) || items[0].Etag != own.ProductTag.Etag {
		t.Fatalf("gRPC expanded product tags %v, want the tag's own etag %s", items, own.ProductTag.Etag)
	}
	r := Want(t, rest.Get("/v1/products/"+p+Q("expand[productTags]", "true")), 200)
	if got := tagOf(t, "REST hydrated get", r); got != g.Product.Etag {
		t.Errorf("REST hydrated ETag %s, gRPC etag %s", got, g.Product.Etag)
	}
	if l := Want(t, rest.Get("/v1/products"+Q("expand[productTags]", "true")), 200); l.Header.Get("ETag") != "" {
		t.Errorf("a list answered ETag %s", l.Header.Get("ETag"))
	}
}

// Webhook subscriptions are written outside the engine: the same rules. The create answer's tag is
// the subscription's as reads give it (the one-time secret is no part of it).
func TestWebhookSubscription(t *testing.T) {
	t.Parallel()
	c, _ := env.TenantClient(t)
	cr := Want(t, c.Post("/v1/webhook-subscriptions", Body("displayName", "hook", "targetUrl", "http://127.0.0.1:9/hook")), 201)
	sub := "/v1/webhook-subscriptions/" + Str(cr.Obj(), "uuid")
	t0 := tagOf(t, "create", cr)
	if got := tagOf(t, "get", Want(t, c.Get(sub), 200)); got != t0 {
		t.Fatalf("get %s, create %s", got, t0)
	}
	precondition(t, "stale update", do(t, c, "PATCH", sub, Body("displayName", "x"), "If-Match", `"stale"`), t0)
	t1 := tagOf(t, "update", Want(t, do(t, c, "PATCH", sub, Body("displayName", "x"), "If-Match", t0), 200))
	precondition(t, "stale move", do(t, c, "PATCH", sub+"/actions/lifecycle", Body("transition", "deactivate"), "If-Match", t0), t1)
	t2 := tagOf(t, "move", Want(t, do(t, c, "PATCH", sub+"/actions/lifecycle", Body("transition", "deactivate"), "If-Match", t1), 200))
	precondition(t, "stale delete", do(t, c, "DELETE", sub, nil, "If-Match", t1), t2)
	if got := Want(t, c.Get(sub), 200).Obj()["displayName"]; got != "x" {
		t.Errorf("displayName %v", got)
	}
	// Its event-type links (no GET: the tag comes with the create answer and gRPC lists).
	et := Str(Want(t, c.Get("/v1/webhook-event-types"+Q("names[eq]", "attribute.created")), 200).Items()[0], "uuid")
	lr := Want(t, c.Post(sub+"/event-types", Body("webhookEventTypeUuid", et)), 201)
	l0 := tagOf(t, "link", lr)
	link := sub + "/event-types/" + Str(lr.Obj(), "uuid")
	precondition(t, "stale unlink", do(t, c, "DELETE", link, nil, "If-Match", `"stale"`), l0)
	Want(t, do(t, c, "DELETE", link, nil, "If-Match", l0), 204)
	Want(t, do(t, c, "DELETE", sub, nil, "If-Match", t2), 204)
}

// Concurrent conditional writes with the same tag: exactly one wins, every other is 412 (the row is
// locked from the comparison to the write, so no update overwrites one it has not seen).
func TestConcurrentIfMatch(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	cr := Want(t, c.Post("/v1/attributes", Body("code", "race")), 201)
	path := "/v1/attributes/" + Str(cr.Obj(), "uuid")
	tag := tagOf(t, "create", cr)
	log := NewEventLog(pool, tenant).Skip(t)
	const n = 8
	statuses := make(chan int, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses <- do(t, c, "PATCH", path, Body("displayName", "writer "+strconv.Itoa(i)), "If-Match", tag).Status
		}()
	}
	wg.Wait()
	close(statuses)
	count := map[int]int{}
	for s := range statuses {
		count[s]++
	}
	if count[200] != 1 || count[412] != n-1 {
		t.Fatalf("statuses %v, want one 200 and %d 412", count, n-1)
	}
	log.Expect(t, "one update", Ev("attribute.updated", "attributeUuid", Str(cr.Obj(), "uuid")))
}

// Conditions where no condition is checked are refused, never silently ignored: If-Match on a read,
// a create or an action that is not an update, delete or lifecycle move (rotate-secret), an empty
// If-Match, If-None-Match on a write. Nothing is written.
func TestConditionsWhereNoneIsChecked(t *testing.T) {
	t.Parallel()
	c, _ := env.TenantClient(t)
	cr := Want(t, c.Post("/v1/attributes", Body("code", "a_"+RandomHex(4))), 201)
	attr := "/v1/attributes/" + Str(cr.Obj(), "uuid")
	t0 := tagOf(t, "create", cr)
	WantProblem(t, do(t, c, "POST", "/v1/attributes", Body("code", "b_"+RandomHex(4)), "If-Match", `"x"`), 400, "VALIDATION_FAILED", "If-Match")
	WantProblem(t, do(t, c, "GET", attr, nil, "If-Match", `"x"`), 400, "VALIDATION_FAILED", "If-Match")
	WantProblem(t, do(t, c, "GET", "/v1/attributes", nil, "If-Match", t0), 400, "VALIDATION_FAILED", "If-Match")
	WantProblem(t, do(t, c, "PATCH", attr, Body("displayName", "empty"), "If-Match", ""), 400, "VALIDATION_FAILED", "If-Match")
	WantProblem(t, do(t, c, "PATCH", attr, Body("displayName", "inm"), "If-None-Match", "*"), 400, "VALIDATION_FAILED", "If-None-Match")
	WantProblem(t, do(t, c, "DELETE", attr, nil, "If-None-Match", t0), 400, "VALIDATION_FAILED", "If-None-Match")
	if got := tagOf(t, "after the refusals", Want(t, c.Get(attr), 200)); got != t0 {
		t.Errorf("a refused condition changed the attribute: %s → %s", t0, got)
	}
	sub := "/v1/webhook-subscriptions/" + Str(Want(t, c.Post("/v1/webhook-subscriptions", Body("displayName", "hook", "targetUrl", "http://127.0.0.1:9/hook")), 201).Obj(), "uuid")
	before := Want(t, c.Get(sub), 200)
	WantProblem(t, do(t, c, "PATCH", sub+"/actions/rotate-secret", nil, "If-Match", `"stale"`), 400, "VALIDATION_FAILED", "If-Match")
	if after := Want(t, c.Get(sub), 200); after.Header.Get("ETag") != before.Header.Get("ETag") {
		t.Errorf("a refused rotate-secret changed the subscription")
	}
}

// HEAD is the GET without a body (RFC 9110 §9.3.2): the same status and headers, the ETag and its
// 304, the errors' statuses; a HEAD on a path without GET is 405 listing what the path allows.
func TestHead(t *testing.T) {
	t.Parallel()
	c, _ := env.TenantClient(t)
	cr := Want(t, c.Post("/v1/attributes", Body("code", "h_"+RandomHex(4))), 201)
	attr := "/v1/attributes/" + Str(cr.Obj(), "uuid")
	t0 := tagOf(t, "create", cr)
	get := Want(t, c.Get(attr), 200)
	h := do(t, c, "HEAD", attr, nil)
	if h.Status != 200 || len(h.Raw) != 0 || h.Header.Get("ETag") != t0 {
		t.Errorf("HEAD: %d %q ETag %q, want 200, no body, %s", h.Status, h.Raw, h.Header.Get("ETag"), t0)
	}
	for _, k := range []string{"Content-Type", "RateLimit", "X-Request-Id"} {
		if (h.Header.Get(k) == "") != (get.Header.Get(k) == "") {
			t.Errorf("HEAD header %s = %q, GET's %q", k, h.Header.Get(k), get.Header.Get(k))
		}
	}
	if r := do(t, c, "HEAD", attr, nil, "If-None-Match", t0); r.Status != 304 || r.Header.Get("ETag") != t0 {
		t.Errorf("HEAD If-None-Match: %d ETag %q, want 304 %s", r.Status, r.Header.Get("ETag"), t0)
	}
	if r := do(t, c, "HEAD", "/v1/attributes"+Q("size", "1"), nil); r.Status != 200 || len(r.Raw) != 0 {
		t.Errorf("HEAD of a list: %d %q", r.Status, r.Raw)
	}
	if r := do(t, c, "HEAD", "/v1/attributes/"+uuid.NewString(), nil); r.Status != 404 || len(r.Raw) != 0 {
		t.Errorf("HEAD of a missing attribute: %d %q, want 404 without a body", r.Status, r.Raw)
	}
	if r := do(t, c, "HEAD", "/v1/attributes"+Q("size", "0"), nil); r.Status != 400 {
		t.Errorf("HEAD of a bad list: %d, want 400", r.Status)
	}
	anon := *c
	anon.Token = "not-a-token"
	if r := do(t, &anon, "HEAD", attr, nil); r.Status != 401 || len(r.Raw) != 0 {
		t.Errorf("HEAD without a valid token: %d %q, want 401", r.Status, r.Raw)
	}
	r := do(t, c, "HEAD", attr+"/actions/lifecycle", nil)
	if r.Status != 405 || r.Header.Get("Allow") != "PATCH" {
		t.Errorf("HEAD of a move: %d Allow %q, want 405 PATCH", r.Status, r.Header.Get("Allow"))
	}
}
