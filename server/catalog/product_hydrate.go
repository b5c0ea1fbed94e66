package catalog

import (
	"context"

	"github.com/google/uuid"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/reqctx"
)

// A product's associations for include[x] (their uuids) and expand[x] (the objects): each is one
// query for the whole page of products, grouped by product in Go. The table below is the one place
// that knows them; GET and list both call hydrateProducts.

// association is one include/expand pair of the product.
type association interface {
	fill(ctx context.Context, q *db.Queries, tenant string, out []*pb.Product, ids []uuid.UUID, inc, exp *pb.ProductInclude) error
}

// assoc describes an association whose rows are R.
type assoc[R any] struct {
	// asked reports whether the include (or expand) selector names this association.
	asked func(*pb.ProductInclude) bool
	// load returns the rows of every product of ids, in display order.
	load  func(ctx context.Context, q *db.Queries, tenant string, ids []uuid.UUID) ([]R, error)
	owner func(R) uuid.UUID
	id    func(R) uuid.UUID
	// setUUIDs and setObjects fill the product's fields ([] when it has none).
	setUUIDs   func(*pb.Product, *pb.UuidList)
	setObjects func(*pb.Product, []R)
}

func (a assoc[R]) fill(ctx context.Context, q *db.Queries, tenant string, out []*pb.Product, ids []uuid.UUID, inc, exp *pb.ProductInclude) error {
	return attach(out, ids, inc != nil && a.asked(inc), exp != nil && a.asked(exp),
		func() ([]R, error) { return a.load(ctx, q, tenant, ids) }, a.owner, a.id, a.setUUIDs, a.setObjects)
}

// productLinkAssoc is the association of product links of kind.
func productLinkAssoc(kind string, asked func(*pb.ProductInclude) bool, setUUIDs func(*pb.Product, *pb.UuidList), setObjects func(*pb.Product, []db.ProductLink)) assoc[db.ProductLink] {
	return assoc[db.ProductLink]{
		asked: asked,
		load: func(ctx context.Context, q *db.Queries, tenant string, ids []uuid.UUID) ([]db.ProductLink, error) {
			return q.ListProductLinksOfProducts(ctx, db.ListProductLinksOfProductsParams{TenantID: tenant, Kind: kind, ProductUuids: ids})
		},
		owner:    func(l db.ProductLink) uuid.UUID { return l.ProductUuid },
		id:       func(l db.ProductLink) uuid.UUID { return l.Uuid },
		setUUIDs: setUUIDs, setObjects: setObjects,
	}
}

var productAssociations = []association{
	productLinkAssoc(linkCategory, (*pb.ProductInclude).GetProductCategories,
		func(p *pb.Product, l *pb.UuidList) { p.ProductCategoryUuids = l },
		func(p *pb.Product, rs []db.ProductLink) {
			p.ProductCategories = &pb.ProductCategoryList{Items: mapSlice(rs, productCategoryToPB)}
		}),
	productLinkAssoc(linkTag, (*pb.ProductInclude).GetProductTags,
		func(p *pb.Product, l *pb.UuidList) { p.ProductTagUuids = l },
		func(p *pb.Product, rs []db.ProductLink) {
			p.ProductTags = &pb.ProductTagList{Items: mapSlice(rs, productTagToPB)}
		}),
	// Attributes are the effective ones, like input values: a variant's own and its parent's for
	// attributes it does not link (inherited: true). Expanded, each carries its terms (hydrateProducts).
	assoc[db.ProductEffectiveAttribute]{
		asked: (*pb.ProductInclude).GetProductAttributes,
		load: func(ctx context.Context, q *db.Queries, tenant string, ids []uuid.UUID) ([]db.ProductEffectiveAttribute, error) {
			return q.ListEffectiveAttributesOfProducts(ctx, db.ListEffectiveAttributesOfProductsParams{TenantID: tenant, OwnerUuids: ids})
		},
		owner:    func(a db.ProductEffectiveAttribute) uuid.UUID { return a.OwnerUuid },
		id:       func(a db.ProductEffectiveAttribute) uuid.UUID { return a.Uuid },
		setUUIDs: func(p *pb.Product, l *pb.UuidList) { p.ProductAttributeUuids = l },
		setObjects: func(p *pb.Product, rs []db.ProductEffectiveAttribute) {
			p.ProductAttributes = &pb.ProductAttributeList{Items: mapSlice(rs, productEffectiveAttributeToPB)}
		},
	},
	// Input values are the effective ones: a variant's own values and its parent's for the keys it
	// does not set.
	assoc[db.ProductEffectiveInputValue]{
		asked: (*pb.ProductInclude).GetInputValues,
		load: func(ctx context.Context, q *db.Queries, tenant string, ids []uuid.UUID) ([]db.ProductEffectiveInputValue, error) {
			return q.ListEffectiveInputValuesOfProducts(ctx, db.ListEffectiveInputValuesOfProductsParams{TenantID: tenant, OwnerUuids: ids})
		},
		owner:    func(v db.ProductEffectiveInputValue) uuid.UUID { return v.OwnerUuid },
		id:       func(v db.ProductEffectiveInputValue) uuid.UUID { return v.Uuid },
		setUUIDs: func(p *pb.Product, l *pb.UuidList) { p.InputValueUuids = l },
		setObjects: func(p *pb.Product, rs []db.ProductEffectiveInputValue) {
			p.InputValues = &pb.ProductInputValueList{Items: mapSlice(rs, productEffectiveInputValueToPB)}
		},
	},
	assoc[db.ProductAssetsView]{
		asked: (*pb.ProductInclude).GetProductAssets,
		load: func(ctx context.Context, q *db.Queries, tenant string, ids []uuid.UUID) ([]db.ProductAssetsView, error) {
			return q.ListProductAssetsOfProducts(ctx, db.ListProductAssetsOfProductsParams{TenantID: tenant, ProductUuids: ids})
		},
		owner:    func(a db.ProductAssetsView) uuid.UUID { return a.ProductUuid },
		id:       func(a db.ProductAssetsView) uuid.UUID { return a.Uuid },
		setUUIDs: func(p *pb.Product, l *pb.UuidList) { p.ProductAssetUuids = l },
		setObjects: func(p *pb.Product, rs []db.ProductAssetsView) {
			p.ProductAssets = &pb.ProductAssetList{Items: mapSlice(rs, ProductAssetToPB)}
		},
	},
	assoc[db.ProductRelation]{
		asked: (*pb.ProductInclude).GetProductRelations,
		load: func(ctx context.Context, q *db.Queries, tenant string, ids []uuid.UUID) ([]db.ProductRelation, error) {
			return q.ListProductRelationsOfProducts(ctx, db.ListProductRelationsOfProductsParams{TenantID: tenant, ProductUuids: ids})
		},
		owner:    func(r db.ProductRelation) uuid.UUID { return r.ProductUuid },
		id:       func(r db.ProductRelation) uuid.UUID { return r.Uuid },
		setUUIDs: func(p *pb.Product, l *pb.UuidList) { p.ProductRelationUuids = l },
		setObjects: func(p *pb.Product, rs []db.ProductRelation) {
			p.ProductRelations = &pb.ProductRelationList{Items: mapSlice(rs, ProductRelationToPB)}
		},
	},
	assoc[db.ProductPublication]{
		asked: (*pb.ProductInclude).GetPublications,
		load: func(ctx context.Context, q *db.Queries, tenant string, ids []uuid.UUID) ([]db.ProductPublication, error) {
			return q.ListProductPublicationsOfProducts(ctx, db.ListProductPublicationsOfProductsParams{TenantID: tenant, ProductUuids: ids})
		},
		owner:    func(p db.ProductPublication) uuid.UUID { return p.ProductUuid },
		id:       func(p db.ProductPublication) uuid.UUID { return p.Uuid },
		setUUIDs: func(p *pb.Product, l *pb.UuidList) { p.PublicationUuids = l },
		setObjects: func(p *pb.Product, rs []db.ProductPublication) {
			p.Publications = &pb.ProductPublicationList{Items: mapSlice(rs, productPublicationToPB)}
		},
	},
	assoc[db.Product]{
		asked: (*pb.ProductInclude).GetVariants,
		load: func(ctx context.Context, q *db.Queries, tenant string, ids []uuid.UUID) ([]db.Product, error) {
			return q.ListVariantsOfProducts(ctx, db.ListVariantsOfProductsParams{TenantID: tenant, ParentUuids: ids})
		},
		owner:      func(v db.Product) uuid.UUID { return *v.ParentUuid },
		id:         func(v db.Product) uuid.UUID { return v.Uuid },
		setUUIDs:   func(p *pb.Product, l *pb.UuidList) { p.VariantUuids = l },
		setObjects: func(p *pb.Product, rs []db.Product) { p.Variants = &pb.ProductList{Items: mapSlice(rs, productToPB)} },
	},
}

