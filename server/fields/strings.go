package fields

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/catalogd/catalogd/server/apierr"
)

// Strings anywhere in a request: every string of every request message (body fields, path and
// query parameters, list filters, the strings inside a google.protobuf.Value, Struct or ListValue,
// map keys) must be valid UTF-8 and hold no U+0000 (PostgreSQL cannot store it in text or jsonb:
// before this check it was a 500). Request.Check applies it to every RPC; the violation names the
// field as a REST client knows it: `code`, `[2].code`, `contents[0].name`, `value.a[3]`,
// `code[contains]` (a list filter), `codes[eq]`.
//
// Codes: a string field whose JSON name is `code` (the identifier of every family) refuses
// control characters (Unicode Cc), format characters (Cf: the bidirectional embeddings, overrides,
// isolates and marks U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C, zero-width characters,
// U+FEFF, soft hyphen, tags, …) and the line and paragraph separators U+2028 and U+2029: a code is
// an identifier compared byte for byte, and an invisible or reordering character makes two codes
// that look the same differ (Trojan Source). CodePattern states the same rule for the OpenAPI
// document.

// Messages of the string violations.
const (
	msgNUL = "must not contain U+0000"
	// MsgInvalidUTF8 is the message of bytes that are not UTF-8 (they cannot be read: the HTTP front
	// door answers MALFORMED_REQUEST for it, VALIDATION_FAILED for U+0000).
	MsgInvalidUTF8 = "must be valid UTF-8"
)

// CodePattern is the rule of code fields as a JSON Schema pattern (Go's RE2 and ECMAScript with
// the u flag read it alike).
const CodePattern = `^[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}]*$`

// IsCodeName reports whether a string field's JSON name makes it a code (see CodePattern).
func IsCodeName(jsonName string) bool { return jsonName == "code" }

// NoNULPattern is the rule of every other request string as a JSON Schema pattern: no U+0000.
const NoNULPattern = `^[^\x00]*$`

// The special forms the services check (server/catalog) as JSON Schema patterns, each the syntax
// the check starts from, so that a value the pattern refuses is refused by the service too (the
// services then check more: a registered BCP 47 subtag, a parsable media type's parameters):
const (
	// LocaleCodePattern: a BCP 47 language tag, subtags of 1 to 8 letters or digits joined by `-`
	// (or `_`, which the service reads too: en_us is stored en-US).
	LocaleCodePattern = `^[A-Za-z]{1,8}([-_][A-Za-z0-9]{1,8})*$`
	// SearchQueryPattern: a full-text query (q of server/list): a letter or digit, none of the
	// search operators & | ! : * ( ) < > (nor U+0000).
	SearchQueryPattern = `^[^\x00&|!:*()<>]*[\p{L}\p{N}][^\x00&|!:*()<>]*$`
	// SHA256HexPattern: a SHA-256 as 64 hexadecimal digits.
	SHA256HexPattern = `^[0-9A-Fa-f]{64}$`
	// MediaTypePattern: a media type, type/subtype (RFC 9110 tokens) with optional parameters.
	MediaTypePattern = "^\\s*[!#$%&'*+.^_`|~0-9A-Za-z-]+/[!#$%&'*+.^_`|~0-9A-Za-z-]+\\s*(;.*)?$"
)

// specialPatterns are the fields of those forms, by full name.
var specialPatterns = map[protoreflect.FullName]string{
	"catalog.v1.LocaleCreate.code":                       LocaleCodePattern,
	"catalog.v1.LocaleUpdate.code":                       LocaleCodePattern,
	"catalog.v1.AssetFileUploadInitiate.checksum_sha256": SHA256HexPattern,
	"catalog.v1.ImportCreate.checksum_sha256":            SHA256HexPattern,
	"catalog.v1.AssetFileUploadInitiate.content_type":    MediaTypePattern,
	"catalog.v1.ListProductsRequest.q":                   SearchQueryPattern,
}

// PatternOf is the pattern the server enforces on a request string field ("" for none): a special
// form's (above), CodePattern for codes, NoNULPattern for any other string without a format (every
// request string refuses U+0000; a format such as uuid or date-time excludes it already). The
// OpenAPI document publishes it.
func PatternOf(fd protoreflect.FieldDescriptor) string {
	if fd.Kind() != protoreflect.StringKind || fd.IsMap() {
		return ""
	}
	if p, ok := specialPatterns[fd.FullName()]; ok {
		return p
	}
	if !fd.IsList() && IsCodeName(fd.JSONName()) {
		return CodePattern
	}
	if IsUUIDName(fd.JSONName()) || RulesOf(fd).GetFormat() != "" {
		return ""
	}
	return NoNULPattern
}

