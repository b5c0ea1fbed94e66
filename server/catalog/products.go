package catalog

import (
	"context"

	"github.com/google/uuid"
	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/crud"
	"github.com/catalogd/catalogd/server/fields"
	"github.com/catalogd/catalogd/server/list"
	"github.com/catalogd/catalogd/server/reqctx"
)

// ProductServer implements catalog.v1.ProductService.
type ProductServer struct {
	pb.UnimplementedProductServiceServer
	*Service
}

var (
	productStatuses = []string{"draft", "active", "inactive", "removed"}
	productKinds    = []string{"simple", "variant_parent", "variant"}
)

// ProductList is the list spec of GET /v1/products.
var ProductList = &list.Spec{
	Table: "products",
	Filters: list.CodeNameFilters(map[string]list.Field{
		"statuses":    {Column: "status", Type: list.Enum, Values: productStatuses},
		"kinds":       {Column: "kind", Type: list.Enum, Values: productKinds},
		"familyUuids": {Column: "family_uuid", Type: list.UUID},
		"parentUuids": {Column: "parent_uuid", Type: list.UUID},
		"brandUuids":  {Column: "brand_uuid", Type: list.UUID},
		// The filters on what is linked to a product are semi-joins driven by the index on the
		// linked uuid (migration 0019), so a rare category or term reads only its products.
		"categoryUuids": {Type: list.UUID, Match: `products.uuid IN (SELECT l.product_uuid FROM product_links l
			WHERE l.tenant_id = @tenant AND l.category_uuid = ANY(@values))`},
		// The subtree: search_categories holds each linked category with its ancestors (migration
		// 0023), so a product is in a category's tree when the array names the category.
		"categoryTreeUuids": {Type: list.UUID, Match: `products.search_categories && @values`},
		"tagUuids": {Type: list.UUID, Match: `products.uuid IN (SELECT l.product_uuid FROM product_links l
			WHERE l.tenant_id = @tenant AND l.tag_uuid = ANY(@values))`},
		// Its own attributes, or for a variant its parent's (as product_effective_attributes).
		"attributeUuids": {Type: list.UUID, Match: `products.uuid IN (
			SELECT pa.product_uuid FROM product_attributes pa
			WHERE pa.tenant_id = @tenant AND pa.attribute_uuid = ANY(@values)
			UNION ALL
			SELECT v.uuid FROM product_attributes pa
			JOIN products v ON v.tenant_id = pa.tenant_id AND v.parent_uuid = pa.product_uuid
			WHERE pa.tenant_id = @tenant AND pa.attribute_uuid = ANY(@values))`},
		// Effective terms (search_terms, migration 0023): its own, and for a variant the terms of
		// its parent's product attributes whose attribute it does not link itself (a link on the
		// variant wins, as in product_effective_attributes).
		"termUuids": {Type: list.UUID, Match: `products.search_terms && @values`},
		"publishedChannelUuids": {Type: list.UUID, Match: `products.uuid IN (SELECT pp.product_uuid FROM product_publications pp
			WHERE pp.tenant_id = @tenant AND pp.channel_uuid = ANY(@values) AND pp.status = 'published')`},
		// Readiness is stored on the publication (migration 0020, kept by every write that can
		// change it) and its ready channels on the product (ready_channels, migration 0023). Not
		// ready on a channel: no ready publication there (none at all counts as not ready).
		"readyChannelUuids": {Type: list.UUID, Match: `products.uuid IN (SELECT pp.product_uuid FROM product_publications pp
			WHERE pp.tenant_id = @tenant AND pp.channel_uuid = ANY(@values) AND pp.ready)`},
		"notReadyChannelUuids": {Type: list.UUID, Match: `NOT (products.ready_channels @> @values)`},
	}),
	Order:      list.CodeNameOrder(map[string]string{"status": "status", "kind": "kind", "relevance": list.Relevance}),
	SoftDelete: &list.SoftDelete{StatusColumn: "status", Removed: "removed", IsRemovedField: "isRemoved", StatusesField: "statuses"},
	// q: search_document (migration 0033) holds the product's text, kept current by the refresh
	// of the search arrays; search_tsquery builds the query from the words q was parsed into.
	Search: &list.Search{Document: "search_document", LocalesField: "locales",
		Query: `search_tsquery(@tenant, @items, @phrases, @prefix,
			CASE WHEN @locales IS NULL THEN NULL ELSE ARRAY(SELECT l.uuid FROM locales l WHERE l.tenant_id = @tenant
				AND (l.code = ANY(@locales) OR l.uuid::text = ANY(@locales))) END)`},
	// facets[]: from the stored arrays where there is one (each a product's values without
	// duplicates), else from the links.
	Facets: map[string]list.Facet{
		"categories": {Filter: "categoryUuids", Codes: codesOf("categories"),
			Keys: "SELECT l.category_uuid AS k FROM m JOIN product_links l ON l.tenant_id = m.tenant_id AND l.product_uuid = m.uuid AND l.category_uuid IS NOT NULL"},
		"categoryTree": {Filter: "categoryTreeUuids", Codes: codesOf("categories"), Keys: "SELECT unnest(m.search_categories) AS k FROM m"},
		"terms":        {Filter: "termUuids", Codes: codesOf("attribute_terms"), Keys: "SELECT unnest(m.search_terms) AS k FROM m"},
		"brands":       {Filter: "brandUuids", Codes: codesOf("brands"), Keys: "SELECT m.brand_uuid AS k FROM m"},
		"tags": {Filter: "tagUuids", Codes: codesOf("tags"),
			Keys: "SELECT l.tag_uuid AS k FROM m JOIN product_links l ON l.tenant_id = m.tenant_id AND l.product_uuid = m.uuid AND l.tag_uuid IS NOT NULL"},
		"families": {Filter: "familyUuids", Codes: codesOf("families"), Keys: "SELECT m.family_uuid AS k FROM m"},
		"kinds":    {Filter: "kinds", Keys: "SELECT m.kind AS k FROM m"},
		"statuses": {Filter: "statuses", Keys: "SELECT m.status AS k FROM m"},
		"publishedChannels": {Filter: "publishedChannelUuids", Codes: codesOf("channels"),
			Keys: "SELECT pp.channel_uuid AS k FROM m JOIN product_publications pp ON pp.tenant_id = m.tenant_id AND pp.product_uuid = m.uuid AND pp.status = 'published'"},
		"readyChannels": {Filter: "readyChannelUuids", Codes: codesOf("channels"), Keys: "SELECT unnest(m.ready_channels) AS k FROM m"},
	},
}

