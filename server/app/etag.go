package app

import (
	"context"
	"net/http"
	"strings"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/etag"
)

// Entity tags (API.md "Safe writes", server/etag): every RPC passes withETags, which reads the
// condition of a write (the If-Match header, forwarded by the gateway as metadata, or the request's
// `etag` field; per item for bulk transitions) into the context the engine (server/crud) checks in
// the write's transaction, and fills the etag of every resource of the answer. The gateway sets
// the ETag header of a single-resource answer (etagHeader) and answers a GET whose If-None-Match
// matches with 304 (notModified).

// IfMatchHeader is the metadata key of the If-Match header (the gateway forwards it).
const IfMatchHeader = "if-match"

// etagMetadata is how the gateway passes If-Match on (its incoming header matcher).
func etagMetadata(k string) (string, bool) {
	if strings.EqualFold(k, "If-Match") {
		return IfMatchHeader, true
	}
	return "", false
}

// withETags wraps a handler with the conditions of its request and the tags of its answer; keyed
// tells a call with an Idempotency-Key, whose answer is stored (and may be replayed over gRPC).
func withETags(method string, keyed bool, h grpc.UnaryHandler) grpc.UnaryHandler {
	return func(ctx context.Context, req any) (any, error) {
		if m, ok := req.(proto.Message); ok {
			var err error
			if ctx, err = writeConditions(ctx, method, m); err != nil {
				return nil, err
			}
		}
		resp, err := h(ctx, req)
		if m, ok := resp.(proto.Message); ok && err == nil {
			if restOnly(ctx, keyed) {
				etag.FillTop(m) // the one tag the REST answer shows: its ETag header
			} else {
				etag.Fill(m)
			}
		}
		return resp, err
	}
}

// restCall marks the context of a call the REST gateway makes in process (localConn).
type restCall struct{}

// restOnly reports a call of the REST gateway whose answer goes to the REST client alone: its JSON
// body carries no etag (REST shows a resource's tag as the ETag header only, that of a
// single-resource answer), so only the top resource's tag is needed. That is every such call but a
// POST or PATCH with an Idempotency-Key (keyed: only those take one), whose answer is stored and
// replayed as it is, over gRPC too, with every tag. A hydrated product GET holds about 80
// resources, a bulk create of 100 a hundred: their tags, each a deterministic encoding and a hash,
// were a quarter of the GET's CPU over REST and ~0.3 ms of the bulk's, for nothing.
func restOnly(ctx context.Context, keyed bool) bool {
	return ctx.Value(restCall{}) != nil && !keyed
}

// ifMatch is the call's If-Match (REST header or gRPC metadata), its values joined as one list.
func ifMatch(ctx context.Context) string {
	return strings.Join(metadata.ValueFromIncomingContext(ctx, IfMatchHeader), ", ")
}

// writeConditions reads the conditions of a write into ctx: for Update, Delete and Transition
// RPCs the If-Match metadata and the request's etag field (the update body's, or the request's
// own), which must agree when both are given; for bulk transitions the per-item etags map. Bulk
// requests take their conditions per item, never from If-Match; reads and creates ignore it.
func writeConditions(ctx context.Context, method string, req proto.Message) (context.Context, error) {
	name := method[strings.LastIndex(method, "/")+1:]
	conds := metadata.ValueFromIncomingContext(ctx, IfMatchHeader)
	header := strings.Join(conds, ", ") // ifMatch
	switch {
	case strings.HasPrefix(name, "BulkUpdate"), strings.HasPrefix(name, "BulkTransition"):
		if header != "" {
			return ctx, apierr.Field("If-Match", "a bulk request takes an etag per item, not If-Match")
		}
		if strings.HasPrefix(name, "BulkTransition") {
			return bulkConditions(ctx, req.ProtoReflect())
		}
		return ctx, nil
	case strings.HasPrefix(name, "Update"), strings.HasPrefix(name, "Delete"), strings.HasPrefix(name, "Transition"):
	default:
		// A condition on an operation that checks none (a read, a create, an action such as
		// rotate-secret) is refused rather than ignored: the client would believe it guarded.
		if len(conds) > 0 {
			return ctx, apierr.Field("If-Match", "this operation takes no condition: If-Match applies to updates, deletes and lifecycle moves")
		}
		return ctx, nil
	}
	var cond etag.Condition
	if header != "" {
		c, ok := etag.ParseList(header)
		if !ok {
			return ctx, apierr.Field("If-Match", `must be * or a list of entity tags ("…")`)
		}
		cond = c
	}
	if field, v, ok := requestTag(req.ProtoReflect()); ok {
		c, valid := etag.ParseField(v)
		if !valid {
			return ctx, apierr.Field(field, `must be an entity tag ("…") or *`)
		}
		if header != "" && c.String() != cond.String() {
			return ctx, apierr.Field(field, "differs from the If-Match header")
		}
		cond = c
	}
	if !cond.Given() {
		return ctx, nil
	}
	return etag.WithCondition(ctx, cond), nil
}

