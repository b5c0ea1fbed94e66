package catalog

import (
	"context"
	"strings"

	"github.com/google/uuid"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/crud"
	"github.com/catalogd/catalogd/server/fields"
	"github.com/catalogd/catalogd/server/jsonpb"
	"github.com/catalogd/catalogd/server/list"
)

// A family links to attributes, input types, categories, product asset types and product relation
// types. The five links are one shape: a target fixed after creation, unique per family, and some
// of the link columns (requirementLevel, appliesTo, isVariantAxis, autoPopulate, minCount,
// maxCount). They share one table (family_links, by kind) and the one family definition below
// (newLinkFamily); which columns a kind offers is read from its messages, so a kind is only its
// name, its target field and table, and its messages.

// Proto names of the link columns a kind's messages may carry.
const (
	fRequirementLevel protoreflect.Name = "requirement_level"
	fAppliesTo        protoreflect.Name = "applies_to"
	fIsVariantAxis    protoreflect.Name = "is_variant_axis"
	fAutoPopulate     protoreflect.Name = "auto_populate"
	fMinCount         protoreflect.Name = "min_count"
	fMaxCount         protoreflect.Name = "max_count"
)

// noMaximum is how maxCount filters see a link without a maximum: unbounded.
const noMaximum = "2147483647"

// FamilyLinkList is the list spec of every family link collection (/v1/families/{familyUuid}/
// attributes, input-types, categories, asset-types, relation-types); each list request has the
// filters of its kind. maxCount[min|max|eq] treat a link without a maximum as unbounded.
// requirementLevel orders by rank: required, recommended, optional.
var FamilyLinkList = &list.Spec{
	Table: "family_links",
	Filters: map[string]list.Field{
		"uuids":                    {Column: "uuid", Type: list.UUID},
		"attributeUuids":           {Column: "target_uuid", Type: list.UUID},
		"inputTypeUuids":           {Column: "target_uuid", Type: list.UUID},
		"categoryUuids":            {Column: "target_uuid", Type: list.UUID},
		"productAssetTypeUuids":    {Column: "target_uuid", Type: list.UUID},
		"productRelationTypeUuids": {Column: "target_uuid", Type: list.UUID},
		"requirementLevels":        {Column: "requirement_level", Type: list.Enum, Values: enumValues(pb.FamilyRequirementLevel(0))},
		"appliesTo":                {Column: "applies_to", Type: list.Enum, Values: enumValues(pb.FamilyAppliesTo(0))},
		"isVariantAxis":            {Column: "is_variant_axis", Type: list.Bool},
		"autoPopulate":             {Column: "auto_populate", Type: list.Bool},
		"minCount":                 {Column: "min_count", Type: list.Int},
		"maxCount":                 {Column: "coalesce(max_count, " + noMaximum + ")", Type: list.Int},
		"createdAt":                {Column: "created_at", Type: list.Time},
		"updatedAt":                {Column: "updated_at", Type: list.Time},
	},
	// max_count sorts nulls (no maximum) last ascending, first descending: as unbounded.
	Order: map[string]string{"requirementLevel": "requirement_rank", "minCount": "min_count", "maxCount": "max_count",
		"createdAt": "created_at", "updatedAt": "updated_at"},
}

// linkUpdate is what every link update body offers.
type linkUpdate interface {
	proto.Message
	GetUuid() string
}

// linkFamily is one kind of family link: the crud family over family_links rows of that kind.
type linkFamily[M, C proto.Message, U linkUpdate] struct {
	*crud.Family[db.FamilyLink, M, C, U]
	kind string
}

