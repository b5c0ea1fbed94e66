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
)

// FamilyList is the list spec of GET /v1/families.
var FamilyList = &list.Spec{Table: "families", Filters: list.CodeNameFilters(nil), Order: list.CodeNameOrder(nil)}

func familyToPB(f db.Family) *pb.Family {
	return &pb.Family{Uuid: f.Uuid.String(), CreatedAt: timestamppb.New(f.CreatedAt), UpdatedAt: timestamppb.New(f.UpdatedAt),
		Code: f.Code, DisplayName: f.DisplayName}
}

// families is the family family: a product blueprint with a code and a displayName. Its links
// (family_links.go) are its structure; deleting a family deletes them (one family.deleted event).
var families = &crud.Family[db.Family, *pb.Family, *pb.FamilyCreate, *pb.FamilyUpdate]{
	Kind: "family", Event: "family", IDKey: "familyUuid", Unique: "code",
	ID:          func(f db.Family) uuid.UUID { return f.Uuid },
	ToPB:        familyToPB,
	CheckCreate: func(_ apierr.Validator, c *pb.FamilyCreate) string { return codeOf(c) },
	Insert: func(ctx context.Context, t *crud.Tx, ids []uuid.UUID, items []*pb.FamilyCreate) ([]db.Family, error) {
		return t.Q.InsertFamilies(ctx, db.InsertFamiliesParams{TenantID: t.Tenant, Uuids: ids, Now: t.Now,
			Codes: mapSlice(items, (*pb.FamilyCreate).GetCode), DisplayNames: mapSlice(items, displayNameOrCode[*pb.FamilyCreate])})
	},
	UpdateID: (*pb.FamilyUpdate).GetUuid,
	UpdateOne: func(ctx context.Context, t *crud.Tx, id uuid.UUID, u *pb.FamilyUpdate) (db.Family, error) {
		return t.Q.UpdateFamily(ctx, db.UpdateFamilyParams{TenantID: t.Tenant, Uuid: id, Now: t.Now,
			Code: optString(u, "code"), DisplayName: optString(u, "display_name")})
	},
	GetOne:    getByKey((*db.Queries).GetFamily),
	DeleteOne: deleteByKey((*db.Queries).DeleteFamily),
}

// familyScope resolves the familyUuid path parameter to the scope of the family's links (404 when
// the family does not exist in the tenant).
func (s *Service) familyScope(ctx context.Context, raw string) crud.Scope {
	return parentScope(ctx, s, families, raw)
}

// FamilyServer implements catalog.v1.FamilyService.
type FamilyServer struct {
	pb.UnimplementedFamilyServiceServer
	*Service
}

func (s *FamilyServer) ListFamilies(ctx context.Context, req *pb.ListFamiliesRequest) (*pb.ListFamiliesResponse, error) {
	out, page, err := listAs(ctx, s.Service, FamilyList, req, familyToPB)
	return &pb.ListFamiliesResponse{Items: out, Pagination: page}, err
}

func (s *FamilyServer) CreateFamily(ctx context.Context, req *pb.CreateFamilyRequest) (*pb.CreateFamilyResponse, error) {
	m, err := families.CreateOne(ctx, s.DB, crud.Scope{}, req.Family)
	return &pb.CreateFamilyResponse{Family: m}, err
}

func (s *FamilyServer) BulkCreateFamilies(ctx context.Context, req *pb.BulkCreateFamiliesRequest) (*pb.BulkCreateFamiliesResponse, error) {
	out, err := families.CreateMany(ctx, s.DB, crud.Scope{}, req.Items)
	return &pb.BulkCreateFamiliesResponse{Items: out}, err
}

func (s *FamilyServer) GetFamily(ctx context.Context, req *pb.GetFamilyRequest) (*pb.GetFamilyResponse, error) {
	m, err := families.GetAt(ctx, s.DB, crud.Scope{}, req.FamilyUuid)
	return &pb.GetFamilyResponse{Family: m}, err
}

func (s *FamilyServer) UpdateFamily(ctx context.Context, req *pb.UpdateFamilyRequest) (*pb.UpdateFamilyResponse, error) {
	m, err := families.UpdateAt(ctx, s.DB, crud.Scope{}, req.FamilyUuid, req.Family)
	return &pb.UpdateFamilyResponse{Family: m}, err
}

func (s *FamilyServer) BulkUpdateFamilies(ctx context.Context, req *pb.BulkUpdateFamiliesRequest) (*pb.BulkUpdateFamiliesResponse, error) {
	out, err := families.UpdateMany(ctx, s.DB, crud.Scope{}, req.Items)
	return &pb.BulkUpdateFamiliesResponse{Items: out}, err
}

// DeleteFamily deletes a family permanently, with its links.
func (s *FamilyServer) DeleteFamily(ctx context.Context, req *pb.DeleteFamilyRequest) (*pb.DeleteFamilyResponse, error) {
	return &pb.DeleteFamilyResponse{}, families.Delete(ctx, s.DB, crud.Scope{}, req.FamilyUuid)
}
