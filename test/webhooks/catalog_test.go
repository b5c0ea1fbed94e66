package webhooks

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

// specEventNames are the example event names of the spec (Events, Model 2) and the attribute
// events of DESIGN.md's verbs.
var specEventNames = []string{
	"product.created", "product.updated", "product.published", "product.unpublished",
	"product.attribute.linked", "product.attribute_term.linked", "product.tag.linked", "product.asset.linked",
	"product.input_value.created", "product.input_value.updated",
	"attribute.created", "attribute.updated", "attribute.deleted", "attribute.published", "attribute.unpublished",
	"attribute.removed", "attribute.restored",
}

// allEventTypes lists the whole catalog page by page.
func allEventTypes(t *testing.T, c *Client) []map[string]any {
	t.Helper()
	var out []map[string]any
	for page := 1; ; page++ {
		r := Want(t, c.Get("/v1/webhook-event-types"+Q("page", strconv.Itoa(page), "size", "100")), 200)
		p := r.Obj()["pagination"].(map[string]any)
		WantKeys(t, "pagination", p, PaginationKeys...)
		out = append(out, r.Items()...)
		if page >= num(p, "totalPages") {
			if num(p, "totalItems") != len(out) {
				t.Errorf("totalItems %d, but %d items listed", num(p, "totalItems"), len(out))
			}
			return out
		}
	}
}

func names(items []map[string]any) []string {
	var out []string
	for _, it := range items {
		out = append(out, Str(it, "name"))
	}
	return out
}

func TestEventTypeCatalog(t *testing.T) {
	t.Parallel()
	// Readable with any valid token, even one without a single catalog or webhook scope.
	c := clientFor(t, env, "t-"+RandomHex(6), "unrelated:scope")
	all := allEventTypes(t, c)
	byName := map[string]map[string]any{}
	uuids := map[string]bool{}
	for _, it := range all {
		n := Str(it, "name")
		WantKeys(t, "event type "+n, it, eventTypeKeys...)
		if !UUIDRe.MatchString(Str(it, "uuid")) {
			t.Errorf("%s: uuid %v", n, it["uuid"])
		}
		if Str(it, "description") == "" {
			t.Errorf("%s: empty description", n)
		}
		if it["deprecatedAt"] != nil || it["sunsetAt"] != nil {
			t.Errorf("%s: deprecatedAt/sunsetAt %v/%v, want null/null", n, it["deprecatedAt"], it["sunsetAt"])
		}
		wantTimestamp(t, n+" createdAt", it["createdAt"])
		wantTimestamp(t, n+" updatedAt", it["updatedAt"])
		if byName[n] != nil || uuids[Str(it, "uuid")] {
			t.Errorf("event type %s (%s) listed twice", n, it["uuid"])
		}
		byName[n], uuids[Str(it, "uuid")] = it, true
	}
	for _, n := range specEventNames {
		if byName[n] == nil {
			t.Errorf("event type %s (named by the spec) is not in the catalog", n)
		}
	}
	// Without a token: 401.
	anon := clientFor(t, env, "t-x")
	anon.Token = ""
	WantProblem(t, anon.Get("/v1/webhook-event-types"), 401, "UNAUTHENTICATED")

	// names[eq] (repeated) selects exactly those names.
	got := names(Want(t, c.Get("/v1/webhook-event-types"+Q("names[eq]", "product.tag.linked", "names[eq]", "attribute.created")), 200).Items())
	slices.Sort(got)
	if !slices.Equal(got, []string{"attribute.created", "product.tag.linked"}) {
		t.Errorf("names[eq]=product.tag.linked&names[eq]=attribute.created: %v", got)
	}
	one := Want(t, c.Get("/v1/webhook-event-types"+Q("names[eq]", "attribute.published")), 200).Items()
	if len(one) != 1 || Str(one[0], "uuid") != Str(byName["attribute.published"], "uuid") {
		t.Errorf("names[eq]=attribute.published: %v", one)
	}
	// name[contains]: case-insensitive, and "_" is a literal character, not a LIKE wildcard.
	got = names(Want(t, c.Get("/v1/webhook-event-types"+Q("name[contains]", "ATTRIBUTE_TERM", "size", "100")), 200).Items())
	if !slices.Contains(got, "product.attribute_term.linked") {
		t.Errorf("name[contains]=ATTRIBUTE_TERM lacks product.attribute_term.linked: %v", got)
	}
	for _, n := range got {
		if !strings.Contains(n, "attribute_term") {
			t.Errorf("name[contains]=ATTRIBUTE_TERM returned %s", n)
		}
	}
	var wantContains []string
	for n := range byName {
		if strings.Contains(n, "input_value") {
			wantContains = append(wantContains, n)
		}
	}
	got = names(Want(t, c.Get("/v1/webhook-event-types"+Q("name[contains]", "input_value", "size", "100")), 200).Items())
	slices.Sort(got)
	slices.Sort(wantContains)
	if !slices.Equal(got, wantContains) || len(got) < 2 {
		t.Errorf("name[contains]=input_value: %v, want %v", got, wantContains)
	}
	// A typo in a filter is refused rather than ignored.
	WantProblem(t, c.Get("/v1/webhook-event-types"+Q("nmae[contains]", "x")), 400, "MALFORMED_REQUEST")
}