// hydrateProducts fills the featured asset of the products out (whose ids are ids) and the
// associations asked for by include (uuids) and expand (objects).
func (s *Service) hydrateProducts(ctx context.Context, tenant string, out []*pb.Product, ids []uuid.UUID, inc, exp *pb.ProductInclude) error {
	for _, a := range productAssociations {
		if err := a.fill(ctx, s.DB.Q, tenant, out, ids, inc, exp); err != nil {
			return err
		}
	}
	if exp.GetProductAttributes() { // expanded product attributes carry their terms (their value)
		var attrs []*pb.ProductAttribute
		for _, p := range out {
			attrs = append(attrs, p.GetProductAttributes().GetItems()...)
		}
		if err := attachProductTerms(ctx, s.DB.Q, tenant, attrs, false, true); err != nil {
			return err
		}
	}
	all := out
	if exp.GetVariants() { // expanded variants carry their featured asset too
		for _, p := range out {
			all = append(all, p.GetVariants().GetItems()...)
		}
	}
	return s.fillFeatured(ctx, tenant, all)
}

// fillFeatured sets featuredAssetUuid of the products out, which is derived from their assets and
// so is not a column of the product row: every response that carries a product calls it.
func (s *Service) fillFeatured(ctx context.Context, tenant string, out []*pb.Product) error {
	return featuredInto(ctx, s.DB.Q, tenant, out)
}

// featuredInto is fillFeatured on q (also a write's transaction: the etag of a conditional write,
// products.Present).
func featuredInto(ctx context.Context, q *db.Queries, tenant string, out []*pb.Product) error {
	if len(out) == 0 {
		return nil
	}
	ids := make([]uuid.UUID, len(out))
	for i, p := range out {
		ids[i] = uuid.MustParse(p.Uuid)
	}
	featured, err := q.ListFeaturedAssetsOfProducts(ctx, db.ListFeaturedAssetsOfProductsParams{TenantID: tenant, ProductUuids: ids})
	if err != nil {
		return err
	}
	by := make(map[uuid.UUID]string, len(featured))
	for _, f := range featured {
		by[f.ProductUuid] = f.AssetUuid.String()
	}
	for i, p := range out {
		if a, ok := by[ids[i]]; ok {
			p.FeaturedAssetUuid = &a
		}
	}
	return nil
}

// withFeatured is fillFeatured for the products a write returned (err is the write's error).
func (s *Service) withFeatured(ctx context.Context, err error, out ...*pb.Product) error {
	if err != nil {
		return err
	}
	return s.fillFeatured(ctx, reqctx.Tenant(ctx), out)
}
