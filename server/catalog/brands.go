package catalog

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/crud"
	"github.com/catalogd/catalogd/server/list"
	"github.com/catalogd/catalogd/server/reqctx"
)

// Brands, and tags (tags.go), are the same kind of family: a code/displayName resource with
// localized contents. This file holds, in order:
//   - the brand family, which only names its kind, table, sqlc queries, messages and services;
//   - codeNameFamily, that kind of family written once over any sqlc table of the codeNameRow
//     shape, with the code/displayName checks every such family uses (also product asset types
//     and product relation types);
//   - the typed gRPC methods of BrandService and BrandContentService, one line each over the family.

// Parent kind of brand contents in the contents table.
const kindBrand = "brand"

// brands is the brand family (events brand.*, payload brandUuid) and its contents (brand.content.*,
// brandUuid and brandContentUuid).
var brands = newCodeNameFamily[*pb.Brand, *pb.BrandCreate, *pb.BrandUpdate, *pb.BrandContent, *pb.BrandContentCreate, *pb.BrandContentUpdate](
	kindBrand, "brands", codeNameTable((*db.Queries).InsertBrands, (*db.Queries).UpdateBrand, (*db.Queries).GetBrand, (*db.Queries).DeleteBrand))

// BrandList is the list spec of GET /v1/brands.
var BrandList = brands.spec

// --- Code/displayName families ---

// codeNameCreate and codeNameUpdate are what the create and update bodies of a code/displayName
// family offer: code and display_name (optional on create, both optional on update).
type codeNameCreate interface {
	proto.Message
	GetCode() string
}

type codeNameUpdate interface {
	proto.Message
	GetUuid() string
}

// codeOf is a create body's code, for conflict messages. Its rules and displayName's (1 to 100
// characters, code required) are the request rules in proto, checked before the RPC runs.
func codeOf(c codeNameCreate) string { return c.GetCode() }

// tenantKeyParams is the parameter shape of sqlc's "by tenant and uuid" queries (get, delete).
type tenantKeyParams = struct {
	TenantID string    `db:"tenant_id"`
	Uuid     uuid.UUID `db:"uuid"`
}

// getByKey adapts a sqlc get-by-key query (e.g. (*db.Queries).GetTag) to crud.Family.GetOne.
func getByKey[R any, P ~tenantKeyParams](get func(*db.Queries, context.Context, P) (R, error)) func(context.Context, *db.Queries, string, crud.Scope, uuid.UUID) (R, error) {
	return func(ctx context.Context, q *db.Queries, tenant string, _ crud.Scope, id uuid.UUID) (R, error) {
		return get(q, ctx, P{TenantID: tenant, Uuid: id})
	}
}

// deleteByKey adapts a sqlc delete-by-key query to crud.Family.DeleteOne.
func deleteByKey[P ~tenantKeyParams](del func(*db.Queries, context.Context, P) (int64, error)) func(context.Context, *crud.Tx, uuid.UUID) (int64, error) {
	return func(ctx context.Context, t *crud.Tx, id uuid.UUID) (int64, error) {
		return del(t.Q, ctx, P{TenantID: t.Tenant, Uuid: id})
	}
}

// codeNameRow is the row shape of a code/displayName table; codeNameInsert and codeNameChange are
// the parameter shapes of its insert and update queries (db/queries/brands.sql, tags.sql). sqlc
// makes one named type per table and query; codeNameTable accepts any with exactly these shapes.
type codeNameRow = struct {
	TenantID    string    `db:"tenant_id"`
	Uuid        uuid.UUID `db:"uuid"`
	Code        string    `db:"code"`
	DisplayName string    `db:"display_name"`
	CreatedAt   time.Time `db:"created_at"`
	UpdatedAt   time.Time `db:"updated_at"`
}

type codeNameInsert = struct {
	TenantID     string      `db:"tenant_id"`
	Uuids        []uuid.UUID `db:"uuids"`
	Codes        []string    `db:"codes"`
	DisplayNames []string    `db:"display_names"`
	Now          time.Time   `db:"now"`
}

