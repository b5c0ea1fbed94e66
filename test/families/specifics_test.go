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
	c, tenant := env.TenantClient(t)
	fam := mkFamily(t, c, "shirts")
	k := linkKinds[0]
	base := k.base(fam)
	a, b := mkAttribute(t, c), mkAttribute(t, c)
	log := NewEventLog(pool, tenant).Skip(t)

	Problem(t, "axis on the parent", c.Post(base, Body(k.target, a, "isVariantAxis", true, "appliesTo", "parent")), 400, "VALIDATION_FAILED", "isVariantAxis")
	Problem(t, "bulk: axis on the parent", c.Post(base+"/bulk", []any{Body(k.target, b), Body(k.target, a, "isVariantAxis", true, "appliesTo", "parent")}), 400, "VALIDATION_FAILED", "[1].isVariantAxis")
	log.Expect(t, "refused links write nothing")
	WantUUIDs(t, c, base, false)

	axis := k.link(t, c, fam, a, "isVariantAxis", true) // appliesTo defaults to both
	k.want(t, "axis", axis, fam, a, []any{"requirementLevel", "optional", "appliesTo", "both", "isVariantAxis", true})
	plain := k.link(t, c, fam, b, "appliesTo", "parent")
	ia, ib := Str(axis, "uuid"), Str(plain, "uuid")
	log.Expect(t, "links", k.ev("linked", fam, ia), k.ev("linked", fam, ib))

	// Updates are checked on the resulting link.
	Problem(t, "move an axis to the parent", c.Patch(base+"/"+ia, Body("appliesTo", "parent")), 400, "VALIDATION_FAILED", "appliesTo")
	Problem(t, "make a parent attribute an axis", c.Patch(base+"/"+ib, Body("isVariantAxis", true)), 400, "VALIDATION_FAILED", "isVariantAxis")
	Problem(t, "bulk: second item breaks the rule", c.Patch(base+"/bulk", []any{Body("uuid", ib, "requirementLevel", "required"), Body("uuid", ia, "appliesTo", "parent")}), 400, "VALIDATION_FAILED", "[1].appliesTo")
	log.Expect(t, "refused updates write nothing")
	if got := Want(t, c.Get(base+"/"+ib), 200).Obj(); !reflect.DeepEqual(got, plain) {
		t.Errorf("a refused bulk update changed its first item: %v, want %v", got, plain)
	}
	u := Want(t, c.Patch(base+"/"+ia, Body("isVariantAxis", false, "appliesTo", "parent")), 200).Obj()
	k.want(t, "no longer an axis", u, fam, a, []any{"requirementLevel", "optional", "appliesTo", "parent", "isVariantAxis", false})
	u = Want(t, c.Patch(base+"/"+ib, Body("appliesTo", "variant", "isVariantAxis", true)), 200).Obj()
	k.want(t, "now an axis", u, fam, b, []any{"requirementLevel", "optional", "appliesTo", "variant", "isVariantAxis", true})
	// null leaves a non-nullable field unchanged.
	u = Want(t, c.Patch(base+"/"+ib, Body("requirementLevel", nil, "appliesTo", nil, "isVariantAxis", nil)), 200).Obj()
	k.want(t, "nulls", u, fam, b, []any{"requirementLevel", "optional", "appliesTo", "variant", "isVariantAxis", true})

	// Unknown enum values are refused, naming the field.
	Problem(t, "unknown requirement level", c.Post(base, Body(k.target, mkAttribute(t, c), "requirementLevel", "mandatory")), 400, "MALFORMED_REQUEST", "requirementLevel")
	Problem(t, "unknown appliesTo", c.Patch(base+"/"+ia, Body("appliesTo", "all")), 400, "MALFORMED_REQUEST", "appliesTo")
}