// newLinkFamily declares the links of kind ("asset_type": events family.asset_type.*, kind
// column 'asset_type', foreign key family_links_asset_type_fkey) whose item path parameter is
// idKey ("familyAssetTypeUuid") and whose target is the field target ("product_asset_type_uuid")
// naming a row of table. The messages are tried once here, so a missing field fails at start-up.
func newLinkFamily[M, C proto.Message, U linkUpdate](kind, idKey string, target protoreflect.Name, table string) *linkFamily[M, C, U] {
	var c C
	targetJSON := fieldNamed(c.ProtoReflect(), target).JSONName()
	toPB := linkToPB[M](target)
	toPB(db.FamilyLink{})
	return &linkFamily[M, C, U]{kind: kind, Family: &crud.Family[db.FamilyLink, M, C, U]{
		Kind: "family " + strings.ReplaceAll(kind, "_", " "), Event: "family." + kind, IDKey: idKey, Unique: targetJSON,
		CreatedVerb: "linked", DeletedVerb: "unlinked",
		References: map[string]string{"family_links_" + kind + "_fkey": targetJSON},
		ID:         func(l db.FamilyLink) uuid.UUID { return l.Uuid },
		ToPB:       toPB,
		CheckCreate: func(v apierr.Validator, c C) string {
			b := bodyOf(c)
			if b.checkValues(v) {
				checkLinkRules(v.Add, linkOf(b), b)
			}
			return b.str(target)
		},
		Insert: func(ctx context.Context, t *crud.Tx, ids []uuid.UUID, items []C) ([]db.FamilyLink, error) {
			n := len(items)
			p := db.InsertFamilyLinksParams{TenantID: t.Tenant, FamilyUuid: t.Scope.Parent, Kind: kind, Now: t.Now, Uuids: ids,
				TargetUuids: make([]uuid.UUID, n), RequirementLevels: make([]string, n), AppliesTos: make([]string, n),
				IsVariantAxes: make([]bool, n), AutoPopulates: make([]bool, n), MinCounts: make([]int32, n),
				MaxCounts: make([]int32, n), HasMaxCounts: make([]bool, n)}
			targets := make([]*uuid.UUID, n)
			for i, c := range items {
				b := bodyOf(c)
				l := linkOf(b)
				p.TargetUuids[i] = uuid.MustParse(b.str(target))
				targets[i] = &p.TargetUuids[i]
				p.RequirementLevels[i], p.AppliesTos[i] = l.RequirementLevel, l.AppliesTo
				p.IsVariantAxes[i], p.AutoPopulates[i], p.MinCounts[i] = l.IsVariantAxis, l.AutoPopulate, l.MinCount
				if l.MaxCount != nil {
					p.MaxCounts[i], p.HasMaxCounts[i] = *l.MaxCount, true
				}
			}
			if err := crud.RequireExisting(ctx, t, table, targetJSON, targets); err != nil {
				return nil, err
			}
			return t.Q.InsertFamilyLinks(ctx, p)
		},
		UpdateID: U.GetUuid,
		CheckUpdate: func(v apierr.Validator, u U) {
			bodyOf(u).checkValues(v)
		},
		UpdateOne: func(ctx context.Context, t *crud.Tx, id uuid.UUID, u U) (db.FamilyLink, error) {
			b := bodyOf(u)
			maxCount := b.int(fMaxCount)
			return t.Q.UpdateFamilyLink(ctx, db.UpdateFamilyLinkParams{TenantID: t.Tenant, FamilyUuid: t.Scope.Parent, Kind: kind, Uuid: id, Now: t.Now,
				RequirementLevel: b.enum(fRequirementLevel), AppliesTo: b.enum(fAppliesTo), IsVariantAxis: b.bool(fIsVariantAxis),
				AutoPopulate: b.bool(fAutoPopulate), MinCount: b.int(fMinCount), MaxCount: maxCount,
				SetMaxCount: maxCount != nil || b.clears(fMaxCount, u)})
		},
		// The rules across fields hold on the stored result (a violation rolls the request back),
		// and the target may only be given with its current value.
		AfterUpdate: func(_ context.Context, _ *crud.Tx, l db.FamilyLink, u U, field func(string) string) (db.FamilyLink, error) {
			v := apierr.NewValidator()
			add := func(f, format string, args ...any) { v.Add(field(f), format, args...) }
			b := bodyOf(u)
			if b.has(target) && uuid.MustParse(b.str(target)) != l.TargetUuid {
				add(targetJSON, "is fixed after creation (this link is to %s): unlink it and link the other one instead", l.TargetUuid)
			}
			checkLinkRules(add, l, b)
			return l, v.Err()
		},
		GetOne: func(ctx context.Context, q *db.Queries, tenant string, s crud.Scope, id uuid.UUID) (db.FamilyLink, error) {
			return q.GetFamilyLink(ctx, db.GetFamilyLinkParams{TenantID: tenant, FamilyUuid: s.Parent, Kind: kind, Uuid: id})
		},
		DeleteOne: func(ctx context.Context, t *crud.Tx, id uuid.UUID) (int64, error) {
			return t.Q.DeleteFamilyLink(ctx, db.DeleteFamilyLinkParams{TenantID: t.Tenant, FamilyUuid: t.Scope.Parent, Kind: kind, Uuid: id})
		},
	}}
}

