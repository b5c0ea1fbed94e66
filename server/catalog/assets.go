package catalog

import (
	"context"
	"encoding/json"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"
	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/crud"
	"github.com/catalogd/catalogd/server/fields"
	"github.com/catalogd/catalogd/server/list"
)

// Assets describe media and documents (code, displayName, description, category, metadata); their
// files and uploads are a separate family. storageLocation, the prefix of the asset's blob keys,
// is set once at creation to `assets/<assetUuid>/` and never changes: it names no tenant and no
// secret (the blob store is addressed per tenant by the service), so it is safe to show.
//
// metadata is an object of string to string, stored as jsonb: at most 50 keys of 1 to 100
// characters, values of up to 1000 characters, no NUL character (PostgreSQL cannot store it).
// An update that names metadata replaces the whole object; over REST `"metadata": null` is read
// as {} (the codec gives a map no null), over gRPC the update mask must name metadata to clear it.
//
// Asset collections link an asset to collections: one per asset and collection, nothing to
// update. Deleting the asset deletes its links; deleting a linked collection is 409 IN_USE.

// Metadata limits (API.md: at most 50 keys).
const (
	maxMetadataKeys     = 50
	maxMetadataKeyLen   = 100
	maxMetadataValueLen = 1000
)

// AssetList is the list spec of GET /v1/assets.
var AssetList = &list.Spec{
	Table: "assets",
	Filters: list.CodeNameFilters(map[string]list.Field{
		"categories": {Column: "category", Type: list.Enum, Values: enumValues(pb.AssetCategory(0))},
	}),
	Order: list.CodeNameOrder(map[string]string{"category": "category"}),
}

// AssetCollectionList is the list spec of GET /v1/assets/{assetUuid}/collections.
var AssetCollectionList = &list.Spec{
	Table: "asset_collections",
	Filters: map[string]list.Field{
		"uuids":           {Column: "uuid", Type: list.UUID},
		"collectionUuids": {Column: "collection_uuid", Type: list.UUID},
		"createdAt":       {Column: "created_at", Type: list.Time},
		"updatedAt":       {Column: "updated_at", Type: list.Time},
	},
	Order: map[string]string{"createdAt": "created_at", "updatedAt": "updated_at"},
}

func assetToPB(a db.Asset) *pb.Asset {
	md := map[string]string{}
	_ = json.Unmarshal(a.Metadata, &md) // the column is always a JSON object of strings
	return &pb.Asset{Uuid: a.Uuid.String(), CreatedAt: timestamppb.New(a.CreatedAt), UpdatedAt: timestamppb.New(a.UpdatedAt),
		Code: a.Code, DisplayName: a.DisplayName, Description: a.Description,
		Category:        pb.AssetCategory(enumValue(pb.AssetCategory_value, "ASSET_CATEGORY_", a.Category)),
		StorageLocation: a.StorageLocation, Metadata: md}
}

func assetCollectionToPB(l db.AssetCollection) *pb.AssetCollection {
	return &pb.AssetCollection{Uuid: l.Uuid.String(), CreatedAt: timestamppb.New(l.CreatedAt), UpdatedAt: timestamppb.New(l.UpdatedAt),
		AssetUuid: l.AssetUuid.String(), CollectionUuid: l.CollectionUuid.String()}
}

// checkMetadata checks a metadata object (see the top of this file); violations name `metadata`
// or `metadata.<key>`.
func checkMetadata(v apierr.Validator, md map[string]string) {
	if len(md) > maxMetadataKeys {
		v.Add("metadata", "must have at most %d keys (it has %d)", maxMetadataKeys, len(md))
	}
	keys := make([]string, 0, len(md))
	for k := range md {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		val := md[k]
		n := utf8.RuneCountInString(k)
		switch {
		case n == 0:
			v.Add("metadata", "keys must be 1 to %d characters (found an empty key)", maxMetadataKeyLen)
			continue
		case n > maxMetadataKeyLen || strings.ContainsRune(k, 0):
			v.Add("metadata."+k, "key must be 1 to %d characters without NUL", maxMetadataKeyLen)
			continue
		}
		if utf8.RuneCountInString(val) > maxMetadataValueLen || strings.ContainsRune(val, 0) {
			v.Add("metadata."+k, "must be at most %d characters without NUL", maxMetadataValueLen)
		}
	}
}

