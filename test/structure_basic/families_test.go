package structure_basic

import (
	"bytes"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	. "github.com/catalogd/catalogd/server/apptest"
)

// The code/displayName contract every family of the group follows (API.md, DESIGN.md).

func TestCreateGetShape(t *testing.T) {
	forEachFamily(t, func(t *testing.T, f family) {
		c := env.Client(t)
		r := Want(t, c.Post(f.path, f.body("acme", "displayName", "ACME Corporation")), 201)
		a := r.Obj()
		f.wantItem(t, "create", a, "acme", "ACME Corporation")
		if a["createdAt"] != a["updatedAt"] {
			t.Errorf("create: createdAt %v != updatedAt %v", a["createdAt"], a["updatedAt"])
		}
		if d := time.Since(TS(t, a["createdAt"])); d < -time.Minute || d > time.Minute {
			t.Errorf("create: createdAt %v is not now", a["createdAt"])
		}
		if loc := r.Header.Get("Location"); loc != f.item(Str(a, "uuid")) {
			t.Errorf("Location %q, want %s", loc, f.item(Str(a, "uuid")))
		}
		if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			t.Errorf("content-type %q", ct)
		}
		g := Want(t, c.Get(f.item(Str(a, "uuid"))), 200)
		if !bytes.Equal(g.Raw, r.Raw) {
			t.Errorf("get %s differs from create %s", g.Raw, r.Raw)
		}
		if f.contents && !bytes.Contains(r.Raw, []byte(`"contentUuids":null`)) || f.contents && !bytes.Contains(r.Raw, []byte(`"contents":null`)) {
			t.Errorf("contentUuids / contents are not written as null: %s", r.Raw)
		}

		// displayName defaults to code.
		b := f.create(t, c, "globex")
		f.wantItem(t, "create without displayName", b, "globex", "globex")

		// Lengths count characters: 100 multi-byte characters are fine.
		long := strings.Repeat("é", 100)
		f.wantItem(t, "100 characters", f.create(t, c, long, "displayName", long), long, long)
	})
}

func TestCreateValidation(t *testing.T) {
	forEachFamily(t, func(t *testing.T, f family) {
		c, tenant := env.TenantClient(t)
		WantProblem(t, c.Post(f.path, f.body("")), 400, "VALIDATION_FAILED", "code")
		WantProblem(t, c.Post(f.path, f.body("", "code", "")), 400, "VALIDATION_FAILED", "code")
		WantProblem(t, c.Post(f.path, f.body(strings.Repeat("x", 101))), 400, "VALIDATION_FAILED", "code")
		WantProblem(t, c.Post(f.path, f.body("ok", "displayName", "")), 400, "VALIDATION_FAILED", "displayName")
		WantProblem(t, c.Post(f.path, f.body("ok", "displayName", strings.Repeat("é", 101))), 400, "VALIDATION_FAILED", "displayName")
		// Both violations are reported at once.
		r := WantProblem(t, c.Post(f.path, f.body("", "displayName", "")), 400, "VALIDATION_FAILED")
		if fs := ErrFields(Resp{Body: r}); !reflect.DeepEqual(fs, []string{"code", "displayName"}) {
			t.Errorf("violations %v, want code and displayName", fs)
		}
		// Decoding errors.
		WantProblem(t, c.Post(f.path, f.body("ok", "colour", "red")), 400, "MALFORMED_REQUEST", "colour")
		WantProblem(t, c.Post(f.path, f.body("", "code", 12)), 400, "MALFORMED_REQUEST", "code")
		WantProblem(t, c.Post(f.path, `{"code": "x"`), 400, "MALFORMED_REQUEST")
		WantProblem(t, c.Post(f.path, `[]`), 400, "MALFORMED_REQUEST")
		if n := CountRows(t, pool, f.table, tenant); n != 0 {
			t.Errorf("%d rows after refused creates", n)
		}
	})
}

