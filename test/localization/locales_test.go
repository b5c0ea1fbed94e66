package localization

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	. "github.com/catalogd/catalogd/server/apptest"
)

var localeKeys = []string{"uuid", "createdAt", "updatedAt", "code", "displayName", "isDefault"}

func TestLocaleResponseShape(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	r := Want(t, c.Post("/v1/locales", map[string]any{"code": "en-us"}), 201)
	l := r.Obj()
	WantKeys(t, "create", l, localeKeys...)
	WantCommon(t, "create", l)
	if l["code"] != "en-US" || l["displayName"] != "en-US" || l["isDefault"] != true {
		t.Errorf("created %v; want code en-US, displayName defaulting to the code, isDefault true (first locale)", l)
	}
	if l["createdAt"] != l["updatedAt"] {
		t.Errorf("a new locale has createdAt %v != updatedAt %v", l["createdAt"], l["updatedAt"])
	}
	if loc := r.Header.Get("Location"); loc != "/v1/locales/"+Str(l, "uuid") {
		t.Errorf("Location %q, want /v1/locales/%s", loc, l["uuid"])
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("content-type %q", ct)
	}

	g := Want(t, c.Get("/v1/locales/"+Str(l, "uuid")), 200)
	WantKeys(t, "get", g.Obj(), localeKeys...)
	if !bytes.Equal(g.Raw, r.Raw) {
		t.Errorf("get %s differs from create %s", g.Raw, r.Raw)
	}

	second := mkLocale(t, c, "de-DE", "displayName", "Deutsch")
	WantKeys(t, "second", second, localeKeys...)
	if second["isDefault"] != false || second["displayName"] != "Deutsch" {
		t.Errorf("second locale %v: want isDefault false, displayName Deutsch", second)
	}

	items := listAll(t, c, "/v1/locales")
	if len(items) != 2 {
		t.Fatalf("list: %d items", len(items))
	}
	for _, it := range items {
		WantKeys(t, "list item", it, localeKeys...)
		WantCommon(t, "list item", it)
	}
	page := Want(t, c.Get("/v1/locales"), 200).Obj()
	WantKeys(t, "page", page, "items", "pagination")
	WantKeys(t, "pagination", page["pagination"].(map[string]any), PaginationKeys...)

	// Unknown body fields and bad uuids.
	WantProblem(t, c.Post("/v1/locales", map[string]any{"code": "fr-FR", "colour": "x"}), 400, "MALFORMED_REQUEST")
	if r := c.Get("/v1/locales/not-a-uuid"); r.Status != 400 {
		t.Errorf("GET bad uuid: %d %s", r.Status, r.Raw)
	}
	WantProblem(t, c.Get("/v1/locales/"+"0190aaaa-0000-7000-8000-000000000000"), 404, "NOT_FOUND")
}

