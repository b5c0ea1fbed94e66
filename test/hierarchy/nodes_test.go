package hierarchy

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

func TestCreateResponseShape(t *testing.T) {
	forEach(t, func(t *testing.T, f family) {
		c := env.Client(t)
		r := Want(t, c.Post(f.base, map[string]any{"code": "shoes"}), 201)
		root := r.Obj()
		f.wantNode(t, "create root", root, "draft", "shoes", "shoes", "", 0)
		id := Str(root, "uuid")
		if root["createdAt"] != root["updatedAt"] {
			t.Errorf("createdAt %v != updatedAt %v", root["createdAt"], root["updatedAt"])
		}
		if loc := r.Header.Get("Location"); loc != f.path(id) {
			t.Errorf("Location %q, want %s", loc, f.path(id))
		}
		for _, k := range []string{`"removedAt":null`, `"parentUuid":null`} {
			if !bytes.Contains(r.Raw, []byte(k)) {
				t.Errorf("create: %s is not written: %s", k, r.Raw)
			}
		}
		if f.hasContents && !bytes.Contains(r.Raw, []byte(`"contentUuids":null`)) || f.hasContents && !bytes.Contains(r.Raw, []byte(`"contents":null`)) {
			t.Errorf("create: contentUuids/contents are not written as null: %s", r.Raw)
		}
		if g := Want(t, c.Get(f.path(id)), 200); !bytes.Equal(g.Raw, r.Raw) {
			t.Errorf("get %s differs from create %s", g.Raw, r.Raw)
		}

		// A child with every field.
		r = Want(t, c.Post(f.base, map[string]any{"code": "running", "displayName": "Running shoes", "parentUuid": id, "position": 7}), 201)
		child := r.Obj()
		f.wantNode(t, "create child", child, "draft", "running", "Running shoes", id, 7)
		// Explicit nulls: a root, position 0, displayName the code.
		nul := f.create(t, c, "hats", "displayName", nil, "parentUuid", nil, "position", nil)
		f.wantNode(t, "create with nulls", nul, "draft", "hats", "hats", "", 0)
		// Negative positions are positions too.
		f.wantNode(t, "negative position", f.create(t, c, "first", "position", -3), "draft", "first", "first", "", -3)

		// Bulk create answers the items in request order, all draft.
		res := Want(t, c.Post(f.base+"/bulk", []any{
			map[string]any{"code": "b2", "parentUuid": Str(child, "uuid"), "position": 2},
			map[string]any{"code": "b1", "displayName": "B one"},
		}), 201)
		items := res.Objs()
		if len(items) != 2 {
			t.Fatalf("bulk create answered %s", res.Raw)
		}
		f.wantNode(t, "bulk [0]", items[0], "draft", "b2", "b2", Str(child, "uuid"), 2)
		f.wantNode(t, "bulk [1]", items[1], "draft", "b1", "B one", "", 0)
		if res.Header.Get("Location") != "" {
			t.Errorf("bulk create sends Location %q", res.Header.Get("Location"))
		}

		// List items have the same shape.
		l := Want(t, c.Get(f.base+"?size=100"), 200)
		if len(l.Items()) != 6 {
			t.Fatalf("list: %s", l.Raw)
		}
		for _, it := range l.Items() {
			WantKeys(t, "list item", it, f.keys...)
			WantCommon(t, "list item", it)
		}
		if it := l.Items()[0]; it["uuid"] != id || it["createdAt"] != root["createdAt"] || it["status"] != "draft" {
			t.Errorf("first list item %v, want the first created %v", it, root)
		}
	})
}

