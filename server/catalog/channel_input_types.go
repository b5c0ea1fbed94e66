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
)

// ChannelInputTypeServer implements catalog.v1.ChannelInputTypeService.
type ChannelInputTypeServer struct {
	pb.UnimplementedChannelInputTypeServiceServer
	*Service
}

// ChannelInputTypeList is the list spec of GET /v1/channels/{channelUuid}/input-types.
var ChannelInputTypeList = &list.Spec{
	Table: "channel_input_types",
	Filters: map[string]list.Field{
		"uuids":             {Column: "uuid", Type: list.UUID},
		"inputTypeUuids":    {Column: "input_type_uuid", Type: list.UUID},
		"requirementLevels": {Column: "requirement_level", Type: list.Enum, Values: enumValues(pb.ChannelInputTypeRequirementLevel(0))},
		"scopings":          {Column: "scoping", Type: list.Enum, Values: enumValues(pb.ChannelInputTypeScoping(0))},
		"createdAt":         {Column: "created_at", Type: list.Time},
		"updatedAt":         {Column: "updated_at", Type: list.Time},
	},
	Order: map[string]string{"requirementLevel": "requirement_level", "scoping": "scoping", "createdAt": "created_at", "updatedAt": "updated_at"},
}

func channelInputTypeToPB(c db.ChannelInputType) *pb.ChannelInputType {
	return &pb.ChannelInputType{Uuid: c.Uuid.String(), CreatedAt: timestamppb.New(c.CreatedAt), UpdatedAt: timestamppb.New(c.UpdatedAt),
		ChannelUuid: c.ChannelUuid.String(), InputTypeUuid: c.InputTypeUuid.String(),
		RequirementLevel: pb.ChannelInputTypeRequirementLevel(enumValue(pb.ChannelInputTypeRequirementLevel_value, "CHANNEL_INPUT_TYPE_REQUIREMENT_LEVEL_", c.RequirementLevel)),
		Scoping:          pb.ChannelInputTypeScoping(enumValue(pb.ChannelInputTypeScoping_value, "CHANNEL_INPUT_TYPE_SCOPING_", c.Scoping))}
}

// channelInputTypes is the association channel - input type, scoped by its channel: one link per
// channel and input type; a linked input type cannot be deleted (409 IN_USE).
var channelInputTypes = &crud.Family[db.ChannelInputType, *pb.ChannelInputType, *pb.ChannelInputTypeCreate, *pb.ChannelInputTypeUpdate]{
	Kind: "channel input type", Event: "channel.input_type", IDKey: "channelInputTypeUuid", Unique: "inputTypeUuid",
	CreatedVerb: "linked", DeletedVerb: "unlinked",
	References: map[string]string{"channel_input_types_input_type_fkey": "inputTypeUuid"},
	ID:         func(c db.ChannelInputType) uuid.UUID { return c.Uuid },
	ToPB:       channelInputTypeToPB,
	CheckCreate: func(v apierr.Validator, c *pb.ChannelInputTypeCreate) string {
		checkEnum(v, "requirementLevel", c.GetRequirementLevel())
		checkOptEnum(v, "scoping", c.Scoping)
		return c.GetInputTypeUuid()
	},
	Insert: func(ctx context.Context, t *crud.Tx, ids []uuid.UUID, items []*pb.ChannelInputTypeCreate) ([]db.ChannelInputType, error) {
		p := db.InsertChannelInputTypesParams{TenantID: t.Tenant, ChannelUuid: t.Scope.Parent, Uuids: ids, Now: t.Now,
			RequirementLevels: mapSlice(items, func(c *pb.ChannelInputTypeCreate) string { return crud.EnumName(c.GetRequirementLevel()) }),
			Scopings: mapSlice(items, func(c *pb.ChannelInputTypeCreate) string {
				if c.Scoping == nil {
					return "global"
				}
				return crud.EnumName(*c.Scoping)
			}),
		}
		var err error
		if p.InputTypeUuids, err = crud.RequireRefs(ctx, t, "input_types", "inputTypeUuid", items, (*pb.ChannelInputTypeCreate).GetInputTypeUuid); err != nil {
			return nil, err
		}
		return t.Q.InsertChannelInputTypes(ctx, p)
	},
	UpdateID: (*pb.ChannelInputTypeUpdate).GetUuid,
	CheckUpdate: func(v apierr.Validator, u *pb.ChannelInputTypeUpdate) {
		checkOptEnum(v, "requirementLevel", u.RequirementLevel)
		checkOptEnum(v, "scoping", u.Scoping)
	},
	// Another input type (inputTypeUuid) must exist in the tenant (the foreign key: 404 naming it)
	// and not be linked to the channel yet (409).
	UpdateOne: func(ctx context.Context, t *crud.Tx, id uuid.UUID, u *pb.ChannelInputTypeUpdate) (db.ChannelInputType, error) {
		var it *uuid.UUID
		if s := optString(u, "input_type_uuid"); s != nil {
			x := uuid.MustParse(*s)
			it = &x
		}
		return t.Q.UpdateChannelInputType(ctx, db.UpdateChannelInputTypeParams{TenantID: t.Tenant, ChannelUuid: t.Scope.Parent, Uuid: id,
			InputTypeUuid: it, RequirementLevel: optEnumName(u.RequirementLevel), Scoping: optEnumName(u.Scoping), Now: t.Now})
	},
	GetOne: func(ctx context.Context, q *db.Queries, tenant string, s crud.Scope, id uuid.UUID) (db.ChannelInputType, error) {
		return q.GetChannelInputType(ctx, db.GetChannelInputTypeParams{TenantID: tenant, ChannelUuid: s.Parent, Uuid: id})
	},
	DeleteOne: func(ctx context.Context, t *crud.Tx, id uuid.UUID) (int64, error) {
		return t.Q.DeleteChannelInputType(ctx, db.DeleteChannelInputTypeParams{TenantID: t.Tenant, ChannelUuid: t.Scope.Parent, Uuid: id})
	},
}

