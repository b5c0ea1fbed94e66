package catalog

import (
	"context"

	"github.com/google/uuid"
	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/crud"
	"github.com/catalogd/catalogd/server/events"
	"github.com/catalogd/catalogd/server/list"
	"github.com/catalogd/catalogd/server/store"
)

// Product relations link a product to another product of the tenant by a relation type. The type
// and the target are fixed after creation and there is no other field, so, like product
// categories and tags, the family has no update operation.
//
// A relation of a two_way type has an inverse on the target (same type, the two products swapped),
// written in the same statement and deleted with it; each row of the pair names the other in
// inverse_relation_uuid. Every row written or deleted has its own event, keyed by that row's
// product. Writes of one pair (type and the unordered pair of products) take a transaction-scoped
// advisory lock, so two requests relating A→B and B→A at once serialise: the second finds the pair
// and is a 409, never a second pair or a deadlock.

const relationTwoWay = "two_way"

// ProductRelationList is the list spec of /v1/products/{productUuid}/relations.
var ProductRelationList = &list.Spec{
	Table: "product_relations",
	Filters: map[string]list.Field{
		"uuids":                    {Column: "uuid", Type: list.UUID},
		"productRelationTypeUuids": {Column: "product_relation_type_uuid", Type: list.UUID},
		"targetProductUuids":       {Column: "target_product_uuid", Type: list.UUID},
		"createdAt":                {Column: "created_at", Type: list.Time},
		"updatedAt":                {Column: "updated_at", Type: list.Time},
	},
	Order: map[string]string{"createdAt": "created_at", "updatedAt": "updated_at"},
}

// ProductRelationToPB converts a product relation row (also for the product's include/expand).
func ProductRelationToPB(r db.ProductRelation) *pb.ProductRelation {
	return &pb.ProductRelation{Uuid: r.Uuid.String(), CreatedAt: timestamppb.New(r.CreatedAt), UpdatedAt: timestamppb.New(r.UpdatedAt),
		ProductUuid: r.ProductUuid.String(), ProductRelationTypeUuid: r.ProductRelationTypeUuid.String(),
		TargetProductUuid: r.TargetProductUuid.String(), InverseRelationUuid: optUUIDString(r.InverseRelationUuid)}
}

// relationPairKey names the pair of a two-way relation whichever side it is seen from.
func relationPairKey(typ, a, b uuid.UUID) string {
	x, y := a.String(), b.String()
	if y < x {
		x, y = y, x
	}
	return typ.String() + ":" + x + ":" + y
}

// relationEvent is the event of one relation row, keyed by the row's own product, with the row
// as it is after a link or was before an unlink (its history entry).
func relationEvent(verb string, r db.ProductRelation) events.Event {
	e := events.New("product.relation."+verb, "productUuid", r.ProductUuid.String(), "productRelationUuid", r.Uuid.String())
	if verb == "linked" {
		e.After = ProductRelationToPB(r)
	} else {
		e.Before = ProductRelationToPB(r)
	}
	return e
}

