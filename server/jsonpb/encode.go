package jsonpb

import (
	"encoding/base64"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// Range of google.protobuf.Timestamp: 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z.
const (
	minTimestampSeconds = -62135596800
	maxTimestampSeconds = 253402300799
)

// appendMessage writes m with every field present (see the package comment).
func appendMessage(b []byte, m protoreflect.Message) ([]byte, error) {
	return appendMessageInfo(b, m, messageInfo(m.Descriptor()))
}

// appendMessageInfo is appendMessage with m's msgInfo at hand.
func appendMessageInfo(b []byte, m protoreflect.Message, info *msgInfo) ([]byte, error) {
	return appendMessageOmitting(b, m, info, nil)
}

// appendMessageOmitting is appendMessageInfo without the fields named in omit (of m itself, not of
// the messages inside it).
func appendMessageOmitting(b []byte, m protoreflect.Message, info *msgInfo, omit map[protoreflect.Name]bool) ([]byte, error) {
	switch info.wkt {
	case wktTimestamp:
		return appendTimestampMessage(b, m)
	case wktDuration:
		return appendDuration(b, m)
	case wktStruct:
		return appendStruct(b, m)
	case wktValue:
		return appendStructValue(b, m)
	case wktListValue:
		return appendListValue(b, m)
	case wktFieldMask:
		return appendFieldMask(b, m), nil
	case wktAny:
		return appendAny(b, m)
	case wktWrapper:
		fd := m.Descriptor().Fields().ByNumber(1)
		return appendSingular(b, m.Get(fd), fd)
	}
	if info.jsonArray != nil {
		return appendList(b, m.Get(info.jsonArray).List(), info.jsonArray)
	}
	b = append(b, '{')
	var err error
	wrote := false
	for _, f := range info.fields {
		if omit != nil && omit[f.fd.Name()] {
			continue
		}
		if wrote {
			b = append(b, ',')
		}
		wrote = true
		b = append(b, f.key...)
		if f.nullable && !m.Has(f.fd) {
			b = append(b, "null"...)
			continue
		}
		switch {
		case f.fd.IsList() && f.fd.Message() != nil:
			b, err = appendMessageList(b, m.Get(f.fd).List(), f.message())
		case f.fd.IsList():
			b, err = appendList(b, m.Get(f.fd).List(), f.fd)
		case f.fd.IsMap():
			b, err = appendMap(b, m.Get(f.fd).Map(), f.fd)
		case f.fd.Message() != nil:
			b, err = appendMessageInfo(b, m.Get(f.fd).Message(), f.message())
		case f.enum != nil:
			b, err = appendEnum(b, m.Get(f.fd).Enum(), f.fd, f.enum)
		default:
			b, err = appendSingular(b, m.Get(f.fd), f.fd)
		}
		if err != nil {
			return b, err
		}
	}
	return append(b, '}'), nil
}

// appendMessageList writes a list of messages of one type (info).
func appendMessageList(b []byte, l protoreflect.List, info *msgInfo) ([]byte, error) {
	b = append(b, '[')
	var err error
	for i, n := 0, l.Len(); i < n; i++ {
		if i > 0 {
			b = append(b, ',')
		}
		if b, err = appendMessageInfo(b, l.Get(i).Message(), info); err != nil {
			return b, err
		}
	}
	return append(b, ']'), nil
}

func appendList(b []byte, l protoreflect.List, fd protoreflect.FieldDescriptor) ([]byte, error) {
	b = append(b, '[')
	var err error
	for i, n := 0, l.Len(); i < n; i++ {
		if i > 0 {
			b = append(b, ',')
		}
		if b, err = appendSingular(b, l.Get(i), fd); err != nil {
			return b, err
		}
	}
	return append(b, ']'), nil
}

func appendMap(b []byte, mp protoreflect.Map, fd protoreflect.FieldDescriptor) ([]byte, error) {
	keys := make([]protoreflect.MapKey, 0, mp.Len())
	mp.Range(func(k protoreflect.MapKey, _ protoreflect.Value) bool {
		keys = append(keys, k)
		return true
	})
	switch fd.MapKey().Kind() {
	case protoreflect.StringKind:
		slices.SortFunc(keys, func(a, b protoreflect.MapKey) int { return strings.Compare(a.String(), b.String()) })
	case protoreflect.BoolKind:
		slices.SortFunc(keys, func(a, b protoreflect.MapKey) int {
			if a.Bool() == b.Bool() {
				return 0
			} else if !a.Bool() {
				return -1
			}
			return 1
		})
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind, protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		slices.SortFunc(keys, func(a, b protoreflect.MapKey) int {
			x, y := a.Uint(), b.Uint()
			return cmpOrdered(x, y)
		})
	default:
		slices.SortFunc(keys, func(a, b protoreflect.MapKey) int {
			x, y := a.Int(), b.Int()
			return cmpOrdered(x, y)
		})
	}
	b = append(b, '{')
	vfd := fd.MapValue()
	var err error
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, k.String())
		b = append(b, ':')
		if b, err = appendSingular(b, mp.Get(k), vfd); err != nil {
			return b, err
		}
	}
	return append(b, '}'), nil
}