// codeViolation is the message for a code holding a refused character, or "".
func codeViolation(s string) string {
	ascii := true
	for j := 0; j < len(s); j++ {
		if c := s[j]; c < 0x20 || c >= 0x7f { // printable ASCII holds none of them: the usual code
			ascii = false
			break
		}
	}
	if ascii {
		return ""
	}
	i := 0
	for _, r := range s {
		i++
		if r == 0 || r == utf8.RuneError {
			continue // reported by the string check
		}
		if unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp) {
			return fmt.Sprintf("must not contain control, invisible or bidirectional formatting characters (U+%04X at character %d)", r, i)
		}
	}
	return ""
}

// StringViolation is the message for a string that is not valid UTF-8 (checked first: such bytes
// cannot be read at all) or holds U+0000, or "": the rule of every string of a request, message
// fields here and path and query parameters in the HTTP front door.
func StringViolation(s string) string {
	if !utf8.ValidString(s) {
		return MsgInvalidUTF8
	}
	if strings.IndexByte(s, 0) >= 0 {
		return msgNUL
	}
	return ""
}

// hasStrings tells whether any string can be reached from a message type (string fields, maps,
// Value/Struct/ListValue): messages without any cost nothing to check.
func hasStrings(md protoreflect.MessageDescriptor) bool { return metaOf(md).strings }

func computeHasStrings(md protoreflect.MessageDescriptor, seen map[protoreflect.FullName]bool) bool {
	if seen[md.FullName()] {
		return false // a cycle: the first visit answers
	}
	seen[md.FullName()] = true
	fs := md.Fields()
	for i := 0; i < fs.Len(); i++ {
		fd := fs.Get(i)
		switch {
		case fd.Kind() == protoreflect.StringKind:
			return true
		case fd.IsMap():
			if fd.MapKey().Kind() == protoreflect.StringKind || fd.MapValue().Kind() == protoreflect.StringKind {
				return true
			}
			if m := fd.MapValue().Message(); m != nil && computeHasStrings(m, seen) {
				return true
			}
		case fd.Message() != nil:
			if computeHasStrings(fd.Message(), seen) {
				return true
			}
		}
	}
	return false
}

// badStrings reports whether any string in r (fields, list items, map keys and values, through
// every nested message) breaks the rule of StringViolation: the quick test before stringNamer
// works out where.
func badStrings(r protoreflect.Message) bool {
	if !hasStrings(r.Descriptor()) {
		return false
	}
	fs := r.Descriptor().Fields()
	for i := 0; i < fs.Len(); i++ {
		fd := fs.Get(i)
		if !r.Has(fd) {
			continue
		}
		switch val := r.Get(fd); {
		case fd.IsMap():
			bad := false
			val.Map().Range(func(k protoreflect.MapKey, mv protoreflect.Value) bool {
				bad = fd.MapKey().Kind() == protoreflect.StringKind && StringViolation(k.String()) != "" ||
					badValue(fd.MapValue(), mv)
				return !bad
			})
			if bad {
				return true
			}
		case fd.IsList():
			l := val.List()
			for j := 0; j < l.Len(); j++ {
				if badValue(fd, l.Get(j)) {
					return true
				}
			}
		default:
			if badValue(fd, val) {
				return true
			}
		}
	}
	return false
}

// badValue is badStrings of one value of fd's type.
func badValue(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
	switch {
	case fd.Kind() == protoreflect.StringKind:
		return StringViolation(v.String()) != ""
	case fd.Message() != nil:
		return badStrings(v.Message())
	}
	return false
}

// stringNamer names the strings of one part of a request.
type stringNamer struct {
	v     apierr.Validator
	query bool // a query parameter: nested fields are name[op], repeated values keep the name
}

// checkStrings records a violation for each string of r that is not valid UTF-8 or holds U+0000.
// prefix is the name of r ("" at the top, "x." or "[2]." inside).
func (n stringNamer) message(r protoreflect.Message, prefix string) {
	md := r.Descriptor()
	if !hasStrings(md) {
		return
	}
	switch md.FullName() {
	case "google.protobuf.Value":
		n.value(r, strings.TrimSuffix(prefix, "."))
		return
	case "google.protobuf.Struct":
		n.structFields(r, strings.TrimSuffix(prefix, "."))
		return
	case "google.protobuf.ListValue":
		n.listValue(r, strings.TrimSuffix(prefix, "."))
		return
	}
	r.Range(func(fd protoreflect.FieldDescriptor, val protoreflect.Value) bool {
		n.field(fd, val, n.join(prefix, fd.JSONName()))
		return true
	})
}

