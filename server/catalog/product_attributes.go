package catalog

import (
	"context"

	"github.com/google/uuid"
	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/crud"
	"github.com/catalogd/catalogd/server/list"
	"github.com/catalogd/catalogd/server/reqctx"
	"github.com/catalogd/catalogd/server/store"
)

// Product attributes link a product to attributes (product_attributes: one per product and
// attribute, the attribute fixed after creation, isVariantAxis only on variant_parent and variant
// products); product terms link a product attribute to terms of its attribute (product_terms: one
// per product attribute and term, nothing to update).
//
// Variant axes: sibling variants (same parentUuid) may not have the same combination of axis
// terms, the set of the terms of their product attributes with isVariantAxis. Every write that
// changes a variant's combination (linking or unlinking a product term, switching isVariantAxis,
// unlinking a product attribute with terms) calls checkAxes in its transaction after the write:
// it takes a transaction-scoped advisory lock on (tenant, parent), then compares the variant's
// complete combination with each sibling's. The lock is held until commit, and the transactions
// are READ COMMITTED, so a concurrent writer waiting on the lock reads the first one's committed
// rows when it gets it: two writes cannot both pass. An empty combination never conflicts (new
// variants start without axis terms). A variant's own product attributes count, not its parent's.

// ProductAttributeList is the list spec of /v1/products/{productUuid}/attributes.
var ProductAttributeList = &list.Spec{
	Table: "product_attributes",
	Filters: map[string]list.Field{
		"uuids":          {Column: "uuid", Type: list.UUID},
		"attributeUuids": {Column: "attribute_uuid", Type: list.UUID},
		"isVariantAxis":  {Column: "is_variant_axis", Type: list.Bool},
		"createdAt":      {Column: "created_at", Type: list.Time},
		"updatedAt":      {Column: "updated_at", Type: list.Time},
	},
	Order: map[string]string{"createdAt": "created_at", "updatedAt": "updated_at"},
}

// ProductTermList is the list spec of /v1/products/{productUuid}/attributes/{productAttributeUuid}/terms.
var ProductTermList = &list.Spec{
	Table: "product_terms",
	Filters: map[string]list.Field{
		"uuids":     {Column: "uuid", Type: list.UUID},
		"termUuids": {Column: "term_uuid", Type: list.UUID},
		"createdAt": {Column: "created_at", Type: list.Time},
		"updatedAt": {Column: "updated_at", Type: list.Time},
	},
	Order: map[string]string{"createdAt": "created_at", "updatedAt": "updated_at"},
}

// ProductAttributeToPB converts a product attribute row (exported for the product's include/expand).
func ProductAttributeToPB(a db.ProductAttribute) *pb.ProductAttribute {
	return &pb.ProductAttribute{Uuid: a.Uuid.String(), CreatedAt: timestamppb.New(a.CreatedAt), UpdatedAt: timestamppb.New(a.UpdatedAt),
		ProductUuid: a.ProductUuid.String(), AttributeUuid: a.AttributeUuid.String(), IsVariantAxis: a.IsVariantAxis}
}

// productEffectiveAttributeToPB converts a row of product_effective_attributes (a variant's own or
// inherited product attribute).
func productEffectiveAttributeToPB(a db.ProductEffectiveAttribute) *pb.ProductAttribute {
	m := ProductAttributeToPB(db.ProductAttribute{TenantID: a.TenantID, Uuid: a.Uuid, ProductUuid: a.ProductUuid,
		AttributeUuid: a.AttributeUuid, IsVariantAxis: a.IsVariantAxis, CreatedAt: a.CreatedAt, UpdatedAt: a.UpdatedAt})
	m.Inherited = a.Inherited
	return m
}

// attachProductTerms fills productTermUuids (wantIDs) and productTerms (wantObjects) of the
// product attributes out, with one query ([] when one has none).
func attachProductTerms(ctx context.Context, q *db.Queries, tenant string, out []*pb.ProductAttribute, wantIDs, wantObjects bool) error {
	ids := productAttributeIDs(out)
	return attach(out, ids, wantIDs, wantObjects,
		func() ([]db.ProductTerm, error) {
			return q.ListProductTermsOfProductAttributes(ctx, db.ListProductTermsOfProductAttributesParams{TenantID: tenant, ProductAttributeUuids: ids})
		}, productTermOwner, productTermID, setProductTermUUIDs, setProductTerms)
}