// Every event a varied workload records is of a type the catalog lists.
func TestEveryRecordedEventIsInTheCatalog(t *testing.T) {
	t.Parallel()
	s := mainSite()
	c, tenant := s.tenantClient(t)
	ok := func(r Resp) map[string]any {
		t.Helper()
		if r.Status/100 != 2 {
			t.Fatalf("status %d: %s", r.Status, r.Raw)
		}
		return r.Obj()
	}
	en := Str(ok(c.Post("/v1/locales", map[string]any{"code": "en-US"})), "uuid")
	de := Str(ok(c.Post("/v1/locales", map[string]any{"code": "de-DE"})), "uuid")
	ok(c.Patch("/v1/locales/"+de, map[string]any{"displayName": "Deutsch"}))

	a := mkAttr(t, c, "color")
	ok(c.Patch("/v1/attributes/"+a, map[string]any{"displayName": "Colour"}))
	for _, tr := range []string{"publish", "unpublish", "remove", "restore"} {
		ok(c.Patch("/v1/attributes/"+a+"/actions/lifecycle", map[string]any{"transition": tr}))
	}
	ac := Str(ok(c.Post("/v1/attributes/"+a+"/contents", map[string]any{"localeUuid": en, "displayName": "Color"})), "uuid")
	ok(c.Patch("/v1/attributes/"+a+"/contents/"+ac, map[string]any{"displayName": "Colour"}))
	term := Str(ok(c.Post("/v1/attributes/"+a+"/terms", map[string]any{"code": "red"})), "uuid")
	ok(c.Patch("/v1/attributes/"+a+"/terms/"+term, map[string]any{"position": 2}))
	tc := Str(ok(c.Post("/v1/attributes/"+a+"/terms/"+term+"/contents", map[string]any{"localeUuid": de, "displayName": "Rot"})), "uuid")
	ok(c.Patch("/v1/attributes/"+a+"/terms/"+term+"/contents/"+tc, map[string]any{"displayName": "Rot!"}))
	ok(c.Delete("/v1/attributes/" + a + "/terms/" + term + "/contents/" + tc))
	ok(c.Delete("/v1/attributes/" + a + "/terms/" + term))
	ok(c.Delete("/v1/attributes/" + a + "/contents/" + ac))
	ok(c.Delete("/v1/attributes/" + a))
	ok(c.Delete("/v1/locales/" + de))

	rows, err := s.pool.Query(context.Background(), `SELECT DISTINCT type FROM events WHERE tenant_id = $1`, tenant)
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for rows.Next() {
		var ty string
		if err := rows.Scan(&ty); err != nil {
			t.Fatal(err)
		}
		types = append(types, ty)
	}
	rows.Close()
	if len(types) < 18 {
		t.Fatalf("the workload recorded only %d distinct event types: %v", len(types), types)
	}
	catalog := map[string]bool{}
	for _, n := range names(allEventTypes(t, c)) {
		catalog[n] = true
	}
	for _, ty := range types {
		if !catalog[ty] {
			t.Errorf("event type %s was recorded but is not listed by GET /v1/webhook-event-types", ty)
		}
	}
}