// requestTag finds the etag a single write's request gives: its own `etag` field or its update
// body's; field is its JSON path.
func requestTag(m protoreflect.Message) (field, v string, ok bool) {
	fs := m.Descriptor().Fields()
	if fd := fs.ByName(etag.FieldName); fd != nil && fd.HasPresence() && m.Has(fd) {
		return etag.FieldName, m.Get(fd).String(), true
	}
	for i := 0; i < fs.Len(); i++ {
		fd := fs.Get(i)
		if fd.Kind() != protoreflect.MessageKind || fd.IsList() || fd.IsMap() || !m.Has(fd) {
			continue
		}
		inner := m.Get(fd).Message()
		if td := inner.Descriptor().Fields().ByName(etag.FieldName); td != nil && td.HasPresence() && inner.Has(td) {
			return etag.FieldName, inner.Get(td).String(), true // REST: the body's key
		}
	}
	return "", "", false
}

// bulkConditions reads a bulk transition's etags map (uuid → etag; every key one of its uuids).
func bulkConditions(ctx context.Context, m protoreflect.Message) (context.Context, error) {
	fd := m.Descriptor().Fields().ByName(etag.MapFieldName)
	if fd == nil || !fd.IsMap() || m.Get(fd).Map().Len() == 0 {
		return ctx, nil
	}
	uuids := map[string]bool{}
	if ud := m.Descriptor().Fields().ByName("uuids"); ud != nil && ud.IsList() {
		l := m.Get(ud).List()
		for i := 0; i < l.Len(); i++ {
			uuids[strings.ToLower(l.Get(i).String())] = true
		}
	}
	items := map[string]etag.Condition{}
	v := apierr.NewValidator()
	m.Get(fd).Map().Range(func(k protoreflect.MapKey, val protoreflect.Value) bool {
		key := k.String()
		path := etag.MapFieldName + "." + key
		if !uuids[strings.ToLower(key)] {
			v.Add(path, "names no item of uuids")
			return true
		}
		c, ok := etag.ParseField(val.String())
		if !ok {
			v.Add(path, `must be an entity tag ("…") or *`)
			return true
		}
		items[strings.ToLower(key)] = c
		return true
	})
	if err := v.Err(); err != nil {
		return ctx, err
	}
	return etag.WithItems(ctx, items), nil
}

// etagHeader sets the ETag header of an answer holding one resource (a gateway forward-response
// option): the response's one set field is a resource message.
func etagHeader(_ context.Context, w http.ResponseWriter, resp proto.Message) error {
	if tag := singleTag(resp); tag != "" {
		w.Header().Set("ETag", tag)
	}
	return nil
}

// singleTag is the etag of the one resource a response holds, or "".
func singleTag(resp proto.Message) string {
	if resp == nil {
		return ""
	}
	m := resp.ProtoReflect()
	if !m.IsValid() {
		return ""
	}
	var inner protoreflect.Message
	n := 0
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		n++
		if fd.Kind() == protoreflect.MessageKind && !fd.IsList() && !fd.IsMap() {
			inner = v.Message()
		}
		return true
	})
	if n != 1 || inner == nil || !etag.IsResource(inner.Descriptor()) {
		return ""
	}
	return etag.Get(inner.Interface())
}

// notModified answers a GET whose If-None-Match matches the ETag of its answer (weak comparison;
// `*` matches any) with 304, the ETag and no body. A GET with include[…] or expand[…] is always
// answered in full: its tag is the resource's own, which those views of other resources do not
// change.
//
// It also refuses what the gateway would drop silently: If-None-Match on anything but a GET (400: no
// write here is conditional on absence). An empty If-Match is the front door's (after the token).
func notModified(next runtime.HandlerFunc) runtime.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request, params map[string]string) {
		if _, ok := r.Header["If-None-Match"]; ok && r.Method != http.MethodGet {
			WriteProblem(w, r, apierr.Field("If-None-Match", "only a GET takes If-None-Match"))
			return
		}
		inm := r.Header.Get("If-None-Match")
		if r.Method != http.MethodGet || inm == "" || hasViews(r) {
			next(w, r, params)
			return
		}
		next(&conditionalWriter{ResponseWriter: w, ifNoneMatch: inm}, r, params)
	}
}

func hasViews(r *http.Request) bool {
	for k := range r.URL.Query() {
		if strings.HasPrefix(k, "include[") || strings.HasPrefix(k, "expand[") {
			return true
		}
	}
	return false
}

// conditionalWriter turns a 200 whose ETag matches If-None-Match into a 304 without a body.
type conditionalWriter struct {
	http.ResponseWriter
	ifNoneMatch string
	decided     bool
	skip        bool
}

func (c *conditionalWriter) WriteHeader(status int) {
	if c.decided {
		return
	}
	c.decided = true
	h := c.Header()
	if status == http.StatusOK && etag.NoneMatch(c.ifNoneMatch, h.Get("ETag")) {
		c.skip = true
		for _, k := range []string{"Content-Type", "Content-Length"} {
			h.Del(k)
		}
		c.ResponseWriter.WriteHeader(http.StatusNotModified)
		return
	}
	c.ResponseWriter.WriteHeader(status)
}

func (c *conditionalWriter) Write(b []byte) (int, error) {
	if !c.decided {
		c.WriteHeader(http.StatusOK)
	}
	if c.skip {
		return len(b), nil
	}
	return c.ResponseWriter.Write(b)
}

// Flush passes a flush on (streaming answers); a 304 has nothing to flush.
func (c *conditionalWriter) Flush() {
	if f, ok := c.ResponseWriter.(http.Flusher); ok && !c.skip {
		f.Flush()
	}
}