func TestDuplicateCodes(t *testing.T) {
	forEachFamily(t, func(t *testing.T, f family) {
		c, tenant := env.TenantClient(t)
		a := f.create(t, c, "acme")
		b := f.create(t, c, "globex")
		p := WantProblem(t, c.Post(f.path, f.body("acme", "displayName", "Other")), 409, "ALREADY_EXISTS", "code")
		if !strings.Contains(Str(p, "detail"), "acme") {
			t.Errorf("conflict detail does not name the code: %v", p["detail"])
		}
		// Codes are case-sensitive, as stored.
		f.create(t, c, "ACME")
		// In a bulk: against an existing row and within the request; each item is named.
		r := c.Post(f.path+"/bulk", []any{f.body("new-1"), f.body("acme"), f.body("new-2"), f.body("new-2")})
		WantProblem(t, r, 409, "ALREADY_EXISTS", "[1].code")
		if fs := ErrFields(r); !reflect.DeepEqual(fs, []string{"[1].code", "[3].code"}) {
			t.Errorf("bulk conflicts name %v, want [1].code and [3].code", fs)
		}
		// Update onto another item's code.
		WantProblem(t, c.Patch(f.item(Str(b, "uuid")), map[string]any{"code": "acme"}), 409, "ALREADY_EXISTS", "code")
		WantProblem(t, c.Patch(f.path+"/bulk", []any{
			map[string]any{"uuid": Str(a, "uuid"), "displayName": "fine"},
			map[string]any{"uuid": Str(b, "uuid"), "code": "acme"},
		}), 409, "ALREADY_EXISTS", "[1].code")
		if g := f.get(t, c, Str(a, "uuid")); !reflect.DeepEqual(g, a) {
			t.Errorf("a refused bulk update changed %v into %v", a, g)
		}
		if n := CountRows(t, pool, f.table, tenant); n != 3 {
			t.Errorf("%d rows, want 3", n)
		}
		// Another tenant may use the same code.
		f.create(t, env.Client(t), "acme")
	})
}

func TestBulkCreate(t *testing.T) {
	forEachFamily(t, func(t *testing.T, f family) {
		c, tenant := env.TenantClient(t)
		r := Want(t, c.Post(f.path+"/bulk", []any{f.body("zeta"), f.body("alpha", "displayName", "Alpha"), f.body("mid")}), 201)
		items := r.Objs()
		if len(items) != 3 {
			t.Fatalf("bulk create answered %s", r.Raw)
		}
		f.wantItem(t, "[0]", items[0], "zeta", "zeta")
		f.wantItem(t, "[1]", items[1], "alpha", "Alpha")
		f.wantItem(t, "[2]", items[2], "mid", "mid")
		if loc := r.Header.Get("Location"); loc != "" {
			t.Errorf("bulk create sent Location %q", loc)
		}
		for _, it := range items {
			if it["createdAt"] != items[0]["createdAt"] {
				t.Errorf("bulk items have different createdAt: %v", items)
			}
			if g := f.get(t, c, Str(it, "uuid")); !reflect.DeepEqual(g, it) {
				t.Errorf("get %v, created %v", g, it)
			}
		}
		// The default order (createdAt, then uuid v7) is the request order of a bulk.
		wantCodes(t, "default order", listCodes(t, c, f.path), true, "zeta", "alpha", "mid")

		// All or nothing: any invalid item refuses the whole bulk, naming the items.
		r = c.Post(f.path+"/bulk", []any{f.body("ok-1"), f.body(""), f.body("ok-2", "displayName", strings.Repeat("x", 101))})
		WantProblem(t, r, 400, "VALIDATION_FAILED", "[1].code")
		if fs := ErrFields(r); !reflect.DeepEqual(fs, []string{"[1].code", "[2].displayName"}) {
			t.Errorf("bulk violations %v", fs)
		}
		WantProblem(t, c.Post(f.path+"/bulk", []any{f.body("ok-1"), f.body("ok-2", "bogus", 1)}), 400, "MALFORMED_REQUEST", "[1].bogus")
		WantProblem(t, c.Post(f.path+"/bulk", []any{}), 400, "VALIDATION_FAILED")
		WantProblem(t, c.Post(f.path+"/bulk", f.body("single")), 400, "MALFORMED_REQUEST")
		many := make([]any, 101)
		for i := range many {
			many[i] = f.body(fmt.Sprintf("c%03d", i))
		}
		WantProblem(t, c.Post(f.path+"/bulk", many), 400, "VALIDATION_FAILED")
		if n := CountRows(t, pool, f.table, tenant); n != 3 {
			t.Errorf("%d rows after refused bulks, want 3", n)
		}
		// 100 items is the limit, not over it.
		Want(t, c.Post(f.path+"/bulk", many[:100]), 201)
		if n := CountRows(t, pool, f.table, tenant); n != 103 {
			t.Errorf("%d rows, want 103", n)
		}
	})
}