func (s *ChannelInputTypeServer) ListChannelInputTypes(ctx context.Context, req *pb.ListChannelInputTypesRequest) (*pb.ListChannelInputTypesResponse, error) {
	sc := s.channelScope(ctx, req.ChannelUuid)
	if sc.Err != nil {
		return nil, sc.Err
	}
	rows, page, err := list.Run[db.ChannelInputType](ctx, s.DB, ChannelInputTypeList, reqctx.Tenant(ctx), req, list.Eq("channel_uuid", sc.Parent))
	if err != nil {
		return nil, err
	}
	return &pb.ListChannelInputTypesResponse{Items: mapSlice(rows, channelInputTypeToPB), Pagination: page}, nil
}

func (s *ChannelInputTypeServer) GetChannelInputType(ctx context.Context, req *pb.GetChannelInputTypeRequest) (*pb.GetChannelInputTypeResponse, error) {
	m, err := channelInputTypes.GetAt(ctx, s.DB, s.channelScope(ctx, req.ChannelUuid), req.ChannelInputTypeUuid)
	return &pb.GetChannelInputTypeResponse{ChannelInputType: m}, err
}

// CreateChannelInputType links an input type to the channel.
func (s *ChannelInputTypeServer) CreateChannelInputType(ctx context.Context, req *pb.CreateChannelInputTypeRequest) (*pb.CreateChannelInputTypeResponse, error) {
	m, err := channelInputTypes.CreateOne(ctx, s.DB, s.channelScope(ctx, req.ChannelUuid), orNew(req.ChannelInputType))
	return &pb.CreateChannelInputTypeResponse{ChannelInputType: m}, err
}

func (s *ChannelInputTypeServer) BulkCreateChannelInputTypes(ctx context.Context, req *pb.BulkCreateChannelInputTypesRequest) (*pb.BulkCreateChannelInputTypesResponse, error) {
	out, err := channelInputTypes.CreateMany(ctx, s.DB, s.channelScope(ctx, req.ChannelUuid), req.Items)
	return &pb.BulkCreateChannelInputTypesResponse{Items: out}, err
}

func (s *ChannelInputTypeServer) UpdateChannelInputType(ctx context.Context, req *pb.UpdateChannelInputTypeRequest) (*pb.UpdateChannelInputTypeResponse, error) {
	m, err := channelInputTypes.UpdateAt(ctx, s.DB, s.channelScope(ctx, req.ChannelUuid), req.ChannelInputTypeUuid, req.ChannelInputType)
	return &pb.UpdateChannelInputTypeResponse{ChannelInputType: m}, err
}

func (s *ChannelInputTypeServer) BulkUpdateChannelInputTypes(ctx context.Context, req *pb.BulkUpdateChannelInputTypesRequest) (*pb.BulkUpdateChannelInputTypesResponse, error) {
	out, err := channelInputTypes.UpdateMany(ctx, s.DB, s.channelScope(ctx, req.ChannelUuid), req.Items)
	return &pb.BulkUpdateChannelInputTypesResponse{Items: out}, err
}

// DeleteChannelInputType unlinks an input type from the channel.
func (s *ChannelInputTypeServer) DeleteChannelInputType(ctx context.Context, req *pb.DeleteChannelInputTypeRequest) (*pb.DeleteChannelInputTypeResponse, error) {
	return &pb.DeleteChannelInputTypeResponse{}, channelInputTypes.Delete(ctx, s.DB, s.channelScope(ctx, req.ChannelUuid), req.ChannelInputTypeUuid)
}