// Filters and ordering of the link columns: requirementLevels[eq], appliesTo[eq] (repeatable),
// isVariantAxis[eq], autoPopulate[eq], and requirementLevel[order] by rank.
func TestLinkColumnFilters(t *testing.T) {
	t.Parallel()
	c, _ := env.TenantClient(t)
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
		opt := Str(k.link(t, c, fam, k.mk(t, c), ext("optional", "parent")...), "uuid")
		req := Str(k.link(t, c, fam, k.mk(t, c), ext("required", "variant")...), "uuid")
		rec := Str(k.link(t, c, fam, k.mk(t, c), ext("recommended", "both")...), "uuid")
		req2 := Str(k.link(t, c, fam, k.mk(t, c), ext("required", "both")...), "uuid")

		WantUUIDs(t, c, base+Q("requirementLevels[eq]", "required"), false, req, req2)
		WantUUIDs(t, c, base+Q("requirementLevels[eq]", "required", "requirementLevels[eq]", "optional"), false, req, req2, opt)
		WantUUIDs(t, c, base+Q("requirementLevel[order]", "asc"), true, req, req2, rec, opt)
		WantUUIDs(t, c, base+Q("requirementLevel[order]", "desc"), true, opt, rec, req2, req)
		WantUUIDs(t, c, base+Q("requirementLevel[order]", "asc", "createdAt[order]", "desc"), true, req2, req, rec, opt)
		Problem(t, k.path+": unknown level", c.Get(base+Q("requirementLevels[eq]", "mandatory")), 400, "VALIDATION_FAILED", "requirementLevels[eq]")
		if withAppliesTo {
			WantUUIDs(t, c, base+Q("appliesTo[eq]", "both"), false, rec, req2)
			WantUUIDs(t, c, base+Q("appliesTo[eq]", "parent", "appliesTo[eq]", "variant"), false, opt, req)
			WantUUIDs(t, c, base+Q("appliesTo[eq]", "both", "requirementLevels[eq]", "required"), false, req2)
			Problem(t, k.path+": unknown appliesTo", c.Get(base+Q("appliesTo[eq]", "all")), 400, "VALIDATION_FAILED", "appliesTo[eq]")
		} else {
			Problem(t, k.path+": no appliesTo filter", c.Get(base+Q("appliesTo[eq]", "both")), 400, "MALFORMED_REQUEST", "appliesTo[eq]")
			Problem(t, k.path+": no appliesTo field", c.Post(base, Body(k.target, k.mk(t, c), "appliesTo", "both")), 400, "MALFORMED_REQUEST", "appliesTo")
		}
		Problem(t, k.path+": the plural of appliesTo is not a filter", c.Get(base+Q("appliesTos[eq]", "both")), 400, "MALFORMED_REQUEST", "appliesTos[eq]")
		if k.path == "attributes" {
			WantUUIDs(t, c, base+Q("isVariantAxis[eq]", "true"), false)
			Want(t, c.Patch(base+"/"+req, Body("isVariantAxis", true)), 200)
			WantUUIDs(t, c, base+Q("isVariantAxis[eq]", "true"), false, req)
			WantUUIDs(t, c, base+Q("isVariantAxis[eq]", "false"), false, opt, rec, req2)
			Problem(t, "bad bool", c.Get(base+Q("isVariantAxis[eq]", "yes")), 400, "MALFORMED_REQUEST", "isVariantAxis[eq]")
		} else {
			Problem(t, k.path+": no isVariantAxis", c.Post(base, Body(k.target, k.mk(t, c), "isVariantAxis", true)), 400, "MALFORMED_REQUEST", "isVariantAxis")
		}
	}
}

func TestFamilyCategoryAutoPopulate(t *testing.T) {
	t.Parallel()
	c, _ := env.TenantClient(t)
	fam := mkFamily(t, c, "shirts")
	k := linkKinds[2]
	base := k.base(fam)
	auto := k.link(t, c, fam, mkCategory(t, c), "autoPopulate", true)
	k.want(t, "auto", auto, fam, Str(auto, "categoryUuid"), []any{"autoPopulate", true})
	manual := Str(k.link(t, c, fam, mkCategory(t, c)), "uuid")
	WantUUIDs(t, c, base+Q("autoPopulate[eq]", "true"), false, Str(auto, "uuid"))
	WantUUIDs(t, c, base+Q("autoPopulate[eq]", "false"), false, manual)
	Want(t, c.Patch(base+"/"+manual, Body("autoPopulate", true)), 200)
	WantUUIDs(t, c, base+Q("autoPopulate[eq]", "true"), false, Str(auto, "uuid"), manual)
	// Categories have no requirement level, counts or order beyond the timestamps.
	Problem(t, "no requirementLevel", c.Post(base, Body(k.target, mkCategory(t, c), "requirementLevel", "required")), 400, "MALFORMED_REQUEST", "requirementLevel")
	Problem(t, "no requirementLevels filter", c.Get(base+Q("requirementLevels[eq]", "required")), 400, "MALFORMED_REQUEST", "requirementLevels[eq]")
	Problem(t, "no requirementLevel order", c.Get(base+Q("requirementLevel[order]", "asc")), 400, "MALFORMED_REQUEST", "requirementLevel[order]")
	Problem(t, "no minCount", c.Patch(base+"/"+manual, Body("minCount", 1)), 400, "MALFORMED_REQUEST", "minCount")
}

