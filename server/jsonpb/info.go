package jsonpb

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/catalogd/catalogd/server/etag"

	catalogv1 "github.com/catalogd/catalogd/gen/catalog/v1"
)

// wktKind names the well-known types that have a JSON form of their own.
type wktKind uint8

const (
	wktNone wktKind = iota
	wktTimestamp
	wktDuration
	wktStruct
	wktValue
	wktListValue
	wktFieldMask
	wktAny
	wktWrapper
)

var wktByName = map[protoreflect.FullName]wktKind{
	"google.protobuf.Timestamp":   wktTimestamp,
	"google.protobuf.Duration":    wktDuration,
	"google.protobuf.Struct":      wktStruct,
	"google.protobuf.Value":       wktValue,
	"google.protobuf.ListValue":   wktListValue,
	"google.protobuf.FieldMask":   wktFieldMask,
	"google.protobuf.Any":         wktAny,
	"google.protobuf.DoubleValue": wktWrapper,
	"google.protobuf.FloatValue":  wktWrapper,
	"google.protobuf.Int64Value":  wktWrapper,
	"google.protobuf.UInt64Value": wktWrapper,
	"google.protobuf.Int32Value":  wktWrapper,
	"google.protobuf.UInt32Value": wktWrapper,
	"google.protobuf.BoolValue":   wktWrapper,
	"google.protobuf.StringValue": wktWrapper,
	"google.protobuf.BytesValue":  wktWrapper,
}

// fieldInfo is what the encoder needs of one field, computed once per descriptor.
type fieldInfo struct {
	fd protoreflect.FieldDescriptor
	// key is the field's JSON name, quoted, with the colon: `"displayName":`.
	key []byte
	// nullable: unset means null (messages, proto3 optional and oneof members).
	nullable bool
	// enum is the enum's names (nil for other kinds).
	enum *enumInfo
	// msg is the msgInfo of a message field's type, looked up on first use (types can nest
	// themselves, so it cannot be built with the field's).
	msg atomic.Pointer[msgInfo]
}

// message is the msgInfo of f's message type: one lookup per field rather than per value.
func (f *fieldInfo) message() *msgInfo {
	if mi := f.msg.Load(); mi != nil {
		return mi
	}
	mi := messageInfo(f.fd.Message())
	f.msg.Store(mi)
	return mi
}

// msgInfo is the per-message-descriptor cache shared by the encoder and the decoder.
type msgInfo struct {
	desc protoreflect.MessageDescriptor
	wkt  wktKind
	// fields in field-number order, FieldMask fields left out.
	fields []*fieldInfo
	// jsonArray is the single repeated field of a message with (catalog.v1.json_array) = true.
	jsonArray protoreflect.FieldDescriptor
	// byName finds a field by JSON name or proto name (FieldMask fields are absent: never accepted).
	byName map[string]protoreflect.FieldDescriptor
	// updateMask is the `google.protobuf.FieldMask update_mask` field filled from the keys present.
	updateMask protoreflect.FieldDescriptor
	// jsonNumber holds the numbers of the string fields with (catalog.v1.rules).json_number: they
	// also accept a JSON number, kept as its literal text (nil when the message has none).
	jsonNumber map[protoreflect.FieldNumber]bool
	// sizeHint is the size of the last encoding, used to preallocate the next buffer.
	sizeHint atomic.Int64
}

var msgInfos sync.Map // protoreflect.MessageDescriptor → *msgInfo

func messageInfo(md protoreflect.MessageDescriptor) *msgInfo {
	if v, ok := msgInfos.Load(md); ok {
		return v.(*msgInfo)
	}
	v, _ := msgInfos.LoadOrStore(md, buildMessageInfo(md))
	return v.(*msgInfo)
}

func isFieldMask(fd protoreflect.FieldDescriptor) bool {
	return fd.Message() != nil && fd.Message().FullName() == "google.protobuf.FieldMask"
}

func buildMessageInfo(md protoreflect.MessageDescriptor) *msgInfo {
	info := &msgInfo{desc: md, wkt: wktByName[md.FullName()]}
	fds := md.Fields()
	info.byName = make(map[string]protoreflect.FieldDescriptor, 2*fds.Len())
	var repeated []protoreflect.FieldDescriptor
	for i := 0; i < fds.Len(); i++ {
		fd := fds.Get(i)
		if fd.IsList() {
			repeated = append(repeated, fd)
		}
		if isFieldMask(fd) {
			if fd.Name() == "update_mask" && !fd.IsList() {
				info.updateMask = fd
			}
			continue
		}
		if etag.IsTagField(fd) { // a resource's etag: the ETag header over REST, never a body key
			continue
		}
		key := appendString(nil, fd.JSONName())
		f := &fieldInfo{
			fd:       fd,
			key:      append(key, ':'),
			nullable: fd.HasPresence() && !fd.IsList() && !fd.IsMap(),
		}
		if fd.Kind() == protoreflect.EnumKind {
			f.enum = enumInfoOf(fd.Enum())
		}
		info.fields = append(info.fields, f)
		info.byName[fd.JSONName()] = fd
		info.byName[string(fd.Name())] = fd
		if fd.Kind() == protoreflect.StringKind && hasJSONNumberRule(fd) {
			if info.jsonNumber == nil {
				info.jsonNumber = map[protoreflect.FieldNumber]bool{}
			}
			info.jsonNumber[fd.Number()] = true
		}
	}
	slices.SortFunc(info.fields, func(a, b *fieldInfo) int { return int(a.fd.Number()) - int(b.fd.Number()) })
	if len(repeated) == 1 && fds.Len() == 1 && hasJSONArrayOption(md) {
		info.jsonArray = repeated[0]
	}
	return info
}