// codesOf names the codes of a facet's values from a table of the tenant.
func codesOf(table string) string {
	return "SELECT uuid AS k, code FROM " + table + " WHERE tenant_id = @tenant"
}

func optUUIDString(id *uuid.UUID) *string {
	if id == nil {
		return nil
	}
	s := id.String()
	return &s
}

func productToPB(p db.Product) *pb.Product {
	return &pb.Product{
		Uuid:        p.Uuid.String(),
		CreatedAt:   timestamppb.New(p.CreatedAt),
		UpdatedAt:   timestamppb.New(p.UpdatedAt),
		RemovedAt:   tsp(p.RemovedAt),
		Status:      pb.ProductStatus(enumValue(pb.ProductStatus_value, "PRODUCT_STATUS_", p.Status)),
		Code:        p.Code,
		DisplayName: p.DisplayName,
		Kind:        pb.ProductKind(enumValue(pb.ProductKind_value, "PRODUCT_KIND_", p.Kind)),
		FamilyUuid:  optUUIDString(p.FamilyUuid),
		ParentUuid:  optUUIDString(p.ParentUuid),
		BrandUuid:   optUUIDString(p.BrandUuid),
	}
}

// checkParents checks, in the writing transaction, that every parent named is a variant_parent of
// the family of its item: 404 naming parentUuid when it does not exist in the tenant, 400
// otherwise. The parents are locked against deletion (FOR SHARE) until the commit.
func checkParents(ctx context.Context, t *crud.Tx, parents, families []*uuid.UUID, fieldOf func(i int) string) error {
	want := make([]uuid.UUID, 0, len(parents))
	for _, p := range parents {
		if p != nil {
			want = append(want, *p)
		}
	}
	if len(want) == 0 {
		return nil
	}
	rows, err := t.Q.ShareProducts(ctx, db.ShareProductsParams{TenantID: t.Tenant, Uuids: want})
	if err != nil {
		return err
	}
	by := make(map[uuid.UUID]db.Product, len(rows))
	for _, r := range rows {
		by[r.Uuid] = r
	}
	for i, p := range parents {
		if p == nil {
			continue
		}
		field := fieldOf(i)
		r, ok := by[*p]
		if !ok {
			return apierr.New(apierr.NotFound, "parentUuid %s does not exist", p).WithField(field, "not found")
		}
		if r.Kind != "variant_parent" {
			return invalid(field, "must be a variant_parent: product %s is %s", p, r.Kind)
		}
		if families[i] == nil || r.FamilyUuid == nil || *r.FamilyUuid != *families[i] {
			return invalid(field, "must be a variant_parent of the same family: product %s is of family %s", p, uuidOrNone(r.FamilyUuid))
		}
	}
	return nil
}