func TestUpdate(t *testing.T) {
	forEachFamily(t, func(t *testing.T, f family) {
		c := env.Client(t)
		a := f.create(t, c, "acme", "displayName", "ACME")
		id := Str(a, "uuid")
		time.Sleep(2 * time.Millisecond)

		// Only the fields given change; updatedAt moves, createdAt does not.
		u := Want(t, c.Patch(f.item(id), map[string]any{"displayName": "ACME Corp"}), 200).Obj()
		f.wantItem(t, "update displayName", u, "acme", "ACME Corp")
		if u["uuid"] != id || u["createdAt"] != a["createdAt"] || !TS(t, u["updatedAt"]).After(TS(t, a["updatedAt"])) {
			t.Errorf("update: %v after %v", u, a)
		}
		u = Want(t, c.Patch(f.item(id), map[string]any{"code": "acme-corp"}), 200).Obj()
		f.wantItem(t, "update code", u, "acme-corp", "ACME Corp")
		// null on a field that cannot be null leaves it unchanged.
		u = Want(t, c.Patch(f.item(id), map[string]any{"code": nil, "displayName": nil}), 200).Obj()
		f.wantItem(t, "update with nulls", u, "acme-corp", "ACME Corp")
		// An empty body, or one that gives the stored values, changes nothing, updatedAt included.
		prev := u
		time.Sleep(2 * time.Millisecond)
		u = Want(t, c.Patch(f.item(id), map[string]any{}), 200).Obj()
		f.wantItem(t, "empty update", u, "acme-corp", "ACME Corp")
		if !reflect.DeepEqual(u, prev) {
			t.Errorf("empty update = %v, want the stored %v", u, prev)
		}
		u = Want(t, c.Patch(f.item(id), map[string]any{"code": "acme-corp", "displayName": "ACME Corp"}), 200).Obj()
		if !reflect.DeepEqual(u, prev) {
			t.Errorf("same-value update = %v, want the stored %v", u, prev)
		}
		if g := f.get(t, c, id); !reflect.DeepEqual(g, u) {
			t.Errorf("get %v after update %v", g, u)
		}

		// Refusals change nothing.
		WantProblem(t, c.Patch(f.item(id), map[string]any{"code": ""}), 400, "VALIDATION_FAILED", "code")
		WantProblem(t, c.Patch(f.item(id), map[string]any{"displayName": strings.Repeat("x", 101)}), 400, "VALIDATION_FAILED", "displayName")
		WantProblem(t, c.Patch(f.item(id), map[string]any{"colour": "red"}), 400, "MALFORMED_REQUEST", "colour")
		WantProblem(t, c.Patch(f.item(id), map[string]any{"code": 5}), 400, "MALFORMED_REQUEST", "code")
		WantProblem(t, c.Patch(f.item(randomUUID()), map[string]any{"displayName": "x"}), 404, "NOT_FOUND")
		WantProblem(t, c.Patch(f.item("not-a-uuid"), map[string]any{"displayName": "x"}), 400, "VALIDATION_FAILED", f.idKey)
		if g := f.get(t, c, id); !reflect.DeepEqual(g, u) {
			t.Errorf("refused updates changed %v into %v", u, g)
		}
	})
}