type codeNameChange = struct {
	Code        *string   `db:"code"`
	DisplayName *string   `db:"display_name"`
	Now         time.Time `db:"now"`
	TenantID    string    `db:"tenant_id"`
	Uuid        uuid.UUID `db:"uuid"`
}

// codeNameQueries are one table's queries over the shared shapes.
type codeNameQueries struct {
	insert func(context.Context, *db.Queries, codeNameInsert) ([]codeNameRow, error)
	update func(context.Context, *db.Queries, codeNameChange) (codeNameRow, error)
	get    func(context.Context, *db.Queries, string, crud.Scope, uuid.UUID) (codeNameRow, error)
	delete func(context.Context, *crud.Tx, uuid.UUID) (int64, error)
}

// codeNameTable takes a table's sqlc queries (method expressions such as (*db.Queries).InsertTags)
// and serves them over the shared shapes.
func codeNameTable[R ~codeNameRow, I ~codeNameInsert, C ~codeNameChange, G, D ~tenantKeyParams](
	insert func(*db.Queries, context.Context, I) ([]R, error), update func(*db.Queries, context.Context, C) (R, error),
	get func(*db.Queries, context.Context, G) (R, error), del func(*db.Queries, context.Context, D) (int64, error),
) codeNameQueries {
	row := func(r R) codeNameRow { return codeNameRow(r) }
	getRow := getByKey(get)
	return codeNameQueries{
		insert: func(ctx context.Context, q *db.Queries, p codeNameInsert) ([]codeNameRow, error) {
			rows, err := insert(q, ctx, I(p))
			return mapSlice(rows, row), err
		},
		update: func(ctx context.Context, q *db.Queries, p codeNameChange) (codeNameRow, error) {
			r, err := update(q, ctx, C(p))
			return row(r), err
		},
		get: func(ctx context.Context, q *db.Queries, tenant string, s crud.Scope, id uuid.UUID) (codeNameRow, error) {
			r, err := getRow(ctx, q, tenant, s, id)
			return row(r), err
		},
		delete: deleteByKey(del),
	}
}

// contentsFlag is an include[contents] / expand[contents] request field.
type contentsFlag interface{ GetContents() bool }

// codeNameFamily is a code/displayName family with localized contents: M is its message (with
// content_uuids and contents fields), C and U its create and update bodies, CM, CC and CU those of
// its contents. The embedded crud.Family serves create, update, get and delete; the methods below
// add the hydrated list and get and the contents' parent scope.
type codeNameFamily[M proto.Message, C codeNameCreate, U codeNameUpdate, CM proto.Message, CC contentCreate, CU contentUpdate] struct {
	*crud.Family[codeNameRow, M, C, U]
	contents *crud.Family[db.Content, CM, CC, CU]
	spec     *list.Spec
	kind     string
}

// newCodeNameFamily declares the family of kind ("brand": events brand.* and brand.content.*,
// path parameters brandUuid and brandContentUuid, contents' parent field brand_uuid) on table.
// The message conversions are tried once here, so a message that lacks a field fails at start-up.
func newCodeNameFamily[M proto.Message, C codeNameCreate, U codeNameUpdate, CM proto.Message, CC contentCreate, CU contentUpdate](
	kind, table string, q codeNameQueries,
) *codeNameFamily[M, C, U, CM, CC, CU] {
	contentToPB := contentToPBAs[CM](protoreflect.Name(kind + "_uuid"))
	codeNameToPB[M](codeNameRow{})
	contentToPB(db.Content{})
	return &codeNameFamily[M, C, U, CM, CC, CU]{
		kind:     kind,
		spec:     &list.Spec{Table: table, Filters: list.CodeNameFilters(nil), Order: list.CodeNameOrder(nil)},
		contents: contentFamily[CM, CC, CU](kind, kind+".content", kind+"ContentUuid", contentToPB),
		Family: &crud.Family[codeNameRow, M, C, U]{
			Kind: kind, Event: kind, IDKey: kind + "Uuid", Unique: "code",
			ID:          func(r codeNameRow) uuid.UUID { return r.Uuid },
			ToPB:        codeNameToPB[M],
			CheckCreate: func(_ apierr.Validator, c C) string { return codeOf(c) },
			Insert: func(ctx context.Context, t *crud.Tx, ids []uuid.UUID, items []C) ([]codeNameRow, error) {
				return q.insert(ctx, t.Q, codeNameInsert{TenantID: t.Tenant, Uuids: ids, Now: t.Now,
					Codes: mapSlice(items, C.GetCode), DisplayNames: mapSlice(items, displayNameOrCode[C])})
			},
			UpdateID: U.GetUuid,
			UpdateOne: func(ctx context.Context, t *crud.Tx, id uuid.UUID, u U) (codeNameRow, error) {
				return q.update(ctx, t.Q, codeNameChange{TenantID: t.Tenant, Uuid: id, Now: t.Now,
					Code: optString(u, "code"), DisplayName: optString(u, "display_name")})
			},
			GetOne:    q.get,
			DeleteOne: q.delete,
		},
	}
}

