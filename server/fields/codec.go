package fields

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"google.golang.org/grpc/encoding"
	grpcproto "google.golang.org/grpc/encoding/proto"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/catalogd/catalogd/server/apierr"
)

// A gRPC request the server cannot decode (a string field holding invalid UTF-8, a truncated
// message, …) would be grpc-go's own INTERNAL status ("grpc: failed to unmarshal the received
// message"), made before any interceptor runs, so neither our error model nor authentication
// could see it. ServerCodec wraps grpc's proto codec: when an API request (a catalog.v1 message)
// does not decode, it leaves the message empty with a marker among its unknown fields, naming
// the first bad field, and reports success; Request.Check, which the interceptor runs after
// authentication, turns the marker into 400 MALFORMED_REQUEST naming the field (as a REST
// client would see it: `[2].code`, `value.a`). Other messages (health, reflection) keep grpc's
// behaviour.

// faultField is the unknown field number of the marker (the largest field number: no API
// message uses it).
const faultField protowire.Number = protowire.MaxValidNumber

// apiPackage is the proto package whose requests ServerCodec reports through Request.Check.
const apiPackage = "catalog.v1."

// ServerCodec is the gRPC server codec (grpc.ForceServerCodecV2(fields.ServerCodec{})).
type ServerCodec struct{}

var protoCodec = encoding.GetCodecV2(grpcproto.Name)

// Name is the codec's content subtype: proto.
func (ServerCodec) Name() string { return grpcproto.Name }

// Marshal is grpc's.
func (ServerCodec) Marshal(v any) (mem.BufferSlice, error) { return protoCodec.Marshal(v) }

// Unmarshal is grpc's; an API request that does not decode is marked (see above).
func (ServerCodec) Unmarshal(data mem.BufferSlice, v any) error {
	err := protoCodec.Unmarshal(data, v)
	if err == nil {
		return nil
	}
	m, ok := v.(proto.Message)
	if !ok || !strings.HasPrefix(string(m.ProtoReflect().Descriptor().FullName()), apiPackage) {
		return err
	}
	top, rest, msg := wireFault(m.ProtoReflect().Descriptor(), data.Materialize())
	proto.Reset(m)
	var b []byte
	b = protowire.AppendTag(b, faultField, protowire.BytesType)
	b = protowire.AppendString(b, top+"\x00"+rest+"\x00"+msg)
	m.ProtoReflect().SetUnknown(b)
	return nil
}

// decodeFault is the MALFORMED_REQUEST of a request ServerCodec marked, or nil.
func (rq *Request) decodeFault(r protoreflect.Message) error {
	unknown := r.GetUnknown()
	for len(unknown) > 0 {
		num, typ, n := protowire.ConsumeTag(unknown)
		if n < 0 {
			return nil
		}
		unknown = unknown[n:]
		if num != faultField || typ != protowire.BytesType {
			n = protowire.ConsumeFieldValue(num, typ, unknown)
			if n < 0 {
				return nil
			}
			unknown = unknown[n:]
			continue
		}
		val, n := protowire.ConsumeString(unknown)
		if n < 0 {
			return nil
		}
		parts := strings.SplitN(strings.ToValidUTF8(val, "\uFFFD"), "\x00", 3)
		if len(parts) != 3 {
			return nil
		}
		field := rq.faultName(r.Descriptor(), parts[0], parts[1])
		return (&apierr.Error{Code: apierr.MalformedRequest, Detail: field + ": " + parts[2]}).WithField(field, parts[2])
	}
	return nil
}

// faultName names a fault at top-level field top (JSON name), then rest (".code", "[2].code",
// "" for the field itself) as the REST client sees it: relative to the body, name[op] in a query
// parameter.
func (rq *Request) faultName(md protoreflect.MessageDescriptor, top, rest string) string {
	if top == "" {
		return "body"
	}
	fd := md.Fields().ByJSONName(top)
	switch {
	case fd != nil && fd == rq.body:
		if rest == "" {
			return "body"
		}
		return strings.TrimPrefix(rest, ".")
	case fd != nil && rq.query && !rq.pathVars[fd.Name()] && strings.HasPrefix(rest, "."):
		seg, more, _ := strings.Cut(rest[1:], ".")
		if more != "" {
			more = "." + more
		}
		return top + "[" + seg + "]" + more
	}
	return top + rest
}