func TestBulkUpdate(t *testing.T) {
	forEachFamily(t, func(t *testing.T, f family) {
		c := env.Client(t)
		items := f.bulkCreate(t, c, "a", "b", "c")
		a, b, cc := Str(items[0], "uuid"), Str(items[1], "uuid"), Str(items[2], "uuid")

		res := Want(t, c.Patch(f.path+"/bulk", []any{
			map[string]any{"uuid": cc, "displayName": "Charlie"},
			map[string]any{"uuid": a, "code": "alpha", "displayName": nil},
		}), 200).Objs()
		if len(res) != 2 {
			t.Fatalf("bulk update answered %v", res)
		}
		f.wantItem(t, "[0]", res[0], "c", "Charlie")
		f.wantItem(t, "[1]", res[1], "alpha", "a")
		if Str(res[0], "uuid") != cc || Str(res[1], "uuid") != a {
			t.Errorf("bulk update answered %v, not in request order", UUIDsOf(res))
		}
		// Two codes may be swapped through a third in one bulk (each item in order).
		Want(t, c.Patch(f.path+"/bulk", []any{
			map[string]any{"uuid": a, "code": "tmp"},
			map[string]any{"uuid": b, "code": "alpha"},
			map[string]any{"uuid": a, "code": "b"},
		}), 200)
		wantCodes(t, "after the swap", listCodes(t, c, f.path), true, "b", "alpha", "c")
		before := Want(t, c.Get(f.path), 200).Raw

		// All or nothing, naming the item.
		WantProblem(t, c.Patch(f.path+"/bulk", []any{map[string]any{"uuid": a, "displayName": "x"}, map[string]any{"displayName": "y"}}),
			400, "VALIDATION_FAILED", "[1].uuid")
		WantProblem(t, c.Patch(f.path+"/bulk", []any{map[string]any{"uuid": a, "displayName": "x"}, map[string]any{"uuid": "nope"}}),
			400, "VALIDATION_FAILED", "[1].uuid")
		WantProblem(t, c.Patch(f.path+"/bulk", []any{map[string]any{"uuid": a, "displayName": "x"}, map[string]any{"uuid": b, "code": ""}}),
			400, "VALIDATION_FAILED", "[1].code")
		WantProblem(t, c.Patch(f.path+"/bulk", []any{map[string]any{"uuid": a, "displayName": "x"}, map[string]any{"uuid": randomUUID(), "displayName": "y"}}),
			404, "NOT_FOUND", "[1].uuid")
		WantProblem(t, c.Patch(f.path+"/bulk", []any{}), 400, "VALIDATION_FAILED")
		if after := Want(t, c.Get(f.path), 200).Raw; !bytes.Equal(before, after) {
			t.Errorf("refused bulk updates changed the list:\n%s\n%s", before, after)
		}
	})
}

func TestDelete(t *testing.T) {
	forEachFamily(t, func(t *testing.T, f family) {
		c, tenant := env.TenantClient(t)
		a := f.create(t, c, "acme")
		b := f.create(t, c, "globex")
		r := Want(t, c.Delete(f.item(Str(a, "uuid"))), 204)
		if len(r.Raw) != 0 {
			t.Errorf("delete answered a body: %s", r.Raw)
		}
		WantProblem(t, c.Get(f.item(Str(a, "uuid"))), 404, "NOT_FOUND")
		WantProblem(t, c.Delete(f.item(Str(a, "uuid"))), 404, "NOT_FOUND")
		WantProblem(t, c.Delete(f.item("nope")), 400, "VALIDATION_FAILED", f.idKey)
		wantCodes(t, "after delete", listCodes(t, c, f.path), true, "globex")
		if n := CountRows(t, pool, f.table, tenant); n != 1 {
			t.Errorf("%d rows, want 1", n)
		}
		// The code is free again.
		f.create(t, c, "acme")
		f.get(t, c, Str(b, "uuid"))
	})
}