// metadataJSON is the stored form of a metadata object (never null).
func metadataJSON(md map[string]string) string {
	if md == nil {
		md = map[string]string{}
	}
	b, _ := json.Marshal(md)
	return string(b)
}

// assets is the asset family (events asset.created/updated/deleted).
var assets = &crud.Family[db.Asset, *pb.Asset, *pb.AssetCreate, *pb.AssetUpdate]{
	Kind: "asset", Event: "asset", IDKey: "assetUuid", Unique: "code",
	ID:   func(a db.Asset) uuid.UUID { return a.Uuid },
	ToPB: assetToPB,
	CheckCreate: func(v apierr.Validator, c *pb.AssetCreate) string {
		checkEnum(v, "category", c.GetCategory())
		checkMetadata(v, c.GetMetadata())
		return c.GetCode()
	},
	Insert: func(ctx context.Context, t *crud.Tx, ids []uuid.UUID, items []*pb.AssetCreate) ([]db.Asset, error) {
		n := len(items)
		p := db.InsertAssetsParams{TenantID: t.Tenant, Now: t.Now, Uuids: ids,
			Codes: mapSlice(items, (*pb.AssetCreate).GetCode), DisplayNames: mapSlice(items, displayNameOrCode[*pb.AssetCreate]),
			Descriptions: make([]string, n), HasDescriptions: make([]bool, n),
			Categories: mapSlice(items, func(c *pb.AssetCreate) string { return crud.EnumName(c.GetCategory()) }),
			Metadatas:  mapSlice(items, func(c *pb.AssetCreate) string { return metadataJSON(c.GetMetadata()) })}
		for i, c := range items {
			if c.Description != nil {
				p.Descriptions[i], p.HasDescriptions[i] = *c.Description, true
			}
		}
		return t.Q.InsertAssets(ctx, p)
	},
	UpdateID: (*pb.AssetUpdate).GetUuid,
	CheckUpdate: func(v apierr.Validator, u *pb.AssetUpdate) {
		checkOptEnum(v, "category", u.Category)
		checkMetadata(v, u.GetMetadata())
	},
	UpdateOne: func(ctx context.Context, t *crud.Tx, id uuid.UUID, u *pb.AssetUpdate) (db.Asset, error) {
		mask := fields.NewMask(updateMask(u))
		var md *string
		if len(u.GetMetadata()) > 0 || mask.Clears("metadata", false) {
			s := metadataJSON(u.GetMetadata())
			md = &s
		}
		return t.Q.UpdateAsset(ctx, db.UpdateAssetParams{TenantID: t.Tenant, Uuid: id, Now: t.Now,
			Code: u.Code, DisplayName: u.DisplayName,
			SetDescription: u.Description != nil || mask.Clears("description", false), Description: u.Description,
			Category: optEnumName(u.Category), Metadata: md})
	},
	GetOne: getByKey((*db.Queries).GetAsset),
	// DeleteOne deletes the asset with its collection links and its files; each file gets its
	// asset.file.deleted, so a consumer following files learns they are gone (its objects are
	// queued for deletion by the database: migration 0018).
	DeleteOne: func(ctx context.Context, t *crud.Tx, id uuid.UUID) (int64, error) {
		files, err := t.Q.AssetFileUuidsOfAsset(ctx, db.AssetFileUuidsOfAssetParams{TenantID: t.Tenant, AssetUuid: id})
		if err != nil {
			return 0, err
		}
		n, err := t.Q.DeleteAsset(ctx, db.DeleteAssetParams{TenantID: t.Tenant, Uuid: id})
		if err == nil && n > 0 {
			for _, f := range files {
				t.Emit(AssetFileEvent("deleted", &f, nil))
			}
		}
		return n, err
	},
}