// wireFault finds the first field of b (a message of md in wire format) that does not decode: a
// string that is not valid UTF-8, or malformed wire data. top is the JSON name of the top-level
// field ("" when the fault is not in a known field), rest the path below it.
func wireFault(md protoreflect.MessageDescriptor, b []byte) (top, rest, msg string) {
	path, msg, ok := walkWire(md, b, 0)
	if !ok || len(path) == 0 {
		return "", "", msgNotProtobuf
	}
	top, _, _ = strings.Cut(path[0], "\x01")
	rest = strings.Join(path[1:], "")
	if i := strings.IndexByte(path[0], '\x01'); i >= 0 {
		rest = path[0][i+1:] + rest
	}
	return top, rest, msg
}

const msgNotProtobuf = "is not a valid protobuf message"

// nextField consumes the first field of the wire form b: its number, type and encoded value, and
// the rest of b; valid is false when b does not start with a well-formed field.
func nextField(b []byte) (num protowire.Number, typ protowire.Type, val, rest []byte, valid bool) {
	num, typ, n := protowire.ConsumeTag(b)
	if n < 0 {
		return 0, 0, nil, nil, false
	}
	b = b[n:]
	if n = protowire.ConsumeFieldValue(num, typ, b); n < 0 {
		return 0, 0, nil, nil, false
	}
	return num, typ, b[:n], b[n:], true
}

// walkWire returns the path to the first fault in b: each element a name segment (".name",
// "[2]", `["key"]`; the first without its dot, with "\x01" before an index). ok is false when no
// fault is found in a known field.
func walkWire(md protoreflect.MessageDescriptor, b []byte, depth int) (path []string, msg string, ok bool) {
	if depth > 100 {
		return nil, "is nested too deeply", true
	}
	counts := map[protowire.Number]int{}
	for len(b) > 0 {
		num, typ, val, rest, valid := nextField(b)
		if !valid {
			return nil, msgNotProtobuf, true
		}
		b = rest
		fd := md.Fields().ByNumber(num)
		if fd == nil || typ != protowire.BytesType {
			continue
		}
		idx := counts[num]
		counts[num]++
		content, _ := protowire.ConsumeBytes(val)
		name := segment(md, fd, idx, depth)
		switch {
		case fd.Kind() == protoreflect.StringKind:
			if !utf8.Valid(content) {
				return []string{name}, MsgInvalidUTF8, true
			}
		case fd.IsMap():
			if p, m, ok := walkMapEntry(fd, content, depth); ok {
				return append([]string{name}, p...), m, true
			}
		case fd.Message() != nil:
			if p, m, ok := walkWire(fd.Message(), content, depth+1); ok {
				return append([]string{name}, p...), m, true
			}
		}
	}
	return nil, "", false
}

// segment names field fd (its idx-th occurrence) of a message of md: transparent for the
// fields of google.protobuf.Value/Struct/ListValue, which JSON does not show.
func segment(md protoreflect.MessageDescriptor, fd protoreflect.FieldDescriptor, idx, depth int) string {
	switch md.FullName() {
	case "google.protobuf.Value", "google.protobuf.Struct":
		return ""
	case "google.protobuf.ListValue":
		return fmt.Sprintf("[%d]", idx)
	}
	if jsonArrayField(md) != nil { // its list is the parent field in JSON
		return fmt.Sprintf("[%d]", idx)
	}
	name := fd.JSONName()
	if depth > 0 {
		name = "." + name
	}
	if fd.IsList() {
		if depth == 0 {
			return name + "\x01" + fmt.Sprintf("[%d]", idx)
		}
		name += fmt.Sprintf("[%d]", idx)
	}
	return name
}

// walkMapEntry looks for a fault in a map entry (key 1, value 2), naming it by its key.
func walkMapEntry(fd protoreflect.FieldDescriptor, b []byte, depth int) ([]string, string, bool) {
	var key []byte
	var value []byte
	hasValue := false
	for len(b) > 0 {
		num, typ, val, rest, valid := nextField(b)
		if !valid {
			return nil, msgNotProtobuf, true
		}
		b = rest
		if typ == protowire.BytesType {
			c, _ := protowire.ConsumeBytes(val)
			switch num {
			case 1:
				key = c
			case 2:
				value, hasValue = c, true
			}
		}
	}
	seg := keySeg(string(key))
	if fd.MapKey().Kind() == protoreflect.StringKind && !utf8.Valid(key) {
		return []string{seg}, MsgInvalidUTF8 + " (in the key)", true
	}
	if !hasValue {
		return nil, "", false
	}
	switch vd := fd.MapValue(); {
	case vd.Kind() == protoreflect.StringKind:
		if !utf8.Valid(value) {
			return []string{seg}, MsgInvalidUTF8, true
		}
	case vd.Message() != nil:
		if p, m, ok := walkWire(vd.Message(), value, depth+1); ok {
			return append([]string{seg}, p...), m, true
		}
	}
	return nil, "", false
}