func TestListFilters(t *testing.T) {
	forEachFamily(t, func(t *testing.T, f family) {
		c := env.Client(t)
		items := f.bulkCreate(t, c, "red_1", "Red-2", "blue%", "green")
		Want(t, c.Patch(f.path+"/bulk", []any{
			map[string]any{"uuid": Str(items[0], "uuid"), "displayName": "Crimson Red"},
			map[string]any{"uuid": Str(items[2], "uuid"), "displayName": "Navy"},
		}), 200)
		p := f.path
		wantCodes(t, "no filter", listCodes(t, c, p), false, "red_1", "Red-2", "blue%", "green")
		wantCodes(t, "uuids", listCodes(t, c, p+Q("uuids[eq]", Str(items[1], "uuid"), "uuids[eq]", Str(items[3], "uuid"), "uuids[eq]", randomUUID())), false, "Red-2", "green")
		wantCodes(t, "codes", listCodes(t, c, p+Q("codes[eq]", "green", "codes[eq]", "red_1", "codes[eq]", "RED_1")), false, "green", "red_1")
		wantCodes(t, "code contains (case-insensitive)", listCodes(t, c, p+Q("code[contains]", "RED")), false, "red_1", "Red-2")
		wantCodes(t, "code contains _ literally", listCodes(t, c, p+Q("code[contains]", "_")), false, "red_1")
		wantCodes(t, "code contains % literally", listCodes(t, c, p+Q("code[contains]", "%")), false, "blue%")
		wantCodes(t, "code starts", listCodes(t, c, p+Q("code[starts]", "re")), false, "red_1", "Red-2")
		wantCodes(t, "code ends", listCodes(t, c, p+Q("code[ends]", "N")), false, "green")
		wantCodes(t, "code starts and ends", listCodes(t, c, p+Q("code[starts]", "r", "code[ends]", "2")), false, "Red-2")
		wantCodes(t, "displayNames", listCodes(t, c, p+Q("displayNames[eq]", "Navy", "displayNames[eq]", "green")), false, "blue%", "green")
		wantCodes(t, "displayName contains", listCodes(t, c, p+Q("displayName[contains]", "red")), false, "red_1", "Red-2")
		wantCodes(t, "displayName starts", listCodes(t, c, p+Q("displayName[starts]", "cri")), false, "red_1")
		wantCodes(t, "displayName ends", listCodes(t, c, p+Q("displayName[ends]", "VY")), false, "blue%")

		// Timestamps: the bulk shares createdAt; the two updated items have a later updatedAt.
		created := Str(items[0], "createdAt")
		updated := Str(f.get(t, c, Str(items[0], "uuid")), "updatedAt")
		wantCodes(t, "createdAt eq", listCodes(t, c, p+Q("createdAt[eq]", created)), false, "red_1", "Red-2", "blue%", "green")
		wantCodes(t, "createdAt min after", listCodes(t, c, p+Q("createdAt[min]", TS(t, created).Add(time.Microsecond).Format(time.RFC3339Nano))), false)
		wantCodes(t, "createdAt max (inclusive)", listCodes(t, c, p+Q("createdAt[max]", created)), false, "red_1", "Red-2", "blue%", "green")
		wantCodes(t, "updatedAt eq", listCodes(t, c, p+Q("updatedAt[eq]", updated)), false, "red_1", "blue%")
		wantCodes(t, "updatedAt min (inclusive)", listCodes(t, c, p+Q("updatedAt[min]", updated)), false, "red_1", "blue%")
		wantCodes(t, "updatedAt max before", listCodes(t, c, p+Q("updatedAt[max]", TS(t, updated).Add(-time.Microsecond).Format(time.RFC3339Nano))), false, "Red-2", "green")
		wantCodes(t, "filters combine", listCodes(t, c, p+Q("code[contains]", "e", "updatedAt[min]", updated)), false, "red_1", "blue%")

		// Malformed or unknown parameters are 400 naming them.
		WantProblem(t, c.Get(p+Q("uuids[eq]", "nope")), 400, "VALIDATION_FAILED", "uuids[eq]")
		WantProblem(t, c.Get(p+Q("createdAt[min]", "yesterday")), 400, "MALFORMED_REQUEST", "createdAt[min]")
		WantProblem(t, c.Get(p+Q("colour[eq]", "red")), 400, "MALFORMED_REQUEST", "colour[eq]")
		WantProblem(t, c.Get(p+Q("code[like]", "red")), 400, "MALFORMED_REQUEST", "code[like]")
		WantProblem(t, c.Get(p+Q("statuses[eq]", "draft")), 400, "MALFORMED_REQUEST", "statuses[eq]")
	})
}