// Asset and relation types carry minCount (0 or more, default 0) and maxCount (null: no maximum;
// else at least minCount), checked on create and on the stored result of an update.
func TestLinkCounts(t *testing.T) {
	t.Parallel()
	for _, k := range linkKinds[3:] {
		t.Run(k.path, func(t *testing.T) {
			t.Parallel()
			c, tenant := env.TenantClient(t)
			fam := mkFamily(t, c, "shirts")
			base := k.base(fam)
			x, y := k.mk(t, c), k.mk(t, c)
			log := NewEventLog(pool, tenant).Skip(t)

			Problem(t, "max below min", c.Post(base, Body(k.target, x, "minCount", 2, "maxCount", 1)), 400, "VALIDATION_FAILED", "maxCount")
			Problem(t, "negative max", c.Post(base, Body(k.target, x, "maxCount", -1)), 400, "VALIDATION_FAILED", "maxCount")
			Problem(t, "negative min", c.Post(base, Body(k.target, x, "minCount", -1)), 400, "VALIDATION_FAILED", "minCount")
			Problem(t, "bulk: max below min", c.Post(base+"/bulk", []any{Body(k.target, y), Body(k.target, x, "minCount", 3, "maxCount", 2)}), 400, "VALIDATION_FAILED", "[1].maxCount")
			Problem(t, "not an integer", c.Post(base, Body(k.target, x, "minCount", 1.5)), 400, "MALFORMED_REQUEST", "minCount")
			Problem(t, "not a number", c.Post(base, Body(k.target, x, "maxCount", "3")), 400, "MALFORMED_REQUEST", "maxCount")
			log.Expect(t, "refused links write nothing")
			WantUUIDs(t, c, base, false)

			zero := k.link(t, c, fam, x, "maxCount", 0)
			WantFields(t, "max 0", zero, "minCount", 0, "maxCount", 0)
			l := k.link(t, c, fam, k.mk(t, c), "minCount", 1, "maxCount", 3)
			id := Str(l, "uuid")
			WantFields(t, "1..3", l, "minCount", 1, "maxCount", 3)
			unbounded := k.link(t, c, fam, k.mk(t, c), "minCount", 2, "maxCount", nil)
			WantFields(t, "2..", unbounded, "minCount", 2, "maxCount", nil)
			log = NewEventLog(pool, tenant).Skip(t)

			Problem(t, "max below the stored min", c.Patch(base+"/"+id, Body("maxCount", 0)), 400, "VALIDATION_FAILED", "maxCount")
			Problem(t, "min above the stored max", c.Patch(base+"/"+id, Body("minCount", 5)), 400, "VALIDATION_FAILED", "minCount")
			Problem(t, "both, max below min", c.Patch(base+"/"+id, Body("minCount", 5, "maxCount", 4)), 400, "VALIDATION_FAILED", "maxCount")
			Problem(t, "negative max", c.Patch(base+"/"+id, Body("maxCount", -2)), 400, "VALIDATION_FAILED", "maxCount")
			Problem(t, "bulk: second item above the max", c.Patch(base+"/bulk", []any{Body("uuid", Str(zero, "uuid"), "maxCount", 9), Body("uuid", id, "minCount", 9)}), 400, "VALIDATION_FAILED", "[1].minCount")
			log.Expect(t, "refused updates write nothing")
			if got := Want(t, c.Get(base+"/"+Str(zero, "uuid")), 200).Obj(); !reflect.DeepEqual(got, zero) {
				t.Errorf("a refused bulk update changed its first item: %v, want %v", got, zero)
			}
			// minCount alone keeps the maximum; maxCount null removes it; absent leaves it.
			u := Want(t, c.Patch(base+"/"+id, Body("minCount", 3)), 200).Obj()
			WantFields(t, "min 3", u, "minCount", 3, "maxCount", 3)
			u = Want(t, c.Patch(base+"/"+id, Body("maxCount", nil)), 200).Obj()
			WantFields(t, "no max", u, "minCount", 3, "maxCount", nil)
			u = Want(t, c.Patch(base+"/"+id, Body("minCount", 7)), 200).Obj()
			WantFields(t, "min 7, no max", u, "minCount", 7, "maxCount", nil)
			u = Want(t, c.Patch(base+"/"+id, Body("minCount", 1, "maxCount", 4)), 200).Obj()
			WantFields(t, "1..4", u, "minCount", 1, "maxCount", 4)
			u = Want(t, c.Patch(base+"/"+id, Body("requirementLevel", "required")), 200).Obj()
			WantFields(t, "level only", u, "minCount", 1, "maxCount", 4, "requirementLevel", "required")
			log.Expect(t, "updates", k.ev("updated", fam, id), k.ev("updated", fam, id), k.ev("updated", fam, id), k.ev("updated", fam, id), k.ev("updated", fam, id))

			// Filters: maxCount treats "no maximum" as unbounded.
			z, b := Str(zero, "uuid"), Str(unbounded, "uuid") // 0..0, 1..4, 2..∞
			WantUUIDs(t, c, base+Q("minCount[eq]", "1"), false, id)
			WantUUIDs(t, c, base+Q("minCount[min]", "1"), false, id, b)
			WantUUIDs(t, c, base+Q("minCount[max]", "1"), false, z, id)
			WantUUIDs(t, c, base+Q("maxCount[eq]", "4"), false, id)
			WantUUIDs(t, c, base+Q("maxCount[min]", "4"), false, id, b)
			WantUUIDs(t, c, base+Q("maxCount[max]", "4"), false, z, id)
			WantUUIDs(t, c, base+Q("maxCount[min]", "1", "maxCount[max]", "10"), false, id)
			WantUUIDs(t, c, base+Q("maxCount[order]", "asc"), true, z, id, b)
			WantUUIDs(t, c, base+Q("maxCount[order]", "desc"), true, b, id, z)
			WantUUIDs(t, c, base+Q("minCount[order]", "desc"), true, b, id, z)
			Problem(t, "bad int filter", c.Get(base+Q("minCount[eq]", "one")), 400, "MALFORMED_REQUEST", "minCount[eq]")
		})
	}
}