func TestLocaleCodeCanonicalised(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	for in, want := range map[string]string{
		"en-us":      "en-US",
		"EN-GB":      "en-GB",
		"de":         "de",
		"zh-hant-tw": "zh-Hant-TW",
		"PT-br":      "pt-BR",
		"sr-latn":    "sr-Latn",
	} {
		l := mkLocale(t, c, in)
		if l["code"] != want {
			t.Errorf("code %q stored as %v, want %q", in, l["code"], want)
		}
		g := Want(t, c.Get("/v1/locales/"+Str(l, "uuid")), 200).Obj()
		if g["code"] != want {
			t.Errorf("code %q read back as %v, want %q", in, g["code"], want)
		}
	}

	// Bad tags: 400 naming code, nothing created.
	before := len(listAll(t, c, "/v1/locales"))
	for _, bad := range []string{"", "not a tag", "toolonglanguagesubtag", "en--US", "!!", "123", "und", strings.Repeat("a", 101)} {
		r := c.Post("/v1/locales", map[string]any{"code": bad})
		WantProblem(t, r, 400, "VALIDATION_FAILED", "code")
	}
	WantProblem(t, c.Post("/v1/locales", map[string]any{"displayName": "no code"}), 400, "VALIDATION_FAILED", "code")
	if n := len(listAll(t, c, "/v1/locales")); n != before {
		t.Errorf("bad codes created locales: %d → %d", before, n)
	}

	// Update: canonicalised too, bad tags refused.
	l := mkLocale(t, c, "fr")
	u := Want(t, c.Patch("/v1/locales/"+Str(l, "uuid"), map[string]any{"code": "fr-ca"}), 200).Obj()
	if u["code"] != "fr-CA" {
		t.Errorf("updated code %v, want fr-CA", u["code"])
	}
	WantProblem(t, c.Patch("/v1/locales/"+Str(l, "uuid"), map[string]any{"code": "no such tag!"}), 400, "VALIDATION_FAILED", "code")
	if g := Want(t, c.Get("/v1/locales/"+Str(l, "uuid")), 200).Obj(); g["code"] != "fr-CA" {
		t.Errorf("after refused updates code %v", g["code"])
	}

	// displayName bounds (characters, not bytes).
	WantProblem(t, c.Post("/v1/locales", map[string]any{"code": "it-IT", "displayName": ""}), 400, "VALIDATION_FAILED", "displayName")
	WantProblem(t, c.Post("/v1/locales", map[string]any{"code": "it-IT", "displayName": strings.Repeat("x", 101)}), 400, "VALIDATION_FAILED", "displayName")
	if l := mkLocale(t, c, "it-IT", "displayName", strings.Repeat("é", 100)); l["displayName"] != strings.Repeat("é", 100) {
		t.Errorf("100-character displayName: %v", l["displayName"])
	}
}

func TestLocaleDuplicateCode(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	mkLocale(t, c, "en-US")
	de := mkLocale(t, c, "de-DE")

	// The same tag in another spelling is the same code.
	WantProblem(t, c.Post("/v1/locales", map[string]any{"code": "en-us"}), 409, "ALREADY_EXISTS", "code")
	WantProblem(t, c.Post("/v1/locales", map[string]any{"code": "en-US"}), 409, "ALREADY_EXISTS", "code")

	// Bulk: against an existing locale, and inside the request; nothing is created.
	r := c.Post("/v1/locales/bulk", []any{map[string]any{"code": "fr-FR"}, map[string]any{"code": "EN-US"}})
	WantProblem(t, r, 409, "ALREADY_EXISTS", "[1].code")
	r = c.Post("/v1/locales/bulk", []any{map[string]any{"code": "fr-FR"}, map[string]any{"code": "it-IT"}, map[string]any{"code": "fr-fr"}})
	WantProblem(t, r, 409, "ALREADY_EXISTS", "[2].code")
	WantTotal(t, c, "/v1/locales", 2)

	// Update onto an existing code.
	WantProblem(t, c.Patch("/v1/locales/"+Str(de, "uuid"), map[string]any{"code": "en-us"}), 409, "ALREADY_EXISTS", "code")
	if g := Want(t, c.Get("/v1/locales/"+Str(de, "uuid")), 200).Obj(); g["code"] != "de-DE" {
		t.Errorf("refused update changed code: %v", g)
	}
	// Setting a locale's own code again is fine.
	Want(t, c.Patch("/v1/locales/"+Str(de, "uuid"), map[string]any{"code": "de-de"}), 200)
}

// defaults is the uuids of the tenant's default locales per the list filter.
func defaults(t *testing.T, c *Client) []string {
	t.Helper()
	return UUIDsOf(listAll(t, c, "/v1/locales?isDefault[eq]=true"))
}

func wantDefault(t *testing.T, c *Client, step, id string) {
	t.Helper()
	if d := defaults(t, c); len(d) != 1 || d[0] != id {
		t.Errorf("%s: defaults %v, want exactly [%s]", step, d, id)
	}
	for _, l := range listAll(t, c, "/v1/locales") {
		if (Str(l, "uuid") == id) != (l["isDefault"] == true) {
			t.Errorf("%s: locale %s has isDefault %v", step, l["code"], l["isDefault"])
		}
	}
}