func productAttributeIDs(out []*pb.ProductAttribute) []uuid.UUID {
	return mapSlice(out, func(a *pb.ProductAttribute) uuid.UUID { return uuid.MustParse(a.Uuid) })
}

// What attach needs of product terms under their product attributes.
func productTermOwner(pt db.ProductTerm) uuid.UUID { return pt.ProductAttributeUuid }
func productTermID(pt db.ProductTerm) uuid.UUID    { return pt.Uuid }
func setProductTermUUIDs(a *pb.ProductAttribute, l *pb.UuidList) {
	a.ProductTermUuids = l
}
func setProductTerms(a *pb.ProductAttribute, ts []db.ProductTerm) {
	a.ProductTerms = &pb.ProductTermList{Items: mapSlice(ts, productTermToPB)}
}

func productTermToPB(pt db.ProductTerm) *pb.ProductTerm {
	return &pb.ProductTerm{Uuid: pt.Uuid.String(), CreatedAt: timestamppb.New(pt.CreatedAt), UpdatedAt: timestamppb.New(pt.UpdatedAt),
		ProductUuid: pt.ProductUuid.String(), ProductAttributeUuid: pt.ProductAttributeUuid.String(), TermUuid: pt.TermUuid.String()}
}

// checkAxisKind refuses isVariantAxis true on a product that is not variant_parent or variant:
// item i (field(i)) is of products[i].
func checkAxisKind(ctx context.Context, t *crud.Tx, products []uuid.UUID, axis []bool, field func(i int) string) error {
	var want []uuid.UUID
	for i, a := range axis {
		if a {
			want = append(want, products[i])
		}
	}
	if len(want) == 0 {
		return nil
	}
	rows, err := t.Q.ListProductKinds(ctx, db.ListProductKindsParams{TenantID: t.Tenant, Uuids: want})
	if err != nil {
		return err
	}
	kinds := make(map[uuid.UUID]string, len(rows))
	for _, r := range rows {
		kinds[r.Uuid] = r.Kind
	}
	v := apierr.NewValidator()
	for i, a := range axis {
		if k := kinds[products[i]]; a && k != "variant_parent" && k != "variant" {
			v.Add(field(i), "can be true only on a product of kind variant_parent or variant (this product is %s)", k)
		}
	}
	return v.Err()
}

// checkAxes enforces the variant-axis rule (see the top of this file) for the products after a
// write in t; a conflict is 409 ALREADY_EXISTS naming field(product) of the first product (in uuid
// order) that has a twin.
func checkAxes(ctx context.Context, t *crud.Tx, products []uuid.UUID, field func(product uuid.UUID) string) error {
	ps, err := t.Q.ListProductKinds(ctx, db.ListProductKindsParams{TenantID: t.Tenant, Uuids: products})
	if err != nil {
		return err
	}
	var variants, parents []uuid.UUID
	for _, p := range ps {
		if p.Kind == "variant" && p.ParentUuid != nil {
			variants = append(variants, p.Uuid)
			parents = append(parents, *p.ParentUuid)
		}
	}
	if len(variants) == 0 {
		return nil
	}
	if err := t.Q.LockVariantParents(ctx, db.LockVariantParentsParams{TenantID: t.Tenant, ParentUuids: parents}); err != nil {
		return err
	}
	twins, err := t.Q.FindAxisTwins(ctx, db.FindAxisTwinsParams{TenantID: t.Tenant, ProductUuids: variants})
	if err != nil || len(twins) == 0 {
		return err
	}
	tw := twins[0]
	return apierr.New(apierr.AlreadyExists, "variant %s of the same parent %s already has this combination of axis terms", tw.TwinUuid, tw.ParentUuid).
		WithField(field(tw.ProductUuid), "makes the variant's axis terms identical to those of variant "+tw.TwinUuid.String())
}