func TestListOrderAndPages(t *testing.T) {
	forEachFamily(t, func(t *testing.T, f family) {
		c := env.Client(t)
		items := f.bulkCreate(t, c, "b", "d", "a", "c", "e")
		Want(t, c.Patch(f.path+"/bulk", []any{
			map[string]any{"uuid": Str(items[0], "uuid"), "displayName": "zz"},
			map[string]any{"uuid": Str(items[1], "uuid"), "displayName": "aa"},
			map[string]any{"uuid": Str(items[2], "uuid"), "displayName": "aa"},
		}), 200)
		p := f.path
		wantCodes(t, "default", listCodes(t, c, p), true, "b", "d", "a", "c", "e")
		wantCodes(t, "code asc", listCodes(t, c, p+Q("code[order]", "asc")), true, "a", "b", "c", "d", "e")
		wantCodes(t, "code desc", listCodes(t, c, p+Q("code[order]", "desc")), true, "e", "d", "c", "b", "a")
		wantCodes(t, "displayName then code", listCodes(t, c, p+Q("displayName[order]", "asc", "code[order]", "desc")), true, "d", "a", "c", "e", "b")
		wantCodes(t, "createdAt desc (ties on uuid desc)", listCodes(t, c, p+Q("createdAt[order]", "desc")), true, "e", "c", "a", "d", "b")
		wantCodes(t, "updatedAt asc", listCodes(t, c, p+Q("updatedAt[order]", "asc")), true, "c", "e", "b", "d", "a")
		WantProblem(t, c.Get(p+Q("code[order]", "up")), 400, "MALFORMED_REQUEST", "code[order]")
		WantProblem(t, c.Get(p+Q("uuid[order]", "asc")), 400, "MALFORMED_REQUEST")

		r := Want(t, c.Get(p+Q("code[order]", "asc", "page", "2", "size", "2")), 200)
		wantCodes(t, "page 2", codesOf(r.Items()), true, "c", "d")
		WantPagination(t, "page 2", r, 2, 2, 5, 3)
		r = Want(t, c.Get(p+Q("code[order]", "asc", "page", "3", "size", "2")), 200)
		wantCodes(t, "page 3", codesOf(r.Items()), true, "e")
		r = Want(t, c.Get(p+Q("page", "9", "size", "2")), 200)
		if !bytes.Contains(r.Raw, []byte(`"items":[]`)) {
			t.Errorf("page past the end: %s", r.Raw)
		}
		WantPagination(t, "past the end", r, 9, 2, 5, 3)
		WantPagination(t, "defaults", Want(t, c.Get(p), 200), 1, 20, 5, 1)
		for _, bad := range []string{Q("page", "0"), Q("size", "0"), Q("size", "101"), Q("page", "x")} {
			if r := c.Get(p + bad); r.Status != 400 {
				t.Errorf("GET %s%s: status %d, want 400", p, bad, r.Status)
			}
		}
		// An empty tenant lists nothing.
		r = Want(t, env.Client(t).Get(p), 200)
		WantKeys(t, "empty page", r.Obj(), "items", "pagination")
		if !bytes.Contains(r.Raw, []byte(`"items":[]`)) {
			t.Errorf("empty list: %s", r.Raw)
		}
		WantPagination(t, "empty", r, 1, 20, 0, 0)
	})
}

func TestTenantIsolation(t *testing.T) {
	forEachFamily(t, func(t *testing.T, f family) {
		alice, aliceTenant := env.TenantClient(t)
		bob, bobTenant := env.TenantClient(t)
		a := f.create(t, alice, "acme")
		id := Str(a, "uuid")
		log := NewEventLog(pool, aliceTenant)
		log.Skip(t)

		WantProblem(t, bob.Get(f.item(id)), 404, "NOT_FOUND")
		WantProblem(t, bob.Patch(f.item(id), map[string]any{"displayName": "Bob's"}), 404, "NOT_FOUND")
		WantProblem(t, bob.Patch(f.path+"/bulk", []any{map[string]any{"uuid": id, "displayName": "Bob's"}}), 404, "NOT_FOUND", "[0].uuid")
		WantProblem(t, bob.Delete(f.item(id)), 404, "NOT_FOUND")
		if f.contents {
			WantProblem(t, bob.Get(f.item(id)+Q("include[contents]", "true", "expand[contents]", "true")), 404, "NOT_FOUND")
		}
		for _, query := range []string{"", Q("uuids[eq]", id), Q("codes[eq]", "acme"), Q("code[contains]", "c")} {
			r := Want(t, bob.Get(f.path+query), 200)
			if len(r.Items()) != 0 {
				t.Errorf("bob lists %s: %s", query, r.Raw)
			}
		}
		// Bob may use the same code; Alice's item is untouched and Alice's log silent.
		f.create(t, bob, "acme")
		if g := f.get(t, alice, id); !reflect.DeepEqual(g, a) {
			t.Errorf("alice's item is %v, want %v", g, a)
		}
		log.Expect(t, "bob's attempts")
		if n := CountRows(t, pool, f.table, bobTenant); n != 1 {
			t.Errorf("bob has %d rows", n)
		}
	})
}