func TestCreateValidation(t *testing.T) {
	forEach(t, func(t *testing.T, f family) {
		c, tenant := env.TenantClient(t)
		other := env.Client(t)
		foreign := f.createID(t, other, "foreign")
		parent := f.createID(t, c, "parent")
		table := map[string]string{"category": "categories", "collection": "collections"}[f.name]

		WantProblem(t, c.Post(f.base, map[string]any{}), 400, "VALIDATION_FAILED", "code")
		WantProblem(t, c.Post(f.base, map[string]any{"code": ""}), 400, "VALIDATION_FAILED", "code")
		WantProblem(t, c.Post(f.base, map[string]any{"code": nil}), 400, "VALIDATION_FAILED", "code")
		WantProblem(t, c.Post(f.base, map[string]any{"code": strings.Repeat("c", 101)}), 400, "VALIDATION_FAILED", "code")
		WantProblem(t, c.Post(f.base, map[string]any{"code": "x", "displayName": ""}), 400, "VALIDATION_FAILED", "displayName")
		WantProblem(t, c.Post(f.base, map[string]any{"code": "x", "displayName": strings.Repeat("d", 101)}), 400, "VALIDATION_FAILED", "displayName")
		WantProblem(t, c.Post(f.base, map[string]any{"code": "x", "parentUuid": "nope"}), 400, "VALIDATION_FAILED", "parentUuid")
		WantProblem(t, c.Post(f.base, map[string]any{"code": "x", "parentUuid": ""}), 400, "VALIDATION_FAILED", "parentUuid")
		WantProblem(t, c.Post(f.base, map[string]any{"code": "x", "position": "1"}), 400, "MALFORMED_REQUEST")
		WantProblem(t, c.Post(f.base, map[string]any{"code": "x", "position": 1.5}), 400, "MALFORMED_REQUEST")
		WantProblem(t, c.Post(f.base, map[string]any{"code": "x", "status": "active"}), 400, "MALFORMED_REQUEST")
		WantProblem(t, c.Post(f.base, `{"code": `), 400, "MALFORMED_REQUEST")
		// Several violations are reported together.
		p := WantProblem(t, c.Post(f.base, map[string]any{"code": "", "displayName": "", "parentUuid": "x"}), 400, "VALIDATION_FAILED")
		if errs, _ := p["errors"].([]any); len(errs) != 3 {
			t.Errorf("three violations, got %v", p["errors"])
		}

		// A parent that does not exist, or exists in another tenant, is a 404 naming parentUuid.
		p = WantProblem(t, c.Post(f.base, map[string]any{"code": "x", "parentUuid": UnknownUUID}), 404, "NOT_FOUND", "parentUuid")
		if !strings.Contains(Str(p, "detail"), UnknownUUID) {
			t.Errorf("detail does not name the missing parent: %v", p["detail"])
		}
		WantProblem(t, c.Post(f.base, map[string]any{"code": "x", "parentUuid": foreign}), 404, "NOT_FOUND", "parentUuid")
		// The other family's ids are not parents either.
		otherFamily := collectionsF
		if f.name == "collection" {
			otherFamily = categoriesF
		}
		WantProblem(t, c.Post(f.base, map[string]any{"code": "x", "parentUuid": otherFamily.createID(t, c, "elsewhere")}), 404, "NOT_FOUND", "parentUuid")

		// Codes are 1 to 100 characters (code points).
		f.wantNode(t, "100 characters", f.create(t, c, strings.Repeat("é", 100), "displayName", strings.Repeat("名", 100)),
			"draft", strings.Repeat("é", 100), strings.Repeat("名", 100), "", 0)
		if n := CountRows(t, pool, table, tenant); n != 2 {
			t.Errorf("%d rows after refused creates, want 2", n)
		}

		// Bulk: violations and references name the item.
		WantProblem(t, c.Post(f.base+"/bulk", []any{map[string]any{"code": "ok"}, map[string]any{"code": ""}}), 400, "VALIDATION_FAILED", "[1].code")
		WantProblem(t, c.Post(f.base+"/bulk", []any{map[string]any{"code": "ok"}, map[string]any{"code": "y", "parentUuid": "bad"}}), 400, "VALIDATION_FAILED", "[1].parentUuid")
		WantProblem(t, c.Post(f.base+"/bulk", []any{map[string]any{"code": "ok", "parentUuid": parent}, map[string]any{"code": "y", "parentUuid": foreign}}), 404, "NOT_FOUND", "[1].parentUuid")
		WantProblem(t, c.Post(f.base+"/bulk", []any{}), 400, "VALIDATION_FAILED")
		many := make([]any, 101)
		for i := range many {
			many[i] = map[string]any{"code": "m" + strings.Repeat("x", i%5)}
		}
		WantProblem(t, c.Post(f.base+"/bulk", many), 400, "VALIDATION_FAILED")
		WantProblem(t, c.Post(f.base+"/bulk", map[string]any{"code": "x"}), 400, "MALFORMED_REQUEST")
		if n := CountRows(t, pool, table, tenant); n != 2 {
			t.Errorf("%d rows after refused bulk creates, want 2 (all or nothing)", n)
		}
	})
}