// listHydrated lists the family with its filters, filling contentUuids / contents when asked.
func (f *codeNameFamily[M, C, U, CM, CC, CU]) listHydrated(ctx context.Context, s *Service, req proto.Message, inc, exp contentsFlag) ([]M, *pb.Pagination, error) {
	tenant := reqctx.Tenant(ctx)
	rows, page, err := list.Run[codeNameRow](ctx, s.DB, f.spec, tenant, req)
	if err != nil {
		return nil, nil, err
	}
	out := mapSlice(rows, f.ToPB)
	return out, page, f.hydrate(ctx, s, tenant, out, mapSlice(rows, f.ID), inc, exp)
}

// getHydrated reads one item by its path parameter, filling contentUuids / contents when asked.
func (f *codeNameFamily[M, C, U, CM, CC, CU]) getHydrated(ctx context.Context, s *Service, raw string, inc, exp contentsFlag) (M, error) {
	r, err := f.Get(ctx, s.DB, crud.Scope{}, raw)
	if err != nil {
		var zero M
		return zero, err
	}
	out := []M{f.ToPB(r)}
	return out[0], f.hydrate(ctx, s, r.TenantID, out, []uuid.UUID{r.Uuid}, inc, exp)
}

// hydrate sets the content_uuids (include) and contents (expand) fields of out, whose items are
// the rows ids; both stay null unless asked for, and are empty lists for an item without contents.
func (f *codeNameFamily[M, C, U, CM, CC, CU]) hydrate(ctx context.Context, s *Service, tenant string, out []M, ids []uuid.UUID, inc, exp contentsFlag) error {
	return hydrateContents(ctx, s.DB.Q, tenant, f.kind, out, ids, inc.GetContents(), exp.GetContents(),
		func(m M, u *pb.UuidList) {
			r := m.ProtoReflect()
			r.Set(r.Descriptor().Fields().ByName("content_uuids"), protoreflect.ValueOfMessage(u.ProtoReflect()))
		},
		func(m M, cs []db.Content) {
			r := m.ProtoReflect()
			l := r.Mutable(r.Descriptor().Fields().ByName("contents")).Message()
			items := l.Mutable(l.Descriptor().Fields().ByName("items")).List()
			for _, c := range cs {
				items.Append(protoreflect.ValueOfMessage(f.contents.ToPB(c).ProtoReflect()))
			}
		})
}

// scope resolves the parent path parameter of the contents (404 when the item does not exist in
// the tenant).
func (f *codeNameFamily[M, C, U, CM, CC, CU]) scope(ctx context.Context, s *Service, raw string) crud.Scope {
	r, err := f.Get(ctx, s.DB, crud.Scope{}, raw)
	if err != nil {
		return crud.Scope{Err: err}
	}
	return crud.Scope{Parent: r.Uuid, Keys: []string{f.IDKey, r.Uuid.String()}}
}