func cmpOrdered[T int64 | uint64](x, y T) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// appendSingular writes one value of fd's type (a list element, a map value or a singular field).
func appendSingular(b []byte, v protoreflect.Value, fd protoreflect.FieldDescriptor) ([]byte, error) {
	switch fd.Kind() {
	case protoreflect.StringKind:
		return appendString(b, v.String()), nil
	case protoreflect.MessageKind, protoreflect.GroupKind:
		return appendMessage(b, v.Message())
	case protoreflect.EnumKind:
		return appendEnum(b, v.Enum(), fd, enumInfoOf(fd.Enum()))
	case protoreflect.BoolKind:
		if v.Bool() {
			return append(b, "true"...), nil
		}
		return append(b, "false"...), nil
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind,
		protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return strconv.AppendInt(b, v.Int(), 10), nil
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind, protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return strconv.AppendUint(b, v.Uint(), 10), nil
	case protoreflect.FloatKind:
		return appendFloat(b, v.Float(), 32), nil
	case protoreflect.DoubleKind:
		return appendFloat(b, v.Float(), 64), nil
	case protoreflect.BytesKind:
		b = append(b, '"')
		b = base64.StdEncoding.AppendEncode(b, v.Bytes())
		return append(b, '"'), nil
	}
	return b, fmt.Errorf("jsonpb: unsupported field kind %v of %s", fd.Kind(), fd.FullName())
}

// appendEnum writes value n of fd's enum (ei: its names).
func appendEnum(b []byte, n protoreflect.EnumNumber, fd protoreflect.FieldDescriptor, ei *enumInfo) ([]byte, error) {
	ed := fd.Enum()
	if ed.FullName() == "google.protobuf.NullValue" {
		return append(b, "null"...), nil
	}
	if s, ok := ei.encoded[n]; ok {
		return append(b, s...), nil
	}
	if n == 0 || ed.Values().ByNumber(n) != nil { // zero / UNSPECIFIED
		return append(b, "null"...), nil
	}
	return b, fmt.Errorf("jsonpb: %d is not a value of enum %s (field %s)", n, ed.FullName(), fd.FullName())
}

