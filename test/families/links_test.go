package families

import (
	"reflect"
	"strings"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

// linkKind describes one of the five family links for the tests every kind shares.
type linkKind struct {
	path    string // path segment under /v1/families/{familyUuid}/
	event   string // event name prefix
	idKey   string // item path parameter and event payload key
	target  string // target field
	targets string // the targets' collection (for the in-use rule)
	mk      func(t *testing.T, c *Client) string
	// defaults are the link columns of the kind with the values a link gets when only the target
	// is given; change are other values for them.
	defaults, change []any
}

var linkKinds = []linkKind{
	{"attributes", "family.attribute", "familyAttributeUuid", "attributeUuid", "/v1/attributes", mkAttribute,
		[]any{"requirementLevel", "optional", "appliesTo", "both", "isVariantAxis", false},
		[]any{"requirementLevel", "required", "appliesTo", "variant", "isVariantAxis", true}},
	{"input-types", "family.input_type", "familyInputTypeUuid", "inputTypeUuid", "/v1/input-types", mkInputType,
		[]any{"requirementLevel", "optional", "appliesTo", "both"},
		[]any{"requirementLevel", "recommended", "appliesTo", "parent"}},
	{"categories", "family.category", "familyCategoryUuid", "categoryUuid", "/v1/categories", mkCategory,
		[]any{"autoPopulate", false},
		[]any{"autoPopulate", true}},
	{"asset-types", "family.asset_type", "familyAssetTypeUuid", "productAssetTypeUuid", "/v1/product-asset-types", mkAssetType,
		[]any{"requirementLevel", "optional", "minCount", 0, "maxCount", nil, "appliesTo", "both"},
		[]any{"requirementLevel", "required", "minCount", 1, "maxCount", 3, "appliesTo", "variant"}},
	{"relation-types", "family.relation_type", "familyRelationTypeUuid", "productRelationTypeUuid", "/v1/product-relation-types", mkRelationType,
		[]any{"requirementLevel", "optional", "minCount", 0, "maxCount", nil},
		[]any{"requirementLevel", "required", "minCount", 2, "maxCount", 2}},
}

func (k linkKind) base(family string) string { return "/v1/families/" + family + "/" + k.path }

// keys are the exact keys of a link response.
func (k linkKind) keys() []string {
	out := []string{"uuid", "createdAt", "updatedAt", "familyUuid", k.target}
	for i := 0; i < len(k.defaults); i += 2 {
		out = append(out, k.defaults[i].(string))
	}
	return out
}

// want checks a link response: every key, formats, family, target and the column values kv.
func (k linkKind) want(t *testing.T, what string, l map[string]any, family, target string, kv []any) {
	t.Helper()
	WantKeys(t, what, l, k.keys()...)
	WantCommon(t, what, l)
	WantFields(t, what, l, append([]any{"familyUuid", family, k.target, target}, kv...)...)
}

func (k linkKind) ev(verb, family, id string) Event {
	return Ev(k.event+"."+verb, "familyUuid", family, k.idKey, id)
}

// link creates a link to target with extra fields and returns it.
func (k linkKind) link(t *testing.T, c *Client, family, target string, extra ...any) map[string]any {
	t.Helper()
	b := Body(extra...)
	b[k.target] = target
	return Want(t, c.Post(k.base(family), b), 201).Obj()
}

func TestLinkOperations(t *testing.T) {
	t.Parallel()
	for _, k := range linkKinds {
		t.Run(k.path, func(t *testing.T) {
			t.Parallel()
			c, tenant := env.TenantClient(t)
			fam := mkFamily(t, c, "shirts")
			a, b, x, y := k.mk(t, c), k.mk(t, c), k.mk(t, c), k.mk(t, c)
			log := NewEventLog(pool, tenant).Skip(t)
			base := k.base(fam)

			// Link with defaults; Location names the link.
			r := Want(t, c.Post(base, Body(k.target, a)), 201)
			l := r.Obj()
			k.want(t, "link", l, fam, a, k.defaults)
			id := Str(l, "uuid")
			if loc := r.Header.Get("Location"); loc != base+"/"+id {
				t.Errorf("Location %q, want %s", loc, base+"/"+id)
			}
			log.Expect(t, "link", k.ev("linked", fam, id))
			if got := Want(t, c.Get(base+"/"+id), 200).Obj(); !reflect.DeepEqual(got, l) {
				t.Errorf("get = %v, want %v", got, l)
			}
			// Link with every column given.
			l2 := k.link(t, c, fam, b, k.change...)
			k.want(t, "link with values", l2, fam, b, k.change)
			log.Expect(t, "link 2", k.ev("linked", fam, Str(l2, "uuid")))

			// Update: the columns change; the target may be repeated but not changed.
			u := Want(t, c.Patch(base+"/"+id, Body(k.change...)), 200).Obj()
			k.want(t, "update", u, fam, a, k.change)
			if !TS(t, u["updatedAt"]).After(TS(t, l["updatedAt"])) || u["createdAt"] != l["createdAt"] {
				t.Errorf("update timestamps: before %v, after %v", l, u)
			}
			same := u
			u = Want(t, c.Patch(base+"/"+id, Body(k.target, strings.ToUpper(a))), 200).Obj()
			k.want(t, "update with the same target (in capitals)", u, fam, a, k.change)
			if u["updatedAt"] != same["updatedAt"] {
				t.Errorf("the same target moved updatedAt: %v, before %v", u, same)
			}
			u = Want(t, c.Patch(base+"/"+id, Body(k.defaults...)), 200).Obj()
			k.want(t, "update back to the defaults", u, fam, a, k.defaults)
			// The same target again changed nothing: no event.
			log.Expect(t, "updates", k.ev("updated", fam, id), k.ev("updated", fam, id))
			Problem(t, "change the target", c.Patch(base+"/"+id, Body(k.target, x)), 400, "VALIDATION_FAILED", k.target)
			Problem(t, "malformed target on update", c.Patch(base+"/"+id, Body(k.target, "nope")), 400, "VALIDATION_FAILED", k.target)
			Problem(t, "bulk change of the target", c.Patch(base+"/bulk", []any{Body("uuid", id), Body("uuid", Str(l2, "uuid"), k.target, a)}), 400, "VALIDATION_FAILED", "[1]."+k.target)
			if got := Want(t, c.Get(base+"/"+id), 200).Obj(); !reflect.DeepEqual(got, u) {
				t.Errorf("a refused update changed the link: %v, want %v", got, u)
			}
			log.Expect(t, "refused updates write nothing")

			// Bulk link and bulk update, in request order.
			items := Want(t, c.Post(base+"/bulk", []any{Body(append([]any{k.target, y}, k.change...)...), Body(k.target, x)}), 201).Objs()
			if len(items) != 2 {
				t.Fatalf("bulk link: %v", items)
			}
			k.want(t, "bulk [0]", items[0], fam, y, k.change)
			k.want(t, "bulk [1]", items[1], fam, x, k.defaults)
			iy, ix := Str(items[0], "uuid"), Str(items[1], "uuid")
			log.Expect(t, "bulk link", k.ev("linked", fam, iy), k.ev("linked", fam, ix))
			up := Want(t, c.Patch(base+"/bulk", []any{Body(append([]any{"uuid", ix}, k.change...)...), Body(append([]any{"uuid", iy, k.target, y}, k.defaults...)...)}), 200).Objs()
			if len(up) != 2 {
				t.Fatalf("bulk update: %v", up)
			}
			k.want(t, "bulk update [0]", up[0], fam, x, k.change)
			k.want(t, "bulk update [1]", up[1], fam, y, k.defaults)
			log.Expect(t, "bulk update", k.ev("updated", fam, ix), k.ev("updated", fam, iy))

			// The list: default order createdAt then uuid (request order within a bulk).
			WantUUIDs(t, c, base, true, id, Str(l2, "uuid"), iy, ix)
			for _, it := range Want(t, c.Get(base), 200).Items() {
				WantKeys(t, "list item", it, k.keys()...)
			}

			// Unlink: 204, the target stays.
			d := Want(t, c.Delete(base+"/"+ix), 204)
			if len(d.Raw) != 0 {
				t.Errorf("unlink body %q", d.Raw)
			}
			log.Expect(t, "unlink", k.ev("unlinked", fam, ix))
			Problem(t, "get unlinked", c.Get(base+"/"+ix), 404, "NOT_FOUND")
			Problem(t, "unlink again", c.Delete(base+"/"+ix), 404, "NOT_FOUND")
			Problem(t, "update unlinked", c.Patch(base+"/"+ix, Body()), 404, "NOT_FOUND")
			Want(t, c.Get(k.targets+"/"+x), 200)
			// ... and may be linked again.
			again := k.link(t, c, fam, x)
			log.Expect(t, "link again", k.ev("linked", fam, Str(again, "uuid")))
		})
	}
}

func TestLinkReferencesAndConflicts(t *testing.T) {
	t.Parallel()
	for _, k := range linkKinds {
		t.Run(k.path, func(t *testing.T) {
			t.Parallel()
			c, tenant := env.TenantClient(t)
			fam, fam2 := mkFamily(t, c, "shirts"), mkFamily(t, c, "shoes")
			a, b := k.mk(t, c), k.mk(t, c)
			c2, _ := env.TenantClient(t)
			foreign := k.mk(t, c2) // another tenant's resource
			base := k.base(fam)
			l := k.link(t, c, fam, a)
			id := Str(l, "uuid")
			log := NewEventLog(pool, tenant).Skip(t)

			// One link per family and target: single, against an existing link in a bulk, and
			// twice within one bulk.
			Problem(t, "second link", c.Post(base, Body(k.target, a)), 409, "ALREADY_EXISTS", k.target)
			Problem(t, "bulk with a linked target", c.Post(base+"/bulk", []any{Body(k.target, b), Body(k.target, a)}), 409, "ALREADY_EXISTS", "[1]."+k.target)
			Problem(t, "the same target twice in a bulk", c.Post(base+"/bulk", []any{Body(k.target, b), Body(k.target, b)}), 409, "ALREADY_EXISTS", "[1]."+k.target)

			// The target must exist in the tenant: 404 naming the field (with the bulk index).
			Problem(t, "unknown target", c.Post(base, Body(k.target, UnknownUUID)), 404, "NOT_FOUND", k.target)
			Problem(t, "another tenant's target", c.Post(base, Body(k.target, foreign)), 404, "NOT_FOUND", k.target)
			Problem(t, "bulk with an unknown target", c.Post(base+"/bulk", []any{Body(k.target, b), Body(k.target, foreign)}), 404, "NOT_FOUND", "[1]."+k.target)
			Problem(t, "missing target", c.Post(base, Body()), 400, "VALIDATION_FAILED", k.target)
			Problem(t, "no body", c.Post(base, nil), 400, "VALIDATION_FAILED", k.target)
			Problem(t, "malformed target", c.Post(base, Body(k.target, "x")), 400, "VALIDATION_FAILED", k.target)
			Problem(t, "bulk with a malformed target", c.Post(base+"/bulk", []any{Body(k.target, b), Body(k.target, "x")}), 400, "VALIDATION_FAILED", "[1]."+k.target)
			Problem(t, "unknown field", c.Post(base, Body(k.target, b, "position", 1)), 400, "MALFORMED_REQUEST", "position")
			Problem(t, "response-only field", c.Post(base, Body(k.target, b, "familyUuid", fam)), 400, "MALFORMED_REQUEST", "familyUuid")
			Problem(t, "empty bulk", c.Post(base+"/bulk", []any{}), 400, "VALIDATION_FAILED")
			Problem(t, "bulk update without uuid", c.Patch(base+"/bulk", []any{Body()}), 400, "VALIDATION_FAILED", "[0].uuid")
			Problem(t, "bulk update of an unknown link", c.Patch(base+"/bulk", []any{Body("uuid", id), Body("uuid", UnknownUUID)}), 404, "NOT_FOUND", "[1].uuid")
			// Nothing of the failed requests was written (bulks are all or nothing).
			log.Expect(t, "failed requests write nothing")
			WantUUIDs(t, c, base, false, id)

			// The same target in another family is another link.
			other := k.link(t, c, fam2, a)
			log.Expect(t, "other family", k.ev("linked", fam2, Str(other, "uuid")))

			// Links belong to their family: another family's path does not find them.
			Problem(t, "get via another family", c.Get(k.base(fam2)+"/"+id), 404, "NOT_FOUND")
			Problem(t, "update via another family", c.Patch(k.base(fam2)+"/"+id, Body()), 404, "NOT_FOUND")
			Problem(t, "bulk update via another family", c.Patch(k.base(fam2)+"/bulk", []any{Body("uuid", id)}), 404, "NOT_FOUND", "[0].uuid")
			Problem(t, "unlink via another family", c.Delete(k.base(fam2)+"/"+id), 404, "NOT_FOUND")
			// An unknown family is 404 on every path; malformed ids are 400.
			for _, r := range []Resp{c.Get(k.base(UnknownUUID)), c.Post(k.base(UnknownUUID), Body(k.target, b)),
				c.Post(k.base(UnknownUUID)+"/bulk", []any{Body(k.target, b)}), c.Patch(k.base(UnknownUUID)+"/bulk", []any{Body("uuid", id)}),
				c.Get(k.base(UnknownUUID) + "/" + id), c.Patch(k.base(UnknownUUID)+"/"+id, Body()), c.Delete(k.base(UnknownUUID) + "/" + id)} {
				Problem(t, "unknown family", r, 404, "NOT_FOUND")
			}
			Problem(t, "malformed family", c.Get(k.base("nope")), 400, "VALIDATION_FAILED", "familyUuid")
			Problem(t, "malformed link id", c.Get(base+"/nope"), 400, "VALIDATION_FAILED", k.idKey)
			log.Expect(t, "more failed requests write nothing")

			// A linked target cannot be deleted (409 IN_USE) until every family unlinks it.
			Problem(t, "delete a linked target", c.Delete(k.targets+"/"+a), 409, "IN_USE")
			Want(t, c.Delete(base+"/"+id), 204)
			Problem(t, "delete a target still linked to another family", c.Delete(k.targets+"/"+a), 409, "IN_USE")
			// Deleting a family deletes its links (one family.deleted event), freeing the target.
			Want(t, c.Delete("/v1/families/"+fam2), 204)
			log.Expect(t, "unlink and delete the family", k.ev("unlinked", fam, id), Ev("family.deleted", "familyUuid", fam2))
			var n int
			if err := pool.QueryRow(t.Context(), "SELECT count(*) FROM family_links WHERE tenant_id = $1 AND family_uuid = $2", tenant, fam2).Scan(&n); err != nil || n != 0 {
				t.Errorf("links of the deleted family: %d (%v)", n, err)
			}
			Want(t, c.Delete(k.targets+"/"+a), 204)
		})
	}
}

func TestLinkCommonFilters(t *testing.T) {
	t.Parallel()
	for _, k := range linkKinds {
		t.Run(k.path, func(t *testing.T) {
			t.Parallel()
			c, _ := env.TenantClient(t)
			fam := mkFamily(t, c, "shirts")
			a, b, x := k.mk(t, c), k.mk(t, c), k.mk(t, c)
			base := k.base(fam)
			items := Want(t, c.Post(base+"/bulk", []any{Body(k.target, a), Body(k.target, b), Body(k.target, x)}), 201).Objs()
			la, lb, lx := Str(items[0], "uuid"), Str(items[1], "uuid"), Str(items[2], "uuid")
			bNow := Want(t, c.Patch(base+"/"+lb, Body(k.change...)), 200).Obj()
			// Another family's links never show.
			k.link(t, c, mkFamily(t, c, "other"), a)

			plural := k.target + "s"
			WantUUIDs(t, c, base, true, la, lb, lx)
			WantUUIDs(t, c, base+Q("uuids[eq]", la, "uuids[eq]", lx), false, la, lx)
			WantUUIDs(t, c, base+Q(plural+"[eq]", b), false, lb)
			WantUUIDs(t, c, base+Q(plural+"[eq]", a, plural+"[eq]", x, plural+"[eq]", UnknownUUID), false, la, lx)
			WantUUIDs(t, c, base+Q("createdAt[eq]", Str(items[0], "createdAt")), false, la, lb, lx)
			WantUUIDs(t, c, base+Q("createdAt[min]", Str(items[0], "createdAt"), "createdAt[max]", Str(items[0], "createdAt")), false, la, lb, lx)
			WantUUIDs(t, c, base+Q("updatedAt[min]", Str(bNow, "updatedAt")), false, lb)
			WantUUIDs(t, c, base+Q("updatedAt[max]", Str(items[0], "updatedAt")), false, la, lx)
			WantUUIDs(t, c, base+Q("updatedAt[eq]", Str(bNow, "updatedAt")), false, lb)
			WantUUIDs(t, c, base+Q("updatedAt[order]", "desc"), true, lb, lx, la)
			WantUUIDs(t, c, base+Q("createdAt[order]", "desc"), true, lx, lb, la)
			p2 := Want(t, c.Get(base+Q("size", "2", "page", "2")), 200)
			WantFields(t, "pagination", p2.Obj()["pagination"].(map[string]any), "page", 2, "size", 2, "totalItems", 3, "totalPages", 2)
			if got := UUIDsOf(p2.Items()); !reflect.DeepEqual(got, []string{lx}) {
				t.Errorf("page 2: %v, want [%s]", got, lx)
			}
			Problem(t, "malformed uuid filter", c.Get(base+Q(plural+"[eq]", "x")), 400, "VALIDATION_FAILED", plural+"[eq]")
			Problem(t, "unknown filter", c.Get(base+Q("codes[eq]", "x")), 400, "MALFORMED_REQUEST", "codes[eq]")
			Problem(t, "unknown order", c.Get(base+Q(k.target+"[order]", "asc")), 400, "MALFORMED_REQUEST", k.target+"[order]")
		})
	}
}