// listContents lists the contents of the item of path parameter raw.
func (f *codeNameFamily[M, C, U, CM, CC, CU]) listContents(ctx context.Context, s *Service, raw string, req proto.Message) ([]CM, *pb.Pagination, error) {
	return listContentsAs(ctx, s, f.kind, f.scope(ctx, s, raw), req, f.contents.ToPB)
}

// codeNameToPB converts a row into M by field name (uuid, created_at, updated_at, code,
// display_name): brands and tags are distinct message types of one shape.
func codeNameToPB[M proto.Message](r codeNameRow) M {
	m, set := newMessageOf[M]()
	set("uuid", protoreflect.ValueOfString(r.Uuid.String()))
	set("created_at", timestampValue(r.CreatedAt))
	set("updated_at", timestampValue(r.UpdatedAt))
	set("code", protoreflect.ValueOfString(r.Code))
	set("display_name", protoreflect.ValueOfString(r.DisplayName))
	return m
}

// contentToPBAs converts a content row into the content message CM whose parent uuid field is
// parentField ("brand_uuid"); description stays unset (null) when the row has none.
func contentToPBAs[CM proto.Message](parentField protoreflect.Name) func(db.Content) CM {
	return func(c db.Content) CM {
		m, set := newMessageOf[CM]()
		set("uuid", protoreflect.ValueOfString(c.Uuid.String()))
		set("created_at", timestampValue(c.CreatedAt))
		set("updated_at", timestampValue(c.UpdatedAt))
		set(parentField, protoreflect.ValueOfString(c.ParentUuid.String()))
		set("locale_uuid", protoreflect.ValueOfString(c.LocaleUuid.String()))
		set("display_name", protoreflect.ValueOfString(c.DisplayName))
		if c.Description != nil {
			set("description", protoreflect.ValueOfString(*c.Description))
		}
		return m
	}
}

// newMessageOf makes an empty M and a setter of its fields by proto name.
func newMessageOf[M proto.Message]() (M, func(protoreflect.Name, protoreflect.Value)) {
	var zero M
	r := zero.ProtoReflect().Type().New()
	return r.Interface().(M), func(name protoreflect.Name, v protoreflect.Value) { r.Set(fieldNamed(r, name), v) }
}

func timestampValue(t time.Time) protoreflect.Value {
	return protoreflect.ValueOfMessage(timestamppb.New(t).ProtoReflect())
}

// fieldNamed is m's field name; a message without it is a programming error, found at start-up.
func fieldNamed(m protoreflect.Message, name protoreflect.Name) protoreflect.FieldDescriptor {
	fd := m.Descriptor().Fields().ByName(name)
	if fd == nil {
		panic(fmt.Sprintf("catalog: %s has no field %s", m.Descriptor().FullName(), name))
	}
	return fd
}

// BrandServer implements catalog.v1.BrandService.
type BrandServer struct {
	pb.UnimplementedBrandServiceServer
	*Service
}

func (s *BrandServer) ListBrands(ctx context.Context, req *pb.ListBrandsRequest) (*pb.ListBrandsResponse, error) {
	out, page, err := brands.listHydrated(ctx, s.Service, req, req.Include, req.Expand)
	return &pb.ListBrandsResponse{Items: out, Pagination: page}, err
}

func (s *BrandServer) CreateBrand(ctx context.Context, req *pb.CreateBrandRequest) (*pb.CreateBrandResponse, error) {
	m, err := brands.CreateOne(ctx, s.DB, crud.Scope{}, req.Brand)
	return &pb.CreateBrandResponse{Brand: m}, err
}

func (s *BrandServer) BulkCreateBrands(ctx context.Context, req *pb.BulkCreateBrandsRequest) (*pb.BulkCreateBrandsResponse, error) {
	out, err := brands.CreateMany(ctx, s.DB, crud.Scope{}, req.Items)
	return &pb.BulkCreateBrandsResponse{Items: out}, err
}

func (s *BrandServer) GetBrand(ctx context.Context, req *pb.GetBrandRequest) (*pb.GetBrandResponse, error) {
	m, err := brands.getHydrated(ctx, s.Service, req.BrandUuid, req.Include, req.Expand)
	return &pb.GetBrandResponse{Brand: m}, err
}

