package catalog

import (
	"context"

	"github.com/google/uuid"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/crud"
	"github.com/catalogd/catalogd/server/jsonpb"
	"github.com/catalogd/catalogd/server/list"
	"github.com/catalogd/catalogd/server/reqctx"
)

// TypeGroupServer implements catalog.v1.TypeGroupService.
type TypeGroupServer struct {
	pb.UnimplementedTypeGroupServiceServer
	*Service
}

// TypeGroupList is the list spec of GET /v1/type-groups.
var TypeGroupList = &list.Spec{
	Table: "type_groups",
	Filters: list.CodeNameFilters(map[string]list.Field{
		"entityTypes": {Column: "entity_type", Type: list.Enum, Values: enumValues(pb.TypeGroupEntityType(0))},
	}),
	Order: list.CodeNameOrder(map[string]string{"entityType": "entity_type"}),
}

func typeGroupToPB(g db.TypeGroup) *pb.TypeGroup {
	return &pb.TypeGroup{Uuid: g.Uuid.String(), CreatedAt: timestamppb.New(g.CreatedAt), UpdatedAt: timestamppb.New(g.UpdatedAt),
		Code: g.Code, DisplayName: g.DisplayName,
		EntityType: pb.TypeGroupEntityType(enumValue(pb.TypeGroupEntityType_value, "TYPE_GROUP_ENTITY_TYPE_", g.EntityType))}
}

// enumValues lists the short names of an enum's values ("product", "category", …).
func enumValues(e protoreflect.Enum) []string { return jsonpb.EnumValues(e.Descriptor()) }

// checkEnum checks an enum field and returns its short name ("" when missing or unknown): an
// unknown number (gRPC) is never accepted. A required one is given: a request rule.
func checkEnum(v apierr.Validator, field string, e protoreflect.Enum) string {
	name := crud.EnumName(e)
	if name == "" && e.Number() != 0 {
		v.Add(field, "%s", jsonpb.EnumError(e.Descriptor()))
	}
	return name
}

// checkOptEnum checks an optional enum field of an update (nil: not given).
func checkOptEnum[E protoreflect.Enum](v apierr.Validator, field string, e *E) *string {
	if e == nil {
		return nil
	}
	name := crud.EnumName(*e)
	if name == "" {
		v.Add(field, "%s", jsonpb.EnumError((*e).Descriptor()))
		return nil
	}
	return &name
}

// optEnumName is the short name of an optional enum (nil when not given).
func optEnumName[E protoreflect.Enum](e *E) *string {
	if e == nil {
		return nil
	}
	n := crud.EnumName(*e)
	return &n
}

// typeGroups is the type group family. Its entityType changes only while the group holds no input
// types: their values were entered for the old kind of entity.
var typeGroups = &crud.Family[db.TypeGroup, *pb.TypeGroup, *pb.TypeGroupCreate, *pb.TypeGroupUpdate]{
	Kind: "type group", Event: "type_group", IDKey: "typeGroupUuid", Unique: "code",
	ID:   func(g db.TypeGroup) uuid.UUID { return g.Uuid },
	ToPB: typeGroupToPB,
	CheckCreate: func(v apierr.Validator, c *pb.TypeGroupCreate) string {
		checkEnum(v, "entityType", c.GetEntityType())
		return c.GetCode()
	},
	Insert: func(ctx context.Context, t *crud.Tx, ids []uuid.UUID, items []*pb.TypeGroupCreate) ([]db.TypeGroup, error) {
		return t.Q.InsertTypeGroups(ctx, db.InsertTypeGroupsParams{TenantID: t.Tenant, Uuids: ids, Now: t.Now,
			Codes: mapSlice(items, (*pb.TypeGroupCreate).GetCode), DisplayNames: mapSlice(items, displayNameOrCode[*pb.TypeGroupCreate]),
			EntityTypes: mapSlice(items, func(c *pb.TypeGroupCreate) string { return crud.EnumName(c.GetEntityType()) })})
	},
	UpdateID: (*pb.TypeGroupUpdate).GetUuid,
	CheckUpdate: func(v apierr.Validator, u *pb.TypeGroupUpdate) {
		checkOptEnum(v, "entityType", u.EntityType)
	},
	UpdateOne: func(ctx context.Context, t *crud.Tx, id uuid.UUID, u *pb.TypeGroupUpdate) (db.TypeGroup, error) {
		return t.Q.UpdateTypeGroup(ctx, db.UpdateTypeGroupParams{TenantID: t.Tenant, Uuid: id, Code: optString(u, "code"),
			DisplayName: optString(u, "display_name"), Now: t.Now})
	},
	// The row still holds the old entityType here: a change is refused while input types use it.
	AfterUpdate: func(ctx context.Context, t *crud.Tx, g db.TypeGroup, u *pb.TypeGroupUpdate, field func(string) string) (db.TypeGroup, error) {
		to := optEnumName(u.EntityType)
		if to == nil || *to == g.EntityType {
			return g, nil
		}
		if err := t.Q.LockTypeGroup(ctx, db.LockTypeGroupParams{TenantID: t.Tenant, Uuid: g.Uuid}); err != nil {
			return g, err
		}
		used, err := t.Q.TypeGroupHasInputTypes(ctx, db.TypeGroupHasInputTypesParams{TenantID: t.Tenant, TypeGroupUuid: g.Uuid})
		if err != nil {
			return g, err
		}
		if used {
			return g, apierr.New(apierr.InUse, "type group %s holds input types: its entityType %s cannot change", g.Uuid, g.EntityType).
				WithField(field("entityType"), "cannot change while the type group holds input types").WithMeta("entityType", g.EntityType).
				WithMeta("referencedBy", []string{crud.ReferenceKind("input_types_type_group_fkey")})
		}
		return t.Q.SetTypeGroupEntityType(ctx, db.SetTypeGroupEntityTypeParams{TenantID: t.Tenant, Uuid: g.Uuid, EntityType: *to, Now: t.Now})
	},
	GetOne: func(ctx context.Context, q *db.Queries, tenant string, _ crud.Scope, id uuid.UUID) (db.TypeGroup, error) {
		return q.GetTypeGroup(ctx, db.GetTypeGroupParams{TenantID: tenant, Uuid: id})
	},
	DeleteOne: func(ctx context.Context, t *crud.Tx, id uuid.UUID) (int64, error) {
		return t.Q.DeleteTypeGroup(ctx, db.DeleteTypeGroupParams{TenantID: t.Tenant, Uuid: id})
	},
}

