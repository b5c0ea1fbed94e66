package catalog

import (
	"context"
	"errors"

	"github.com/google/uuid"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/crud"
	"github.com/catalogd/catalogd/server/fields"
	"github.com/catalogd/catalogd/server/list"
	"github.com/catalogd/catalogd/server/reqctx"
)

// Product input values: one JSON value per product, input type, channel (null: all channels) and
// locale (set iff the input type is localizable). The value is typed by the input type's dataType
// and checked against its constraints (ValidateInputValue) on create and on every update; only the
// value can change after creation.
//
// Variants inherit their parent's values for the (input type, channel, locale) keys they do not set
// themselves: the view product_effective_input_values holds, per product (owner_uuid), its own
// values and the inherited ones; the list reads it with include[inherited]=true (each item then
// carries inherited true or false), and effectiveInputValues serves readiness and the expanded GET.

// ProductInputValueList is the list spec of GET /v1/products/{productUuid}/input-values.
var ProductInputValueList = &list.Spec{
	Table: "product_input_values",
	Filters: map[string]list.Field{
		"uuids":          {Column: "uuid", Type: list.UUID},
		"inputTypeUuids": {Column: "input_type_uuid", Type: list.UUID},
		"channelUuids":   {Column: "channel_uuid", Type: list.UUID},
		"localeUuids":    {Column: "locale_uuid", Type: list.UUID},
		"createdAt":      {Column: "created_at", Type: list.Time},
		"updatedAt":      {Column: "updated_at", Type: list.Time},
	},
	Order: map[string]string{"createdAt": "created_at", "updatedAt": "updated_at"},
}

// productEffectiveInputValueList is the same list over own and inherited values (include[inherited]).
var productEffectiveInputValueList = func() *list.Spec {
	s := *ProductInputValueList
	s.Table = "product_effective_input_values"
	return &s
}()

// jsonValue reads a stored JSON value (null when it cannot be read, which the service never stores).
func jsonValue(raw []byte) *structpb.Value {
	v := &structpb.Value{}
	if err := protojson.Unmarshal(raw, v); err != nil {
		return structpb.NewNullValue()
	}
	return v
}

func productInputValueToPB(v db.ProductInputValue) *pb.ProductInputValue {
	return &pb.ProductInputValue{Uuid: v.Uuid.String(), CreatedAt: timestamppb.New(v.CreatedAt), UpdatedAt: timestamppb.New(v.UpdatedAt),
		ProductUuid: v.ProductUuid.String(), InputTypeUuid: v.InputTypeUuid.String(),
		ChannelUuid: optUUIDString(v.ChannelUuid), LocaleUuid: optUUIDString(v.LocaleUuid), Value: jsonValue(v.Value)}
}

func productEffectiveInputValueToPB(v db.ProductEffectiveInputValue) *pb.ProductInputValue {
	m := productInputValueToPB(db.ProductInputValue{TenantID: v.TenantID, Uuid: v.Uuid, ProductUuid: v.ProductUuid,
		InputTypeUuid: v.InputTypeUuid, ChannelUuid: v.ChannelUuid, LocaleUuid: v.LocaleUuid, Value: v.Value,
		CreatedAt: v.CreatedAt, UpdatedAt: v.UpdatedAt})
	m.Inherited = v.Inherited
	return m
}

// inputTypesByID reads the input types of ids in the caller's tenant.
func inputTypesByID(ctx context.Context, t *crud.Tx, ids []uuid.UUID) (map[uuid.UUID]db.InputType, error) {
	rows, err := t.Q.ListInputTypesOfValues(ctx, db.ListInputTypesOfValuesParams{TenantID: t.Tenant, Uuids: ids})
	if err != nil {
		return nil, err
	}
	out := make(map[uuid.UUID]db.InputType, len(rows))
	for _, r := range rows {
		out[r.Uuid] = r
	}
	return out, nil
}

// checkInputValue checks value against its input type (400 naming field, the value's field, with
// the broken constraint) and returns it in the form stored (storedInputValue: a decimal sent as a
// JSON number becomes its string).
func checkInputValue(it db.InputType, value *structpb.Value, field string) (*structpb.Value, error) {
	err := ValidateInputValue(it.DataType, inputTypeConstraints(it), value)
	var ive *InputValueError
	if errors.As(err, &ive) {
		return nil, ive.Problem(field)
	} else if err != nil {
		return nil, err
	}
	return storedInputValue(it.DataType, value), nil
}

