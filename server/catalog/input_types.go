package catalog

import (
	"context"

	"github.com/google/uuid"
	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/crud"
	"github.com/catalogd/catalogd/server/fields"
	"github.com/catalogd/catalogd/server/list"
	"github.com/catalogd/catalogd/server/reqctx"
)

// InputTypeServer implements catalog.v1.InputTypeService.
type InputTypeServer struct {
	pb.UnimplementedInputTypeServiceServer
	*Service
}

// InputTypeList is the list spec of GET /v1/input-types.
var InputTypeList = &list.Spec{
	Table: "input_types",
	Filters: list.CodeNameFilters(map[string]list.Field{
		"typeGroupUuids": {Column: "type_group_uuid", Type: list.UUID},
		"dataTypes":      {Column: "data_type", Type: list.Enum, Values: enumValues(pb.InputTypeDataType(0))},
		"isLocalizable":  {Column: "is_localizable", Type: list.Bool},
	}),
	Order: list.CodeNameOrder(map[string]string{"dataType": "data_type", "isLocalizable": "is_localizable"}),
}

func inputTypeToPB(it db.InputType) *pb.InputType {
	return &pb.InputType{Uuid: it.Uuid.String(), CreatedAt: timestamppb.New(it.CreatedAt), UpdatedAt: timestamppb.New(it.UpdatedAt),
		TypeGroupUuid: it.TypeGroupUuid.String(), Code: it.Code, DisplayName: it.DisplayName,
		DataType:      pb.InputTypeDataType(enumValue(pb.InputTypeDataType_value, "INPUT_TYPE_DATA_TYPE_", it.DataType)),
		IsLocalizable: it.IsLocalizable, Constraints: parseInputConstraints(it.Constraints).toPB()}
}

// inputTypeConstraints are the constraints of a stored input type, as ValidateInputValue takes them.
func inputTypeConstraints(it db.InputType) *pb.InputTypeConstraints {
	return parseInputConstraints(it.Constraints).toPB()
}

// inputTypes is the input type family. dataType is fixed after creation (values and the min/max
// constraints are written in its form); constraints are checked against it, on create and on
// every update, and changed as a JSON merge patch.
var inputTypes = &crud.Family[db.InputType, *pb.InputType, *pb.InputTypeCreate, *pb.InputTypeUpdate]{
	Kind: "input type", Event: "input_type", IDKey: "inputTypeUuid", Unique: "code",
	References: map[string]string{"input_types_type_group_fkey": "typeGroupUuid"},
	ID:         func(it db.InputType) uuid.UUID { return it.Uuid },
	ToPB:       inputTypeToPB,
	CheckCreate: func(v apierr.Validator, c *pb.InputTypeCreate) string {
		dt := checkEnum(v, "dataType", c.GetDataType())
		checkConstraints(v.Add, dt, constraintsFromPB(c.GetConstraints()))
		return c.GetCode()
	},
	Insert: func(ctx context.Context, t *crud.Tx, ids []uuid.UUID, items []*pb.InputTypeCreate) ([]db.InputType, error) {
		groups := make([]*uuid.UUID, len(items))
		p := db.InsertInputTypesParams{TenantID: t.Tenant, Uuids: ids, Now: t.Now,
			TypeGroupUuids: make([]uuid.UUID, len(items)),
			Codes:          mapSlice(items, (*pb.InputTypeCreate).GetCode),
			DisplayNames:   mapSlice(items, displayNameOrCode[*pb.InputTypeCreate]),
			DataTypes:      mapSlice(items, func(c *pb.InputTypeCreate) string { return crud.EnumName(c.GetDataType()) }),
			IsLocalizables: mapSlice(items, (*pb.InputTypeCreate).GetIsLocalizable),
			Constraints:    mapSlice(items, func(c *pb.InputTypeCreate) string { return constraintsFromPB(c.GetConstraints()).json() }),
		}
		for i, c := range items {
			p.TypeGroupUuids[i] = uuid.MustParse(c.GetTypeGroupUuid())
			groups[i] = &p.TypeGroupUuids[i]
		}
		if err := crud.RequireExisting(ctx, t, "type_groups", "typeGroupUuid", groups); err != nil {
			return nil, err
		}
		return t.Q.InsertInputTypes(ctx, p)
	},
	UpdateID: (*pb.InputTypeUpdate).GetUuid,
	CheckUpdate: func(v apierr.Validator, u *pb.InputTypeUpdate) {
		checkOptEnum(v, "dataType", u.DataType)
	},
	UpdateOne: func(ctx context.Context, t *crud.Tx, id uuid.UUID, u *pb.InputTypeUpdate) (db.InputType, error) {
		var group *uuid.UUID
		if g := optString(u, "type_group_uuid"); g != nil {
			x := uuid.MustParse(*g)
			group = &x
		}
		return t.Q.UpdateInputType(ctx, db.UpdateInputTypeParams{TenantID: t.Tenant, Uuid: id, TypeGroupUuid: group,
			Code: optString(u, "code"), DisplayName: optString(u, "display_name"), IsLocalizable: u.IsLocalizable, Now: t.Now})
	},
	// dataType and constraints, which are judged against the stored data type.
	AfterUpdate: func(ctx context.Context, t *crud.Tx, it db.InputType, u *pb.InputTypeUpdate, field func(string) string) (db.InputType, error) {
		if dt := optEnumName(u.DataType); dt != nil && *dt != it.DataType {
			return it, apierr.Field(field("dataType"), "is fixed after creation (it is "+it.DataType+"); create another input type for another data type")
		}
		clear := fields.NewMask(u.UpdateMask).Clears("constraints", u.Constraints != nil)
		if u.Constraints == nil && !clear {
			return it, nil
		}
		var c inputConstraints
		if !clear {
			c = parseInputConstraints(it.Constraints).merge(u.Constraints)
		}
		v := apierr.NewValidator()
		checkConstraints(func(f, format string, args ...any) { v.Add(field(f), format, args...) }, it.DataType, c)
		if err := v.Err(); err != nil {
			return it, err
		}
		return t.Q.SetInputTypeConstraints(ctx, db.SetInputTypeConstraintsParams{TenantID: t.Tenant, Uuid: it.Uuid, Constraints: c.json(), Now: t.Now})
	},
	GetOne: func(ctx context.Context, q *db.Queries, tenant string, _ crud.Scope, id uuid.UUID) (db.InputType, error) {
		return q.GetInputType(ctx, db.GetInputTypeParams{TenantID: tenant, Uuid: id})
	},
	DeleteOne: func(ctx context.Context, t *crud.Tx, id uuid.UUID) (int64, error) {
		return t.Q.DeleteInputType(ctx, db.DeleteInputTypeParams{TenantID: t.Tenant, Uuid: id})
	},
}

