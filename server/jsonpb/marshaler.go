// Package jsonpb is the JSON codec of the REST gateway: a grpc-gateway v2 runtime.Marshaler written
// on protoreflect, with the conventions of DESIGN.md "HTTP conventions".
//
// Responses:
//   - field names are the proto JSON names (lowerCamel), in field-number order;
//   - every field is present: unset messages and unset proto3 `optional` scalars are null,
//     other scalars their (possibly zero) value, repeated fields [] and maps {} when empty;
//   - google.protobuf.Timestamp is `"2026-01-02T03:04:05.123456Z"`: UTC, exactly six fractional
//     digits (truncated to microseconds);
//   - enum values are their names without the enum's prefix, lower-cased
//     (ATTRIBUTE_STATUS_DRAFT → "draft"); the zero (UNSPECIFIED) value is null; a number the
//     enum does not define is an error;
//   - 64-bit integers are JSON numbers; bytes are standard base64;
//   - a message with `option (catalog.v1.json_array) = true` is its single repeated field's bare
//     array (null when the field holding it is unset);
//   - Struct, Value and ListValue are their natural JSON; FieldMask fields are never written;
//   - a resource's `string etag` field (server/etag) is never written: REST carries it as the ETag
//     header of a single-resource answer;
//   - no HTML escaping (invalid UTF-8 in a string becomes U+FFFD), no trailing newline.
//
// Marshal also takes what the gateway passes for a `response_body`: a message pointer (nil → null),
// a slice of message pointers (→ array), and anything else (→ encoding/json).
//
// Request bodies are decoded strictly: unknown or duplicate keys, type mismatches, invalid UTF-8
// and trailing data are errors; null leaves a field unset. A message with a
// `google.protobuf.FieldMask update_mask` field gets the proto names of every key present in its
// object (null ones included), in order: that is how "null clears a nullable field" is told apart
// from "absent" on PATCH. Every decode error is an *apierr.DecodeError naming the JSON path
// (`code`, `[2].code`, `constraints.minLength`; "body" for the whole body). An empty body is io.EOF,
// which the gateway ignores. Numbers are never read through a float where a decimal is meant
// (numbers.go): a string field with (catalog.v1.rules).json_number also takes a JSON number, as its
// literal text, and a number in a google.protobuf.Value keeps its literal for NumberText.
package jsonpb

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// ContentType of every body this codec reads and writes.
const ContentType = "application/json"

// Marshaler is the gateway's JSON codec; register it with
// runtime.WithMarshalerOption(runtime.MIMEWildcard, jsonpb.Marshaler{}).
type Marshaler struct{}

var _ runtime.Marshaler = Marshaler{}

// Without is a body written without some fields of its message, or of each message of a list
// body: an answer that leaves out views of the resource the codec would otherwise write as null
// (the attribute of a create, bulk or lifecycle answer has no contentUuids and contents keys).
type Without struct {
	Body   any // a proto message or a slice of them
	Fields map[protoreflect.Name]bool
}

// Marshal encodes v: a proto message, a slice of proto messages, Without, or any other value
// (encoding/json).
func (Marshaler) Marshal(v any) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return []byte("null"), nil
	case proto.Message:
		return marshalMessage(v)
	case Without:
		return marshalWithout(v)
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Slice && rv.Type().Elem().Implements(protoMessageType) {
		return marshalSlice(rv)
	}
	return marshalOther(v)
}

// AppendMessage appends msg's JSON, as Marshal writes it, to b: a caller that encodes many
// messages one after another reuses one buffer (server/history).
func AppendMessage(b []byte, msg proto.Message) ([]byte, error) {
	m := msg.ProtoReflect()
	if !m.IsValid() { // a nil *T
		return append(b, "null"...), nil
	}
	return appendMessageInfo(b, m, messageInfo(m.Descriptor()))
}

func marshalMessage(msg proto.Message) ([]byte, error) {
	m := msg.ProtoReflect()
	if !m.IsValid() { // a nil *T
		return []byte("null"), nil
	}
	info := messageInfo(m.Descriptor())
	b := make([]byte, 0, info.sizeHint.Load()+64)
	b, err := appendMessageInfo(b, m, info)
	if err != nil {
		return nil, err
	}
	info.sizeHint.Store(int64(len(b)))
	return b, nil
}

func marshalWithout(w Without) ([]byte, error) {
	var b []byte
	one := func(msg proto.Message) error {
		m := msg.ProtoReflect()
		if !m.IsValid() {
			b = append(b, "null"...)
			return nil
		}
		var err error
		b, err = appendMessageOmitting(b, m, messageInfo(m.Descriptor()), w.Fields)
		return err
	}
	if msg, ok := w.Body.(proto.Message); ok {
		return b, one(msg)
	}
	rv := reflect.ValueOf(w.Body)
	if rv.Kind() != reflect.Slice || !rv.Type().Elem().Implements(protoMessageType) {
		return nil, fmt.Errorf("jsonpb: Without of %T", w.Body)
	}
	b = append(b, '[')
	for i := 0; i < rv.Len(); i++ {
		if i > 0 {
			b = append(b, ',')
		}
		el, _ := rv.Index(i).Interface().(proto.Message)
		if el == nil {
			b = append(b, "null"...)
			continue
		}
		if err := one(el); err != nil {
			return nil, err
		}
	}
	return append(b, ']'), nil
}

func marshalSlice(rv reflect.Value) ([]byte, error) {
	n := rv.Len()
	var info *msgInfo // of the elements' type: looked up again only when the type changes
	if n > 0 {
		if first, ok := rv.Index(0).Interface().(proto.Message); ok {
			info = messageInfo(first.ProtoReflect().Descriptor())
		}
	}
	var hint int64
	if info != nil {
		hint = info.sizeHint.Load()
	}
	b := make([]byte, 0, int64(n)*(hint+1)+2)
	b = append(b, '[')
	for i := 0; i < n; i++ {
		if i > 0 {
			b = append(b, ',')
		}
		el, _ := rv.Index(i).Interface().(proto.Message)
		if el == nil || !el.ProtoReflect().IsValid() {
			b = append(b, "null"...)
			continue
		}
		m := el.ProtoReflect()
		if info == nil || info.desc != m.Descriptor() { // a slice of an interface type
			info = messageInfo(m.Descriptor())
		}
		start := len(b)
		var err error
		if b, err = appendMessageInfo(b, m, info); err != nil {
			return nil, err
		}
		info.sizeHint.Store(int64(len(b) - start))
	}
	return append(b, ']'), nil
}

func marshalOther(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// Unmarshal decodes data into v: a proto.Message, a pointer to a message pointer (**T, allocated
// on success) or a pointer to a slice of message pointers (*[]*T). Other targets are decoded with
// encoding/json (unknown fields disallowed). An empty or all-white-space body is io.EOF.
func (Marshaler) Unmarshal(data []byte, v any) error { return unmarshal(data, v) }

// NewDecoder reads the whole of r and decodes it as Unmarshal does. Read errors (such as the
// HTTP layer's body size limit) are returned as they are.
func (m Marshaler) NewDecoder(r io.Reader) runtime.Decoder {
	return runtime.DecoderFunc(func(v any) error {
		data, err := io.ReadAll(r)
		if err != nil {
			return err
		}
		return unmarshal(data, v)
	})
}

// NewEncoder writes each value as Marshal does, without a trailing newline.
func (m Marshaler) NewEncoder(w io.Writer) runtime.Encoder {
	return runtime.EncoderFunc(func(v any) error {
		b, err := m.Marshal(v)
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	})
}

// ContentType is always "application/json".
func (Marshaler) ContentType(any) string { return ContentType }
