package catalog

import (
	"context"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/crud"
	"github.com/catalogd/catalogd/server/list"
	"github.com/catalogd/catalogd/server/reqctx"
)

// CollectionServer implements catalog.v1.CollectionService.
type CollectionServer struct {
	pb.UnimplementedCollectionServiceServer
	*Service
}

// CollectionList is the list spec of GET /v1/collections.
var CollectionList = nodeList("collections")

// collectionTable adapts the collection queries to the shared types (the same fields: see node).
var collectionTable = &nodeTable{
	name: "collections",
	get: func(q *db.Queries, ctx context.Context, p db.GetCategoryParams) (node, error) {
		r, err := q.GetCollection(ctx, db.GetCollectionParams(p))
		return node(r), err
	},
	lock: func(q *db.Queries, ctx context.Context, p db.LockCategoriesParams) ([]node, error) {
		return asNodes(q.LockCollections(ctx, db.LockCollectionsParams(p)))
	},
	lockTree: (*db.Queries).LockCollectionTree,
	insert: func(q *db.Queries, ctx context.Context, p db.InsertCategoriesParams) ([]node, error) {
		return asNodes(q.InsertCollections(ctx, db.InsertCollectionsParams(p)))
	},
	update: func(q *db.Queries, ctx context.Context, p db.UpdateCategoryParams) (node, error) {
		r, err := q.UpdateCollection(ctx, db.UpdateCollectionParams(p))
		return node(r), err
	},
	wouldCycle: func(q *db.Queries, ctx context.Context, p db.CategoryWouldCycleParams) (bool, error) {
		return q.CollectionWouldCycle(ctx, db.CollectionWouldCycleParams(p))
	},
	setStatus: func(q *db.Queries, ctx context.Context, p db.SetCategoryStatusParams) ([]node, error) {
		return asNodes(q.SetCollectionStatus(ctx, db.SetCollectionStatusParams(p)))
	},
	deleteOne: func(q *db.Queries, ctx context.Context, p db.DeleteCategoryParams) (int64, error) {
		return q.DeleteCollection(ctx, db.DeleteCollectionParams(p))
	},
}

func asNodes(rows []db.Collection, err error) ([]node, error) {
	return mapSlice(rows, func(r db.Collection) node { return node(r) }), err
}

func collectionToPB(n node) *pb.Collection {
	return nodeToPB(&pb.Collection{}, n, "COLLECTION_STATUS_")
}

// collections is the collection family.
var collections = nodeFamily[*pb.Collection, *pb.CollectionCreate, *pb.CollectionUpdate]("collection", "collection", "collectionUuid", collectionTable, collectionToPB)

// ListCollections lists collections with the filters of API.md.
func (s *CollectionServer) ListCollections(ctx context.Context, req *pb.ListCollectionsRequest) (*pb.ListCollectionsResponse, error) {
	rows, page, err := list.Run[node](ctx, s.DB, CollectionList, reqctx.Tenant(ctx), req)
	return &pb.ListCollectionsResponse{Items: mapSlice(rows, collectionToPB), Pagination: page}, err
}

// GetCollection returns one collection.
func (s *CollectionServer) GetCollection(ctx context.Context, req *pb.GetCollectionRequest) (*pb.GetCollectionResponse, error) {
	m, err := collections.GetAt(ctx, s.DB, crud.Scope{}, req.CollectionUuid)
	return &pb.GetCollectionResponse{Collection: m}, err
}

// CreateCollection creates one collection in status draft.
func (s *CollectionServer) CreateCollection(ctx context.Context, req *pb.CreateCollectionRequest) (*pb.CreateCollectionResponse, error) {
	m, err := collections.CreateOne(ctx, s.DB, crud.Scope{}, req.Collection)
	return &pb.CreateCollectionResponse{Collection: m}, err
}

// BulkCreateCollections creates 1 to 100 collections atomically.
func (s *CollectionServer) BulkCreateCollections(ctx context.Context, req *pb.BulkCreateCollectionsRequest) (*pb.BulkCreateCollectionsResponse, error) {
	out, err := collections.CreateMany(ctx, s.DB, crud.Scope{}, req.Items)
	return &pb.BulkCreateCollectionsResponse{Items: out}, err
}

// UpdateCollection changes the fields given of one collection; parentUuid null makes it a root.
func (s *CollectionServer) UpdateCollection(ctx context.Context, req *pb.UpdateCollectionRequest) (*pb.UpdateCollectionResponse, error) {
	m, err := collections.UpdateAt(ctx, s.DB, crud.Scope{}, req.CollectionUuid, req.Collection)
	return &pb.UpdateCollectionResponse{Collection: m}, err
}

// BulkUpdateCollections changes 1 to 100 collections atomically.
func (s *CollectionServer) BulkUpdateCollections(ctx context.Context, req *pb.BulkUpdateCollectionsRequest) (*pb.BulkUpdateCollectionsResponse, error) {
	out, err := collections.UpdateMany(ctx, s.DB, crud.Scope{}, req.Items)
	return &pb.BulkUpdateCollectionsResponse{Items: out}, err
}

// DeleteCollection deletes a collection permanently; one with children is refused.
func (s *CollectionServer) DeleteCollection(ctx context.Context, req *pb.DeleteCollectionRequest) (*pb.DeleteCollectionResponse, error) {
	return &pb.DeleteCollectionResponse{}, collections.Delete(ctx, s.DB, crud.Scope{}, req.CollectionUuid)
}

// TransitionCollection moves one collection through its lifecycle.
func (s *CollectionServer) TransitionCollection(ctx context.Context, req *pb.TransitionCollectionRequest) (*pb.TransitionCollectionResponse, error) {
	m, err := collections.TransitionAt(ctx, s.DB, crud.Scope{}, req.CollectionUuid, req.Transition)
	return &pb.TransitionCollectionResponse{Collection: m}, err
}

// BulkTransitionCollections moves 1 to 100 collections atomically.
func (s *CollectionServer) BulkTransitionCollections(ctx context.Context, req *pb.BulkTransitionCollectionsRequest) (*pb.BulkTransitionCollectionsResponse, error) {
	out, err := collections.TransitionMany(ctx, s.DB, crud.Scope{}, req.Transition, req.Uuids)
	return &pb.BulkTransitionCollectionsResponse{Items: out}, err
}