func hasJSONArrayOption(md protoreflect.MessageDescriptor) bool {
	opts, ok := md.Options().(*descriptorpb.MessageOptions)
	if !ok || opts == nil {
		return false
	}
	v, _ := proto.GetExtension(opts, catalogv1.E_JsonArray).(bool)
	return v
}

func hasJSONNumberRule(fd protoreflect.FieldDescriptor) bool {
	opts, ok := fd.Options().(*descriptorpb.FieldOptions)
	if !ok || opts == nil {
		return false
	}
	rules, _ := proto.GetExtension(opts, catalogv1.E_Rules).(*catalogv1.FieldRules)
	return rules.GetJsonNumber()
}

// acceptsJSONNumber: fd is a string field (singular or repeated) with (catalog.v1.rules).json_number.
func acceptsJSONNumber(fd protoreflect.FieldDescriptor) bool {
	return fd.Kind() == protoreflect.StringKind && messageInfo(fd.ContainingMessage()).jsonNumber[fd.Number()]
}

// enumInfo is the per-enum-descriptor cache of JSON names.
type enumInfo struct {
	// encoded maps a number to its quoted JSON form (`"draft"`); zero and UNSPECIFIED are absent.
	encoded map[protoreflect.EnumNumber][]byte
	short   map[protoreflect.EnumNumber]string
	// parse accepts the short lower-case name only: the one form the API documents.
	parse map[string]protoreflect.EnumNumber
	// allowed lists the short names in declaration order.
	allowed []string
}

var enumInfos sync.Map // protoreflect.EnumDescriptor → *enumInfo

func enumInfoOf(ed protoreflect.EnumDescriptor) *enumInfo {
	if v, ok := enumInfos.Load(ed); ok {
		return v.(*enumInfo)
	}
	v, _ := enumInfos.LoadOrStore(ed, buildEnumInfo(ed))
	return v.(*enumInfo)
}

func buildEnumInfo(ed protoreflect.EnumDescriptor) *enumInfo {
	prefix := upperSnake(string(ed.Name())) + "_"
	info := &enumInfo{
		encoded: map[protoreflect.EnumNumber][]byte{},
		short:   map[protoreflect.EnumNumber]string{},
		parse:   map[string]protoreflect.EnumNumber{},
	}
	vals := ed.Values()
	for i := 0; i < vals.Len(); i++ {
		v := vals.Get(i)
		full := string(v.Name())
		short := strings.ToLower(strings.TrimPrefix(full, prefix))
		if v.Number() == 0 || short == "unspecified" {
			continue
		}
		if _, dup := info.short[v.Number()]; !dup { // aliases: the first name is the output name
			info.short[v.Number()] = short
			info.encoded[v.Number()] = appendString(nil, short)
		}
		if _, taken := info.parse[short]; !taken {
			info.parse[short] = v.Number()
			info.allowed = append(info.allowed, short)
		}
	}
	return info
}

// upperSnake turns a CamelCase name into UPPER_SNAKE_CASE: AttributeStatus → ATTRIBUTE_STATUS,
// HTTPMethod → HTTP_METHOD.
func upperSnake(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 4)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isUpper(c) && i > 0 {
			prev := s[i-1]
			nextLower := i+1 < len(s) && isLower(s[i+1])
			if isLower(prev) || isDigit(prev) || (isUpper(prev) && nextLower) {
				b.WriteByte('_')
			}
		}
		if isLower(c) {
			c -= 'a' - 'A'
		}
		b.WriteByte(c)
	}
	return b.String()
}

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// EnumString is the JSON form of an enum value: its name without the enum's prefix, lower-cased
// (ATTRIBUTE_STATUS_DRAFT → "draft"). ok is false for the zero (UNSPECIFIED) value and unknown numbers,
// which are rendered as null.
func EnumString(ed protoreflect.EnumDescriptor, n protoreflect.EnumNumber) (name string, ok bool) {
	name, ok = enumInfoOf(ed).short[n]
	return name, ok
}

// ParseEnum accepts the JSON form of an enum value ("draft"): never the proto name
// ("ATTRIBUTE_STATUS_DRAFT"), a number nor the UNSPECIFIED value, so that the REST facade takes
// exactly the values its OpenAPI document lists.
func ParseEnum(ed protoreflect.EnumDescriptor, s string) (protoreflect.EnumNumber, bool) {
	n, ok := enumInfoOf(ed).parse[s]
	return n, ok
}

// EnumValues lists the accepted JSON forms of an enum's values, in declaration order.
func EnumValues(ed protoreflect.EnumDescriptor) []string {
	return slices.Clone(enumInfoOf(ed).allowed)
}

// EnumError is the decode-error message for a value that is not one of the enum's:
// "must be one of: draft, published, unpublished, removed".
func EnumError(ed protoreflect.EnumDescriptor) string {
	return "must be one of: " + strings.Join(enumInfoOf(ed).allowed, ", ")
}