// productInputValues is the family of a product's input values (events product.input_value.*).
var productInputValues = &crud.Family[db.ProductInputValue, *pb.ProductInputValue, *pb.ProductInputValueCreate, *pb.ProductInputValueUpdate]{
	Kind: "product input value", Event: "product.input_value", IDKey: "inputValueUuid", Unique: "inputTypeUuid", Across: true,
	References: map[string]string{
		"product_input_values_input_type_fkey": "inputTypeUuid",
		"product_input_values_channel_fkey":    "channelUuid",
		"product_input_values_locale_fkey":     "localeUuid",
	},
	ID:   func(v db.ProductInputValue) uuid.UUID { return v.Uuid },
	ToPB: productInputValueToPB,
	CheckCreate: func(v apierr.Validator, c *pb.ProductInputValueCreate) string {
		checkValueSize(v, "value", c.GetValue())
		return c.GetInputTypeUuid()
	},
	// The input type, channel and locale must exist in the tenant (404 naming them); then the locale
	// must match the input type's isLocalizable and the value its dataType and constraints (400).
	Insert: func(ctx context.Context, t *crud.Tx, ids []uuid.UUID, items []*pb.ProductInputValueCreate) ([]db.ProductInputValue, error) {
		n := len(items)
		p := db.InsertProductInputValuesParams{TenantID: t.Tenant, ProductUuids: make([]uuid.UUID, n), Uuids: ids, Now: t.Now,
			InputTypeUuids: make([]uuid.UUID, n), ChannelUuids: make([]uuid.UUID, n), LocaleUuids: make([]uuid.UUID, n), Vals: make([]string, n)}
		its, channels, locales := make([]*uuid.UUID, n), make([]*uuid.UUID, n), make([]*uuid.UUID, n)
		for i, c := range items {
			p.ProductUuids[i] = t.ItemScope(i).Parent
			p.InputTypeUuids[i] = uuid.MustParse(c.GetInputTypeUuid())
			its[i] = &p.InputTypeUuids[i]
			channels[i], locales[i] = optUUID(c, "channel_uuid"), optUUID(c, "locale_uuid")
		}
		for _, ref := range []struct {
			table, field string
			ids          []*uuid.UUID
		}{{"input_types", "inputTypeUuid", its}, {"channels", "channelUuid", channels}, {"locales", "localeUuid", locales}} {
			if err := crud.RequireExisting(ctx, t, ref.table, ref.field, ref.ids); err != nil {
				return nil, err
			}
		}
		types, err := inputTypesByID(ctx, t, p.InputTypeUuids)
		if err != nil {
			return nil, err
		}
		for i, c := range items {
			if err := ctx.Err(); err != nil {
				return nil, err // the client left: stop checking values
			}
			it := types[p.InputTypeUuids[i]]
			switch loc := crud.FieldName("localeUuid", i, t.Single); {
			case it.IsLocalizable && locales[i] == nil:
				return nil, invalid(loc, "is required: input type %s is localizable", it.Code)
			case !it.IsLocalizable && locales[i] != nil:
				return nil, invalid(loc, "must be null: input type %s is not localizable", it.Code)
			}
			value, err := checkInputValue(it, c.GetValue(), crud.FieldName("value", i, t.Single))
			if err != nil {
				return nil, err
			}
			if channels[i] != nil {
				p.ChannelUuids[i] = *channels[i]
			}
			if locales[i] != nil {
				p.LocaleUuids[i] = *locales[i]
			}
			raw, err := protojson.Marshal(value)
			if err != nil {
				return nil, err
			}
			p.Vals[i] = string(raw)
		}
		return t.Q.InsertProductInputValues(ctx, p)
	},
	UpdateID: (*pb.ProductInputValueUpdate).GetUuid,
	CheckUpdate: func(v apierr.Validator, u *pb.ProductInputValueUpdate) {
		if fields.NewMask(u.GetUpdateMask()).Clears("value", u.GetValue() != nil) {
			v.Add("value", "must not be null")
		}
		checkValueSize(v, "value", u.GetValue())
	},
	UpdateOne: func(ctx context.Context, t *crud.Tx, id uuid.UUID, u *pb.ProductInputValueUpdate) (db.ProductInputValue, error) {
		var raw *string
		if u.GetValue() != nil {
			b, err := protojson.Marshal(u.GetValue())
			if err != nil {
				return db.ProductInputValue{}, err
			}
			s := string(b)
			raw = &s
		}
		return t.Q.UpdateProductInputValue(ctx, db.UpdateProductInputValueParams{TenantID: t.Tenant, ProductUuid: t.Scope.Parent, Uuid: id, Value: raw, Now: t.Now})
	},
	// The new value is checked against the input type (400 naming value, the update rolls back).
	// A decimal sent as a JSON number, written as given by UpdateOne (which does not know the input
	// type), is written again as its string.
	AfterUpdate: func(ctx context.Context, t *crud.Tx, r db.ProductInputValue, u *pb.ProductInputValueUpdate, field func(string) string) (db.ProductInputValue, error) {
		if u.GetValue() == nil {
			return r, nil
		}
		types, err := inputTypesByID(ctx, t, []uuid.UUID{r.InputTypeUuid})
		if err != nil {
			return r, err
		}
		value, err := checkInputValue(types[r.InputTypeUuid], u.GetValue(), field("value"))
		if err != nil || value == u.GetValue() {
			return r, err
		}
		b, err := protojson.Marshal(value)
		if err != nil {
			return r, err
		}
		raw := string(b)
		return t.Q.UpdateProductInputValue(ctx, db.UpdateProductInputValueParams{TenantID: t.Tenant, ProductUuid: t.Scope.Parent, Uuid: r.Uuid, Value: &raw, Now: t.Now})
	},
	GetOne: func(ctx context.Context, q *db.Queries, tenant string, s crud.Scope, id uuid.UUID) (db.ProductInputValue, error) {
		return q.GetProductInputValue(ctx, db.GetProductInputValueParams{TenantID: tenant, ProductUuid: s.Parent, Uuid: id})
	},
	DeleteOne: func(ctx context.Context, t *crud.Tx, id uuid.UUID) (int64, error) {
		return t.Q.DeleteProductInputValue(ctx, db.DeleteProductInputValueParams{TenantID: t.Tenant, ProductUuid: t.Scope.Parent, Uuid: id})
	},
}