func TestEvents(t *testing.T) {
	forEachFamily(t, func(t *testing.T, f family) {
		c, tenant := env.TenantClient(t)
		log := NewEventLog(pool, tenant)
		log.Expect(t, "fresh tenant")

		a := Str(f.create(t, c, "acme"), "uuid")
		log.Expect(t, "create", f.ev("created", a))
		res := f.bulkCreate(t, c, "b1", "b2")
		b1, b2 := Str(res[0], "uuid"), Str(res[1], "uuid")
		log.Expect(t, "bulk create", f.ev("created", b1), f.ev("created", b2))
		Want(t, c.Patch(f.item(a), map[string]any{"displayName": "ACME"}), 200)
		log.Expect(t, "update", f.ev("updated", a))
		Want(t, c.Patch(f.item(a), map[string]any{}), 200)
		Want(t, c.Patch(f.item(a), map[string]any{"displayName": "ACME"}), 200)
		log.Expect(t, "empty and same-value updates") // change nothing: no event
		Want(t, c.Patch(f.path+"/bulk", []any{map[string]any{"uuid": b2, "code": "x"}, map[string]any{"uuid": b1, "code": "y"}}), 200)
		log.Expect(t, "bulk update", f.ev("updated", b1), f.ev("updated", b2))
		Want(t, c.Delete(f.item(b1)), 204)
		log.Expect(t, "delete", f.ev("deleted", b1))

		// Refused writes emit nothing.
		c.Post(f.path, f.body("acme"))
		c.Post(f.path, f.body(""))
		c.Post(f.path+"/bulk", []any{f.body("new"), f.body("acme")})
		c.Patch(f.item(a), map[string]any{"code": "x"})
		c.Patch(f.path+"/bulk", []any{map[string]any{"uuid": a, "displayName": "z"}, map[string]any{"uuid": b1, "displayName": "z"}})
		c.Delete(f.item(b1))
		log.Expect(t, "refused writes")

		// Reads emit nothing.
		c.Get(f.item(a))
		c.Get(f.path)
		log.Expect(t, "reads")
	})
}

func TestAuth(t *testing.T) {
	forEachFamily(t, func(t *testing.T, f family) {
		tenant := "t-" + RandomHex(8)
		writer := env.ClientFor(t, tenant)
		id := Str(f.create(t, writer, "acme"), "uuid")
		reader := env.ClientFor(t, tenant, "catalog:read")
		hooks := env.ClientFor(t, tenant, "webhooks:read", "webhooks:write")
		anon := env.ClientFor(t, tenant)
		anon.Token = ""

		Want(t, reader.Get(f.path), 200)
		Want(t, reader.Get(f.item(id)), 200)
		writes := []struct {
			method, path string
			body         any
		}{
			{http.MethodPost, f.path, f.body("x")},
			{http.MethodPost, f.path + "/bulk", []any{f.body("x")}},
			{http.MethodPatch, f.item(id), map[string]any{"displayName": "x"}},
			{http.MethodPatch, f.path + "/bulk", []any{map[string]any{"uuid": id, "displayName": "x"}}},
			{http.MethodDelete, f.item(id), nil},
		}
		for _, w := range writes {
			WantProblem(t, reader.Do(w.method, w.path, w.body), 403, "FORBIDDEN")
			WantProblem(t, hooks.Do(w.method, w.path, w.body), 403, "FORBIDDEN")
			WantProblem(t, anon.Do(w.method, w.path, w.body), 401, "UNAUTHENTICATED")
		}
		WantProblem(t, hooks.Get(f.path), 403, "FORBIDDEN")
		WantProblem(t, anon.Get(f.path), 401, "UNAUTHENTICATED")
		WantProblem(t, anon.Get(f.item(id)), 401, "UNAUTHENTICATED")
		if g := f.get(t, writer, id); g["code"] != "acme" || g["displayName"] != "acme" {
			t.Errorf("refused writes changed the item: %v", g)
		}
	})
}