// one is a field function naming field whatever the product (an operation on one product).
func one(field string) func(uuid.UUID) string { return func(uuid.UUID) string { return field } }

// productAttributes links products to attributes (events product.attribute.linked/updated/unlinked).
var productAttributes = &crud.Family[db.ProductAttribute, *pb.ProductAttribute, *pb.ProductAttributeCreate, *pb.ProductAttributeUpdate]{
	Kind: "product attribute", Event: "product.attribute", IDKey: "productAttributeUuid", Unique: "attributeUuid",
	CreatedVerb: "linked", DeletedVerb: "unlinked", Across: true,
	References: map[string]string{"product_attributes_attribute_fkey": "attributeUuid"},
	ID:         func(a db.ProductAttribute) uuid.UUID { return a.Uuid },
	ToPB:       ProductAttributeToPB,
	CheckCreate: func(_ apierr.Validator, c *pb.ProductAttributeCreate) string {
		return c.GetAttributeUuid()
	},
	Insert: func(ctx context.Context, t *crud.Tx, ids []uuid.UUID, items []*pb.ProductAttributeCreate) ([]db.ProductAttribute, error) {
		p := db.InsertProductAttributesParams{TenantID: t.Tenant, ProductUuids: make([]uuid.UUID, len(items)), Now: t.Now, Uuids: ids,
			IsVariantAxes: mapSlice(items, (*pb.ProductAttributeCreate).GetIsVariantAxis)}
		for i := range items {
			p.ProductUuids[i] = t.ItemScope(i).Parent
		}
		var err error
		if p.AttributeUuids, err = crud.RequireRefs(ctx, t, "attributes", "attributeUuid", items, (*pb.ProductAttributeCreate).GetAttributeUuid); err != nil {
			return nil, err
		}
		if err := checkAxisKind(ctx, t, p.ProductUuids, p.IsVariantAxes, func(i int) string { return crud.FieldName("isVariantAxis", i, t.Single) }); err != nil {
			return nil, err
		}
		return t.Q.InsertProductAttributes(ctx, p)
	},
	UpdateID: (*pb.ProductAttributeUpdate).GetUuid,
	UpdateOne: func(ctx context.Context, t *crud.Tx, id uuid.UUID, u *pb.ProductAttributeUpdate) (db.ProductAttribute, error) {
		return t.Q.UpdateProductAttribute(ctx, db.UpdateProductAttributeParams{TenantID: t.Tenant, ProductUuid: t.Scope.Parent, Uuid: id,
			Now: t.Now, IsVariantAxis: u.IsVariantAxis})
	},
	// The attribute may only be repeated; isVariantAxis true needs a variant kind; switching it
	// changes the variant's combination of axis terms.
	AfterUpdate: func(ctx context.Context, t *crud.Tx, a db.ProductAttribute, u *pb.ProductAttributeUpdate, field func(string) string) (db.ProductAttribute, error) {
		if u.AttributeUuid != nil && uuid.MustParse(*u.AttributeUuid) != a.AttributeUuid {
			v := apierr.NewValidator()
			v.Add(field("attributeUuid"), "is fixed after creation (this product attribute is of %s): unlink it and link the other attribute instead", a.AttributeUuid)
			return a, v.Err()
		}
		if u.IsVariantAxis == nil {
			return a, nil
		}
		if err := checkAxisKind(ctx, t, []uuid.UUID{a.ProductUuid}, []bool{a.IsVariantAxis}, func(int) string { return field("isVariantAxis") }); err != nil {
			return a, err
		}
		return a, checkAxes(ctx, t, []uuid.UUID{a.ProductUuid}, one(field("isVariantAxis")))
	},
	GetOne: func(ctx context.Context, q *db.Queries, tenant string, s crud.Scope, id uuid.UUID) (db.ProductAttribute, error) {
		return q.GetProductAttribute(ctx, db.GetProductAttributeParams{TenantID: tenant, ProductUuid: s.Parent, Uuid: id})
	},
	// Unlinking an axis attribute with terms changes the variant's combination.
	DeleteOne: func(ctx context.Context, t *crud.Tx, id uuid.UUID) (int64, error) {
		n, err := t.Q.DeleteProductAttribute(ctx, db.DeleteProductAttributeParams{TenantID: t.Tenant, ProductUuid: t.Scope.Parent, Uuid: id})
		if err != nil || n == 0 {
			return n, err
		}
		return n, checkAxes(ctx, t, []uuid.UUID{t.Scope.Parent}, one("productAttributeUuid"))
	},
}