// list lists the links of this kind of the family of path parameter raw.
func (f *linkFamily[M, C, U]) list(ctx context.Context, s *Service, raw string, req proto.Message) ([]M, *pb.Pagination, error) {
	sc := s.familyScope(ctx, raw)
	if sc.Err != nil {
		return nil, nil, sc.Err
	}
	return listAs(ctx, s, FamilyLinkList, req, f.ToPB, list.Eq("family_uuid", sc.Parent), list.Eq("kind", f.kind))
}

// checkLinkRules checks the rules across the fields of link l (the values a create results in, or
// the stored result of an update): maxCount, when set, is at least minCount; a variant axis applies
// to variants. A violation names the field body b gives, preferring the one that breaks the rule.
func checkLinkRules(add func(field, format string, args ...any), l db.FamilyLink, b linkBody) {
	if l.MaxCount != nil && *l.MaxCount < l.MinCount {
		if b.has(fMaxCount) || !b.has(fMinCount) {
			add("maxCount", "must be at least minCount (%d), or null for no maximum", l.MinCount)
		} else {
			add("minCount", "must be at most maxCount (%d)", *l.MaxCount)
		}
	}
	if l.IsVariantAxis && l.AppliesTo == "parent" {
		if b.has(fIsVariantAxis) || !b.has(fAppliesTo) {
			add("isVariantAxis", "a variant axis differentiates variants: appliesTo must be variant or both")
		} else {
			add("appliesTo", "cannot be parent: the attribute is a variant axis, which differentiates variants")
		}
	}
}

// linkOf is the link a create body describes: the values given, else the neutral defaults
// (requirementLevel optional, appliesTo both, false, minCount 0, no maximum).
func linkOf(b linkBody) db.FamilyLink {
	l := db.FamilyLink{RequirementLevel: "optional", AppliesTo: "both", MaxCount: b.int(fMaxCount)}
	if s := b.enum(fRequirementLevel); s != nil {
		l.RequirementLevel = *s
	}
	if s := b.enum(fAppliesTo); s != nil {
		l.AppliesTo = *s
	}
	if x := b.bool(fIsVariantAxis); x != nil {
		l.IsVariantAxis = *x
	}
	if x := b.bool(fAutoPopulate); x != nil {
		l.AutoPopulate = *x
	}
	if n := b.int(fMinCount); n != nil {
		l.MinCount = *n
	}
	return l
}

// linkToPB converts a link row into its kind's message M, setting the link columns M carries.
func linkToPB[M proto.Message](target protoreflect.Name) func(db.FamilyLink) M {
	return func(l db.FamilyLink) M {
		m, set := newMessageOf[M]()
		set("uuid", protoreflect.ValueOfString(l.Uuid.String()))
		set("created_at", timestampValue(l.CreatedAt))
		set("updated_at", timestampValue(l.UpdatedAt))
		set("family_uuid", protoreflect.ValueOfString(l.FamilyUuid.String()))
		set(target, protoreflect.ValueOfString(l.TargetUuid.String()))
		r := m.ProtoReflect()
		fds := r.Descriptor().Fields()
		setIf := func(name protoreflect.Name, v func(protoreflect.FieldDescriptor) protoreflect.Value) {
			if fd := fds.ByName(name); fd != nil {
				r.Set(fd, v(fd))
			}
		}
		setIf(fRequirementLevel, enumOf(l.RequirementLevel))
		setIf(fAppliesTo, enumOf(l.AppliesTo))
		setIf(fIsVariantAxis, func(protoreflect.FieldDescriptor) protoreflect.Value {
			return protoreflect.ValueOfBool(l.IsVariantAxis)
		})
		setIf(fAutoPopulate, func(protoreflect.FieldDescriptor) protoreflect.Value { return protoreflect.ValueOfBool(l.AutoPopulate) })
		setIf(fMinCount, func(protoreflect.FieldDescriptor) protoreflect.Value { return protoreflect.ValueOfInt32(l.MinCount) })
		if l.MaxCount != nil {
			setIf(fMaxCount, func(protoreflect.FieldDescriptor) protoreflect.Value { return protoreflect.ValueOfInt32(*l.MaxCount) })
		}
		return m
	}
}