func TestLocaleDefault(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	if d := defaults(t, c); len(d) != 0 {
		t.Fatalf("a fresh tenant has defaults %v", d)
	}
	a := mkLocale(t, c, "en-US")
	wantDefault(t, c, "first locale", Str(a, "uuid"))
	b := mkLocale(t, c, "de-DE", "isDefault", false)
	wantDefault(t, c, "second locale", Str(a, "uuid"))

	// isDefault:true on create moves the default.
	cc := mkLocale(t, c, "fr-FR", "isDefault", true)
	if cc["isDefault"] != true {
		t.Errorf("create with isDefault true answered %v", cc)
	}
	wantDefault(t, c, "create with isDefault", Str(cc, "uuid"))
	ga := Want(t, c.Get("/v1/locales/"+Str(a, "uuid")), 200).Obj()
	if ga["isDefault"] != false {
		t.Errorf("old default still default: %v", ga)
	}
	if ga["updatedAt"] == a["updatedAt"] {
		t.Errorf("old default's updatedAt did not move when its isDefault was cleared: %v", ga)
	}

	// isDefault:true on update moves it again.
	u := Want(t, c.Patch("/v1/locales/"+Str(b, "uuid"), map[string]any{"isDefault": true}), 200).Obj()
	if u["isDefault"] != true {
		t.Errorf("update with isDefault true answered %v", u)
	}
	wantDefault(t, c, "update with isDefault", Str(b, "uuid"))

	// isDefault:true on the current default is a no-op success.
	Want(t, c.Patch("/v1/locales/"+Str(b, "uuid"), map[string]any{"isDefault": true}), 200)
	wantDefault(t, c, "default set again", Str(b, "uuid"))

	// isDefault:false on the default is refused; on another locale it is a no-op.
	WantProblem(t, c.Patch("/v1/locales/"+Str(b, "uuid"), map[string]any{"isDefault": false}), 400, "VALIDATION_FAILED", "isDefault")
	wantDefault(t, c, "after isDefault false", Str(b, "uuid"))
	if r := Want(t, c.Patch("/v1/locales/"+Str(a, "uuid"), map[string]any{"isDefault": false}), 200).Obj(); r["isDefault"] != false {
		t.Errorf("isDefault false on a non-default: %v", r)
	}
	wantDefault(t, c, "isDefault false on a non-default", Str(b, "uuid"))

	// Bulk create with one isDefault moves it; two are refused and create nothing.
	bc := Want(t, c.Post("/v1/locales/bulk", []any{map[string]any{"code": "it-IT"}, map[string]any{"code": "es-ES", "isDefault": true}}), 201).Objs()
	if bc[0]["isDefault"] != false || bc[1]["isDefault"] != true {
		t.Errorf("bulk create answered %v", bc)
	}
	wantDefault(t, c, "bulk create with isDefault", Str(bc[1], "uuid"))
	WantProblem(t, c.Post("/v1/locales/bulk", []any{
		map[string]any{"code": "nl-NL", "isDefault": true},
		map[string]any{"code": "pl-PL"},
		map[string]any{"code": "sv-SE", "isDefault": true},
	}), 400, "VALIDATION_FAILED", "[2].isDefault")
	WantTotal(t, c, "/v1/locales", 5)
	wantDefault(t, c, "refused bulk", Str(bc[1], "uuid"))
	_ = cc
}

// TestLocaleDefaultConcurrent: concurrent writes that each claim the default leave exactly one.
func TestLocaleDefaultConcurrent(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	var existing []string
	for i := 0; i < 6; i++ {
		existing = append(existing, Str(mkLocale(t, c, fmt.Sprintf("en-US-x-e%d", i)), "uuid"))
	}
	var wg sync.WaitGroup
	statuses := make(chan int, 12)
	for i := 0; i < 6; i++ {
		wg.Add(2)
		go func() {
			defer wg.Done()
			statuses <- c.Post("/v1/locales", map[string]any{"code": fmt.Sprintf("de-DE-x-c%d", i), "isDefault": true}).Status
		}()
		go func() {
			defer wg.Done()
			statuses <- c.Patch("/v1/locales/"+existing[i], map[string]any{"isDefault": true}).Status
		}()
	}
	wg.Wait()
	close(statuses)
	for st := range statuses {
		if st != 200 && st != 201 {
			t.Errorf("a concurrent default write answered %d", st)
		}
	}
	d := defaults(t, c)
	if len(d) != 1 {
		t.Fatalf("after concurrent default writes: defaults %v, want exactly one", d)
	}
	wantDefault(t, c, "after concurrent default writes", d[0])
	WantTotal(t, c, "/v1/locales", 12)
}

