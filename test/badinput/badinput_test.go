package badinput

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	. "github.com/catalogd/catalogd/server/apptest"
)

// encode is the JSON of body with the placeholder replaced by bad (raw JSON text: an escape such
// as \u0000, or raw bytes).
func encode(t *testing.T, body any, bad string) []byte {
	t.Helper()
	raw, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	ph, _ := json.Marshal(placeholder)
	return []byte(strings.Replace(string(raw), string(ph), `"`+bad+`"`, 1))
}

// collectionOf is the collection a write path addresses: /v1/products/{uuid}/input-values/bulk →
// /v1/products/*/input-values.
func collectionOf(path string) string {
	segs := strings.Split(path, "/")
	for i, s := range segs {
		if s == pathUUID {
			segs[i] = "*"
		}
		if s == "bulk" || s == "actions" {
			segs = segs[:i]
			break
		}
	}
	for len(segs) > 0 && segs[len(segs)-1] == "*" {
		segs = segs[:len(segs)-1]
	}
	return strings.Join(segs, "/")
}

// wantFieldMessage checks a 400 with code (any when "") whose errors name field with a message containing msg.
func wantFieldMessage(t *testing.T, what string, r Resp, code, field, msg string) {
	t.Helper()
	if r.Status != 400 {
		t.Errorf("%s: status %d, want 400: %.400s", what, r.Status, r.Raw)
		return
	}
	m := r.Obj()
	if code != "" && m["code"] != code {
		t.Errorf("%s: code %v, want %s: %.400s", what, m["code"], code, r.Raw)
		return
	}
	errs, _ := m["errors"].([]any)
	for _, e := range errs {
		if f := e.(map[string]any); f["field"] == field && strings.Contains(f["message"].(string), msg) {
			return
		}
	}
	t.Errorf("%s: no error names %s with %q: %.600s", what, field, msg, r.Raw)
}

// Every string of every write body — codes, names, descriptions, JSON values, nested constraints,
// bulk items — refuses U+0000 with a 400 naming it, before the handler runs (so the made-up path
// uuids are never looked up).
func TestNULInEveryWriteBody(t *testing.T) {
	c := env.Client(t)
	collections, cases := map[string]bool{}, 0
	for _, r := range routes() {
		md, bulk := r.bodyMessage()
		if md == nil {
			continue
		}
		for _, b := range stringsOf(md, r.pathParams(), 0) {
			var body any = b.body
			field := b.field
			if bulk {
				body, field = []any{b.body}, "[0]."+b.field
			}
			resp := c.Do(r.verb, r.path, encode(t, body, `a\u0000b`))
			wantFieldMessage(t, r.full+" "+field, resp, "VALIDATION_FAILED", field, "U+0000")
			collections[collectionOf(r.path)] = true
			cases++
		}
	}
	t.Logf("%d U+0000 cases over %d collections", cases, len(collections))
	if len(collections) < 22 {
		t.Errorf("only %d write collections found", len(collections))
	}
}

// A raw body whose string holds invalid UTF-8 bytes is refused by the codec (never replaced by
// U+FFFD): 400 MALFORMED_REQUEST naming the field.
func TestInvalidUTF8InEveryWriteBody(t *testing.T) {
	c := env.Client(t)
	for _, r := range routes() {
		md, bulk := r.bodyMessage()
		if md == nil {
			continue
		}
		for _, b := range stringsOf(md, r.pathParams(), 0) {
			var body any = b.body
			field := b.field
			if bulk {
				body, field = []any{b.body}, "[0]."+b.field
			}
			resp := c.Do(r.verb, r.path, encode(t, body, "a\xff\xfeb"))
			wantFieldMessage(t, r.full+" "+field, resp, "MALFORMED_REQUEST", field, "invalid UTF-8")
		}
	}
}

// Every string filter of every list, the event-type list any token reads included: U+0000 is a
// 400 naming the parameter.
func TestNULInEveryListFilter(t *testing.T) {
	c := env.Client(t)
	lists := 0
	for _, r := range routes() {
		if r.verb != "GET" {
			continue
		}
		fs := filtersOf(r.method.Input())
		if len(fs) > 0 {
			lists++
		}
		for _, f := range fs {
			resp := c.Get(r.path + "?" + url.QueryEscape(f) + "=a%00b")
			// The HTTP front refuses it as a malformed parameter; the request check (gRPC) as a
			// violation: either way a 400 naming it.
			wantFieldMessage(t, r.full+" "+f, resp, "", f, "U+0000")
		}
	}
	t.Logf("%d lists with string filters", lists)
	if lists < 24 {
		t.Errorf("only %d lists with string filters found", lists)
	}
	// The event-type list needs only a valid token (no scope).
	reader := env.ClientFor(t, "t-"+RandomHex(6), "catalog:read")
	wantFieldMessage(t, "event types", reader.Get("/v1/webhook-event-types?name%5Bcontains%5D=%00"), "", "name[contains]", "U+0000")
}

