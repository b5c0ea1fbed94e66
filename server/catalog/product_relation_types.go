package catalog

import (
	"context"
	"strings"

	"github.com/google/uuid"
	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/crud"
	"github.com/catalogd/catalogd/server/list"
)

var relationDirections = []string{"one_way", "two_way"}

// ProductRelationTypeList is the list spec of GET /v1/product-relation-types.
var ProductRelationTypeList = &list.Spec{
	Table:   "product_relation_types",
	Filters: list.CodeNameFilters(map[string]list.Field{"directions": {Column: "direction", Type: list.Enum, Values: relationDirections}}),
	Order:   list.CodeNameOrder(map[string]string{"direction": "direction"}),
}

func productRelationTypeToPB(r db.ProductRelationType) *pb.ProductRelationType {
	return &pb.ProductRelationType{Uuid: r.Uuid.String(), CreatedAt: timestamppb.New(r.CreatedAt), UpdatedAt: timestamppb.New(r.UpdatedAt),
		Code: r.Code, DisplayName: r.DisplayName,
		Direction: pb.ProductRelationDirection(enumValue(pb.ProductRelationDirection_value, "PRODUCT_RELATION_DIRECTION_", r.Direction))}
}

// productRelationTypes is the product relation type family: code, displayName and direction
// (one_way or two_way, required on create). The direction is fixed after creation: a two-way type's
// links keep their inverse links on the target in step, so changing it would leave existing links
// without (or with stray) inverses. Product relations and family relation types reference it.
var productRelationTypes = &crud.Family[db.ProductRelationType, *pb.ProductRelationType, *pb.ProductRelationTypeCreate, *pb.ProductRelationTypeUpdate]{
	Kind: "product relation type", Event: "product_relation_type", IDKey: "productRelationTypeUuid", Unique: "code",
	ID:   func(r db.ProductRelationType) uuid.UUID { return r.Uuid },
	ToPB: productRelationTypeToPB,
	CheckCreate: func(v apierr.Validator, c *pb.ProductRelationTypeCreate) string {
		checkEnum(v, "direction", c.GetDirection())
		return codeOf(c)
	},
	Insert: func(ctx context.Context, t *crud.Tx, ids []uuid.UUID, items []*pb.ProductRelationTypeCreate) ([]db.ProductRelationType, error) {
		return t.Q.InsertProductRelationTypes(ctx, db.InsertProductRelationTypesParams{TenantID: t.Tenant, Uuids: ids, Now: t.Now,
			Codes: mapSlice(items, (*pb.ProductRelationTypeCreate).GetCode), DisplayNames: mapSlice(items, displayNameOrCode[*pb.ProductRelationTypeCreate]),
			Directions: mapSlice(items, func(c *pb.ProductRelationTypeCreate) string { return crud.EnumName(c.GetDirection()) })})
	},
	UpdateID: (*pb.ProductRelationTypeUpdate).GetUuid,
	CheckUpdate: func(v apierr.Validator, u *pb.ProductRelationTypeUpdate) {
		if u.Direction != nil && crud.EnumName(*u.Direction) == "" {
			v.Add("direction", "must be one of %s", strings.Join(relationDirections, ", "))
		}
	},
	UpdateOne: func(ctx context.Context, t *crud.Tx, id uuid.UUID, u *pb.ProductRelationTypeUpdate) (db.ProductRelationType, error) {
		return t.Q.UpdateProductRelationType(ctx, db.UpdateProductRelationTypeParams{TenantID: t.Tenant, Uuid: id, Now: t.Now,
			Code: optString(u, "code"), DisplayName: optString(u, "display_name")})
	},
	// A direction equal to the current one is accepted (a client may send the whole object back).
	AfterUpdate: func(_ context.Context, _ *crud.Tx, r db.ProductRelationType, u *pb.ProductRelationTypeUpdate, field func(string) string) (db.ProductRelationType, error) {
		if u.Direction != nil && crud.EnumName(*u.Direction) != r.Direction {
			return r, apierr.Field(field("direction"), "is fixed after creation (this type is "+r.Direction+")")
		}
		return r, nil
	},
	GetOne:    getByKey((*db.Queries).GetProductRelationType),
	DeleteOne: deleteByKey((*db.Queries).DeleteProductRelationType),
}

// ProductRelationTypeServer implements catalog.v1.ProductRelationTypeService.
type ProductRelationTypeServer struct {
	pb.UnimplementedProductRelationTypeServiceServer
	*Service
}

func (s *ProductRelationTypeServer) ListProductRelationTypes(ctx context.Context, req *pb.ListProductRelationTypesRequest) (*pb.ListProductRelationTypesResponse, error) {
	out, page, err := listAs(ctx, s.Service, ProductRelationTypeList, req, productRelationTypes.ToPB)
	return &pb.ListProductRelationTypesResponse{Items: out, Pagination: page}, err
}

func (s *ProductRelationTypeServer) CreateProductRelationType(ctx context.Context, req *pb.CreateProductRelationTypeRequest) (*pb.CreateProductRelationTypeResponse, error) {
	m, err := productRelationTypes.CreateOne(ctx, s.DB, crud.Scope{}, req.ProductRelationType)
	return &pb.CreateProductRelationTypeResponse{ProductRelationType: m}, err
}

func (s *ProductRelationTypeServer) BulkCreateProductRelationTypes(ctx context.Context, req *pb.BulkCreateProductRelationTypesRequest) (*pb.BulkCreateProductRelationTypesResponse, error) {
	out, err := productRelationTypes.CreateMany(ctx, s.DB, crud.Scope{}, req.Items)
	return &pb.BulkCreateProductRelationTypesResponse{Items: out}, err
}

func (s *ProductRelationTypeServer) GetProductRelationType(ctx context.Context, req *pb.GetProductRelationTypeRequest) (*pb.GetProductRelationTypeResponse, error) {
	m, err := productRelationTypes.GetAt(ctx, s.DB, crud.Scope{}, req.ProductRelationTypeUuid)
	return &pb.GetProductRelationTypeResponse{ProductRelationType: m}, err
}

func (s *ProductRelationTypeServer) UpdateProductRelationType(ctx context.Context, req *pb.UpdateProductRelationTypeRequest) (*pb.UpdateProductRelationTypeResponse, error) {
	m, err := productRelationTypes.UpdateAt(ctx, s.DB, crud.Scope{}, req.ProductRelationTypeUuid, req.ProductRelationType)
	return &pb.UpdateProductRelationTypeResponse{ProductRelationType: m}, err
}

func (s *ProductRelationTypeServer) BulkUpdateProductRelationTypes(ctx context.Context, req *pb.BulkUpdateProductRelationTypesRequest) (*pb.BulkUpdateProductRelationTypesResponse, error) {
	out, err := productRelationTypes.UpdateMany(ctx, s.DB, crud.Scope{}, req.Items)
	return &pb.BulkUpdateProductRelationTypesResponse{Items: out}, err
}

func (s *ProductRelationTypeServer) DeleteProductRelationType(ctx context.Context, req *pb.DeleteProductRelationTypeRequest) (*pb.DeleteProductRelationTypeResponse, error) {
	return &pb.DeleteProductRelationTypeResponse{}, productRelationTypes.Delete(ctx, s.DB, crud.Scope{}, req.ProductRelationTypeUuid)
}
