// Package mock seeds the demo catalog that `catalogd mock` serves: an outdoor and apparel shop with
// locales, attributes and terms, a category tree, brands, tags, input types, families, channels,
// assets, simple products and a product with variants, and publications. docs/mock-catalog.md
// describes it for integrators; catalog.go holds it as data; this file sends it.
//
// Seed creates everything through the public gRPC API, as an integrator would (bulk operations
// where they exist, lifecycle transitions to activate and publish), so the demo catalog is exactly
// what the API can make and every write emits its events.
package mock

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/structpb"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
)

// Codes of well-known entities of the demo catalog, for examples.
const (
	// DefaultLocale is the tenant's default locale.
	DefaultLocale = "en-US"
	// VariantParent is the product with variants (4, by color and shoe size).
	VariantParent = "trail-runner-x"
	// PublishedProduct is a simple product, active, published on the channels web and retail_de.
	PublishedProduct = "alpine-shell-jacket"
	// DraftProduct is a draft product whose draft publication on web is not ready.
	DraftProduct = "storm-parka"
)

// ErrSeeded is returned (wrapped) by Seed for a tenant that already has the demo catalog: Seed is
// not idempotent, it refuses. Its first write creates the locales in one all-or-nothing bulk
// create, which a second Seed (even a concurrent one) finds taken, so a tenant is seeded at most
// once and Seed changes nothing the second time.
var ErrSeeded = errors.New("the tenant already has the demo catalog (its locales exist)")

// parallelism is how many of Seed's calls are in flight at once. A tenant may hold half of the
// database pool (at least 4 connections) and waits at most 500 ms for a slot before 429, so Seed
// keeps one slot free for a request of the tenant that arrives meanwhile.
const parallelism = 3

// Seed creates the demo catalog in the tenant that ctx's outgoing authorization names, through
// conn (tenant only names it in errors). It returns what it made; on an error the tenant may hold
// part of the catalog.
func Seed(ctx context.Context, conn grpc.ClientConnInterface, tenant string) (Summary, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	s := &seeder{conn: limited{conn, make(chan struct{}, parallelism)}, ids: map[string]string{}, cancel: cancel}
	if err := s.run(ctx); err != nil {
		return Summary{}, fmt.Errorf("mock: seed tenant %s: %w", tenant, err)
	}
	sum := summarize()
	sum.Tenant = tenant
	return sum, nil
}

// seeder sends the catalog and keeps the uuids the server gave, by kind and code.
type seeder struct {
	conn   grpc.ClientConnInterface
	cancel context.CancelCauseFunc
	mu     sync.Mutex
	ids    map[string]string
	// axes serializes the variants' term links: a variant's axis terms come in one call per axis,
	// and the API refuses a sibling with the same combination even while both are half made ({42}
	// and {42}), so a variant's combination is complete before the next one's starts.
	axes sync.Mutex
}

// run creates the catalog in dependency order; the independent parts of a step run concurrently.
func (s *seeder) run(ctx context.Context) error {
	if err := s.locales(ctx); err != nil {
		return err
	}
	steps := [][]func(context.Context) error{
		{s.attributes, s.categories, s.brands, s.tags, s.inputTypes, s.assetTypes, s.relationTypes, s.assets},
		{s.families, s.channels, s.collections},
		{s.products},
		{s.productLinks},
		{s.transitionProducts(func(p product) bool { return p.status != "draft" }, "activate")},
		{s.publish},
		{s.transitionProducts(func(p product) bool { return p.status == "inactive" }, "deactivate")},
	}
	for _, step := range steps {
		if err := s.each(ctx, len(step), func(i int) error { return step[i](ctx) }); err != nil {
			return err
		}
	}
	return nil
}

func (s *seeder) set(kind, code, uuid string) {
	s.mu.Lock()
	s.ids[kind+":"+code] = uuid
	s.mu.Unlock()
}

// id is the uuid of the entity of kind with code; "" when there is none, which the API refuses.
func (s *seeder) id(kind, code string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ids[kind+":"+code]
}

func (s *seeder) idp(kind, code string) *string {
	if code == "" {
		return nil
	}
	return ptr(s.id(kind, code))
}

// each runs f(0) … f(n-1) concurrently (the connection bounds the calls in flight) and returns
// the first error; that error also cancels ctx, so the others stop at their next call.
func (s *seeder) each(ctx context.Context, n int, f func(i int) error) error {
	var wg sync.WaitGroup
	var once sync.Once
	var first error
	for i := range n {
		wg.Go(func() {
			if err := f(i); err != nil {
				once.Do(func() { first = err; s.cancel(err) })
			}
		})
	}
	wg.Wait()
	return first
}