func TestLocaleFirstOfBulkBecomesDefault(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	res := Want(t, c.Post("/v1/locales/bulk", []any{map[string]any{"code": "en-US"}, map[string]any{"code": "de-DE"}}), 201).Objs()
	if len(res) != 2 || res[0]["isDefault"] != true || res[1]["isDefault"] != false {
		t.Fatalf("first bulk of a tenant: %v", res)
	}
	wantDefault(t, c, "first bulk", Str(res[0], "uuid"))

	c2 := env.Client(t)
	res = Want(t, c2.Post("/v1/locales/bulk", []any{map[string]any{"code": "en-US"}, map[string]any{"code": "de-DE", "isDefault": true}}), 201).Objs()
	if res[0]["isDefault"] != false || res[1]["isDefault"] != true {
		t.Fatalf("first bulk naming a default: %v", res)
	}
	wantDefault(t, c2, "first bulk naming a default", Str(res[1], "uuid"))
}

func TestLocaleDelete(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	def := mkLocale(t, c, "en-US")
	other := mkLocale(t, c, "de-DE")
	used := mkLocale(t, c, "fr-FR")

	// The default cannot be deleted.
	WantProblem(t, c.Delete("/v1/locales/"+Str(def, "uuid")), 409, "IN_USE")
	Want(t, c.Get("/v1/locales/"+Str(def, "uuid")), 200)
	wantDefault(t, c, "after refused delete", Str(def, "uuid"))

	// A locale used by an attribute content cannot be deleted.
	attr := mkAttr(t, c, "color")
	content := mkContent(t, c, attrContents(attr), Str(used, "uuid"), "Couleur")
	WantProblem(t, c.Delete("/v1/locales/"+Str(used, "uuid")), 409, "IN_USE")
	Want(t, c.Get("/v1/locales/"+Str(used, "uuid")), 200)

	// ... nor one used by a term content.
	term := mkTerm(t, c, attr, "red")
	tc := mkContent(t, c, termContents(attr, Str(term, "uuid")), Str(other, "uuid"), "Rot")
	WantProblem(t, c.Delete("/v1/locales/"+Str(other, "uuid")), 409, "IN_USE")

	// Once the contents are gone they can.
	r := Want(t, c.Delete(attrContents(attr)+"/"+Str(content, "uuid")), 204)
	if len(r.Raw) != 0 {
		t.Errorf("delete answered a body: %q", r.Raw)
	}
	r = Want(t, c.Delete("/v1/locales/"+Str(used, "uuid")), 204)
	if len(r.Raw) != 0 {
		t.Errorf("delete answered a body: %q", r.Raw)
	}
	WantProblem(t, c.Get("/v1/locales/"+Str(used, "uuid")), 404, "NOT_FOUND")
	WantProblem(t, c.Delete("/v1/locales/"+Str(used, "uuid")), 404, "NOT_FOUND")
	Want(t, c.Delete(termContents(attr, Str(term, "uuid"))+"/"+Str(tc, "uuid")), 204)
	Want(t, c.Delete("/v1/locales/"+Str(other, "uuid")), 204)

	// After moving the default away, the old default can be deleted.
	nd := mkLocale(t, c, "it-IT", "isDefault", true)
	Want(t, c.Delete("/v1/locales/"+Str(def, "uuid")), 204)
	wantDefault(t, c, "after deleting the old default", Str(nd, "uuid"))
	WantTotal(t, c, "/v1/locales", 1)
}