func TestDuplicateCodes(t *testing.T) {
	forEach(t, func(t *testing.T, f family) {
		c, tenant := env.TenantClient(t)
		table := map[string]string{"category": "categories", "collection": "collections"}[f.name]
		root := f.createID(t, c, "shoes")
		f.create(t, c, "boots", "parentUuid", root)

		// Codes are unique in the tenant, whatever the parent.
		WantProblem(t, c.Post(f.base, map[string]any{"code": "shoes"}), 409, "ALREADY_EXISTS", "code")
		WantProblem(t, c.Post(f.base, map[string]any{"code": "boots"}), 409, "ALREADY_EXISTS", "code")
		WantProblem(t, c.Post(f.base+"/bulk", []any{map[string]any{"code": "new"}, map[string]any{"code": "shoes"}}), 409, "ALREADY_EXISTS", "[1].code")
		WantProblem(t, c.Post(f.base+"/bulk", []any{map[string]any{"code": "a"}, map[string]any{"code": "b"}, map[string]any{"code": "a"}}), 409, "ALREADY_EXISTS", "[2].code")
		if n := CountRows(t, pool, table, tenant); n != 2 {
			t.Errorf("%d rows, want 2", n)
		}
		// Codes are case-sensitive, and another tenant may use the same ones.
		f.create(t, c, "SHOES")
		f.create(t, env.Client(t), "shoes")
		// Updates to a taken code.
		WantProblem(t, c.Patch(f.path(root), map[string]any{"code": "boots"}), 409, "ALREADY_EXISTS", "code")
		WantProblem(t, c.Patch(f.base+"/bulk", []any{map[string]any{"uuid": root, "displayName": "x"}, map[string]any{"uuid": root, "code": "SHOES"}}), 409, "ALREADY_EXISTS", "[1].code")
		if g := f.get(t, c, root); g["code"] != "shoes" || g["displayName"] != "shoes" {
			t.Errorf("refused updates changed the node: %v", g)
		}
	})
}