// join names a field under prefix: `prefix.name`, or `parent[name]` inside a query parameter.
func (n stringNamer) join(prefix, name string) string {
	if n.query && prefix != "" {
		return strings.TrimSuffix(prefix, ".") + "[" + name + "]"
	}
	return prefix + name
}

// field checks one set field named name.
func (n stringNamer) field(fd protoreflect.FieldDescriptor, val protoreflect.Value, name string) {
	switch {
	case fd.IsMap():
		m := val.Map()
		for _, k := range sortedKeys(m) {
			key := k.String()
			entry := name + keySeg(key)
			if fd.MapKey().Kind() == protoreflect.StringKind {
				if msg := StringViolation(key); msg != "" {
					n.v.Add(entry, "%s (in the key)", msg)
				}
			}
			n.single(fd.MapValue(), m.Get(k), entry)
		}
	case fd.IsList():
		l := val.List()
		for i := 0; i < l.Len(); i++ {
			el := name
			if !n.query {
				el = fmt.Sprintf("%s[%d]", name, i)
			}
			n.single(fd, l.Get(i), el)
		}
	default:
		n.single(fd, val, name)
	}
}

// single checks one value (a list item, a map value or a singular field's value).
func (n stringNamer) single(fd protoreflect.FieldDescriptor, val protoreflect.Value, name string) {
	switch {
	case fd.Kind() == protoreflect.StringKind:
		if msg := StringViolation(val.String()); msg != "" {
			n.v.Add(name, "%s", msg)
		}
	case fd.Message() != nil && jsonArrayField(fd.Message()) != nil:
		// A json_array message is its list in JSON: localeUuids[0], not localeUuids.values[0].
		inner := jsonArrayField(fd.Message())
		n.field(inner, val.Message().Get(inner), name)
	case fd.Message() != nil:
		n.message(val.Message(), name+".")
	}
}

// value checks a google.protobuf.Value, transparent in JSON: value, value.a, value[3].
func (n stringNamer) value(r protoreflect.Message, name string) {
	od := r.Descriptor().Oneofs().ByName("kind")
	if od == nil {
		return
	}
	fd := r.WhichOneof(od)
	if fd == nil {
		return
	}
	switch fd.Name() {
	case "string_value":
		if msg := StringViolation(r.Get(fd).String()); msg != "" {
			n.v.Add(name, "%s", msg)
		}
	case "struct_value":
		n.structFields(r.Get(fd).Message(), name)
	case "list_value":
		n.listValue(r.Get(fd).Message(), name)
	}
}

func (n stringNamer) structFields(r protoreflect.Message, name string) {
	fd := r.Descriptor().Fields().ByName("fields")
	if fd == nil || !fd.IsMap() {
		return
	}
	m := r.Get(fd).Map()
	for _, k := range sortedKeys(m) { // a stable order of violations
		key := k.String()
		entry := name + keySeg(key)
		if msg := StringViolation(key); msg != "" {
			n.v.Add(entry, "%s (in the key)", msg)
		}
		n.value(m.Get(k).Message(), entry)
	}
}

func (n stringNamer) listValue(r protoreflect.Message, name string) {
	fd := r.Descriptor().Fields().ByName("values")
	if fd == nil || !fd.IsList() {
		return
	}
	l := r.Get(fd).List()
	for i := 0; i < l.Len(); i++ {
		n.value(l.Get(i).Message(), fmt.Sprintf("%s[%d]", name, i))
	}
}

// sortedKeys are the keys of m in order.
func sortedKeys(m protoreflect.Map) []protoreflect.MapKey {
	keys := make([]protoreflect.MapKey, 0, m.Len())
	m.Range(func(k protoreflect.MapKey, _ protoreflect.Value) bool {
		keys = append(keys, k)
		return true
	})
	sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
	return keys
}

// keySeg names a map or Struct key after its parent: .key for a plain identifier, else
// ["key"] with the key JSON-quoted (U+0000 as \u0000, invalid UTF-8 as U+FFFD).
func keySeg(key string) string {
	plain := key != ""
	for i, r := range key {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			plain = false
			break
		}
	}
	if plain {
		return "." + key
	}
	q, _ := json.Marshal(strings.ToValidUTF8(key, "\uFFFD"))
	return "[" + string(q) + "]"
}
