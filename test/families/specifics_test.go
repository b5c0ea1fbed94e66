package families

import (
	"reflect"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

// Variant axes: an axis differentiates variants, so it cannot apply to the parent only. The error
// names the field the body gives that breaks the rule.
func TestFamilyAttributeVariantAxisRule(t *testing.T) {
	t.Parallel()
	c, tenant := tenantClient(t)
	fam := mkFamily(t, c, "shirts")
	k := linkKinds[0]
	base := k.base(fam)
	a, b := mkAttribute(t, c), mkAttribute(t, c)
	log := newLog(t, tenant)

	problem(t, "axis on the parent", c.Post(base, body(k.target, a, "isVariantAxis", true, "appliesTo", "parent")), 400, "VALIDATION_FAILED", "isVariantAxis")
	problem(t, "bulk: axis on the parent", c.Post(base+"/bulk", []any{body(k.target, b), body(k.target, a, "isVariantAxis", true, "appliesTo", "parent")}), 400, "VALIDATION_FAILED", "[1].isVariantAxis")
	log.expect(t, "refused links write nothing")
	wantList(t, c, base, false)

	axis := k.link(t, c, fam, a, "isVariantAxis", true) // appliesTo defaults to both
	k.want(t, "axis", axis, fam, a, []any{"requirementLevel", "optional", "appliesTo", "both", "isVariantAxis", true})
	plain := k.link(t, c, fam, b, "appliesTo", "parent")
	ia, ib := str(axis, "uuid"), str(plain, "uuid")
	log.expect(t, "links", k.ev("linked", fam, ia), k.ev("linked", fam, ib))

	// Updates are checked on the resulting link.
	problem(t, "move an axis to the parent", c.Patch(base+"/"+ia, body("appliesTo", "parent")), 400, "VALIDATION_FAILED", "appliesTo")
	problem(t, "make a parent attribute an axis", c.Patch(base+"/"+ib, body("isVariantAxis", true)), 400, "VALIDATION_FAILED", "isVariantAxis")
	problem(t, "bulk: second item breaks the rule", c.Patch(base+"/bulk", []any{body("uuid", ib, "requirementLevel", "required"), body("uuid", ia, "appliesTo", "parent")}), 400, "VALIDATION_FAILED", "[1].appliesTo")
	log.expect(t, "refused updates write nothing")
	if got := Want(t, c.Get(base+"/"+ib), 200).Obj(); !reflect.DeepEqual(got, plain) {
		t.Errorf("a refused bulk update changed its first item: %v, want %v", got, plain)
	}
	u := Want(t, c.Patch(base+"/"+ia, body("isVariantAxis", false, "appliesTo", "parent")), 200).Obj()
	k.want(t, "no longer an axis", u, fam, a, []any{"requirementLevel", "optional", "appliesTo", "parent", "isVariantAxis", false})
	u = Want(t, c.Patch(base+"/"+ib, body("appliesTo", "variant", "isVariantAxis", true)), 200).Obj()
	k.want(t, "now an axis", u, fam, b, []any{"requirementLevel", "optional", "appliesTo", "variant", "isVariantAxis", true})
	// null leaves a non-nullable field unchanged.
	u = Want(t, c.Patch(base+"/"+ib, body("requirementLevel", nil, "appliesTo", nil, "isVariantAxis", nil)), 200).Obj()
	k.want(t, "nulls", u, fam, b, []any{"requirementLevel", "optional", "appliesTo", "variant", "isVariantAxis", true})

	// Unknown enum values are refused, naming the field.
	problem(t, "unknown requirement level", c.Post(base, body(k.target, mkAttribute(t, c), "requirementLevel", "mandatory")), 400, "MALFORMED_REQUEST", "requirementLevel")
	problem(t, "unknown appliesTo", c.Patch(base+"/"+ia, body("appliesTo", "all")), 400, "MALFORMED_REQUEST", "appliesTo")
}

// Filters and ordering of the link columns: requirementLevels[eq], appliesTo[eq] (repeatable),
// isVariantAxis[eq], autoPopulate[eq], and requirementLevel[order] by rank.
func TestLinkColumnFilters(t *testing.T) {
	t.Parallel()
	c, _ := tenantClient(t)
	fam := mkFamily(t, c, "shirts")
	for _, k := range linkKinds {
		if k.path == "categories" {
			continue
		}
		base := k.base(fam)
		withAppliesTo := k.path != "relation-types"
		ext := func(level, applies string) []any {
			if withAppliesTo {
				return []any{"requirementLevel", level, "appliesTo", applies}
			}
			return []any{"requirementLevel", level}
		}
		opt := str(k.link(t, c, fam, k.mk(t, c), ext("optional", "parent")...), "uuid")
		req := str(k.link(t, c, fam, k.mk(t, c), ext("required", "variant")...), "uuid")
		rec := str(k.link(t, c, fam, k.mk(t, c), ext("recommended", "both")...), "uuid")
		req2 := str(k.link(t, c, fam, k.mk(t, c), ext("required", "both")...), "uuid")

		wantList(t, c, base+q("requirementLevels[eq]", "required"), false, req, req2)
		wantList(t, c, base+q("requirementLevels[eq]", "required", "requirementLevels[eq]", "optional"), false, req, req2, opt)
		wantList(t, c, base+q("requirementLevel[order]", "asc"), true, req, req2, rec, opt)
		wantList(t, c, base+q("requirementLevel[order]", "desc"), true, opt, rec, req2, req)
		wantList(t, c, base+q("requirementLevel[order]", "asc", "createdAt[order]", "desc"), true, req2, req, rec, opt)
		problem(t, k.path+": unknown level", c.Get(base+q("requirementLevels[eq]", "mandatory")), 400, "VALIDATION_FAILED", "requirementLevels[eq]")
		if withAppliesTo {
			wantList(t, c, base+q("appliesTo[eq]", "both"), false, rec, req2)
			wantList(t, c, base+q("appliesTo[eq]", "parent", "appliesTo[eq]", "variant"), false, opt, req)
			wantList(t, c, base+q("appliesTo[eq]", "both", "requirementLevels[eq]", "required"), false, req2)
			problem(t, k.path+": unknown appliesTo", c.Get(base+q("appliesTo[eq]", "all")), 400, "VALIDATION_FAILED", "appliesTo[eq]")
		} else {
			problem(t, k.path+": no appliesTo filter", c.Get(base+q("appliesTo[eq]", "both")), 400, "MALFORMED_REQUEST", "appliesTo[eq]")
			problem(t, k.path+": no appliesTo field", c.Post(base, body(k.target, k.mk(t, c), "appliesTo", "both")), 400, "MALFORMED_REQUEST", "appliesTo")
		}
		problem(t, k.path+": the plural of appliesTo is not a filter", c.Get(base+q("appliesTos[eq]", "both")), 400, "MALFORMED_REQUEST", "appliesTos[eq]")
		if k.path == "attributes" {
			wantList(t, c, base+q("isVariantAxis[eq]", "true"), false)
			Want(t, c.Patch(base+"/"+req, body("isVariantAxis", true)), 200)
			wantList(t, c, base+q("isVariantAxis[eq]", "true"), false, req)
			wantList(t, c, base+q("isVariantAxis[eq]", "false"), false, opt, rec, req2)
			problem(t, "bad bool", c.Get(base+q("isVariantAxis[eq]", "yes")), 400, "MALFORMED_REQUEST", "isVariantAxis[eq]")
		} else {
			problem(t, k.path+": no isVariantAxis", c.Post(base, body(k.target, k.mk(t, c), "isVariantAxis", true)), 400, "MALFORMED_REQUEST", "isVariantAxis")
		}
	}
}

func TestFamilyCategoryAutoPopulate(t *testing.T) {
	t.Parallel()
	c, _ := tenantClient(t)
	fam := mkFamily(t, c, "shirts")
	k := linkKinds[2]
	base := k.base(fam)
	auto := k.link(t, c, fam, mkCategory(t, c), "autoPopulate", true)
	k.want(t, "auto", auto, fam, str(auto, "categoryUuid"), []any{"autoPopulate", true})
	manual := str(k.link(t, c, fam, mkCategory(t, c)), "uuid")
	wantList(t, c, base+q("autoPopulate[eq]", "true"), false, str(auto, "uuid"))
	wantList(t, c, base+q("autoPopulate[eq]", "false"), false, manual)
	Want(t, c.Patch(base+"/"+manual, body("autoPopulate", true)), 200)
	wantList(t, c, base+q("autoPopulate[eq]", "true"), false, str(auto, "uuid"), manual)
	// Categories have no requirement level, counts or order beyond the timestamps.
	problem(t, "no requirementLevel", c.Post(base, body(k.target, mkCategory(t, c), "requirementLevel", "required")), 400, "MALFORMED_REQUEST", "requirementLevel")
	problem(t, "no requirementLevels filter", c.Get(base+q("requirementLevels[eq]", "required")), 400, "MALFORMED_REQUEST", "requirementLevels[eq]")
	problem(t, "no requirementLevel order", c.Get(base+q("requirementLevel[order]", "asc")), 400, "MALFORMED_REQUEST", "requirementLevel[order]")
	problem(t, "no minCount", c.Patch(base+"/"+manual, body("minCount", 1)), 400, "MALFORMED_REQUEST", "minCount")
}

// Asset and relation types carry minCount (0 or more, default 0) and maxCount (null: no maximum;
// else at least minCount), checked on create and on the stored result of an update.
func TestLinkCounts(t *testing.T) {
	t.Parallel()
	for _, k := range linkKinds[3:] {
		t.Run(k.path, func(t *testing.T) {
			t.Parallel()
			c, tenant := tenantClient(t)
			fam := mkFamily(t, c, "shirts")
			base := k.base(fam)
			x, y := k.mk(t, c), k.mk(t, c)
			log := newLog(t, tenant)

			problem(t, "max below min", c.Post(base, body(k.target, x, "minCount", 2, "maxCount", 1)), 400, "VALIDATION_FAILED", "maxCount")
			problem(t, "negative max", c.Post(base, body(k.target, x, "maxCount", -1)), 400, "VALIDATION_FAILED", "maxCount")
			problem(t, "negative min", c.Post(base, body(k.target, x, "minCount", -1)), 400, "VALIDATION_FAILED", "minCount")
			problem(t, "bulk: max below min", c.Post(base+"/bulk", []any{body(k.target, y), body(k.target, x, "minCount", 3, "maxCount", 2)}), 400, "VALIDATION_FAILED", "[1].maxCount")
			problem(t, "not an integer", c.Post(base, body(k.target, x, "minCount", 1.5)), 400, "MALFORMED_REQUEST", "minCount")
			problem(t, "not a number", c.Post(base, body(k.target, x, "maxCount", "3")), 400, "MALFORMED_REQUEST", "maxCount")
			log.expect(t, "refused links write nothing")
			wantList(t, c, base, false)

			zero := k.link(t, c, fam, x, "maxCount", 0)
			wantFields(t, "max 0", zero, "minCount", 0, "maxCount", 0)
			l := k.link(t, c, fam, k.mk(t, c), "minCount", 1, "maxCount", 3)
			id := str(l, "uuid")
			wantFields(t, "1..3", l, "minCount", 1, "maxCount", 3)
			unbounded := k.link(t, c, fam, k.mk(t, c), "minCount", 2, "maxCount", nil)
			wantFields(t, "2..", unbounded, "minCount", 2, "maxCount", nil)
			log = newLog(t, tenant)

			problem(t, "max below the stored min", c.Patch(base+"/"+id, body("maxCount", 0)), 400, "VALIDATION_FAILED", "maxCount")
			problem(t, "min above the stored max", c.Patch(base+"/"+id, body("minCount", 5)), 400, "VALIDATION_FAILED", "minCount")
			problem(t, "both, max below min", c.Patch(base+"/"+id, body("minCount", 5, "maxCount", 4)), 400, "VALIDATION_FAILED", "maxCount")
			problem(t, "negative max", c.Patch(base+"/"+id, body("maxCount", -2)), 400, "VALIDATION_FAILED", "maxCount")
			problem(t, "bulk: second item above the max", c.Patch(base+"/bulk", []any{body("uuid", str(zero, "uuid"), "maxCount", 9), body("uuid", id, "minCount", 9)}), 400, "VALIDATION_FAILED", "[1].minCount")
			log.expect(t, "refused updates write nothing")
			if got := Want(t, c.Get(base+"/"+str(zero, "uuid")), 200).Obj(); !reflect.DeepEqual(got, zero) {
				t.Errorf("a refused bulk update changed its first item: %v, want %v", got, zero)
			}
			// minCount alone keeps the maximum; maxCount null removes it; absent leaves it.
			u := Want(t, c.Patch(base+"/"+id, body("minCount", 3)), 200).Obj()
			wantFields(t, "min 3", u, "minCount", 3, "maxCount", 3)
			u = Want(t, c.Patch(base+"/"+id, body("maxCount", nil)), 200).Obj()
			wantFields(t, "no max", u, "minCount", 3, "maxCount", nil)
			u = Want(t, c.Patch(base+"/"+id, body("minCount", 7)), 200).Obj()
			wantFields(t, "min 7, no max", u, "minCount", 7, "maxCount", nil)
			u = Want(t, c.Patch(base+"/"+id, body("minCount", 1, "maxCount", 4)), 200).Obj()
			wantFields(t, "1..4", u, "minCount", 1, "maxCount", 4)
			u = Want(t, c.Patch(base+"/"+id, body("requirementLevel", "required")), 200).Obj()
			wantFields(t, "level only", u, "minCount", 1, "maxCount", 4, "requirementLevel", "required")
			log.expect(t, "updates", k.ev("updated", fam, id), k.ev("updated", fam, id), k.ev("updated", fam, id), k.ev("updated", fam, id), k.ev("updated", fam, id))

			// Filters: maxCount treats "no maximum" as unbounded.
			z, b := str(zero, "uuid"), str(unbounded, "uuid") // 0..0, 1..4, 2..∞
			wantList(t, c, base+q("minCount[eq]", "1"), false, id)
			wantList(t, c, base+q("minCount[min]", "1"), false, id, b)
			wantList(t, c, base+q("minCount[max]", "1"), false, z, id)
			wantList(t, c, base+q("maxCount[eq]", "4"), false, id)
			wantList(t, c, base+q("maxCount[min]", "4"), false, id, b)
			wantList(t, c, base+q("maxCount[max]", "4"), false, z, id)
			wantList(t, c, base+q("maxCount[min]", "1", "maxCount[max]", "10"), false, id)
			wantList(t, c, base+q("maxCount[order]", "asc"), true, z, id, b)
			wantList(t, c, base+q("maxCount[order]", "desc"), true, b, id, z)
			wantList(t, c, base+q("minCount[order]", "desc"), true, b, id, z)
			problem(t, "bad int filter", c.Get(base+q("minCount[eq]", "one")), 400, "MALFORMED_REQUEST", "minCount[eq]")
		})
	}
}