func (s *TypeGroupServer) ListTypeGroups(ctx context.Context, req *pb.ListTypeGroupsRequest) (*pb.ListTypeGroupsResponse, error) {
	rows, page, err := list.Run[db.TypeGroup](ctx, s.DB, TypeGroupList, reqctx.Tenant(ctx), req)
	if err != nil {
		return nil, err
	}
	return &pb.ListTypeGroupsResponse{Items: mapSlice(rows, typeGroupToPB), Pagination: page}, nil
}

func (s *TypeGroupServer) GetTypeGroup(ctx context.Context, req *pb.GetTypeGroupRequest) (*pb.GetTypeGroupResponse, error) {
	m, err := typeGroups.GetAt(ctx, s.DB, crud.Scope{}, req.TypeGroupUuid)
	return &pb.GetTypeGroupResponse{TypeGroup: m}, err
}

func (s *TypeGroupServer) CreateTypeGroup(ctx context.Context, req *pb.CreateTypeGroupRequest) (*pb.CreateTypeGroupResponse, error) {
	m, err := typeGroups.CreateOne(ctx, s.DB, crud.Scope{}, orNew(req.TypeGroup))
	return &pb.CreateTypeGroupResponse{TypeGroup: m}, err
}

func (s *TypeGroupServer) BulkCreateTypeGroups(ctx context.Context, req *pb.BulkCreateTypeGroupsRequest) (*pb.BulkCreateTypeGroupsResponse, error) {
	out, err := typeGroups.CreateMany(ctx, s.DB, crud.Scope{}, req.Items)
	return &pb.BulkCreateTypeGroupsResponse{Items: out}, err
}

func (s *TypeGroupServer) UpdateTypeGroup(ctx context.Context, req *pb.UpdateTypeGroupRequest) (*pb.UpdateTypeGroupResponse, error) {
	m, err := typeGroups.UpdateAt(ctx, s.DB, crud.Scope{}, req.TypeGroupUuid, req.TypeGroup)
	return &pb.UpdateTypeGroupResponse{TypeGroup: m}, err
}

func (s *TypeGroupServer) BulkUpdateTypeGroups(ctx context.Context, req *pb.BulkUpdateTypeGroupsRequest) (*pb.BulkUpdateTypeGroupsResponse, error) {
	out, err := typeGroups.UpdateMany(ctx, s.DB, crud.Scope{}, req.Items)
	return &pb.BulkUpdateTypeGroupsResponse{Items: out}, err
}

// DeleteTypeGroup deletes a type group permanently; one holding input types is 409 IN_USE.
func (s *TypeGroupServer) DeleteTypeGroup(ctx context.Context, req *pb.DeleteTypeGroupRequest) (*pb.DeleteTypeGroupResponse, error) {
	return &pb.DeleteTypeGroupResponse{}, typeGroups.Delete(ctx, s.DB, crud.Scope{}, req.TypeGroupUuid)
}
