package catalog

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/crud"
	"github.com/catalogd/catalogd/server/fields"
	"github.com/catalogd/catalogd/server/list"
	"github.com/catalogd/catalogd/server/reqctx"
)

// Brands, and tags (tags.go), are the same kind of family: a code/displayName resource with
// localized contents. This file holds, in order:
//   - the brand family, which only names its kind, table, sqlc queries, messages and services;
//   - codeNameFamily, that kind of family written once over any sqlc table of the codeNameRow
//     shape, with the code/displayName checks every such family uses (also product asset types
//     and product relation types);
//   - serviceDesc and familyOps, which serve a family's gRPC service from its generated service
//     description, so that these families have no per-family RPC methods to repeat.

// Parent kind of brand contents in the contents table.
const kindBrand = "brand"

// brands is the brand family (events brand.*, payload brandUuid) and its contents (brand.content.*,
// brandUuid and brandContentUuid).
var brands = newCodeNameFamily[*pb.Brand, *pb.BrandCreate, *pb.BrandUpdate, *pb.BrandContent, *pb.BrandContentCreate, *pb.BrandContentUpdate](
	kindBrand, "brands", codeNameTable((*db.Queries).InsertBrands, (*db.Queries).UpdateBrand, (*db.Queries).GetBrand, (*db.Queries).DeleteBrand))

// BrandList is the list spec of GET /v1/brands.
var BrandList = brands.spec

// BrandServices are catalog.v1.BrandService and catalog.v1.BrandContentService, served by the brand family.
func BrandServices(s *Service) (brand, content *grpc.ServiceDesc) {
	return brands.services(s, &pb.BrandService_ServiceDesc, &pb.BrandContentService_ServiceDesc)
}

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

// checkCodeName checks a create body's code (required) and displayName (defaults to code), each 1
// to 100 characters, and returns the code for conflict messages.
func checkCodeName(v apierr.Validator, c codeNameCreate) string {
	fields.Text(v, "code", c.GetCode(), 1, 100)
	fields.OptText(v, "displayName", optString(c, "display_name"), 1, 100)
	return c.GetCode()
}

// checkCodeNameUpdate checks the code and displayName an update body gives (null leaves them).
func checkCodeNameUpdate(v apierr.Validator, u proto.Message) {
	fields.OptText(v, "code", optString(u, "code"), 1, 100)
	fields.OptText(v, "displayName", optString(u, "display_name"), 1, 100)
}

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
			CheckCreate: func(v apierr.Validator, c C) string { return checkCodeName(v, c) },
			Insert: func(ctx context.Context, t *crud.Tx, ids []uuid.UUID, items []C) ([]codeNameRow, error) {
				return q.insert(ctx, t.Q, codeNameInsert{TenantID: t.Tenant, Uuids: ids, Now: t.Now,
					Codes: mapSlice(items, C.GetCode), DisplayNames: mapSlice(items, displayNameOrCode[C])})
			},
			UpdateID:    U.GetUuid,
			CheckUpdate: func(v apierr.Validator, u U) { checkCodeNameUpdate(v, u) },
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
	rows, page, err := list.Run[codeNameRow](ctx, s.DB.Pool, f.spec, tenant, req)
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
	if !inc.GetContents() && !exp.GetContents() {
		return nil
	}
	by, err := loadContents(ctx, s.DB.Q, tenant, f.kind, ids)
	if err != nil {
		return err
	}
	for i, m := range out {
		r := m.ProtoReflect()
		fds := r.Descriptor().Fields()
		cs := by[ids[i]]
		if inc.GetContents() {
			r.Set(fds.ByName("content_uuids"), protoreflect.ValueOfMessage(uuidList(cs).ProtoReflect()))
		}
		if exp.GetContents() {
			l := r.Mutable(fds.ByName("contents")).Message()
			items := l.Mutable(l.Descriptor().Fields().ByName("items")).List()
			for _, c := range cs {
				items.Append(protoreflect.ValueOfMessage(f.contents.ToPB(c).ProtoReflect()))
			}
		}
	}
	return nil
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