// insertProductRelations checks and writes the relations of items (and the inverses of the
// two-way ones) for the scope's product.
func insertProductRelations(ctx context.Context, t *crud.Tx, ids []uuid.UUID, items []*pb.ProductRelationCreate) ([]db.ProductRelation, error) {
	item := func(v apierr.Validator, i int) apierr.Validator {
		if t.Single {
			return v
		}
		return v.Item(i)
	}
	product := t.Scope.Parent
	types := make([]uuid.UUID, len(items))
	targets := make([]*uuid.UUID, len(items))
	v := apierr.NewValidator()
	for i, c := range items {
		types[i] = uuid.MustParse(c.GetProductRelationTypeUuid())
		target := uuid.MustParse(c.GetTargetProductUuid())
		targets[i] = &target
		if target == product {
			item(v, i).Add("targetProductUuid", "cannot be the product itself")
		}
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	found, err := t.Q.GetProductRelationTypeDirections(ctx, db.GetProductRelationTypeDirectionsParams{TenantID: t.Tenant, Uuids: types})
	if err != nil {
		return nil, err
	}
	direction := make(map[uuid.UUID]string, len(found))
	for _, f := range found {
		direction[f.Uuid] = f.Direction
	}
	for i, typ := range types {
		if direction[typ] == "" {
			return nil, apierr.New(apierr.NotFound, "productRelationTypeUuid %s does not exist", typ).
				WithField(crud.FieldName("productRelationTypeUuid", i, t.Single), "not found")
		}
	}
	if err := crud.RequireExisting(ctx, t, "products", "targetProductUuid", targets); err != nil {
		return nil, err
	}

	p := db.InsertProductRelationsParams{TenantID: t.Tenant, Now: t.Now}
	add := func(id, prod, typ, target, inverse uuid.UUID) {
		p.Uuids, p.ProductUuids, p.TypeUuids = append(p.Uuids, id), append(p.ProductUuids, prod), append(p.TypeUuids, typ)
		p.TargetUuids, p.InverseUuids = append(p.TargetUuids, target), append(p.InverseUuids, inverse)
	}
	inverses := make([]uuid.UUID, len(items)) // uuid.Nil for one-way items
	var pairs []string
	for i, typ := range types {
		if direction[typ] == relationTwoWay {
			inverses[i] = uuid.Must(uuid.NewV7())
			pairs = append(pairs, relationPairKey(typ, product, *targets[i]))
		}
		add(ids[i], product, typ, *targets[i], inverses[i])
	}
	for i, typ := range types {
		if inverses[i] != uuid.Nil {
			add(inverses[i], *targets[i], typ, product, ids[i])
		}
	}
	if len(pairs) > 0 {
		if err := t.Q.LockProductRelationPairs(ctx, db.LockProductRelationPairsParams{TenantID: t.Tenant, PairKeys: pairs}); err != nil {
			return nil, err
		}
	}
	rows, err := t.Q.InsertProductRelations(ctx, p)
	if err != nil {
		return nil, err
	}

	// An item is a conflict when its relation or its inverse was skipped: the whole request is
	// then a 409 and rolls back (the deferred inverse key is never checked).
	got := make(map[uuid.UUID]db.ProductRelation, len(rows))
	for _, r := range rows {
		got[r.Uuid] = r
	}
	v = apierr.NewValidator()
	for i := range items {
		_, fwd := got[ids[i]]
		_, inv := got[inverses[i]]
		if !fwd || (inverses[i] != uuid.Nil && !inv) {
			item(v, i).Add("targetProductUuid", "a product relation of type %s to product %s already exists (for a two_way type, in either direction)", types[i], *targets[i])
		}
	}
	if err := v.Err(); err != nil {
		e := err.(*apierr.Error)
		e.Code = apierr.AlreadyExists
		return nil, e
	}
	for i := range items {
		if inverses[i] != uuid.Nil {
			t.Emit(relationEvent("linked", got[inverses[i]]))
		}
	}
	return rows, nil
}

// deleteProductRelation deletes a relation of the scope's product and, for a two-way type, its
// inverse (with its own event); 0 when the product holds no such relation.
func deleteProductRelation(ctx context.Context, t *crud.Tx, id uuid.UUID) (int64, error) {
	r, err := t.Q.GetProductRelation(ctx, db.GetProductRelationParams{TenantID: t.Tenant, ProductUuid: t.Scope.Parent, Uuid: id})
	if store.IsNoRows(err) {
		return 0, nil
	} else if err != nil {
		return 0, err
	}
	ids := []uuid.UUID{id}
	if r.InverseRelationUuid != nil {
		if err := t.Q.LockProductRelationPairs(ctx, db.LockProductRelationPairsParams{TenantID: t.Tenant,
			PairKeys: []string{relationPairKey(r.ProductRelationTypeUuid, r.ProductUuid, r.TargetProductUuid)}}); err != nil {
			return 0, err
		}
		ids = append(ids, *r.InverseRelationUuid)
	}
	rows, err := t.Q.DeleteProductRelations(ctx, db.DeleteProductRelationsParams{TenantID: t.Tenant, Uuids: ids})
	if err != nil {
		return 0, err
	}
	var own bool
	for _, d := range rows {
		if d.Uuid == id {
			own = true
		}
	}
	if !own { // deleted meanwhile (from the other side) by a request that held the lock first
		return 0, nil
	}
	for _, d := range rows {
		if d.Uuid != id {
			t.Emit(relationEvent("unlinked", d))
		}
	}
	return int64(len(rows)), nil
}

// productRelations is the product relation family (events product.relation.linked/unlinked).
var productRelations = &crud.Family[db.ProductRelation, *pb.ProductRelation, *pb.ProductRelationCreate, *pb.ProductRelationCreate]{
	Kind: "product relation", Event: "product.relation", IDKey: "productRelationUuid", Unique: "targetProductUuid",
	CreatedVerb: "linked", DeletedVerb: "unlinked",
	References: map[string]string{
		"product_relations_product_relation_type_fkey": "productRelationTypeUuid",
		"product_relations_target_product_fkey":        "targetProductUuid",
	},
	ID:   func(r db.ProductRelation) uuid.UUID { return r.Uuid },
	ToPB: ProductRelationToPB,
	CheckCreate: func(_ apierr.Validator, c *pb.ProductRelationCreate) string {
		return c.GetTargetProductUuid()
	},
	Insert: insertProductRelations,
	GetOne: func(ctx context.Context, q *db.Queries, tenant string, s crud.Scope, id uuid.UUID) (db.ProductRelation, error) {
		return q.GetProductRelation(ctx, db.GetProductRelationParams{TenantID: tenant, ProductUuid: s.Parent, Uuid: id})
	},
	DeleteOne: deleteProductRelation,
}

// ProductRelationServer implements catalog.v1.ProductRelationService.
type ProductRelationServer struct {
	pb.UnimplementedProductRelationServiceServer
	*Service
}

// ListProductRelations lists the relations the product holds (not those targeting it: for a
// two-way type those are the inverses, held by the product too).
func (s *ProductRelationServer) ListProductRelations(ctx context.Context, req *pb.ListProductRelationsRequest) (*pb.ListProductRelationsResponse, error) {
	sc := s.productScope(ctx, req.ProductUuid)
	if sc.Err != nil {
		return nil, sc.Err
	}
	out, page, err := listAs(ctx, s.Service, ProductRelationList, req, ProductRelationToPB, list.Eq("product_uuid", sc.Parent))
	return &pb.ListProductRelationsResponse{Items: out, Pagination: page}, err
}

// CreateProductRelation relates the product to another product.
func (s *ProductRelationServer) CreateProductRelation(ctx context.Context, req *pb.CreateProductRelationRequest) (*pb.CreateProductRelationResponse, error) {
	m, err := productRelations.CreateOne(ctx, s.DB, s.productScope(ctx, req.ProductUuid), orNew(req.ProductRelation))
	return &pb.CreateProductRelationResponse{ProductRelation: m}, err
}

func (s *ProductRelationServer) BulkCreateProductRelations(ctx context.Context, req *pb.BulkCreateProductRelationsRequest) (*pb.BulkCreateProductRelationsResponse, error) {
	out, err := productRelations.CreateMany(ctx, s.DB, s.productScope(ctx, req.ProductUuid), req.Items)
	return &pb.BulkCreateProductRelationsResponse{Items: out}, err
}

func (s *ProductRelationServer) GetProductRelation(ctx context.Context, req *pb.GetProductRelationRequest) (*pb.GetProductRelationResponse, error) {
	m, err := productRelations.GetAt(ctx, s.DB, s.productScope(ctx, req.ProductUuid), req.ProductRelationUuid)
	return &pb.GetProductRelationResponse{ProductRelation: m}, err
}

// DeleteProductRelation deletes a relation of the product, and its inverse for a two-way type.
func (s *ProductRelationServer) DeleteProductRelation(ctx context.Context, req *pb.DeleteProductRelationRequest) (*pb.DeleteProductRelationResponse, error) {
	return &pb.DeleteProductRelationResponse{}, productRelations.Delete(ctx, s.DB, s.productScope(ctx, req.ProductUuid), req.ProductRelationUuid)
}