// scopeProduct is the product of a product attribute's scope (its first key).
func scopeProduct(s crud.Scope) uuid.UUID { return uuid.MustParse(s.Keys[1]) }

// productTerms links product attributes to terms (events product.attribute_term.linked/unlinked).
var productTerms = &crud.Family[db.ProductTerm, *pb.ProductTerm, *pb.ProductTermCreate, *pb.ProductTermCreate]{
	Kind: "product term", Event: "product.attribute_term", IDKey: "productTermUuid", Unique: "termUuid",
	CreatedVerb: "linked", DeletedVerb: "unlinked", Across: true,
	References: map[string]string{"product_terms_term_fkey": "termUuid"},
	ID:         func(pt db.ProductTerm) uuid.UUID { return pt.Uuid },
	ToPB:       productTermToPB,
	CheckCreate: func(_ apierr.Validator, c *pb.ProductTermCreate) string {
		return c.GetTermUuid()
	},
	// Every term must be a term of its product attribute's attribute in the tenant (404 naming
	// termUuid otherwise); the combinations are checked after the whole bulk (AfterCreate).
	Insert: func(ctx context.Context, t *crud.Tx, ids []uuid.UUID, items []*pb.ProductTermCreate) ([]db.ProductTerm, error) {
		n := len(items)
		p := db.InsertProductTermsParams{TenantID: t.Tenant, Now: t.Now, Uuids: ids, ProductUuids: make([]uuid.UUID, n),
			ProductAttributeUuids: make([]uuid.UUID, n), TermUuids: make([]uuid.UUID, n)}
		for i, c := range items {
			p.ProductAttributeUuids[i] = t.ItemScope(i).Parent
			p.TermUuids[i] = uuid.MustParse(c.GetTermUuid())
		}
		pas, err := t.Q.ListProductAttributesByUuid(ctx, db.ListProductAttributesByUuidParams{TenantID: t.Tenant, Uuids: p.ProductAttributeUuids})
		if err != nil {
			return nil, err
		}
		attrOf := make(map[uuid.UUID]db.ProductAttribute, len(pas))
		for _, pa := range pas {
			attrOf[pa.Uuid] = pa
		}
		found, err := t.Q.AttributesOfTerms(ctx, db.AttributesOfTermsParams{TenantID: t.Tenant, TermUuids: p.TermUuids})
		if err != nil {
			return nil, err
		}
		termAttr := make(map[uuid.UUID]uuid.UUID, len(found))
		for _, f := range found {
			termAttr[f.Uuid] = f.AttributeUuid
		}
		for i, id := range p.TermUuids {
			pa, ok := attrOf[p.ProductAttributeUuids[i]]
			if !ok {
				return nil, apierr.NotFoundf("product attribute", p.ProductAttributeUuids[i].String())
			}
			p.ProductUuids[i] = pa.ProductUuid
			if a, ok := termAttr[id]; !ok || a != pa.AttributeUuid {
				return nil, apierr.New(apierr.NotFound, "termUuid %s is not a term of attribute %s", id, pa.AttributeUuid).
					WithField(crud.FieldName("termUuid", i, t.Single), "not found")
			}
		}
		return t.Q.InsertProductTerms(ctx, p)
	},
	// A clash names the product's last item of the bulk.
	AfterCreate: func(ctx context.Context, t *crud.Tx, rows []db.ProductTerm, items []*pb.ProductTermCreate) ([]db.ProductTerm, error) {
		last := map[uuid.UUID]int{}
		var products []uuid.UUID
		for i := range items {
			product := scopeProduct(t.ItemScope(i))
			if _, seen := last[product]; !seen {
				products = append(products, product)
			}
			last[product] = i
		}
		return rows, checkAxes(ctx, t, products, func(p uuid.UUID) string { return crud.FieldName("termUuid", last[p], t.Single) })
	},
	GetOne: func(ctx context.Context, q *db.Queries, tenant string, s crud.Scope, id uuid.UUID) (db.ProductTerm, error) {
		return q.GetProductTerm(ctx, db.GetProductTermParams{TenantID: tenant, ProductAttributeUuid: s.Parent, Uuid: id})
	},
	// Unlinking a term may make the combination equal to a sibling's.
	DeleteOne: func(ctx context.Context, t *crud.Tx, id uuid.UUID) (int64, error) {
		pt, err := t.Q.DeleteProductTerm(ctx, db.DeleteProductTermParams{TenantID: t.Tenant, ProductAttributeUuid: t.Scope.Parent, Uuid: id})
		if store.IsNoRows(err) {
			return 0, nil
		} else if err != nil {
			return 0, err
		}
		return 1, checkAxes(ctx, t, []uuid.UUID{pt.ProductUuid}, one("termUuid"))
	},
}