func TestLocaleUpdate(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	l := mkLocale(t, c, "en-US", "displayName", "English")
	id := Str(l, "uuid")
	time.Sleep(2 * time.Millisecond)

	u := Want(t, c.Patch("/v1/locales/"+id, map[string]any{"displayName": "English (US)"}), 200).Obj()
	WantKeys(t, "update", u, localeKeys...)
	WantCommon(t, "update", u)
	if u["displayName"] != "English (US)" || u["code"] != "en-US" || u["isDefault"] != true || u["createdAt"] != l["createdAt"] {
		t.Errorf("update answered %v", u)
	}
	if !(Str(u, "updatedAt") > Str(l, "updatedAt")) {
		t.Errorf("updatedAt %v did not move past %v", u["updatedAt"], l["updatedAt"])
	}
	// null on a non-nullable field leaves it unchanged; so does an empty body.
	for _, body := range []any{map[string]any{"displayName": nil, "code": nil}, map[string]any{}} {
		u = Want(t, c.Patch("/v1/locales/"+id, body), 200).Obj()
		if u["displayName"] != "English (US)" || u["code"] != "en-US" {
			t.Errorf("PATCH %v changed the locale: %v", body, u)
		}
	}
	WantProblem(t, c.Patch("/v1/locales/"+id, map[string]any{"displayName": ""}), 400, "VALIDATION_FAILED", "displayName")
	WantProblem(t, c.Patch("/v1/locales/"+id, map[string]any{"isDefault": "yes"}), 400, "MALFORMED_REQUEST")
	WantProblem(t, c.Patch("/v1/locales/0190aaaa-0000-7000-8000-000000000000", map[string]any{"displayName": "x"}), 404, "NOT_FOUND")
}

// TestLocaleBulkUpdate: PATCH /v1/locales/bulk updates several locales atomically.
func TestLocaleBulkUpdate(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	en := mkLocale(t, c, "en-US")
	de := mkLocale(t, c, "de-DE")
	fr := mkLocale(t, c, "fr-FR")
	id := func(m map[string]any) string { return Str(m, "uuid") }
	get := func(m map[string]any) map[string]any { return Want(t, c.Get("/v1/locales/"+id(m)), 200).Obj() }

	r := Want(t, c.Patch("/v1/locales/bulk", []any{
		map[string]any{"uuid": id(de), "displayName": "Deutsch"},
		map[string]any{"uuid": id(fr), "code": "fr-ca"},
	}), 200)
	res := r.Objs()
	if len(res) != 2 || res[0]["uuid"] != id(de) || res[0]["displayName"] != "Deutsch" || res[1]["uuid"] != id(fr) || res[1]["code"] != "fr-CA" || res[1]["displayName"] != "fr-FR" {
		t.Errorf("bulk update answered %s", r.Raw)
	}
	for _, it := range res {
		WantKeys(t, "bulk update item", it, localeKeys...)
		WantCommon(t, "bulk update item", it)
	}
	if g := get(fr); g["code"] != "fr-CA" {
		t.Errorf("after bulk update: %v", g)
	}

	// The item that sets isDefault moves the default; the response reflects it.
	res = Want(t, c.Patch("/v1/locales/bulk", []any{
		map[string]any{"uuid": id(de), "isDefault": true, "displayName": "German"},
		map[string]any{"uuid": id(fr), "displayName": "Français"},
	}), 200).Objs()
	if len(res) != 2 || res[0]["isDefault"] != true || res[0]["displayName"] != "German" || res[1]["isDefault"] != false {
		t.Errorf("bulk update with isDefault answered %v", res)
	}
	wantDefault(t, c, "bulk update with isDefault", id(de))

	// Failures name the item and change nothing.
	WantProblem(t, c.Patch("/v1/locales/bulk", []any{map[string]any{"uuid": id(en), "displayName": "E"}, map[string]any{"uuid": id(fr), "code": "x y"}}), 400, "VALIDATION_FAILED", "[1].code")
	WantProblem(t, c.Patch("/v1/locales/bulk", []any{map[string]any{"uuid": id(en), "displayName": "E"}, map[string]any{"uuid": id(fr), "code": "en-us"}}), 409, "ALREADY_EXISTS", "[1].code")
	WantProblem(t, c.Patch("/v1/locales/bulk", []any{map[string]any{"uuid": id(en), "displayName": "E"}, map[string]any{"uuid": id(de), "isDefault": false}}), 400, "VALIDATION_FAILED", "[1].isDefault")
	WantProblem(t, c.Patch("/v1/locales/bulk", []any{map[string]any{"uuid": id(en), "displayName": "E"}, map[string]any{"displayName": "x"}}), 400, "VALIDATION_FAILED", "[1].uuid")
	WantProblem(t, c.Patch("/v1/locales/bulk", []any{map[string]any{"uuid": id(en), "displayName": "E"}, map[string]any{"uuid": "0190aaaa-0000-7000-8000-000000000000", "displayName": "y"}}), 404, "NOT_FOUND", "[1].uuid")
	WantProblem(t, c.Patch("/v1/locales/bulk", []any{map[string]any{"uuid": id(en), "displayName": ""}}), 400, "VALIDATION_FAILED", "[0].displayName")
	if g := get(en); g["displayName"] != "en-US" {
		t.Errorf("a refused bulk update changed item [0]: %v", g)
	}
	if g := get(fr); g["code"] != "fr-CA" || g["displayName"] != "Français" {
		t.Errorf("a refused bulk update changed item [1]: %v", g)
	}
	wantDefault(t, c, "after refused bulk updates", id(de))
}