// invalid is a 400 VALIDATION_FAILED naming field.
func invalid(field, format string, args ...any) error {
	v := apierr.NewValidator()
	v.Add(field, format, args...)
	return v.Err()
}

func uuidOrNone(id *uuid.UUID) string {
	if id == nil {
		return "none"
	}
	return id.String()
}

// products is the product family.
var products = &crud.Family[db.Product, *pb.Product, *pb.ProductCreate, *pb.ProductUpdate]{
	Kind: "product", Event: "product", IDKey: "productUuid", Unique: "code",
	References: map[string]string{"products_family_fkey": "familyUuid", "products_parent_fkey": "parentUuid", "products_brand_fkey": "brandUuid"},
	ID:         func(p db.Product) uuid.UUID { return p.Uuid },
	ToPB:       productToPB,
	// The etag of a conditional write covers featuredAssetUuid, as GET answers it.
	Present: func(ctx context.Context, t *crud.Tx, p db.Product) (*pb.Product, error) {
		m := productToPB(p)
		return m, featuredInto(ctx, t.Q, t.Tenant, []*pb.Product{m})
	},
	CheckCreate: func(v apierr.Validator, c *pb.ProductCreate) string {
		kind := checkEnum(v, "kind", c.GetKind())
		if (kind == "variant_parent" || kind == "variant") && c.FamilyUuid == nil {
			v.Add("familyUuid", "is required for a %s", kind)
		}
		if kind == "variant" && c.ParentUuid == nil {
			v.Add("parentUuid", "is required for a variant")
		}
		if kind != "variant" && kind != "" && c.ParentUuid != nil {
			v.Add("parentUuid", "must be null for a %s: only a variant has a parent", kind)
		}
		return c.GetCode()
	},
	Insert: func(ctx context.Context, t *crud.Tx, ids []uuid.UUID, items []*pb.ProductCreate) ([]db.Product, error) {
		n := len(items)
		p := db.InsertProductsParams{TenantID: t.Tenant, Now: t.Now, Uuids: ids,
			Codes: mapSlice(items, (*pb.ProductCreate).GetCode), DisplayNames: mapSlice(items, displayNameOrCode[*pb.ProductCreate]),
			Kinds:       mapSlice(items, func(c *pb.ProductCreate) string { return crud.EnumName(c.GetKind()) }),
			FamilyUuids: make([]uuid.UUID, n), HasFamilies: make([]bool, n), ParentUuids: make([]uuid.UUID, n), HasParents: make([]bool, n),
			BrandUuids: make([]uuid.UUID, n), HasBrands: make([]bool, n)}
		fams, parents, brands := make([]*uuid.UUID, n), make([]*uuid.UUID, n), make([]*uuid.UUID, n)
		for i, c := range items {
			if fams[i] = optUUID(c, "family_uuid"); fams[i] != nil {
				p.FamilyUuids[i], p.HasFamilies[i] = *fams[i], true
			}
			if parents[i] = optUUID(c, "parent_uuid"); parents[i] != nil {
				p.ParentUuids[i], p.HasParents[i] = *parents[i], true
			}
			if brands[i] = optUUID(c, "brand_uuid"); brands[i] != nil {
				p.BrandUuids[i], p.HasBrands[i] = *brands[i], true
			}
		}
		if err := crud.RequireExisting(ctx, t, "families", "familyUuid", fams); err != nil {
			return nil, err
		}
		if err := crud.RequireExisting(ctx, t, "brands", "brandUuid", brands); err != nil {
			return nil, err
		}
		if err := checkParents(ctx, t, parents, fams, func(i int) string { return crud.FieldName("parentUuid", i, t.Single) }); err != nil {
			return nil, err
		}
		return t.Q.InsertProducts(ctx, p)
	},
	// The categories linked to the new products' families with autoPopulate are linked to them in
	// the same transaction (events product.category.linked).
	AfterCreate: func(ctx context.Context, t *crud.Tx, rows []db.Product, _ []*pb.ProductCreate) ([]db.Product, error) {
		var fams []uuid.UUID
		for _, r := range rows {
			if r.FamilyUuid != nil {
				fams = append(fams, *r.FamilyUuid)
			}
		}
		if len(fams) == 0 {
			return rows, nil
		}
		auto, err := t.Q.ListAutoPopulatedCategories(ctx, db.ListAutoPopulatedCategoriesParams{TenantID: t.Tenant, FamilyUuids: fams})
		if err != nil {
			return nil, err
		}
		byFamily := map[uuid.UUID][]uuid.UUID{}
		for _, a := range auto {
			byFamily[a.FamilyUuid] = append(byFamily[a.FamilyUuid], a.TargetUuid)
		}
		p := db.InsertProductLinksParams{TenantID: t.Tenant, Kind: linkCategory, Now: t.Now}
		for _, r := range rows {
			if r.FamilyUuid == nil {
				continue
			}
			for _, cat := range byFamily[*r.FamilyUuid] {
				p.Uuids = append(p.Uuids, uuid.Must(uuid.NewV7()))
				p.ProductUuids = append(p.ProductUuids, r.Uuid)
				p.TargetUuids = append(p.TargetUuids, cat)
			}
		}
		if len(p.Uuids) == 0 {
			return rows, nil
		}
		links, err := t.Q.InsertProductLinks(ctx, p)
		if err != nil {
			return nil, err
		}
		for _, l := range links {
			t.Emit(productCategories.Changed("linked", crud.Scope{Keys: []string{"productUuid", l.ProductUuid.String()}}, l.Uuid, nil, &l))
		}
		return rows, nil
	},
	UpdateID: (*pb.ProductUpdate).GetUuid,
	CheckUpdate: func(v apierr.Validator, u *pb.ProductUpdate) {
		if u.Kind != nil && crud.EnumName(*u.Kind) == "" {
			v.Add("kind", "must be one of %v", productKinds)
		}
	},
	// A familyUuid, parentUuid or brandUuid of another tenant or none fails its foreign key: 404
	// naming it. The kind never changes, the family only on a simple product, the parent only on a
	// variant: AfterUpdate reports a value given that the stored row does not carry.
	UpdateOne: func(ctx context.Context, t *crud.Tx, id uuid.UUID, u *pb.ProductUpdate) (db.Product, error) {
		mask := fields.NewMask(updateMask(u))
		fam, parent, brand := optUUID(u, "family_uuid"), optUUID(u, "parent_uuid"), optUUID(u, "brand_uuid")
		return t.Q.UpdateProduct(ctx, db.UpdateProductParams{TenantID: t.Tenant, Uuid: id, Now: t.Now,
			Code: optString(u, "code"), DisplayName: optString(u, "display_name"),
			SetFamily: fam != nil || mask.Clears("family_uuid", false), FamilyUuid: fam,
			SetParent: parent != nil, ParentUuid: parent,
			SetBrand: brand != nil || mask.Clears("brand_uuid", false), BrandUuid: brand})
	},
	AfterUpdate: func(ctx context.Context, t *crud.Tx, p db.Product, u *pb.ProductUpdate, field func(string) string) (db.Product, error) {
		mask := fields.NewMask(updateMask(u))
		if u.Kind != nil && crud.EnumName(*u.Kind) != p.Kind {
			return p, invalid(field("kind"), "is fixed after creation (this product is a %s)", p.Kind)
		}
		fam := optUUID(u, "family_uuid")
		if (fam != nil || mask.Clears("family_uuid", false)) && !sameUUID(fam, p.FamilyUuid) {
			return p, invalid(field("familyUuid"), "is fixed after creation for a %s (its family is %s)", p.Kind, uuidOrNone(p.FamilyUuid))
		}
		parent := optUUID(u, "parent_uuid")
		if p.Kind != "variant" && (parent != nil) {
			return p, invalid(field("parentUuid"), "must be null for a %s: only a variant has a parent", p.Kind)
		}
		if p.Kind == "variant" && parent == nil && mask.Clears("parent_uuid", false) {
			return p, invalid(field("parentUuid"), "is required for a variant")
		}
		if p.Kind == "variant" && parent != nil {
			if err := checkParents(ctx, t, []*uuid.UUID{parent}, []*uuid.UUID{p.FamilyUuid}, func(int) string { return field("parentUuid") }); err != nil {
				return p, err
			}
			// Under its new parent the variant may not repeat a sibling's axis terms.
			if err := checkAxes(ctx, t, []uuid.UUID{p.Uuid}, one(field("parentUuid"))); err != nil {
				return p, err
			}
		}
		return p, nil
	},
	GetOne: func(ctx context.Context, q *db.Queries, tenant string, _ crud.Scope, id uuid.UUID) (db.Product, error) {
		return q.GetProduct(ctx, db.GetProductParams{TenantID: tenant, Uuid: id})
	},
	// The relations other products hold towards the deleted one (one-way links and the inverses of
	// its two-way links) go with it, each with its product.relation.unlinked event on its holder.
	// Its own links, values and publications go by cascade with the product.deleted event.
	DeleteOne: func(ctx context.Context, t *crud.Tx, id uuid.UUID) (int64, error) {
		// First, or the foreign key's cascade would delete them without a trace.
		rels, err := t.Q.DeleteRelationsTargetingProduct(ctx, db.DeleteRelationsTargetingProductParams{TenantID: t.Tenant, ProductUuid: id})
		if err != nil {
			return 0, err
		}
		for _, r := range rels {
			t.Emit(relationEvent("unlinked", db.ProductRelation(r)))
		}
		return t.Q.DeleteProduct(ctx, db.DeleteProductParams{TenantID: t.Tenant, Uuid: id})
	},
	Lifecycle: &crud.Lifecycle[db.Product]{
		Machine: nodeMachine("product"),
		Status:  func(p db.Product) string { return p.Status },
		Lock: func(ctx context.Context, t *crud.Tx, ids []uuid.UUID) ([]db.Product, error) {
			if err := t.Q.LockProductFamilies(ctx, db.LockProductFamiliesParams{TenantID: t.Tenant, Uuids: ids}); err != nil {
				return nil, err
			}
			return t.Q.LockProducts(ctx, db.LockProductsParams{TenantID: t.Tenant, Uuids: ids})
		},
		// A product that leaves active (deactivate, remove) is unpublished from every channel in the
		// same transaction: each published publication becomes unpublished (product.unpublished).
		Set: func(ctx context.Context, t *crud.Tx, ids []uuid.UUID, status string) ([]db.Product, error) {
			rows, err := t.Q.SetProductStatus(ctx, db.SetProductStatusParams{TenantID: t.Tenant, Uuids: ids, Status: status, Now: t.Now})
			if err != nil || (status != "inactive" && status != "removed") {
				return rows, err
			}
			pubs, err := t.Q.UnpublishPublicationsOfProducts(ctx, db.UnpublishPublicationsOfProductsParams{TenantID: t.Tenant, ProductUuids: ids, Now: t.Now})
			for _, p := range pubs {
				now := db.ProductPublication(p)
				was := now // the query changes the status and updatedAt only
				was.Status = "published"
				t.Emit(publicationMoves.Changed("unpublished", crud.Scope{Keys: []string{"productUuid", p.ProductUuid.String()}}, p.Uuid, &was, &now))
			}
			return rows, err
		},
	},
}