// enumOf is the value of an enum field for a stored short name ("required").
func enumOf(short string) func(protoreflect.FieldDescriptor) protoreflect.Value {
	return func(fd protoreflect.FieldDescriptor) protoreflect.Value {
		ed := fd.Enum()
		if v := ed.Values().ByName(protoreflect.Name(enumPrefix(ed) + strings.ToUpper(short))); v != nil {
			return protoreflect.ValueOfEnum(v.Number())
		}
		return protoreflect.ValueOfEnum(0)
	}
}

// enumPrefix is the prefix of an enum's value names: FAMILY_APPLIES_TO_ of FAMILY_APPLIES_TO_UNSPECIFIED.
func enumPrefix(ed protoreflect.EnumDescriptor) string {
	return strings.TrimSuffix(string(ed.Values().ByNumber(0).Name()), "UNSPECIFIED")
}

// linkBody reads a link's create or update body by field name; a field the kind's message does
// not have reads as not given.
type linkBody struct{ m protoreflect.Message }

func bodyOf(m proto.Message) linkBody { return linkBody{m.ProtoReflect()} }

// given is the descriptor of field name when the body sets it, else nil.
func (b linkBody) given(name protoreflect.Name) protoreflect.FieldDescriptor {
	if !b.m.IsValid() {
		return nil
	}
	fd := b.m.Descriptor().Fields().ByName(name)
	if fd == nil || !b.m.Has(fd) {
		return nil
	}
	return fd
}

func (b linkBody) has(name protoreflect.Name) bool { return b.given(name) != nil }

func (b linkBody) str(name protoreflect.Name) string {
	if fd := b.given(name); fd != nil {
		return b.m.Get(fd).String()
	}
	return ""
}

func (b linkBody) bool(name protoreflect.Name) *bool {
	if fd := b.given(name); fd != nil {
		x := b.m.Get(fd).Bool()
		return &x
	}
	return nil
}

func (b linkBody) int(name protoreflect.Name) *int32 {
	if fd := b.given(name); fd != nil {
		n := int32(b.m.Get(fd).Int())
		return &n
	}
	return nil
}

// enum is the short name of an enum field ("required"), "" for the zero or an unknown value.
func (b linkBody) enum(name protoreflect.Name) *string {
	fd := b.given(name)
	if fd == nil {
		return nil
	}
	s := ""
	if n := b.m.Get(fd).Enum(); n != 0 {
		if v := fd.Enum().Values().ByNumber(n); v != nil {
			s = strings.ToLower(strings.TrimPrefix(string(v.Name()), enumPrefix(fd.Enum())))
		}
	}
	return &s
}

// clears reports that the update u sets a nullable field to null (over REST: the key with null).
func (b linkBody) clears(name protoreflect.Name, u proto.Message) bool {
	return b.m.IsValid() && b.m.Descriptor().Fields().ByName(name) != nil &&
		fields.NewMask(updateMask(u)).Clears(string(name), false)
}

// checkValues checks the enums the body gives are known (counts are 0 or more by the request
// rules) and reports whether they all were.
func (b linkBody) checkValues(v apierr.Validator) bool {
	ok := true
	for _, name := range []protoreflect.Name{fRequirementLevel, fAppliesTo} {
		if s := b.enum(name); s != nil && *s == "" {
			fd := b.given(name)
			v.Add(fd.JSONName(), "%s", jsonpb.EnumError(fd.Enum()))
			ok = false
		}
	}
	return ok
}