// productAttributeScope resolves the productUuid and productAttributeUuid path parameters.
func (s *Service) productAttributeScope(ctx context.Context, productRaw, paRaw string) crud.Scope {
	sc := s.productScope(ctx, productRaw)
	if sc.Err != nil {
		return sc
	}
	pa, err := productAttributes.Get(ctx, s.DB, sc, paRaw)
	if err != nil {
		return crud.Scope{Err: err}
	}
	return crud.Scope{Parent: pa.Uuid, Keys: append(sc.Keys, "productAttributeUuid", pa.Uuid.String())}
}

// ProductAttributeServer implements catalog.v1.ProductAttributeService.
type ProductAttributeServer struct {
	pb.UnimplementedProductAttributeServiceServer
	*Service
}

func (s *ProductAttributeServer) ListProductAttributes(ctx context.Context, req *pb.ListProductAttributesRequest) (*pb.ListProductAttributesResponse, error) {
	sc := s.productScope(ctx, req.ProductUuid)
	if sc.Err != nil {
		return nil, sc.Err
	}
	out, page, err := listAs(ctx, s.Service, ProductAttributeList, req, ProductAttributeToPB, list.Eq("product_uuid", sc.Parent))
	if err != nil {
		return nil, err
	}
	err = attachProductTerms(ctx, s.DB.Q, reqctx.Tenant(ctx), out, req.Include.GetProductTerms(), req.Expand.GetProductTerms())
	return &pb.ListProductAttributesResponse{Items: out, Pagination: page}, err
}

// CreateProductAttribute links an attribute to the product.
func (s *ProductAttributeServer) CreateProductAttribute(ctx context.Context, req *pb.CreateProductAttributeRequest) (*pb.CreateProductAttributeResponse, error) {
	m, err := productAttributes.CreateOne(ctx, s.DB, s.productScope(ctx, req.ProductUuid), orNew(req.ProductAttribute))
	return &pb.CreateProductAttributeResponse{ProductAttribute: m}, err
}

func (s *ProductAttributeServer) BulkCreateProductAttributes(ctx context.Context, req *pb.BulkCreateProductAttributesRequest) (*pb.BulkCreateProductAttributesResponse, error) {
	out, err := productAttributes.CreateMany(ctx, s.DB, s.productScope(ctx, req.ProductUuid), req.Items)
	return &pb.BulkCreateProductAttributesResponse{Items: out}, err
}

func (s *ProductAttributeServer) GetProductAttribute(ctx context.Context, req *pb.GetProductAttributeRequest) (*pb.GetProductAttributeResponse, error) {
	m, err := productAttributes.GetAt(ctx, s.DB, s.productScope(ctx, req.ProductUuid), req.ProductAttributeUuid)
	if err != nil {
		return nil, err
	}
	err = attachProductTerms(ctx, s.DB.Q, reqctx.Tenant(ctx), []*pb.ProductAttribute{m}, req.Include.GetProductTerms(), req.Expand.GetProductTerms())
	return &pb.GetProductAttributeResponse{ProductAttribute: m}, err
}