// Every code of every family refuses control and bidirectional formatting characters.
func TestCodesRefuseControlAndBidiCharacters(t *testing.T) {
	c := env.Client(t)
	n := 0
	for _, r := range routes() {
		md, bulk := r.bodyMessage()
		if md == nil || md.Fields().ByJSONName("code") == nil || md.Fields().ByJSONName("code").Kind() != protoreflect.StringKind {
			continue
		}
		for _, bad := range []string{`a\u202eb`, `\u2066x`, `x\u200f`, `a\tb`, `a\u0085b`, `a\ufeff`} {
			body, field := any(map[string]any{"code": placeholder}), "code"
			if bulk {
				body, field = []any{body}, "[0].code"
			}
			wantFieldMessage(t, r.full+" "+bad, c.Do(r.verb, r.path, encode(t, body, bad)), "VALIDATION_FAILED", field, "bidirectional")
			n++
		}
	}
	if n == 0 {
		t.Fatal("no code field found")
	}
}

// rawCodec sends and receives bytes as they are, so a test can put invalid UTF-8 on the wire.
type rawCodec struct{}

func (rawCodec) Marshal(v any) ([]byte, error) { return *(v.(*[]byte)), nil }
func (rawCodec) Unmarshal(data []byte, v any) error {
	*(v.(*[]byte)) = append([]byte(nil), data...)
	return nil
}
func (rawCodec) Name() string { return "proto" }

// firstString sets the first string field found in m (depth first) to s; false when none.
func firstString(m protoreflect.Message, s string, depth int) bool {
	fs := m.Descriptor().Fields()
	for i := 0; i < fs.Len(); i++ {
		fd := fs.Get(i)
		switch {
		case fd.IsMap():
		case fd.Kind() == protoreflect.StringKind && fd.IsList():
			m.Mutable(fd).List().Append(protoreflect.ValueOfString(s))
			return true
		case fd.Kind() == protoreflect.StringKind:
			m.Set(fd, protoreflect.ValueOfString(s))
			return true
		case fd.Message() != nil && !fd.IsList() && depth < 3 && !strings.HasPrefix(string(fd.Message().FullName()), "google.protobuf."):
			inner := m.NewField(fd).Message()
			if firstString(inner, s, depth+1) {
				m.Set(fd, protoreflect.ValueOfMessage(inner))
				return true
			}
		}
	}
	return false
}

// A gRPC request with invalid UTF-8 in a string is INVALID_ARGUMENT with MALFORMED_REQUEST and the
// field, for every RPC (grpc-go's own answer was INTERNAL); without a token it is UNAUTHENTICATED
// (authentication comes first).
func TestGRPCInvalidUTF8(t *testing.T) {
	ctx := GRPCContext(t, "t-"+RandomHex(6))
	n := 0
	for _, r := range routes() {
		mt, err := protoregistry.GlobalTypes.FindMessageByName(r.method.Input().FullName())
		if err != nil {
			t.Fatal(err)
		}
		m := mt.New()
		if !firstString(m, "BAD!", 0) {
			continue
		}
		raw, err := proto.Marshal(m.Interface())
		if err != nil {
			t.Fatal(err)
		}
		raw = []byte(strings.Replace(string(raw), "BAD!", "\xff\xfe!!", 1))
		var out []byte
		err = env.GRPC.Invoke(ctx, r.full, &raw, &out, grpc.ForceCodec(rawCodec{}))
		st, _ := status.FromError(err)
		reason, msg := "", ""
		for _, d := range st.Details() {
			switch x := d.(type) {
			case *errdetails.ErrorInfo:
				reason = x.Reason
			case *errdetails.BadRequest:
				if len(x.FieldViolations) > 0 {
					msg = x.FieldViolations[0].Description
				}
			}
		}
		if st.Code() != codes.InvalidArgument || reason != "MALFORMED_REQUEST" || msg != "must be valid UTF-8" {
			t.Errorf("%s: %s %s %q (%s)", r.full, st.Code(), reason, msg, st.Message())
		}
		n++
		if n == 1 {
			err = env.GRPC.Invoke(context.Background(), r.full, &raw, &out, grpc.ForceCodec(rawCodec{}))
			if status.Code(err) != codes.Unauthenticated {
				t.Errorf("%s without a token: %v, want UNAUTHENTICATED", r.full, err)
			}
		}
	}
	if n < 100 {
		t.Errorf("only %d RPCs tried", n)
	}
}