// appendFloat writes a float the way encoding/json does; NaN and infinities, which JSON cannot
// represent, as the strings protojson uses.
func appendFloat(b []byte, f float64, bits int) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, `"NaN"`...)
	case math.IsInf(f, 1):
		return append(b, `"Infinity"`...)
	case math.IsInf(f, -1):
		return append(b, `"-Infinity"`...)
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 {
		if bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			format = 'e'
		}
	}
	b = strconv.AppendFloat(b, f, format, -1, bits)
	if format == 'e' { // 1e-07 → 1e-7
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string, the way the codec writes every string: no HTML
// escaping, invalid UTF-8 as U+FFFD, U+2028 and U+2029 escaped.
func AppendString(b []byte, s string) []byte { return appendString(b, s) }

// appendString writes s as a JSON string without HTML escaping. Invalid UTF-8 becomes U+FFFD.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029': // valid JSON, but not valid JavaScript
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

func appendTimestampMessage(b []byte, m protoreflect.Message) ([]byte, error) {
	var sec int64
	var nanos int32
	if ts, ok := m.Interface().(*timestamppb.Timestamp); ok {
		sec, nanos = ts.GetSeconds(), ts.GetNanos()
	} else {
		fds := m.Descriptor().Fields()
		sec, nanos = m.Get(fds.ByNumber(1)).Int(), int32(m.Get(fds.ByNumber(2)).Int())
	}
	return appendTimestamp(b, sec, nanos)
}

// appendTimestamp writes `"2026-01-02T03:04:05.123456Z"`: UTC, exactly six fractional digits
// (truncated to microseconds). A response of 100 items holds 200 or more of them: the date is
// worked out from the day number directly, without time.Time.
func appendTimestamp(b []byte, sec int64, nanos int32) ([]byte, error) {
	if sec < minTimestampSeconds || sec > maxTimestampSeconds || nanos < 0 || nanos >= 1e9 {
		return b, fmt.Errorf("jsonpb: timestamp out of range: seconds %d, nanos %d", sec, nanos)
	}
	days, clock := sec/86400, sec%86400
	if clock < 0 {
		days, clock = days-1, clock+86400
	}
	year, month, day := civilDate(days)
	b = append(b, '"')
	b = append2(append2(b, year/100), year%100)
	b = append2(append(b, '-'), month)
	b = append2(append(b, '-'), day)
	b = append2(append(b, 'T'), int(clock/3600))
	b = append2(append(b, ':'), int(clock/60%60))
	b = append2(append(b, ':'), int(clock%60))
	us := int(nanos / 1000)
	b = append2(append2(append2(append(b, '.'), us/10000), us/100%100), us%100)
	return append(b, 'Z', '"'), nil
}

// civilDate is the proleptic Gregorian date of a day number (days since 1970-01-01), after
// Howard Hinnant's days_from_civil inverse.
func civilDate(days int64) (year, month, day int) {
	z := days + 719468
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era--
	}
	doe := z - era*146097                                  // [0, 146096]
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365 // [0, 399]
	doy := doe - (365*yoe + yoe/4 - yoe/100)               // [0, 365]
	mp := (5*doy + 2) / 153                                // [0, 11], from March
	day = int(doy - (153*mp+2)/5 + 1)
	month = int(mp + 3)
	if month > 12 {
		month -= 12
	}
	year = int(yoe + era*400)
	if month <= 2 {
		year++
	}
	return year, month, day
}

// append2 writes 0 <= v < 100 as two digits.
func append2(b []byte, v int) []byte { return append(b, byte('0'+v/10), byte('0'+v%10)) }

// appendDigits writes a non-negative v zero-padded to width digits.
func appendDigits(b []byte, v, width int) []byte {
	var buf [10]byte
	i := len(buf)
	for v > 0 || width > 0 {
		i--
		buf[i] = byte('0' + v%10)
		v /= 10
		width--
	}
	return append(b, buf[i:]...)
}

// appendDuration writes protojson's form: "1.500s", "-0.000001s".
func appendDuration(b []byte, m protoreflect.Message) ([]byte, error) {
	fds := m.Descriptor().Fields()
	sec, nanos := m.Get(fds.ByNumber(1)).Int(), m.Get(fds.ByNumber(2)).Int()
	if sec < -315576000000 || sec > 315576000000 || nanos <= -1e9 || nanos >= 1e9 || (sec > 0 && nanos < 0) || (sec < 0 && nanos > 0) {
		return b, fmt.Errorf("jsonpb: duration out of range: seconds %d, nanos %d", sec, nanos)
	}
	b = append(b, '"')
	if sec < 0 || nanos < 0 {
		b = append(b, '-')
		sec, nanos = -sec, -nanos
	}
	b = strconv.AppendInt(b, sec, 10)
	if nanos != 0 {
		frac := appendDigits(nil, int(nanos), 9)
		switch {
		case nanos%1e6 == 0:
			frac = frac[:3]
		case nanos%1e3 == 0:
			frac = frac[:6]
		}
		b = append(b, '.')
		b = append(b, frac...)
	}
	return append(b, 's', '"'), nil
}