// TestLocaleBulkUpdateTwoDefaults: a bulk update naming two new defaults must not answer (or
// leave) two defaults. Refusing it like bulk create does (400 naming [1].isDefault, nothing changed)
// is the consistent answer; applying it is acceptable only if the answer matches what was stored:
// exactly one item, the one that really is the default, says isDefault true.
func TestLocaleBulkUpdateTwoDefaults(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	en := Str(mkLocale(t, c, "en-US"), "uuid")
	de := Str(mkLocale(t, c, "de-DE"), "uuid")
	fr := Str(mkLocale(t, c, "fr-FR"), "uuid")
	r := c.Patch("/v1/locales/bulk", []any{
		map[string]any{"uuid": de, "isDefault": true},
		map[string]any{"uuid": fr, "isDefault": true},
	})
	switch r.Status {
	case 400:
		WantProblem(t, r, 400, "VALIDATION_FAILED", "[1].isDefault")
		wantDefault(t, c, "refused bulk update with two defaults", en)
	case 200:
		d := defaults(t, c)
		if len(d) != 1 {
			t.Fatalf("defaults after the bulk update: %v", d)
		}
		var claimed []string
		for _, it := range r.Objs() {
			if it["isDefault"] == true {
				claimed = append(claimed, Str(it, "uuid"))
			}
			g := Want(t, c.Get("/v1/locales/"+Str(it, "uuid")), 200).Obj()
			if g["isDefault"] != it["isDefault"] {
				t.Errorf("bulk update answered %s isDefault %v, but it is stored as %v", it["code"], it["isDefault"], g["isDefault"])
			}
		}
		if len(claimed) != 1 || claimed[0] != d[0] {
			t.Errorf("bulk update answered defaults %v, stored default is %v: %s", claimed, d, r.Raw)
		}
	default:
		t.Fatalf("bulk update with two defaults: %d %s", r.Status, r.Raw)
	}
}

// TestLocaleBulkUpdateAnswersStoredState: every item of a bulk update answer is the locale as
// stored after the whole request, also when a later item moves the default away from an earlier one.
func TestLocaleBulkUpdateAnswersStoredState(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	en := Str(mkLocale(t, c, "en-US"), "uuid")
	de := Str(mkLocale(t, c, "de-DE"), "uuid")
	r := Want(t, c.Patch("/v1/locales/bulk", []any{
		map[string]any{"uuid": en, "displayName": "English"},
		map[string]any{"uuid": de, "isDefault": true},
	}), 200)
	wantDefault(t, c, "bulk update moving the default", de)
	for _, it := range r.Objs() {
		g := Want(t, c.Get("/v1/locales/"+Str(it, "uuid")), 200).Obj()
		for _, k := range localeKeys {
			if fmt.Sprint(g[k]) != fmt.Sprint(it[k]) {
				t.Errorf("bulk update answered %s %s=%v, but it is stored as %v", it["code"], k, it[k], g[k])
			}
		}
	}
}