func TestUpdate(t *testing.T) {
	forEach(t, func(t *testing.T, f family) {
		c := env.Client(t)
		a := f.create(t, c, "a", "displayName", "A", "position", 3)
		b := f.createID(t, c, "b")
		id := Str(a, "uuid")

		// Only the fields given change; updatedAt moves; createdAt and status stay.
		u := f.patch(t, c, id, "displayName", "Alpha")
		f.wantNode(t, "rename", u, "draft", "a", "Alpha", "", 3)
		if u["createdAt"] != a["createdAt"] || !TS(t, u["updatedAt"]).After(TS(t, a["updatedAt"])) {
			t.Errorf("timestamps after update: %v (before %v)", u, a)
		}
		// Under a parent, at a position.
		u = f.patch(t, c, id, "parentUuid", b, "position", 0)
		f.wantNode(t, "move", u, "draft", "a", "Alpha", b, 0)
		// null on code, displayName, position leaves them; absent parentUuid leaves it.
		u = f.patch(t, c, id, "code", nil, "displayName", nil, "position", nil)
		f.wantNode(t, "nulls", u, "draft", "a", "Alpha", b, 0)
		// An empty body, or the same parent and position again, changes nothing, updatedAt included.
		before := u
		u = Want(t, c.Patch(f.path(id), map[string]any{}), 200).Obj()
		f.wantNode(t, "empty body", u, "draft", "a", "Alpha", b, 0)
		if u["updatedAt"] != before["updatedAt"] {
			t.Errorf("empty update moved updatedAt: %v, before %v", u["updatedAt"], before["updatedAt"])
		}
		if u = f.patch(t, c, id, "parentUuid", b, "position", 0); u["updatedAt"] != before["updatedAt"] {
			t.Errorf("same-place update moved updatedAt: %v, before %v", u["updatedAt"], before["updatedAt"])
		}
		// parentUuid null makes it a root again.
		u = f.patch(t, c, id, "parentUuid", nil, "code", "a2")
		f.wantNode(t, "to root", u, "draft", "a2", "Alpha", "", 0)
		if g := f.get(t, c, id); g["parentUuid"] != nil || g["code"] != "a2" || g["updatedAt"] != u["updatedAt"] {
			t.Errorf("GET after update: %v", g)
		}
		// The status is not writable.
		WantProblem(t, c.Patch(f.path(id), map[string]any{"status": "active"}), 400, "MALFORMED_REQUEST")

		// Refused updates.
		WantProblem(t, c.Patch(f.path(id), map[string]any{"code": ""}), 400, "VALIDATION_FAILED", "code")
		WantProblem(t, c.Patch(f.path(id), map[string]any{"displayName": strings.Repeat("x", 101)}), 400, "VALIDATION_FAILED", "displayName")
		WantProblem(t, c.Patch(f.path(id), map[string]any{"parentUuid": "nope"}), 400, "VALIDATION_FAILED", "parentUuid")
		WantProblem(t, c.Patch(f.path(id), map[string]any{"parentUuid": UnknownUUID}), 404, "NOT_FOUND", "parentUuid")
		WantProblem(t, c.Patch(f.path(id), map[string]any{"parentUuid": f.createID(t, env.Client(t), "foreign")}), 404, "NOT_FOUND", "parentUuid")
		WantProblem(t, c.Patch(f.path(UnknownUUID), map[string]any{"displayName": "x"}), 404, "NOT_FOUND")
		WantProblem(t, c.Patch(f.path("not-a-uuid"), map[string]any{"displayName": "x"}), 400, "VALIDATION_FAILED", f.idKey)
		WantProblem(t, c.Patch(f.path(id), `{"code": 1}`), 400, "MALFORMED_REQUEST")
		if g := f.get(t, c, id); g["updatedAt"] != u["updatedAt"] || g["code"] != "a2" {
			t.Errorf("refused updates changed the node: %v", g)
		}
	})
}

func TestBulkUpdate(t *testing.T) {
	forEach(t, func(t *testing.T, f family) {
		c := env.Client(t)
		a := f.createID(t, c, "a")
		b := f.createID(t, c, "b", "position", 1)
		x := f.createID(t, c, "x")

		res := Want(t, c.Patch(f.base+"/bulk", []any{
			map[string]any{"uuid": b, "parentUuid": a, "position": 5},
			map[string]any{"uuid": a, "displayName": "A"},
		}), 200).Objs()
		if len(res) != 2 {
			t.Fatalf("bulk update answered %v", res)
		}
		f.wantNode(t, "bulk [0]", res[0], "draft", "b", "b", a, 5)
		f.wantNode(t, "bulk [1]", res[1], "draft", "a", "A", "", 0)

		// The same uuid twice: both apply in order; the answer shows the final state for both.
		res = Want(t, c.Patch(f.base+"/bulk", []any{
			map[string]any{"uuid": x, "displayName": "first", "parentUuid": a},
			map[string]any{"uuid": x, "displayName": "second"},
		}), 200).Objs()
		if len(res) != 2 || res[0]["displayName"] != "second" || res[1]["displayName"] != "second" || res[1]["parentUuid"] != a {
			t.Errorf("repeated uuid: %v", res)
		}
		// parentUuid null in a bulk item makes it a root.
		res = Want(t, c.Patch(f.base+"/bulk", []any{map[string]any{"uuid": x, "parentUuid": nil}}), 200).Objs()
		f.wantNode(t, "bulk to root", res[0], "draft", "x", "second", "", 0)

		// Errors name the item, and nothing changes.
		before := f.get(t, c, b)
		WantProblem(t, c.Patch(f.base+"/bulk", []any{map[string]any{"uuid": b, "code": "changed"}, map[string]any{"code": "y"}}), 400, "VALIDATION_FAILED", "[1].uuid")
		WantProblem(t, c.Patch(f.base+"/bulk", []any{map[string]any{"uuid": b, "code": "changed"}, map[string]any{"uuid": "nope"}}), 400, "VALIDATION_FAILED", "[1].uuid")
		WantProblem(t, c.Patch(f.base+"/bulk", []any{map[string]any{"uuid": b, "code": "changed"}, map[string]any{"uuid": UnknownUUID, "code": "z"}}), 404, "NOT_FOUND", "[1].uuid")
		WantProblem(t, c.Patch(f.base+"/bulk", []any{map[string]any{"uuid": b, "code": "changed"}, map[string]any{"uuid": a, "parentUuid": UnknownUUID}}), 404, "NOT_FOUND", "[1].parentUuid")
		WantProblem(t, c.Patch(f.base+"/bulk", []any{map[string]any{"uuid": b, "code": "changed"}, map[string]any{"uuid": a, "parentUuid": "bad"}}), 400, "VALIDATION_FAILED", "[1].parentUuid")
		WantProblem(t, c.Patch(f.base+"/bulk", []any{}), 400, "VALIDATION_FAILED")
		if g := f.get(t, c, b); g["code"] != "b" || g["updatedAt"] != before["updatedAt"] {
			t.Errorf("refused bulk updates changed %v (before %v)", g, before)
		}
	})
}