func (s *ProductAttributeServer) UpdateProductAttribute(ctx context.Context, req *pb.UpdateProductAttributeRequest) (*pb.UpdateProductAttributeResponse, error) {
	m, err := productAttributes.UpdateAt(ctx, s.DB, s.productScope(ctx, req.ProductUuid), req.ProductAttributeUuid, orNew(req.ProductAttribute))
	return &pb.UpdateProductAttributeResponse{ProductAttribute: m}, err
}

func (s *ProductAttributeServer) BulkUpdateProductAttributes(ctx context.Context, req *pb.BulkUpdateProductAttributesRequest) (*pb.BulkUpdateProductAttributesResponse, error) {
	out, err := productAttributes.UpdateMany(ctx, s.DB, s.productScope(ctx, req.ProductUuid), req.Items)
	return &pb.BulkUpdateProductAttributesResponse{Items: out}, err
}

// DeleteProductAttribute unlinks an attribute from the product, with its product terms.
func (s *ProductAttributeServer) DeleteProductAttribute(ctx context.Context, req *pb.DeleteProductAttributeRequest) (*pb.DeleteProductAttributeResponse, error) {
	return &pb.DeleteProductAttributeResponse{}, productAttributes.Delete(ctx, s.DB, s.productScope(ctx, req.ProductUuid), req.ProductAttributeUuid)
}

// ProductTermServer implements catalog.v1.ProductTermService.
type ProductTermServer struct {
	pb.UnimplementedProductTermServiceServer
	*Service
}

func (s *ProductTermServer) ListProductTerms(ctx context.Context, req *pb.ListProductTermsRequest) (*pb.ListProductTermsResponse, error) {
	sc := s.productAttributeScope(ctx, req.ProductUuid, req.ProductAttributeUuid)
	if sc.Err != nil {
		return nil, sc.Err
	}
	out, page, err := listAs(ctx, s.Service, ProductTermList, req, productTermToPB, list.Eq("product_attribute_uuid", sc.Parent))
	return &pb.ListProductTermsResponse{Items: out, Pagination: page}, err
}

// CreateProductTerm links a term to the product attribute.
func (s *ProductTermServer) CreateProductTerm(ctx context.Context, req *pb.CreateProductTermRequest) (*pb.CreateProductTermResponse, error) {
	m, err := productTerms.CreateOne(ctx, s.DB, s.productAttributeScope(ctx, req.ProductUuid, req.ProductAttributeUuid), orNew(req.ProductTerm))
	return &pb.CreateProductTermResponse{ProductTerm: m}, err
}

func (s *ProductTermServer) BulkCreateProductTerms(ctx context.Context, req *pb.BulkCreateProductTermsRequest) (*pb.BulkCreateProductTermsResponse, error) {
	out, err := productTerms.CreateMany(ctx, s.DB, s.productAttributeScope(ctx, req.ProductUuid, req.ProductAttributeUuid), req.Items)
	return &pb.BulkCreateProductTermsResponse{Items: out}, err
}

func (s *ProductTermServer) GetProductTerm(ctx context.Context, req *pb.GetProductTermRequest) (*pb.GetProductTermResponse, error) {
	m, err := productTerms.GetAt(ctx, s.DB, s.productAttributeScope(ctx, req.ProductUuid, req.ProductAttributeUuid), req.ProductTermUuid)
	return &pb.GetProductTermResponse{ProductTerm: m}, err
}

// DeleteProductTerm unlinks a term (the term stays).
func (s *ProductTermServer) DeleteProductTerm(ctx context.Context, req *pb.DeleteProductTermRequest) (*pb.DeleteProductTermResponse, error) {
	return &pb.DeleteProductTermResponse{}, productTerms.Delete(ctx, s.DB, s.productAttributeScope(ctx, req.ProductUuid, req.ProductAttributeUuid), req.ProductTermUuid)
}