// assetCollections links assets to collections (events asset.collection.linked/unlinked).
var assetCollections = &crud.Family[db.AssetCollection, *pb.AssetCollection, *pb.AssetCollectionCreate, *pb.AssetCollectionCreate]{
	Kind: "asset collection", Event: "asset.collection", IDKey: "assetCollectionUuid", Unique: "collectionUuid",
	CreatedVerb: "linked", DeletedVerb: "unlinked",
	References: map[string]string{"asset_collections_collection_fkey": "collectionUuid"},
	ID:         func(l db.AssetCollection) uuid.UUID { return l.Uuid },
	ToPB:       assetCollectionToPB,
	CheckCreate: func(_ apierr.Validator, c *pb.AssetCollectionCreate) string {
		return c.GetCollectionUuid()
	},
	Insert: func(ctx context.Context, t *crud.Tx, ids []uuid.UUID, items []*pb.AssetCollectionCreate) ([]db.AssetCollection, error) {
		p := db.InsertAssetCollectionsParams{TenantID: t.Tenant, AssetUuid: t.Scope.Parent, Now: t.Now, Uuids: ids}
		var err error
		if p.CollectionUuids, err = crud.RequireRefs(ctx, t, "collections", "collectionUuid", items, (*pb.AssetCollectionCreate).GetCollectionUuid); err != nil {
			return nil, err
		}
		return t.Q.InsertAssetCollections(ctx, p)
	},
	GetOne: func(ctx context.Context, q *db.Queries, tenant string, s crud.Scope, id uuid.UUID) (db.AssetCollection, error) {
		return q.GetAssetCollection(ctx, db.GetAssetCollectionParams{TenantID: tenant, AssetUuid: s.Parent, Uuid: id})
	},
	DeleteOne: func(ctx context.Context, t *crud.Tx, id uuid.UUID) (int64, error) {
		return t.Q.DeleteAssetCollection(ctx, db.DeleteAssetCollectionParams{TenantID: t.Tenant, AssetUuid: t.Scope.Parent, Uuid: id})
	},
}

// assetScope resolves the assetUuid path parameter (404 when the asset is not the tenant's).
func (s *Service) assetScope(ctx context.Context, raw string) crud.Scope {
	return parentScope(ctx, s, assets, raw)
}

// AssetServer implements catalog.v1.AssetService.
type AssetServer struct {
	pb.UnimplementedAssetServiceServer
	*Service
}

// ListAssets lists assets with the filters of API.md.
func (s *AssetServer) ListAssets(ctx context.Context, req *pb.ListAssetsRequest) (*pb.ListAssetsResponse, error) {
	out, page, err := listAs(ctx, s.Service, AssetList, req, assetToPB)
	return &pb.ListAssetsResponse{Items: out, Pagination: page}, err
}

// CreateAsset creates one asset.
func (s *AssetServer) CreateAsset(ctx context.Context, req *pb.CreateAssetRequest) (*pb.CreateAssetResponse, error) {
	m, err := assets.CreateOne(ctx, s.DB, crud.Scope{}, orNew(req.Asset))
	return &pb.CreateAssetResponse{Asset: m}, err
}

func (s *AssetServer) BulkCreateAssets(ctx context.Context, req *pb.BulkCreateAssetsRequest) (*pb.BulkCreateAssetsResponse, error) {
	out, err := assets.CreateMany(ctx, s.DB, crud.Scope{}, req.Items)
	return &pb.BulkCreateAssetsResponse{Items: out}, err
}