// services serves the family's two gRPC services, described by the generated item and content
// service descriptions: no per-family RPC methods. Field names follow the kind: path parameters
// <kind>_uuid and <kind>_content_uuid, bodies and single responses <kind> and <kind>_content.
func (f *codeNameFamily[M, C, U, CM, CC, CU]) services(s *Service, item, content *grpc.ServiceDesc) (*grpc.ServiceDesc, *grpc.ServiceDesc) {
	id, body := protoreflect.Name(f.kind+"_uuid"), protoreflect.Name(f.kind)
	items := topLevelOps(s, f.Family, f.spec, body)
	items["List"] = func(ctx context.Context, in, out protoreflect.Message) error {
		ms, page, err := f.listHydrated(ctx, s, in.Interface(), reqFlag(in, "include"), reqFlag(in, "expand"))
		return resPage(out, ms, page, err)
	}
	items["Get"] = func(ctx context.Context, in, out protoreflect.Message) error {
		m, err := f.getHydrated(ctx, s, reqString(in, id), reqFlag(in, "include"), reqFlag(in, "expand"))
		return resSet(out, body, m, err)
	}
	parent := func(ctx context.Context, in protoreflect.Message) crud.Scope {
		return f.scope(ctx, s, reqString(in, id))
	}
	contents := familyOps(f.contents, s, parent, protoreflect.Name(f.kind+"_content_uuid"), body+"_content")
	contents["List"] = func(ctx context.Context, in, out protoreflect.Message) error {
		ms, page, err := f.listContents(ctx, s, reqString(in, id), in.Interface())
		return resPage(out, ms, page, err)
	}
	return serviceDesc(item, items), serviceDesc(content, contents)
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

// --- Serving a family's gRPC service from its generated description ---
//
// A standard family service (List, Create, BulkCreate, Get, Update, BulkUpdate, Delete) needs no
// typed RPC methods: serviceDesc copies the generated grpc.ServiceDesc and handles each method by
// its operation, the prefix of its name, on the generated request and response types, reading and
// writing their fields by name (the path parameters, the body, "items", "pagination"). The
// handlers run the server's interceptors like generated ones, so scopes, errors and logging apply
// unchanged; the REST gateway, a gRPC client, sees no difference. A method or field that does not
// fit is reported when the service is built, at start-up.

// familyOp is one RPC of a family's standard service: it reads the request and fills the response.
type familyOp func(ctx context.Context, in, out protoreflect.Message) error

// familyOps are the create, bulk create, get, update, bulk update and delete RPCs of family f
// (List is the family's own): scope resolves the collection from the request's parent path
// parameters, id names the item's path parameter field and body the single create/update body
// field, which is also the single response field. Bulk requests and responses hold "items".
func familyOps[R any, M, C, U proto.Message](f *crud.Family[R, M, C, U], s *Service, scope func(context.Context, protoreflect.Message) crud.Scope, id, body protoreflect.Name) map[string]familyOp {
	return map[string]familyOp{
		"Create": func(ctx context.Context, in, out protoreflect.Message) error {
			m, err := f.CreateOne(ctx, s.DB, scope(ctx, in), reqMessage[C](in, body))
			return resSet(out, body, m, err)
		},
		"BulkCreate": func(ctx context.Context, in, out protoreflect.Message) error {
			ms, err := f.CreateMany(ctx, s.DB, scope(ctx, in), reqList[C](in, "items"))
			return resItems(out, ms, err)
		},
		"Get": func(ctx context.Context, in, out protoreflect.Message) error {
			m, err := f.GetAt(ctx, s.DB, scope(ctx, in), reqString(in, id))
			return resSet(out, body, m, err)
		},
		"Update": func(ctx context.Context, in, out protoreflect.Message) error {
			m, err := f.UpdateAt(ctx, s.DB, scope(ctx, in), reqString(in, id), reqMessage[U](in, body))
			return resSet(out, body, m, err)
		},
		"BulkUpdate": func(ctx context.Context, in, out protoreflect.Message) error {
			ms, err := f.UpdateMany(ctx, s.DB, scope(ctx, in), reqList[U](in, "items"))
			return resItems(out, ms, err)
		},
		"Delete": func(ctx context.Context, in, _ protoreflect.Message) error {
			return f.Delete(ctx, s.DB, scope(ctx, in), reqString(in, id))
		},
	}
}

// topLevelService serves the standard service of a top-level family whose path parameter and
// body are named after name (product_asset_type_uuid, product_asset_type), listing with spec.
func topLevelService[R any, M, C, U proto.Message](s *Service, f *crud.Family[R, M, C, U], spec *list.Spec, base *grpc.ServiceDesc, name protoreflect.Name) *grpc.ServiceDesc {
	return serviceDesc(base, topLevelOps(s, f, spec, name))
}

func topLevelOps[R any, M, C, U proto.Message](s *Service, f *crud.Family[R, M, C, U], spec *list.Spec, name protoreflect.Name) map[string]familyOp {
	top := func(context.Context, protoreflect.Message) crud.Scope { return crud.Scope{} }
	ops := familyOps(f, s, top, name+"_uuid", name)
	ops["List"] = func(ctx context.Context, in, out protoreflect.Message) error {
		rows, page, err := list.Run[R](ctx, s.DB.Pool, spec, reqctx.Tenant(ctx), in.Interface())
		return resPage(out, mapSlice(rows, f.ToPB), page, err)
	}
	return ops
}

// familyOperations are the RPC name prefixes of a family's standard service, longest first.
var familyOperations = []string{"BulkCreate", "BulkUpdate", "List", "Create", "Get", "Update", "Delete"}

// serviceDesc is the generated description base with every method handled by ops[its operation]
// (the prefix of its name: CreateBrand → Create) on the generated request and response types. The
// handlers run the server's interceptors like generated ones, so scopes, errors and logging apply
// unchanged. A method with no familyOp is a programming error, reported at start-up.
func serviceDesc(base *grpc.ServiceDesc, ops map[string]familyOp) *grpc.ServiceDesc {
	d, err := protoregistry.GlobalFiles.FindDescriptorByName(protoreflect.FullName(base.ServiceName))
	if err != nil {
		panic(err)
	}
	sd := d.(protoreflect.ServiceDescriptor)
	out := *base
	out.HandlerType = (*any)(nil) // no server interface: the handlers carry the implementation
	out.Methods = make([]grpc.MethodDesc, len(base.Methods))
	for i, m := range base.Methods {
		md := sd.Methods().ByName(protoreflect.Name(m.MethodName))
		var run familyOp
		for _, o := range familyOperations {
			if strings.HasPrefix(m.MethodName, o) {
				run = ops[o]
				break
			}
		}
		if md == nil || run == nil {
			panic(fmt.Sprintf("catalog: %s/%s is not a standard family operation", base.ServiceName, m.MethodName))
		}
		out.Methods[i] = grpc.MethodDesc{MethodName: m.MethodName, Handler: familyHandler("/"+base.ServiceName+"/"+m.MethodName, md, run)}
	}
	return &out
}

// handler decodes the request into its generated type, runs it through the interceptors, and
// answers the generated response type filled by run.
func familyHandler(fullMethod string, md protoreflect.MethodDescriptor, run familyOp) grpc.MethodHandler {
	reqType := messageTypeOf(md.Input().FullName())
	resType := messageTypeOf(md.Output().FullName())
	call := func(ctx context.Context, req any) (any, error) {
		res := resType.New()
		if err := run(ctx, req.(proto.Message).ProtoReflect(), res); err != nil {
			return nil, err
		}
		return res.Interface(), nil
	}
	return func(srv any, ctx context.Context, dec func(any) error, interceptor grpc.UnaryServerInterceptor) (any, error) {
		req := reqType.New().Interface()
		if err := dec(req); err != nil {
			return nil, err
		}
		if interceptor == nil {
			return call(ctx, req)
		}
		return interceptor(ctx, req, &grpc.UnaryServerInfo{Server: srv, FullMethod: fullMethod}, call)
	}
}

func messageTypeOf(name protoreflect.FullName) protoreflect.MessageType {
	t, err := protoregistry.GlobalTypes.FindMessageByName(name)
	if err != nil {
		panic(err)
	}
	return t
}

// Request fields by name.

func fieldNamed(m protoreflect.Message, name protoreflect.Name) protoreflect.FieldDescriptor {
	fd := m.Descriptor().Fields().ByName(name)
	if fd == nil {
		panic(fmt.Sprintf("catalog: %s has no field %s", m.Descriptor().FullName(), name))
	}
	return fd
}

func reqString(m protoreflect.Message, name protoreflect.Name) string {
	return m.Get(fieldNamed(m, name)).String()
}

// reqMessage is a message field (a typed nil when absent, as a generated getter gives).
func reqMessage[T proto.Message](m protoreflect.Message, name protoreflect.Name) T {
	return m.Get(fieldNamed(m, name)).Message().Interface().(T)
}

func reqList[T proto.Message](m protoreflect.Message, name protoreflect.Name) []T {
	l := m.Get(fieldNamed(m, name)).List()
	out := make([]T, l.Len())
	for i := range out {
		out[i] = l.Get(i).Message().Interface().(T)
	}
	return out
}

func reqFlag(m protoreflect.Message, name protoreflect.Name) contentsFlag {
	return reqMessage[proto.Message](m, name).(contentsFlag)
}

// Response fields by name; each passes err through.

func resSet[T proto.Message](out protoreflect.Message, name protoreflect.Name, v T, err error) error {
	if err == nil {
		out.Set(fieldNamed(out, name), protoreflect.ValueOfMessage(v.ProtoReflect()))
	}
	return err
}

func resItems[T proto.Message](out protoreflect.Message, items []T, err error) error {
	if err == nil {
		l := out.Mutable(fieldNamed(out, "items")).List()
		for _, it := range items {
			l.Append(protoreflect.ValueOfMessage(it.ProtoReflect()))
		}
	}
	return err
}

func resPage[T proto.Message](out protoreflect.Message, items []T, page *pb.Pagination, err error) error {
	if err := resItems(out, items, err); err != nil {
		return err
	}
	return resSet(out, "pagination", page, nil)
}