func TestCycles(t *testing.T) {
	forEach(t, func(t *testing.T, f family) {
		c, tenant := env.TenantClient(t)
		log := NewEventLog(pool, tenant)
		// root ─ a ─ b ─ leaf, and a second tree other ─ o1.
		root := f.createID(t, c, "root")
		a := f.createID(t, c, "a", "parentUuid", root)
		b := f.createID(t, c, "b", "parentUuid", a)
		leaf := f.createID(t, c, "leaf", "parentUuid", b)
		other := f.createID(t, c, "other")
		o1 := f.createID(t, c, "o1", "parentUuid", other)
		log.Skip(t)
		snapshot := func() map[string]any {
			out := map[string]any{}
			for _, id := range []string{root, a, b, leaf, other, o1} {
				out[id] = f.get(t, c, id)["parentUuid"]
			}
			return out
		}
		before := snapshot()

		// Under itself, its child, or any deeper descendant: 409 naming parentUuid.
		for _, tc := range []struct{ node, parent, what string }{
			{a, a, "itself"}, {root, a, "its child"}, {root, leaf, "a deep descendant"}, {a, leaf, "a grandchild"}, {b, leaf, "its child (leaf)"},
		} {
			r := c.Patch(f.path(tc.node), map[string]any{"parentUuid": tc.parent})
			p := WantProblem(t, r, 409, "REQUIREMENTS_NOT_MET", "parentUuid")
			wantMeta(t, p, "rule", "no_cycle")
			wantMeta(t, p, "parentUuid", tc.parent)
			if !strings.Contains(Str(p, "detail"), "descendants") {
				t.Errorf("%s: detail %v", tc.what, p["detail"])
			}
			// As every REQUIREMENTS_NOT_MET: meta.missing is an array of readiness entries (here the
			// refused parent), and errors has one entry per missing requirement.
			missing, _ := Meta(p)["missing"].([]any)
			if len(missing) != 1 {
				t.Errorf("%s: meta.missing %#v, want one entry", tc.what, Meta(p)["missing"])
			} else if m, _ := missing[0].(map[string]any); m["kind"] != f.name || m["uuid"] != tc.parent || m["localeUuid"] != nil ||
				Str(m, "code") == "" || !strings.Contains(Str(m, "detail"), "descendants") {
				t.Errorf("%s: meta.missing[0] %v", tc.what, m)
			}
			if errs, _ := p["errors"].([]any); len(errs) != 1 {
				t.Errorf("%s: errors %v, want one entry", tc.what, p["errors"])
			}
		}
		// In a bulk, the item is named and nothing changes, even the items before it.
		r := c.Patch(f.base+"/bulk", []any{
			map[string]any{"uuid": o1, "parentUuid": root},
			map[string]any{"uuid": root, "parentUuid": b},
		})
		WantProblem(t, r, 409, "REQUIREMENTS_NOT_MET", "[1].parentUuid")
		// Items checked in order: each move alone is fine, together they close a cycle.
		r = c.Patch(f.base+"/bulk", []any{
			map[string]any{"uuid": other, "parentUuid": leaf},
			map[string]any{"uuid": root, "parentUuid": o1},
		})
		WantProblem(t, r, 409, "REQUIREMENTS_NOT_MET", "[1].parentUuid")
		if got := snapshot(); !equalMaps(got, before) {
			t.Errorf("refused moves changed parents: %v, want %v", got, before)
		}
		log.Expect(t, "refused moves")

		// Moves that keep a tree are fine: a subtree under another tree, a node up to its grandparent,
		// a root under a former descendant once that descendant left the subtree.
		f.wantNode(t, "subtree move", f.patch(t, c, b, "parentUuid", o1), "draft", "b", "b", o1, 0)
		f.wantNode(t, "up", f.patch(t, c, leaf, "parentUuid", root), "draft", "leaf", "leaf", root, 0)
		f.wantNode(t, "root under a former descendant", f.patch(t, c, a, "parentUuid", b), "draft", "a", "a", b, 0)
		// Same parent again is fine (no cycle with the current parent), and changes nothing: no event.
		f.patch(t, c, a, "parentUuid", b)
		// Now other ─ o1 ─ b ─ a: other under a would close a cycle.
		WantProblem(t, c.Patch(f.path(other), map[string]any{"parentUuid": a}), 409, "REQUIREMENTS_NOT_MET", "parentUuid")
		log.Expect(t, "moves", f.ev("updated", b), f.ev("updated", leaf), f.ev("updated", a))
	})
}