func sameUUID(a, b *uuid.UUID) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

// productScope resolves the productUuid path parameter to the scope of its links.
func (s *Service) productScope(ctx context.Context, raw string) crud.Scope {
	return parentScope(ctx, s, products, raw)
}

// ListProducts lists products with the filters of API.md; removed ones only when asked for.
func (s *ProductServer) ListProducts(ctx context.Context, req *pb.ListProductsRequest) (*pb.ListProductsResponse, error) {
	tenant := reqctx.Tenant(ctx)
	rows, page, facets, err := list.RunFaceted[db.Product](ctx, s.DB, ProductList, tenant, req)
	if err != nil {
		return nil, err
	}
	out := mapSlice(rows, productToPB)
	if err := s.hydrateProducts(ctx, tenant, out, mapSlice(rows, products.ID), req.Include, req.Expand); err != nil {
		return nil, err
	}
	return &pb.ListProductsResponse{Items: out, Pagination: page,
		Facets: list.FacetsInto(facets, func() *pb.ProductFacets { return &pb.ProductFacets{} })}, nil
}

// GetProduct returns one product.
func (s *ProductServer) GetProduct(ctx context.Context, req *pb.GetProductRequest) (*pb.GetProductResponse, error) {
	p, err := s.getHydrated(ctx, req.ProductUuid, req.Include, req.Expand)
	if err != nil {
		return nil, err
	}
	return &pb.GetProductResponse{Product: p}, nil
}