// ProductInputValueServer implements catalog.v1.ProductInputValueService.
type ProductInputValueServer struct {
	pb.UnimplementedProductInputValueServiceServer
	*Service
}

// ListProductInputValues lists the product's values; with include[inherited]=true also a variant's
// inherited values (each item then tells inherited true or false).
func (s *ProductInputValueServer) ListProductInputValues(ctx context.Context, req *pb.ListProductInputValuesRequest) (*pb.ListProductInputValuesResponse, error) {
	sc := s.productScope(ctx, req.ProductUuid)
	if sc.Err != nil {
		return nil, sc.Err
	}
	if req.GetInclude().GetInherited() {
		rows, page, err := list.Run[db.ProductEffectiveInputValue](ctx, s.DB, productEffectiveInputValueList, reqctx.Tenant(ctx), req, list.Eq("owner_uuid", sc.Parent))
		if err != nil {
			return nil, err
		}
		return &pb.ListProductInputValuesResponse{Items: mapSlice(rows, productEffectiveInputValueToPB), Pagination: page}, nil
	}
	out, page, err := listAs(ctx, s.Service, ProductInputValueList, req, productInputValueToPB, list.Eq("product_uuid", sc.Parent))
	return &pb.ListProductInputValuesResponse{Items: out, Pagination: page}, err
}

// CreateProductInputValue sets a value of an input type on the product.
func (s *ProductInputValueServer) CreateProductInputValue(ctx context.Context, req *pb.CreateProductInputValueRequest) (*pb.CreateProductInputValueResponse, error) {
	m, err := productInputValues.CreateOne(ctx, s.DB, s.productScope(ctx, req.ProductUuid), orNew(req.ProductInputValue))
	return &pb.CreateProductInputValueResponse{ProductInputValue: m}, err
}

func (s *ProductInputValueServer) BulkCreateProductInputValues(ctx context.Context, req *pb.BulkCreateProductInputValuesRequest) (*pb.BulkCreateProductInputValuesResponse, error) {
	out, err := productInputValues.CreateMany(ctx, s.DB, s.productScope(ctx, req.ProductUuid), req.Items)
	return &pb.BulkCreateProductInputValuesResponse{Items: out}, err
}

func (s *ProductInputValueServer) GetProductInputValue(ctx context.Context, req *pb.GetProductInputValueRequest) (*pb.GetProductInputValueResponse, error) {
	m, err := productInputValues.GetAt(ctx, s.DB, s.productScope(ctx, req.ProductUuid), req.InputValueUuid)
	return &pb.GetProductInputValueResponse{ProductInputValue: m}, err
}

func (s *ProductInputValueServer) UpdateProductInputValue(ctx context.Context, req *pb.UpdateProductInputValueRequest) (*pb.UpdateProductInputValueResponse, error) {
	m, err := productInputValues.UpdateAt(ctx, s.DB, s.productScope(ctx, req.ProductUuid), req.InputValueUuid, req.ProductInputValue)
	return &pb.UpdateProductInputValueResponse{ProductInputValue: m}, err
}

func (s *ProductInputValueServer) BulkUpdateProductInputValues(ctx context.Context, req *pb.BulkUpdateProductInputValuesRequest) (*pb.BulkUpdateProductInputValuesResponse, error) {
	out, err := productInputValues.UpdateMany(ctx, s.DB, s.productScope(ctx, req.ProductUuid), req.Items)
	return &pb.BulkUpdateProductInputValuesResponse{Items: out}, err
}

func (s *ProductInputValueServer) DeleteProductInputValue(ctx context.Context, req *pb.DeleteProductInputValueRequest) (*pb.DeleteProductInputValueResponse, error) {
	return &pb.DeleteProductInputValueResponse{}, productInputValues.Delete(ctx, s.DB, s.productScope(ctx, req.ProductUuid), req.InputValueUuid)
}