// limited bounds the calls in flight on a connection (Seed's calls are all unary).
type limited struct {
	grpc.ClientConnInterface
	slots chan struct{}
}

func (c limited) Invoke(ctx context.Context, method string, args, reply any, opts ...grpc.CallOption) error {
	select {
	case c.slots <- struct{}{}:
	case <-ctx.Done():
		return context.Cause(ctx)
	}
	defer func() { <-c.slots }()
	return c.ClientConnInterface.Invoke(ctx, method, args, reply, opts...)
}

func ptr[T any](v T) *T { return &v }

// opt is nil for "", else a pointer to s (an absent description).
func opt(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// enum is the value of a proto enum named as the REST API names it: enum[pb.AssetCategory](
// pb.AssetCategory_value, "ASSET_CATEGORY_", "image"). An unknown name is the UNSPECIFIED value,
// which the API refuses.
func enum[E ~int32](values map[string]int32, prefix, name string) E {
	return E(values[prefix+strings.ToUpper(name)])
}

func level(name string) *pb.FamilyRequirementLevel {
	return enum[pb.FamilyRequirementLevel](pb.FamilyRequirementLevel_value, "FAMILY_REQUIREMENT_LEVEL_", name).Enum()
}

// appliesTo is nil for "" (the default, both).
func appliesTo(name string) *pb.FamilyAppliesTo {
	if name == "" {
		return nil
	}
	return enum[pb.FamilyAppliesTo](pb.FamilyAppliesTo_value, "FAMILY_APPLIES_TO_", name).Enum()
}

// contents is c's content entries, one per locale, made by mk (each content family has its own
// message of the same three fields).
func contents[T any](s *seeder, c content, mk func(locale, name string, descr *string) *T) []*T {
	out := make([]*T, len(locales))
	for i, l := range locales {
		out[i] = mk(s.id("locale", l.code), c.name[i], opt(c.descr[i]))
	}
	return out
}

func (s *seeder) locales(ctx context.Context) error {
	items := make([]*pb.LocaleCreate, len(locales))
	for i, l := range locales {
		items[i] = &pb.LocaleCreate{Code: l.code, DisplayName: ptr(l.name), IsDefault: ptr(i == 0)}
	}
	res, err := pb.NewLocaleServiceClient(s.conn).BulkCreateLocales(ctx, &pb.BulkCreateLocalesRequest{Items: items})
	if status.Code(err) == codes.AlreadyExists {
		return ErrSeeded
	} else if err != nil {
		return fmt.Errorf("create the locales: %w", err)
	}
	for i, l := range res.Items {
		s.set("locale", locales[i].code, l.Uuid)
	}
	return nil
}

func (s *seeder) attributes(ctx context.Context) error {
	items := make([]*pb.AttributeCreate, len(attributes))
	for i, a := range attributes {
		items[i] = &pb.AttributeCreate{Code: a.code, DisplayName: ptr(a.name[0])}
	}
	ac := pb.NewAttributeServiceClient(s.conn)
	res, err := ac.BulkCreateAttributes(ctx, &pb.BulkCreateAttributesRequest{Items: items})
	if err != nil {
		return fmt.Errorf("create the attributes: %w", err)
	}
	uuids := make([]string, len(res.Items))
	for i, a := range res.Items {
		s.set("attribute", a.Code, a.Uuid)
		uuids[i] = a.Uuid
	}
	if _, err := ac.BulkTransitionAttributes(ctx, &pb.BulkTransitionAttributesRequest{Uuids: uuids,
		Transition: pb.AttributeTransition_ATTRIBUTE_TRANSITION_PUBLISH}); err != nil {
		return fmt.Errorf("publish the attributes: %w", err)
	}
	return s.each(ctx, len(attributes), func(i int) error {
		a, au := attributes[i], uuids[i]
		if _, err := pb.NewAttributeContentServiceClient(s.conn).BulkCreateAttributeContents(ctx, &pb.BulkCreateAttributeContentsRequest{
			AttributeUuid: au, Items: contents(s, a.content, func(l, n string, d *string) *pb.AttributeContentCreate {
				return &pb.AttributeContentCreate{LocaleUuid: l, DisplayName: n, Description: d}
			})}); err != nil {
			return fmt.Errorf("create the contents of attribute %s: %w", a.code, err)
		}
		terms := make([]*pb.AttributeTermCreate, len(a.terms))
		for j, t := range a.terms {
			terms[j] = &pb.AttributeTermCreate{Code: t.code, DisplayName: ptr(t.name[0]), Position: ptr(int32(j))}
		}
		res, err := pb.NewAttributeTermServiceClient(s.conn).BulkCreateAttributeTerms(ctx, &pb.BulkCreateAttributeTermsRequest{AttributeUuid: au, Items: terms})
		if err != nil {
			return fmt.Errorf("create the terms of attribute %s: %w", a.code, err)
		}
		return s.each(ctx, len(a.terms), func(j int) error {
			t := a.terms[j]
			s.set("term", a.code+"/"+t.code, res.Items[j].Uuid)
			_, err := pb.NewAttributeTermContentServiceClient(s.conn).BulkCreateAttributeTermContents(ctx, &pb.BulkCreateAttributeTermContentsRequest{
				AttributeUuid: au, TermUuid: res.Items[j].Uuid,
				Items: contents(s, content{name: t.name}, func(l, n string, d *string) *pb.AttributeTermContentCreate {
					return &pb.AttributeTermContentCreate{LocaleUuid: l, DisplayName: n, Description: d}
				})})
			if err != nil {
				return fmt.Errorf("create the contents of term %s/%s: %w", a.code, t.code, err)
			}
			return nil
		})
	})
}

// categories creates the tree a level at a time (a child needs its parent's uuid), then the
// contents, then activates them all.
func (s *seeder) categories(ctx context.Context) error {
	cc := pb.NewCategoryServiceClient(s.conn)
	position := map[string]int32{}
	done := map[string]bool{"": true}
	var uuids []string
	for len(uuids) < len(categories) {
		var level []category
		var items []*pb.CategoryCreate
		for _, c := range categories {
			if !done[c.code] && done[c.parent] {
				level = append(level, c)
				items = append(items, &pb.CategoryCreate{Code: c.code, DisplayName: ptr(c.name[0]),
					ParentUuid: s.idp("category", c.parent), Position: ptr(position[c.parent])})
				position[c.parent]++
			}
		}
		if len(items) == 0 {
			return errors.New("the category tree has a category whose parent is missing")
		}
		res, err := cc.BulkCreateCategories(ctx, &pb.BulkCreateCategoriesRequest{Items: items})
		if err != nil {
			return fmt.Errorf("create the categories: %w", err)
		}
		for i, c := range res.Items {
			s.set("category", c.Code, c.Uuid)
			done[level[i].code] = true
			uuids = append(uuids, c.Uuid)
		}
	}
	if err := s.each(ctx, len(categories), func(i int) error {
		c := categories[i]
		_, err := pb.NewCategoryContentServiceClient(s.conn).BulkCreateCategoryContents(ctx, &pb.BulkCreateCategoryContentsRequest{
			CategoryUuid: s.id("category", c.code), Items: contents(s, c.content, func(l, n string, d *string) *pb.CategoryContentCreate {
				return &pb.CategoryContentCreate{LocaleUuid: l, DisplayName: n, Description: d}
			})})
		if err != nil {
			return fmt.Errorf("create the contents of category %s: %w", c.code, err)
		}
		return nil
	}); err != nil {
		return err
	}
	if _, err := cc.BulkTransitionCategories(ctx, &pb.BulkTransitionCategoriesRequest{Uuids: uuids,
		Transition: pb.CategoryTransition_CATEGORY_TRANSITION_ACTIVATE}); err != nil {
		return fmt.Errorf("activate the categories: %w", err)
	}
	return nil
}

func (s *seeder) brands(ctx context.Context) error {
	items := make([]*pb.BrandCreate, len(brands))
	for i, b := range brands {
		items[i] = &pb.BrandCreate{Code: b.code, DisplayName: ptr(b.name[0])}
	}
	res, err := pb.NewBrandServiceClient(s.conn).BulkCreateBrands(ctx, &pb.BulkCreateBrandsRequest{Items: items})
	if err != nil {
		return fmt.Errorf("create the brands: %w", err)
	}
	return s.each(ctx, len(brands), func(i int) error {
		s.set("brand", brands[i].code, res.Items[i].Uuid)
		_, err := pb.NewBrandContentServiceClient(s.conn).BulkCreateBrandContents(ctx, &pb.BulkCreateBrandContentsRequest{
			BrandUuid: res.Items[i].Uuid, Items: contents(s, brands[i], func(l, n string, d *string) *pb.BrandContentCreate {
				return &pb.BrandContentCreate{LocaleUuid: l, DisplayName: n, Description: d}
			})})
		if err != nil {
			return fmt.Errorf("create the contents of brand %s: %w", brands[i].code, err)
		}
		return nil
	})
}

func (s *seeder) tags(ctx context.Context) error {
	items := make([]*pb.TagCreate, len(tags))
	for i, t := range tags {
		items[i] = &pb.TagCreate{Code: t.code, DisplayName: ptr(t.name[0])}
	}
	res, err := pb.NewTagServiceClient(s.conn).BulkCreateTags(ctx, &pb.BulkCreateTagsRequest{Items: items})
	if err != nil {
		return fmt.Errorf("create the tags: %w", err)
	}
	return s.each(ctx, len(tags), func(i int) error {
		s.set("tag", tags[i].code, res.Items[i].Uuid)
		_, err := pb.NewTagContentServiceClient(s.conn).BulkCreateTagContents(ctx, &pb.BulkCreateTagContentsRequest{
			TagUuid: res.Items[i].Uuid, Items: contents(s, tags[i], func(l, n string, d *string) *pb.TagContentCreate {
				return &pb.TagContentCreate{LocaleUuid: l, DisplayName: n, Description: d}
			})})
		if err != nil {
			return fmt.Errorf("create the contents of tag %s: %w", tags[i].code, err)
		}
		return nil
	})
}

func (s *seeder) inputTypes(ctx context.Context) error {
	groups := make([]*pb.TypeGroupCreate, len(typeGroups))
	for i, g := range typeGroups {
		groups[i] = &pb.TypeGroupCreate{Code: g.code, DisplayName: ptr(g.name),
			EntityType: enum[pb.TypeGroupEntityType](pb.TypeGroupEntityType_value, "TYPE_GROUP_ENTITY_TYPE_", g.entityType)}
	}
	gres, err := pb.NewTypeGroupServiceClient(s.conn).BulkCreateTypeGroups(ctx, &pb.BulkCreateTypeGroupsRequest{Items: groups})
	if err != nil {
		return fmt.Errorf("create the type groups: %w", err)
	}
	for _, g := range gres.Items {
		s.set("type_group", g.Code, g.Uuid)
	}
	items := make([]*pb.InputTypeCreate, len(inputTypes))
	for i, it := range inputTypes {
		c := &pb.InputTypeConstraints{Min: opt(it.min), Max: opt(it.max)}
		if it.minLength > 0 {
			c.MinLength = ptr(it.minLength)
		}
		if it.maxLength > 0 {
			c.MaxLength = ptr(it.maxLength)
		}
		items[i] = &pb.InputTypeCreate{TypeGroupUuid: s.id("type_group", it.group), Code: it.code, DisplayName: ptr(it.name),
			DataType:      enum[pb.InputTypeDataType](pb.InputTypeDataType_value, "INPUT_TYPE_DATA_TYPE_", it.dataType),
			IsLocalizable: ptr(it.localizable), Constraints: c}
	}
	res, err := pb.NewInputTypeServiceClient(s.conn).BulkCreateInputTypes(ctx, &pb.BulkCreateInputTypesRequest{Items: items})
	if err != nil {
		return fmt.Errorf("create the input types: %w", err)
	}
	for _, it := range res.Items {
		s.set("input_type", it.Code, it.Uuid)
	}
	return nil
}

func (s *seeder) assetTypes(ctx context.Context) error {
	items := make([]*pb.ProductAssetTypeCreate, len(assetTypes))
	for i, t := range assetTypes {
		items[i] = &pb.ProductAssetTypeCreate{Code: t.code, DisplayName: ptr(t.name), IsFeaturedSource: ptr(t.featured)}
	}
	res, err := pb.NewProductAssetTypeServiceClient(s.conn).BulkCreateProductAssetTypes(ctx, &pb.BulkCreateProductAssetTypesRequest{Items: items})
	if err != nil {
		return fmt.Errorf("create the product asset types: %w", err)
	}
	for _, t := range res.Items {
		s.set("asset_type", t.Code, t.Uuid)
	}
	return nil
}

func (s *seeder) relationTypes(ctx context.Context) error {
	items := make([]*pb.ProductRelationTypeCreate, len(relationTypes))
	for i, t := range relationTypes {
		items[i] = &pb.ProductRelationTypeCreate{Code: t.code, DisplayName: ptr(t.name),
			Direction: enum[pb.ProductRelationDirection](pb.ProductRelationDirection_value, "PRODUCT_RELATION_DIRECTION_", t.direction)}
	}
	res, err := pb.NewProductRelationTypeServiceClient(s.conn).BulkCreateProductRelationTypes(ctx, &pb.BulkCreateProductRelationTypesRequest{Items: items})
	if err != nil {
		return fmt.Errorf("create the product relation types: %w", err)
	}
	for _, t := range res.Items {
		s.set("relation_type", t.Code, t.Uuid)
	}
	return nil
}

func (s *seeder) assets(ctx context.Context) error {
	items := make([]*pb.AssetCreate, len(assets))
	for i, a := range assets {
		items[i] = &pb.AssetCreate{Code: a.code, DisplayName: ptr(a.name), Description: opt(a.descr), Metadata: a.metadata,
			Category: enum[pb.AssetCategory](pb.AssetCategory_value, "ASSET_CATEGORY_", a.category)}
	}
	res, err := pb.NewAssetServiceClient(s.conn).BulkCreateAssets(ctx, &pb.BulkCreateAssetsRequest{Items: items})
	if err != nil {
		return fmt.Errorf("create the assets: %w", err)
	}
	for _, a := range res.Items {
		s.set("asset", a.Code, a.Uuid)
	}
	return nil
}

// collections creates and activates the collections and puts their assets in them (one call per
// asset: asset collections live under the asset).
func (s *seeder) collections(ctx context.Context) error {
	items := make([]*pb.CollectionCreate, len(collections))
	for i, c := range collections {
		items[i] = &pb.CollectionCreate{Code: c.code, DisplayName: ptr(c.name), Position: ptr(int32(i))}
	}
	cc := pb.NewCollectionServiceClient(s.conn)
	res, err := cc.BulkCreateCollections(ctx, &pb.BulkCreateCollectionsRequest{Items: items})
	if err != nil {
		return fmt.Errorf("create the collections: %w", err)
	}
	var uuids []string
	byAsset := map[string][]*pb.AssetCollectionCreate{}
	var order []string
	for i, c := range res.Items {
		uuids = append(uuids, c.Uuid)
		for _, a := range collections[i].assets {
			if byAsset[a] == nil {
				order = append(order, a)
			}
			byAsset[a] = append(byAsset[a], &pb.AssetCollectionCreate{CollectionUuid: c.Uuid})
		}
	}
	if _, err := cc.BulkTransitionCollections(ctx, &pb.BulkTransitionCollectionsRequest{Uuids: uuids,
		Transition: pb.CollectionTransition_COLLECTION_TRANSITION_ACTIVATE}); err != nil {
		return fmt.Errorf("activate the collections: %w", err)
	}
	return s.each(ctx, len(order), func(i int) error {
		if _, err := pb.NewAssetCollectionServiceClient(s.conn).BulkCreateAssetCollections(ctx, &pb.BulkCreateAssetCollectionsRequest{
			AssetUuid: s.id("asset", order[i]), Items: byAsset[order[i]]}); err != nil {
			return fmt.Errorf("put asset %s in its collections: %w", order[i], err)
		}
		return nil
	})
}

// families creates the families, then each family's links (one bulk call per kind of link).
func (s *seeder) families(ctx context.Context) error {
	items := make([]*pb.FamilyCreate, len(families))
	for i, f := range families {
		items[i] = &pb.FamilyCreate{Code: f.code, DisplayName: ptr(f.name)}
	}
	res, err := pb.NewFamilyServiceClient(s.conn).BulkCreateFamilies(ctx, &pb.BulkCreateFamiliesRequest{Items: items})
	if err != nil {
		return fmt.Errorf("create the families: %w", err)
	}
	for _, f := range res.Items {
		s.set("family", f.Code, f.Uuid)
	}
	return s.each(ctx, len(families), func(i int) error {
		f, fu := families[i], res.Items[i].Uuid
		var attrs []*pb.FamilyAttributeCreate
		for _, a := range f.attributes {
			attrs = append(attrs, &pb.FamilyAttributeCreate{AttributeUuid: s.id("attribute", a.attribute),
				RequirementLevel: level(a.level), AppliesTo: appliesTo(a.appliesTo), IsVariantAxis: ptr(a.axis)})
		}
		var inputs []*pb.FamilyInputTypeCreate
		for _, it := range f.inputTypes {
			inputs = append(inputs, &pb.FamilyInputTypeCreate{InputTypeUuid: s.id("input_type", it.inputType),
				RequirementLevel: level(it.level), AppliesTo: appliesTo(it.appliesTo)})
		}
		var cats []*pb.FamilyCategoryCreate
		for _, c := range f.categories {
			cats = append(cats, &pb.FamilyCategoryCreate{CategoryUuid: s.id("category", c.category), AutoPopulate: ptr(c.autoPopulate)})
		}
		var assetTypes []*pb.FamilyAssetTypeCreate
		for _, t := range f.assetTypes {
			assetTypes = append(assetTypes, &pb.FamilyAssetTypeCreate{ProductAssetTypeUuid: s.id("asset_type", t.target),
				RequirementLevel: level(t.level), AppliesTo: appliesTo(t.appliesTo), MinCount: ptr(t.min), MaxCount: maxCount(t.max)})
		}
		var relTypes []*pb.FamilyRelationTypeCreate
		for _, t := range f.relationTypes {
			relTypes = append(relTypes, &pb.FamilyRelationTypeCreate{ProductRelationTypeUuid: s.id("relation_type", t.target),
				RequirementLevel: level(t.level), MinCount: ptr(t.min), MaxCount: maxCount(t.max)})
		}
		calls := []func() error{
			func() error {
				_, err := pb.NewFamilyAttributeServiceClient(s.conn).BulkCreateFamilyAttributes(ctx, &pb.BulkCreateFamilyAttributesRequest{FamilyUuid: fu, Items: attrs})
				return err
			},
			func() error {
				_, err := pb.NewFamilyInputTypeServiceClient(s.conn).BulkCreateFamilyInputTypes(ctx, &pb.BulkCreateFamilyInputTypesRequest{FamilyUuid: fu, Items: inputs})
				return err
			},
			func() error {
				_, err := pb.NewFamilyCategoryServiceClient(s.conn).BulkCreateFamilyCategories(ctx, &pb.BulkCreateFamilyCategoriesRequest{FamilyUuid: fu, Items: cats})
				return err
			},
			func() error {
				_, err := pb.NewFamilyAssetTypeServiceClient(s.conn).BulkCreateFamilyAssetTypes(ctx, &pb.BulkCreateFamilyAssetTypesRequest{FamilyUuid: fu, Items: assetTypes})
				return err
			},
			func() error {
				if len(relTypes) == 0 {
					return nil
				}
				_, err := pb.NewFamilyRelationTypeServiceClient(s.conn).BulkCreateFamilyRelationTypes(ctx, &pb.BulkCreateFamilyRelationTypesRequest{FamilyUuid: fu, Items: relTypes})
				return err
			},
		}
		return s.each(ctx, len(calls), func(j int) error {
			if err := calls[j](); err != nil {
				return fmt.Errorf("link family %s: %w", f.code, err)
			}
			return nil
		})
	})
}

// maxCount is nil (no maximum) for 0.
func maxCount(n int32) *int32 {
	if n == 0 {
		return nil
	}
	return &n
}

func (s *seeder) channels(ctx context.Context) error {
	items := make([]*pb.ChannelCreate, len(channels))
	for i, c := range channels {
		items[i] = &pb.ChannelCreate{Code: c.code, DisplayName: ptr(c.name)}
		for _, l := range c.locales {
			items[i].LocaleUuids = append(items[i].LocaleUuids, s.id("locale", l))
		}
	}
	res, err := pb.NewChannelServiceClient(s.conn).BulkCreateChannels(ctx, &pb.BulkCreateChannelsRequest{Items: items})
	if err != nil {
		return fmt.Errorf("create the channels: %w", err)
	}
	return s.each(ctx, len(channels), func(i int) error {
		c := channels[i]
		s.set("channel", c.code, res.Items[i].Uuid)
		var links []*pb.ChannelInputTypeCreate
		for _, it := range c.inputTypes {
			links = append(links, &pb.ChannelInputTypeCreate{InputTypeUuid: s.id("input_type", it.inputType),
				RequirementLevel: enum[pb.ChannelInputTypeRequirementLevel](pb.ChannelInputTypeRequirementLevel_value, "CHANNEL_INPUT_TYPE_REQUIREMENT_LEVEL_", it.level),
				Scoping:          enum[pb.ChannelInputTypeScoping](pb.ChannelInputTypeScoping_value, "CHANNEL_INPUT_TYPE_SCOPING_", it.scoping).Enum()})
		}
		if _, err := pb.NewChannelInputTypeServiceClient(s.conn).BulkCreateChannelInputTypes(ctx, &pb.BulkCreateChannelInputTypesRequest{
			ChannelUuid: res.Items[i].Uuid, Items: links}); err != nil {
			return fmt.Errorf("link the input types of channel %s: %w", c.code, err)
		}
		return nil
	})
}

// products creates the products in two bulk calls: the others, then the variants (which need
// their parent's uuid). All start as drafts.
func (s *seeder) products(ctx context.Context) error {
	pc := pb.NewProductServiceClient(s.conn)
	for _, variants := range []bool{false, true} {
		var items []*pb.ProductCreate
		for _, p := range products {
			if (p.kind == "variant") == variants {
				items = append(items, &pb.ProductCreate{Code: p.code, DisplayName: ptr(p.name),
					Kind:       enum[pb.ProductKind](pb.ProductKind_value, "PRODUCT_KIND_", p.kind),
					FamilyUuid: s.idp("family", p.family), ParentUuid: s.idp("product", p.parent), BrandUuid: s.idp("brand", p.brand)})
			}
		}
		res, err := pc.BulkCreateProducts(ctx, &pb.BulkCreateProductsRequest{Items: items})
		if err != nil {
			return fmt.Errorf("create the products: %w", err)
		}
		for _, p := range res.Items {
			s.set("product", p.Code, p.Uuid)
		}
	}
	return nil
}

// productLinks gives every product its attributes and terms, categories, tags, assets, input
// values, relations and (draft) publications, the products concurrently.
func (s *seeder) productLinks(ctx context.Context) error {
	return s.each(ctx, len(products), func(i int) error {
		p := products[i]
		pu := s.id("product", p.code)
		calls := []func() error{func() error { return s.productAttributes(ctx, p, pu) }}
		add := func(n int, f func() error) {
			if n > 0 {
				calls = append(calls, f)
			}
		}
		add(len(p.categories), func() error {
			items := make([]*pb.ProductCategoryCreate, len(p.categories))
			for j, c := range p.categories {
				items[j] = &pb.ProductCategoryCreate{CategoryUuid: s.id("category", c)}
			}
			_, err := pb.NewProductCategoryServiceClient(s.conn).BulkCreateProductCategories(ctx, &pb.BulkCreateProductCategoriesRequest{ProductUuid: pu, Items: items})
			return err
		})
		add(len(p.tags), func() error {
			items := make([]*pb.ProductTagCreate, len(p.tags))
			for j, t := range p.tags {
				items[j] = &pb.ProductTagCreate{TagUuid: s.id("tag", t)}
			}
			_, err := pb.NewProductTagServiceClient(s.conn).BulkCreateProductTags(ctx, &pb.BulkCreateProductTagsRequest{ProductUuid: pu, Items: items})
			return err
		})
		add(len(p.assets), func() error {
			items := make([]*pb.ProductAssetCreate, len(p.assets))
			for j, a := range p.assets {
				items[j] = &pb.ProductAssetCreate{AssetUuid: s.id("asset", a.asset), ProductAssetTypeUuid: s.id("asset_type", a.assetType),
					DisplayPriority: ptr(int32(j))}
			}
			_, err := pb.NewProductAssetServiceClient(s.conn).BulkCreateProductAssets(ctx, &pb.BulkCreateProductAssetsRequest{ProductUuid: pu, Items: items})
			return err
		})
		add(len(p.values), func() error {
			items := make([]*pb.ProductInputValueCreate, len(p.values))
			for j, v := range p.values {
				val, err := structpb.NewValue(v.v)
				if err != nil {
					return fmt.Errorf("value of %s: %w", v.inputType, err)
				}
				items[j] = &pb.ProductInputValueCreate{InputTypeUuid: s.id("input_type", v.inputType),
					ChannelUuid: s.idp("channel", v.channel), LocaleUuid: s.idp("locale", v.locale), Value: val}
			}
			_, err := pb.NewProductInputValueServiceClient(s.conn).BulkCreateProductInputValues(ctx, &pb.BulkCreateProductInputValuesRequest{ProductUuid: pu, Items: items})
			return err
		})
		add(len(p.relations), func() error {
			items := make([]*pb.ProductRelationCreate, len(p.relations))
			for j, r := range p.relations {
				items[j] = &pb.ProductRelationCreate{ProductRelationTypeUuid: s.id("relation_type", r.relationType),
					TargetProductUuid: s.id("product", r.target)}
			}
			_, err := pb.NewProductRelationServiceClient(s.conn).BulkCreateProductRelations(ctx, &pb.BulkCreateProductRelationsRequest{ProductUuid: pu, Items: items})
			return err
		})
		pubs := append(append([]string(nil), p.publish...), p.draft...)
		add(len(pubs), func() error {
			items := make([]*pb.ProductPublicationCreate, len(pubs))
			for j, c := range pubs {
				items[j] = &pb.ProductPublicationCreate{ChannelUuid: s.id("channel", c)}
			}
			res, err := pb.NewProductPublicationServiceClient(s.conn).BulkCreateProductPublications(ctx, &pb.BulkCreateProductPublicationsRequest{ProductUuid: pu, Items: items})
			if err != nil {
				return err
			}
			for j, c := range pubs {
				s.set("publication", p.code+"/"+c, res.Items[j].Uuid)
			}
			return nil
		})
		return s.each(ctx, len(calls), func(j int) error {
			if err := calls[j](); err != nil {
				return fmt.Errorf("product %s: %w", p.code, err)
			}
			return nil
		})
	})
}

// productAttributes links p's attributes, then each one's terms.
func (s *seeder) productAttributes(ctx context.Context, p product, pu string) error {
	if len(p.attributes) == 0 {
		return nil
	}
	if p.kind == "variant" {
		s.axes.Lock()
		defer s.axes.Unlock()
	}
	items := make([]*pb.ProductAttributeCreate, len(p.attributes))
	for i, a := range p.attributes {
		items[i] = &pb.ProductAttributeCreate{AttributeUuid: s.id("attribute", a.attribute), IsVariantAxis: ptr(a.axis)}
	}
	res, err := pb.NewProductAttributeServiceClient(s.conn).BulkCreateProductAttributes(ctx, &pb.BulkCreateProductAttributesRequest{ProductUuid: pu, Items: items})
	if err != nil {
		return err
	}
	return s.each(ctx, len(p.attributes), func(i int) error {
		a := p.attributes[i]
		terms := make([]*pb.ProductTermCreate, len(a.terms))
		for j, t := range a.terms {
			terms[j] = &pb.ProductTermCreate{TermUuid: s.id("term", a.attribute+"/"+t)}
		}
		_, err := pb.NewProductTermServiceClient(s.conn).BulkCreateProductTerms(ctx, &pb.BulkCreateProductTermsRequest{
			ProductUuid: pu, ProductAttributeUuid: res.Items[i].Uuid, Items: terms})
		return err
	})
}

// transitionProducts moves the products that match through their lifecycle in one bulk call.
func (s *seeder) transitionProducts(match func(product) bool, transition string) func(context.Context) error {
	return func(ctx context.Context) error {
		var uuids []string
		for _, p := range products {
			if match(p) {
				uuids = append(uuids, s.id("product", p.code))
			}
		}
		if len(uuids) == 0 {
			return nil
		}
		_, err := pb.NewProductServiceClient(s.conn).BulkTransitionProducts(ctx, &pb.BulkTransitionProductsRequest{Uuids: uuids,
			Transition: enum[pb.ProductTransition](pb.ProductTransition_value, "PRODUCT_TRANSITION_", transition)})
		if err != nil {
			return fmt.Errorf("%s the products: %w", transition, err)
		}
		return nil
	}
}

// publish publishes each product's publications of p.publish (the product is active by now and
// meets the channels' requirements).
func (s *seeder) publish(ctx context.Context) error {
	return s.each(ctx, len(products), func(i int) error {
		p := products[i]
		if len(p.publish) == 0 {
			return nil
		}
		uuids := make([]string, len(p.publish))
		for j, c := range p.publish {
			uuids[j] = s.id("publication", p.code+"/"+c)
		}
		if _, err := pb.NewProductPublicationServiceClient(s.conn).BulkTransitionProductPublications(ctx, &pb.BulkTransitionProductPublicationsRequest{
			ProductUuid: s.id("product", p.code), Uuids: uuids,
			Transition: pb.ProductPublicationTransition_PRODUCT_PUBLICATION_TRANSITION_PUBLISH}); err != nil {
			return fmt.Errorf("publish product %s: %w", p.code, err)
		}
		return nil
	})
}