// CreateProduct creates one product in status draft (a new product has no assets, so no featured
// asset).
func (s *ProductServer) CreateProduct(ctx context.Context, req *pb.CreateProductRequest) (*pb.CreateProductResponse, error) {
	m, err := products.CreateOne(ctx, s.DB, crud.Scope{}, req.Product)
	return &pb.CreateProductResponse{Product: m}, err
}

// BulkCreateProducts creates 1 to 100 products atomically.
func (s *ProductServer) BulkCreateProducts(ctx context.Context, req *pb.BulkCreateProductsRequest) (*pb.BulkCreateProductsResponse, error) {
	out, err := products.CreateMany(ctx, s.DB, crud.Scope{}, req.Items)
	return &pb.BulkCreateProductsResponse{Items: out}, err
}

// UpdateProduct changes the fields given of one product.
func (s *ProductServer) UpdateProduct(ctx context.Context, req *pb.UpdateProductRequest) (*pb.UpdateProductResponse, error) {
	m, err := products.UpdateAt(ctx, s.DB, crud.Scope{}, req.ProductUuid, req.Product)
	return &pb.UpdateProductResponse{Product: m}, s.withFeatured(ctx, err, m)
}

// BulkUpdateProducts changes 1 to 100 products atomically.
func (s *ProductServer) BulkUpdateProducts(ctx context.Context, req *pb.BulkUpdateProductsRequest) (*pb.BulkUpdateProductsResponse, error) {
	out, err := products.UpdateMany(ctx, s.DB, crud.Scope{}, req.Items)
	return &pb.BulkUpdateProductsResponse{Items: out}, s.withFeatured(ctx, err, out...)
}

// DeleteProduct deletes a product permanently, with its links; a variant_parent with variants is refused.
func (s *ProductServer) DeleteProduct(ctx context.Context, req *pb.DeleteProductRequest) (*pb.DeleteProductResponse, error) {
	return &pb.DeleteProductResponse{}, products.Delete(ctx, s.DB, crud.Scope{}, req.ProductUuid)
}

// TransitionProduct moves one product through its lifecycle.
func (s *ProductServer) TransitionProduct(ctx context.Context, req *pb.TransitionProductRequest) (*pb.TransitionProductResponse, error) {
	m, err := products.TransitionAt(ctx, s.DB, crud.Scope{}, req.ProductUuid, req.Transition)
	return &pb.TransitionProductResponse{Product: m}, s.withFeatured(ctx, err, m)
}

// BulkTransitionProducts moves 1 to 100 products atomically.
func (s *ProductServer) BulkTransitionProducts(ctx context.Context, req *pb.BulkTransitionProductsRequest) (*pb.BulkTransitionProductsResponse, error) {
	out, err := products.TransitionMany(ctx, s.DB, crud.Scope{}, req.Transition, req.Uuids)
	return &pb.BulkTransitionProductsResponse{Items: out}, s.withFeatured(ctx, err, out...)
}