func (s *BrandServer) UpdateBrand(ctx context.Context, req *pb.UpdateBrandRequest) (*pb.UpdateBrandResponse, error) {
	m, err := brands.UpdateAt(ctx, s.DB, crud.Scope{}, req.BrandUuid, req.Brand)
	return &pb.UpdateBrandResponse{Brand: m}, err
}

func (s *BrandServer) BulkUpdateBrands(ctx context.Context, req *pb.BulkUpdateBrandsRequest) (*pb.BulkUpdateBrandsResponse, error) {
	out, err := brands.UpdateMany(ctx, s.DB, crud.Scope{}, req.Items)
	return &pb.BulkUpdateBrandsResponse{Items: out}, err
}

func (s *BrandServer) DeleteBrand(ctx context.Context, req *pb.DeleteBrandRequest) (*pb.DeleteBrandResponse, error) {
	return &pb.DeleteBrandResponse{}, brands.Delete(ctx, s.DB, crud.Scope{}, req.BrandUuid)
}

// BrandContentServer implements catalog.v1.BrandContentService on the shared contents.
type BrandContentServer struct {
	pb.UnimplementedBrandContentServiceServer
	*Service
}

func (s *BrandContentServer) ListBrandContents(ctx context.Context, req *pb.ListBrandContentsRequest) (*pb.ListBrandContentsResponse, error) {
	out, page, err := brands.listContents(ctx, s.Service, req.BrandUuid, req)
	return &pb.ListBrandContentsResponse{Items: out, Pagination: page}, err
}

func (s *BrandContentServer) CreateBrandContent(ctx context.Context, req *pb.CreateBrandContentRequest) (*pb.CreateBrandContentResponse, error) {
	m, err := brands.contents.CreateOne(ctx, s.DB, brands.scope(ctx, s.Service, req.BrandUuid), req.BrandContent)
	return &pb.CreateBrandContentResponse{BrandContent: m}, err
}

func (s *BrandContentServer) BulkCreateBrandContents(ctx context.Context, req *pb.BulkCreateBrandContentsRequest) (*pb.BulkCreateBrandContentsResponse, error) {
	out, err := brands.contents.CreateMany(ctx, s.DB, brands.scope(ctx, s.Service, req.BrandUuid), req.Items)
	return &pb.BulkCreateBrandContentsResponse{Items: out}, err
}

func (s *BrandContentServer) GetBrandContent(ctx context.Context, req *pb.GetBrandContentRequest) (*pb.GetBrandContentResponse, error) {
	m, err := brands.contents.GetAt(ctx, s.DB, brands.scope(ctx, s.Service, req.BrandUuid), req.BrandContentUuid)
	return &pb.GetBrandContentResponse{BrandContent: m}, err
}

func (s *BrandContentServer) UpdateBrandContent(ctx context.Context, req *pb.UpdateBrandContentRequest) (*pb.UpdateBrandContentResponse, error) {
	m, err := brands.contents.UpdateAt(ctx, s.DB, brands.scope(ctx, s.Service, req.BrandUuid), req.BrandContentUuid, req.BrandContent)
	return &pb.UpdateBrandContentResponse{BrandContent: m}, err
}

func (s *BrandContentServer) BulkUpdateBrandContents(ctx context.Context, req *pb.BulkUpdateBrandContentsRequest) (*pb.BulkUpdateBrandContentsResponse, error) {
	out, err := brands.contents.UpdateMany(ctx, s.DB, brands.scope(ctx, s.Service, req.BrandUuid), req.Items)
	return &pb.BulkUpdateBrandContentsResponse{Items: out}, err
}

func (s *BrandContentServer) DeleteBrandContent(ctx context.Context, req *pb.DeleteBrandContentRequest) (*pb.DeleteBrandContentResponse, error) {
	return &pb.DeleteBrandContentResponse{}, brands.contents.Delete(ctx, s.DB, brands.scope(ctx, s.Service, req.BrandUuid), req.BrandContentUuid)
}