func (s *AssetServer) GetAsset(ctx context.Context, req *pb.GetAssetRequest) (*pb.GetAssetResponse, error) {
	m, err := assets.GetAt(ctx, s.DB, crud.Scope{}, req.AssetUuid)
	return &pb.GetAssetResponse{Asset: m}, err
}

func (s *AssetServer) UpdateAsset(ctx context.Context, req *pb.UpdateAssetRequest) (*pb.UpdateAssetResponse, error) {
	m, err := assets.UpdateAt(ctx, s.DB, crud.Scope{}, req.AssetUuid, orNew(req.Asset))
	return &pb.UpdateAssetResponse{Asset: m}, err
}

func (s *AssetServer) BulkUpdateAssets(ctx context.Context, req *pb.BulkUpdateAssetsRequest) (*pb.BulkUpdateAssetsResponse, error) {
	out, err := assets.UpdateMany(ctx, s.DB, crud.Scope{}, req.Items)
	return &pb.BulkUpdateAssetsResponse{Items: out}, err
}

// DeleteAsset deletes an asset with its collection links; one linked to a product is 409 IN_USE.
func (s *AssetServer) DeleteAsset(ctx context.Context, req *pb.DeleteAssetRequest) (*pb.DeleteAssetResponse, error) {
	return &pb.DeleteAssetResponse{}, assets.Delete(ctx, s.DB, crud.Scope{}, req.AssetUuid)
}

// AssetCollectionServer implements catalog.v1.AssetCollectionService.
type AssetCollectionServer struct {
	pb.UnimplementedAssetCollectionServiceServer
	*Service
}

func (s *AssetCollectionServer) ListAssetCollections(ctx context.Context, req *pb.ListAssetCollectionsRequest) (*pb.ListAssetCollectionsResponse, error) {
	sc := s.assetScope(ctx, req.AssetUuid)
	if sc.Err != nil {
		return nil, sc.Err
	}
	out, page, err := listAs(ctx, s.Service, AssetCollectionList, req, assetCollectionToPB, list.Eq("asset_uuid", sc.Parent))
	return &pb.ListAssetCollectionsResponse{Items: out, Pagination: page}, err
}

// CreateAssetCollection links a collection to the asset.
func (s *AssetCollectionServer) CreateAssetCollection(ctx context.Context, req *pb.CreateAssetCollectionRequest) (*pb.CreateAssetCollectionResponse, error) {
	m, err := assetCollections.CreateOne(ctx, s.DB, s.assetScope(ctx, req.AssetUuid), orNew(req.AssetCollection))
	return &pb.CreateAssetCollectionResponse{AssetCollection: m}, err
}

func (s *AssetCollectionServer) BulkCreateAssetCollections(ctx context.Context, req *pb.BulkCreateAssetCollectionsRequest) (*pb.BulkCreateAssetCollectionsResponse, error) {
	out, err := assetCollections.CreateMany(ctx, s.DB, s.assetScope(ctx, req.AssetUuid), req.Items)
	return &pb.BulkCreateAssetCollectionsResponse{Items: out}, err
}

func (s *AssetCollectionServer) GetAssetCollection(ctx context.Context, req *pb.GetAssetCollectionRequest) (*pb.GetAssetCollectionResponse, error) {
	m, err := assetCollections.GetAt(ctx, s.DB, s.assetScope(ctx, req.AssetUuid), req.AssetCollectionUuid)
	return &pb.GetAssetCollectionResponse{AssetCollection: m}, err
}

// DeleteAssetCollection unlinks a collection from the asset (the collection stays).
func (s *AssetCollectionServer) DeleteAssetCollection(ctx context.Context, req *pb.DeleteAssetCollectionRequest) (*pb.DeleteAssetCollectionResponse, error) {
	return &pb.DeleteAssetCollectionResponse{}, assetCollections.Delete(ctx, s.DB, s.assetScope(ctx, req.AssetUuid), req.AssetCollectionUuid)
}