// appendStruct writes google.protobuf.Struct as a JSON object (keys sorted).
func appendStruct(b []byte, m protoreflect.Message) ([]byte, error) {
	fd := m.Descriptor().Fields().ByNumber(1)
	return appendMap(b, m.Get(fd).Map(), fd)
}

// appendListValue writes google.protobuf.ListValue as a JSON array.
func appendListValue(b []byte, m protoreflect.Message) ([]byte, error) {
	fd := m.Descriptor().Fields().ByNumber(1)
	return appendList(b, m.Get(fd).List(), fd)
}

// appendStructValue writes google.protobuf.Value as the JSON value it holds (null when empty).
func appendStructValue(b []byte, m protoreflect.Message) ([]byte, error) {
	fd := m.WhichOneof(m.Descriptor().Oneofs().ByName("kind"))
	if fd == nil {
		return append(b, "null"...), nil
	}
	v := m.Get(fd)
	switch fd.Number() {
	case 1: // null_value
		return append(b, "null"...), nil
	case 2: // number_value
		f := v.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return b, fmt.Errorf("jsonpb: google.protobuf.Value cannot hold %v", f)
		}
		return appendFloat(b, f, 64), nil
	case 3:
		return appendString(b, v.String()), nil
	case 4:
		if v.Bool() {
			return append(b, "true"...), nil
		}
		return append(b, "false"...), nil
	case 5:
		return appendStruct(b, v.Message())
	case 6:
		return appendListValue(b, v.Message())
	}
	return b, fmt.Errorf("jsonpb: unknown google.protobuf.Value field %d", fd.Number())
}

// appendFieldMask writes a FieldMask met outside a field (fields of that type are never written):
// protojson's comma-separated lowerCamel paths.
func appendFieldMask(b []byte, m protoreflect.Message) []byte {
	l := m.Get(m.Descriptor().Fields().ByNumber(1)).List()
	parts := make([]string, l.Len())
	for i := range parts {
		segs := strings.Split(l.Get(i).String(), ".")
		for j, s := range segs {
			segs[j] = LowerCamel(s)
		}
		parts[i] = strings.Join(segs, ".")
	}
	return appendString(b, strings.Join(parts, ","))
}

// LowerCamel is the JSON name protobuf derives from a snake_case field name (display_name →
// displayName): the underscore goes and the lower-case letter after it is upper-cased.
func LowerCamel(s string) string {
	var sb strings.Builder
	up := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' {
			up = true
			continue
		}
		if up && isLower(c) {
			c -= 'a' - 'A'
		}
		up = false
		sb.WriteByte(c)
	}
	return sb.String()
}

// appendAny writes google.protobuf.Any the protojson way: {"@type": url, ...fields} or, for a
// well-known type with a JSON form of its own, {"@type": url, "value": ...}. It appears in error
// statuses the gateway renders (google.rpc.Status details).
func appendAny(b []byte, m protoreflect.Message) ([]byte, error) {
	fds := m.Descriptor().Fields()
	url := m.Get(fds.ByNumber(1)).String()
	raw := m.Get(fds.ByNumber(2)).Bytes()
	if url == "" && len(raw) == 0 {
		return append(b, "{}"...), nil
	}
	mt, err := protoregistry.GlobalTypes.FindMessageByURL(url)
	if err != nil {
		return b, fmt.Errorf("jsonpb: google.protobuf.Any: %w", err)
	}
	inner := mt.New()
	if err := (proto.UnmarshalOptions{}).Unmarshal(raw, inner.Interface()); err != nil {
		return b, fmt.Errorf("jsonpb: google.protobuf.Any %s: %w", url, err)
	}
	b = append(b, `{"@type":`...)
	b = appendString(b, url)
	info := messageInfo(inner.Descriptor())
	if info.wkt != wktNone || info.jsonArray != nil {
		b = append(b, `,"value":`...)
		if b, err = appendMessage(b, inner); err != nil {
			return b, err
		}
		return append(b, '}'), nil
	}
	start := len(b)
	if b, err = appendMessage(b, inner); err != nil {
		return b, err
	}
	// The inner object `{...}` is spliced after "@type": drop its brace, add a comma when not empty.
	if len(b)-start == 2 { // {}
		b = b[:start]
		return append(b, '}'), nil
	}
	b[start] = ','
	return b, nil
}