func equalMaps(a, b map[string]any) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestDelete(t *testing.T) {
	forEach(t, func(t *testing.T, f family) {
		c, tenant := env.TenantClient(t)
		log := NewEventLog(pool, tenant)
		root := f.createID(t, c, "root")
		child := f.createID(t, c, "child", "parentUuid", root)
		log.Skip(t)

		// A node with children is in use: meta.referencedBy names the kind of what refers to it.
		p := WantProblem(t, c.Delete(f.path(root)), 409, "IN_USE")
		if !strings.Contains(Str(p, "detail"), root) {
			t.Errorf("detail does not name the node: %v", p["detail"])
		}
		if by, ok := Strings(Meta(p)["referencedBy"]); !ok || !slices.Equal(by, []string{"child " + f.name}) {
			t.Errorf("meta.referencedBy %#v, want [child %s]", Meta(p)["referencedBy"], f.name)
		}
		if strings.Contains(Str(p, "detail"), "_fkey") || Meta(p)["constraint"] != nil {
			t.Errorf("IN_USE shows the schema: %v", p)
		}
		// Even when the child is removed (soft delete): it still exists.
		f.moveTo(t, c, child, "removed")
		WantProblem(t, c.Delete(f.path(root)), 409, "IN_USE")
		f.get(t, c, root)
		log.Skip(t)

		r := c.Delete(f.path(child))
		Want(t, r, 204)
		if len(bytes.TrimSpace(r.Raw)) != 0 {
			t.Errorf("delete answered a body: %s", r.Raw)
		}
		Want(t, c.Delete(f.path(root)), 204)
		WantProblem(t, c.Get(f.path(root)), 404, "NOT_FOUND")
		WantProblem(t, c.Delete(f.path(root)), 404, "NOT_FOUND")
		WantProblem(t, c.Delete(f.path("nope")), 400, "VALIDATION_FAILED", f.idKey)
		log.Expect(t, "deletes", f.ev("deleted", child), f.ev("deleted", root))

		// A root with a child moved elsewhere can go.
		r1 := f.createID(t, c, "r1")
		r2 := f.createID(t, c, "r2")
		k := f.createID(t, c, "k", "parentUuid", r1)
		WantProblem(t, c.Delete(f.path(r1)), 409, "IN_USE")
		f.patch(t, c, k, "parentUuid", r2)
		Want(t, c.Delete(f.path(r1)), 204)
		WantUUIDs(t, c, f.base, false, r2, k)
	})
}