func TestLocaleListFilters(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	enUS := mkLocale(t, c, "en-US", "displayName", "English (United States)")
	time.Sleep(2 * time.Millisecond)
	bulk := Want(t, c.Post("/v1/locales/bulk", []any{
		map[string]any{"code": "en-GB", "displayName": "English (United Kingdom)"},
		map[string]any{"code": "de-DE", "displayName": "Deutsch"},
	}), 201).Objs()
	enGB, deDE := bulk[0], bulk[1]
	time.Sleep(2 * time.Millisecond)
	frFR := mkLocale(t, c, "fr-FR", "displayName", "Français 100%_x")
	time.Sleep(2 * time.Millisecond)
	frCA := mkLocale(t, c, "fr-CA", "displayName", "Français (Canada)")
	id := func(m map[string]any) string { return Str(m, "uuid") }
	L := "/v1/locales"

	// Default order: createdAt, then uuid (the bulk pair shares createdAt).
	pair := []string{id(enGB), id(deDE)}
	slices.Sort(pair)
	WantUUIDs(t, c, L, true, id(enUS), pair[0], pair[1], id(frFR), id(frCA))
	WantUUIDs(t, c, L+Q("uuids[eq]", id(deDE), "uuids[eq]", id(frCA)), false, id(deDE), id(frCA))
	WantUUIDs(t, c, L+Q("codes[eq]", "en-US", "codes[eq]", "fr-CA", "codes[eq]", "xx"), false, id(enUS), id(frCA))
	WantUUIDs(t, c, L+Q("code[contains]", "EN"), false, id(enUS), id(enGB)) // case-insensitive
	WantUUIDs(t, c, L+Q("code[starts]", "fr"), false, id(frFR), id(frCA))
	WantUUIDs(t, c, L+Q("code[ends]", "-de"), false, id(deDE))
	WantUUIDs(t, c, L+Q("displayNames[eq]", "Deutsch", "displayNames[eq]", "Français (Canada)"), false, id(deDE), id(frCA))
	WantUUIDs(t, c, L+Q("displayName[contains]", "united"), false, id(enUS), id(enGB))
	WantUUIDs(t, c, L+Q("displayName[starts]", "fran"), false, id(frFR), id(frCA))
	WantUUIDs(t, c, L+Q("displayName[ends]", "kingdom)"), false, id(enGB))
	WantUUIDs(t, c, L+Q("displayName[contains]", "%_"), false, id(frFR)) // % and _ are literal
	WantUUIDs(t, c, L+Q("displayName[contains]", "_"), false, id(frFR))
	WantUUIDs(t, c, L+Q("displayName[contains]", "united", "code[ends]", "gb"), false, id(enGB)) // filters combine
	WantUUIDs(t, c, L+Q("isDefault[eq]", "true"), false, id(enUS))
	WantUUIDs(t, c, L+Q("isDefault[eq]", "false"), false, id(enGB), id(deDE), id(frFR), id(frCA))

	// Time filters: the bulk items share createdAt.
	ca := Str(enGB, "createdAt")
	if Str(deDE, "createdAt") != ca {
		t.Errorf("bulk items have different createdAt: %v %v", ca, deDE["createdAt"])
	}
	WantUUIDs(t, c, L+Q("createdAt[eq]", ca), false, id(enGB), id(deDE))
	WantUUIDs(t, c, L+Q("createdAt[min]", ca), false, id(enGB), id(deDE), id(frFR), id(frCA))
	WantUUIDs(t, c, L+Q("createdAt[max]", ca), false, id(enUS), id(enGB), id(deDE))
	WantUUIDs(t, c, L+Q("createdAt[min]", ca, "createdAt[max]", Str(frFR, "createdAt")), false, id(enGB), id(deDE), id(frFR))
	WantUUIDs(t, c, L+Q("createdAt[max]", "2000-01-01T00:00:00Z"), false)

	time.Sleep(2 * time.Millisecond)
	u := Want(t, c.Patch(L+"/"+id(deDE), map[string]any{"displayName": "Deutsch (Deutschland)"}), 200).Obj()
	WantUUIDs(t, c, L+Q("updatedAt[eq]", Str(u, "updatedAt")), false, id(deDE))
	WantUUIDs(t, c, L+Q("updatedAt[min]", Str(u, "updatedAt")), false, id(deDE))
	WantUUIDs(t, c, L+Q("updatedAt[max]", Str(frCA, "updatedAt")), false, id(enUS), id(enGB), id(frFR), id(frCA))

	// Order.
	WantUUIDs(t, c, L+Q("code[order]", "asc"), true, id(deDE), id(enGB), id(enUS), id(frCA), id(frFR))
	WantUUIDs(t, c, L+Q("code[order]", "desc"), true, id(frFR), id(frCA), id(enUS), id(enGB), id(deDE))
	WantUUIDs(t, c, L+Q("displayName[order]", "asc"), true, id(deDE), id(enGB), id(enUS), id(frCA), id(frFR))
	WantUUIDs(t, c, L+Q("createdAt[order]", "desc", "code[order]", "asc"), true, id(frCA), id(frFR), id(deDE), id(enGB), id(enUS))
	WantUUIDs(t, c, L+Q("updatedAt[order]", "desc"), true, id(deDE), id(frCA), id(frFR), id(enGB), id(enUS))

	// Pagination.
	p1 := Want(t, c.Get(L+Q("size", "2", "code[order]", "asc")), 200)
	wantPage(t, p1, 1, 2, 5, 3)
	if got := UUIDsOf(p1.Items()); len(got) != 2 || got[0] != id(deDE) || got[1] != id(enGB) {
		t.Errorf("page 1: %v", got)
	}
	p3 := Want(t, c.Get(L+Q("size", "2", "page", "3", "code[order]", "asc")), 200)
	wantPage(t, p3, 3, 2, 5, 3)
	if got := UUIDsOf(p3.Items()); len(got) != 1 || got[0] != id(frFR) {
		t.Errorf("page 3: %v", got)
	}
	p4 := Want(t, c.Get(L+Q("size", "2", "page", "4")), 200)
	wantPage(t, p4, 4, 2, 5, 3)
	if len(p4.Items()) != 0 {
		t.Errorf("page past the end has items: %s", p4.Raw)
	}
	wantPage(t, Want(t, c.Get(L), 200), 1, 20, 5, 1)
	wantPage(t, Want(t, c.Get(L+Q("codes[eq]", "xx")), 200), 1, 20, 0, 0)

	// Bad parameters are 400 naming them.
	for _, bad := range []struct{ query, field string }{
		{Q("size", "0"), "size"},
		{Q("size", "101"), "size"},
		{Q("page", "0"), "page"},
		{Q("colour[eq]", "x"), "colour[eq]"},
		{Q("isDefault[eq]", "maybe"), "isDefault[eq]"},
		{Q("createdAt[min]", "yesterday"), "createdAt[min]"},
		{Q("uuids[eq]", "nope"), "uuids[eq]"},
		{Q("code[order]", "up"), "code[order]"},
		{Q("isDefault[order]", "asc"), "isDefault[order]"},
	} {
		r := c.Get(L + bad.query)
		if r.Status != 400 {
			t.Errorf("GET %s: %d, want 400: %s", bad.query, r.Status, r.Raw)
			continue
		}
		WantProblem(t, r, 400, Str(r.Obj(), "code"), bad.field)
	}
}

func wantPage(t *testing.T, r Resp, page, size, total, pages int) {
	t.Helper()
	p, _ := r.Obj()["pagination"].(map[string]any)
	got := []int{int(p["page"].(float64)), int(p["size"].(float64)), int(p["totalItems"].(float64)), int(p["totalPages"].(float64))}
	want := []int{page, size, total, pages}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("pagination %v, want page %d size %d totalItems %d totalPages %d", p, page, size, total, pages)
			return
		}
	}
	if _, ok := r.Obj()["items"].([]any); !ok {
		t.Errorf("items is not an array: %s", r.Raw)
	}
}