func (s *InputTypeServer) ListInputTypes(ctx context.Context, req *pb.ListInputTypesRequest) (*pb.ListInputTypesResponse, error) {
	rows, page, err := list.Run[db.InputType](ctx, s.DB, InputTypeList, reqctx.Tenant(ctx), req)
	if err != nil {
		return nil, err
	}
	return &pb.ListInputTypesResponse{Items: mapSlice(rows, inputTypeToPB), Pagination: page}, nil
}

func (s *InputTypeServer) GetInputType(ctx context.Context, req *pb.GetInputTypeRequest) (*pb.GetInputTypeResponse, error) {
	m, err := inputTypes.GetAt(ctx, s.DB, crud.Scope{}, req.InputTypeUuid)
	return &pb.GetInputTypeResponse{InputType: m}, err
}

func (s *InputTypeServer) CreateInputType(ctx context.Context, req *pb.CreateInputTypeRequest) (*pb.CreateInputTypeResponse, error) {
	m, err := inputTypes.CreateOne(ctx, s.DB, crud.Scope{}, orNew(req.InputType))
	return &pb.CreateInputTypeResponse{InputType: m}, err
}

func (s *InputTypeServer) BulkCreateInputTypes(ctx context.Context, req *pb.BulkCreateInputTypesRequest) (*pb.BulkCreateInputTypesResponse, error) {
	out, err := inputTypes.CreateMany(ctx, s.DB, crud.Scope{}, req.Items)
	return &pb.BulkCreateInputTypesResponse{Items: out}, err
}

func (s *InputTypeServer) UpdateInputType(ctx context.Context, req *pb.UpdateInputTypeRequest) (*pb.UpdateInputTypeResponse, error) {
	m, err := inputTypes.UpdateAt(ctx, s.DB, crud.Scope{}, req.InputTypeUuid, req.InputType)
	return &pb.UpdateInputTypeResponse{InputType: m}, err
}

func (s *InputTypeServer) BulkUpdateInputTypes(ctx context.Context, req *pb.BulkUpdateInputTypesRequest) (*pb.BulkUpdateInputTypesResponse, error) {
	out, err := inputTypes.UpdateMany(ctx, s.DB, crud.Scope{}, req.Items)
	return &pb.BulkUpdateInputTypesResponse{Items: out}, err
}

// DeleteInputType deletes an input type permanently; one a channel asks for is 409 IN_USE.
func (s *InputTypeServer) DeleteInputType(ctx context.Context, req *pb.DeleteInputTypeRequest) (*pb.DeleteInputTypeResponse, error) {
	return &pb.DeleteInputTypeResponse{}, inputTypes.Delete(ctx, s.DB, crud.Scope{}, req.InputTypeUuid)
}
