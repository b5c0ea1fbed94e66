package catalog

import (
	"context"

	"github.com/google/uuid"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/crud"
	"github.com/catalogd/catalogd/server/reqctx"
	"github.com/catalogd/catalogd/server/store"
)

// A product's associations for include[x] (their uuids) and expand[x] (the objects): each is one
// query for the whole page of products, grouped by product in Go, and all of them (with the
// featured assets, the terms of expanded attributes, and for a GET the product itself) go to
// PostgreSQL in one round trip (store.Round). The table below is the one place that knows them; GET
// and list both call queueHydration.

// association is one include/expand pair of the product.
type association interface {
	// queue adds the association's query to r when inc or exp asks for it and returns what fills
	// the products once r is answered (nil when not asked).
	queue(ctx context.Context, r *store.Round, tenant string, ids []uuid.UUID, inc, exp *pb.ProductInclude) func(out []*pb.Product)
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

func (a assoc[R]) queue(ctx context.Context, r *store.Round, tenant string, ids []uuid.UUID, inc, exp *pb.ProductInclude) func([]*pb.Product) {
	wantIDs, wantObjects := inc != nil && a.asked(inc), exp != nil && a.asked(exp)
	if len(ids) == 0 || (!wantIDs && !wantObjects) {
		return nil
	}
	var rows []R
	r.Add(func(q *db.Queries) (err error) { rows, err = a.load(ctx, q, tenant, ids); return err })
	return func(out []*pb.Product) {
		attachRows(out, ids, wantIDs, wantObjects, rows, a.owner, a.id, a.setUUIDs, a.setObjects)
	}
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
// associations asked for by include (uuids) and expand (objects), in one round trip.
func (s *Service) hydrateProducts(ctx context.Context, tenant string, out []*pb.Product, ids []uuid.UUID, inc, exp *pb.ProductInclude) error {
	var r store.Round
	fill := queueHydration(ctx, &r, tenant, ids, inc, exp)
	if err := s.DB.Send(ctx, &r); err != nil {
		return err
	}
	fill(out)
	return nil
}

// getHydrated is GET /v1/products/{productUuid} with its include/expand: the product and everything
// asked of it in one round trip (a product that does not exist gets empty associations, unused).
func (s *Service) getHydrated(ctx context.Context, raw string, inc, exp *pb.ProductInclude) (*pb.Product, error) {
	id, err := products.ParseID(raw)
	if err != nil {
		return nil, err
	}
	tenant := reqctx.Tenant(ctx)
	var r store.Round
	var p db.Product
	queueGet(ctx, &r, tenant, id, &p)
	fill := queueHydration(ctx, &r, tenant, []uuid.UUID{id}, inc, exp)
	if err := s.DB.Send(ctx, &r); err != nil {
		if store.IsNoRows(err) {
			return nil, apierr.NotFoundf(products.Kind, raw)
		}
		return nil, err
	}
	out := []*pb.Product{productToPB(p)}
	fill(out)
	return out[0], nil
}

// queueGet queues on r the read of product id into p.
func queueGet(ctx context.Context, r *store.Round, tenant string, id uuid.UUID, p *db.Product) {
	r.Add(func(q *db.Queries) (err error) {
		*p, err = products.GetOne(ctx, q, tenant, crud.Scope{}, id)
		return err
	})
}

// HydrationStatements are the statements of one hydrated product GET (the product and what inc
// and exp ask of it, one round trip) when getID is set, else those that hydrate a page of the
// products ids after the list's own page query: what the bench gives pgbench as the reference.
func HydrationStatements(tenant string, getID *uuid.UUID, ids []uuid.UUID, inc, exp *pb.ProductInclude) ([]store.Statement, error) {
	ctx := context.Background()
	var r store.Round
	if getID != nil {
		queueGet(ctx, &r, tenant, *getID, new(db.Product))
		ids = []uuid.UUID{*getID}
	}
	queueHydration(ctx, &r, tenant, ids, inc, exp)
	return r.Statements()
}

// queueHydration queues on r the reads of hydrateProducts and returns what fills the products out
// (whose ids are ids) once r is answered.
func queueHydration(ctx context.Context, r *store.Round, tenant string, ids []uuid.UUID, inc, exp *pb.ProductInclude) func(out []*pb.Product) {
	if len(ids) == 0 {
		return func([]*pb.Product) {}
	}
	var fills []func([]*pb.Product)
	for _, a := range productAssociations {
		if f := a.queue(ctx, r, tenant, ids, inc, exp); f != nil {
			fills = append(fills, f)
		}
	}
	// Expanded product attributes carry their terms (their value): read by the products' ids, as
	// the attributes are not known before the round is answered.
	var terms []db.ProductTerm
	if exp.GetProductAttributes() {
		r.Add(func(q *db.Queries) (err error) {
			terms, err = q.ListProductTermsOfEffectiveAttributes(ctx, db.ListProductTermsOfEffectiveAttributesParams{TenantID: tenant, OwnerUuids: ids})
			return err
		})
	}
	// The featured asset of each product, and of each expanded variant.
	var featured, ofVariants []db.ListFeaturedAssetsOfProductsRow
	r.Add(func(q *db.Queries) (err error) {
		featured, err = q.ListFeaturedAssetsOfProducts(ctx, db.ListFeaturedAssetsOfProductsParams{TenantID: tenant, ProductUuids: ids})
		return err
	})
	if exp.GetVariants() {
		r.Add(func(q *db.Queries) error {
			rows, err := q.ListFeaturedAssetsOfVariants(ctx, db.ListFeaturedAssetsOfVariantsParams{TenantID: tenant, ParentUuids: ids})
			ofVariants = mapSlice(rows, func(v db.ListFeaturedAssetsOfVariantsRow) db.ListFeaturedAssetsOfProductsRow {
				return db.ListFeaturedAssetsOfProductsRow(v)
			})
			return err
		})
	}
	return func(out []*pb.Product) {
		for _, f := range fills {
			f(out)
		}
		if exp.GetProductAttributes() {
			var attrs []*pb.ProductAttribute
			for _, p := range out {
				attrs = append(attrs, p.GetProductAttributes().GetItems()...)
			}
			attachRows(attrs, productAttributeIDs(attrs), false, true, terms, productTermOwner, productTermID, setProductTermUUIDs, setProductTerms)
		}
		setFeatured(out, featured)
		if exp.GetVariants() {
			var variants []*pb.Product
			for _, p := range out {
				variants = append(variants, p.GetVariants().GetItems()...)
			}
			setFeatured(variants, ofVariants)
		}
	}
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
	setFeatured(out, featured)
	return nil
}

// setFeatured sets featuredAssetUuid of the products out that have a row of featured.
func setFeatured(out []*pb.Product, featured []db.ListFeaturedAssetsOfProductsRow) {
	by := make(map[string]string, len(featured))
	for _, f := range featured {
		by[f.ProductUuid.String()] = f.AssetUuid.String()
	}
	for _, p := range out {
		if a, ok := by[p.Uuid]; ok {
			p.FeaturedAssetUuid = &a
		}
	}
}

// withFeatured is fillFeatured for the products a write returned (err is the write's error).
func (s *Service) withFeatured(ctx context.Context, err error, out ...*pb.Product) error {
	if err != nil {
		return err
	}
	return s.fillFeatured(ctx, reqctx.Tenant(ctx), out)
}
