package jsonpb

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/fieldmaskpb"

	"github.com/catalogd/catalogd/server/apierr"
)

// maxDepth bounds the nesting of a request body (objects and arrays).
const maxDepth = 100

var protoMessageType = reflect.TypeFor[proto.Message]()

// unmarshal decodes data into v: a proto.Message, a **T or a *[]*T (T a generated message).
func unmarshal(data []byte, v any) error {
	d := &decoder{data: data}
	d.skipWS()
	if d.pos == len(d.data) {
		return io.EOF
	}
	commit, err := d.decodeTop(v)
	if err != nil {
		return err
	}
	d.skipWS()
	if d.pos < len(d.data) {
		return d.syntaxErr("unexpected data after the JSON value")
	}
	if commit != nil {
		commit()
	}
	return nil
}

// decodeTop decodes the body. A **T or *[]*T target is set by commit, once the whole body is known
// to be good; a message target is filled in place.
func (d *decoder) decodeTop(v any) (commit func(), err error) {
	if m, ok := v.(proto.Message); ok {
		pm := m.ProtoReflect()
		if !pm.IsValid() {
			return nil, errors.New("jsonpb: Unmarshal into a nil message")
		}
		return nil, d.decodeTopMessage(pm)
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return nil, fmt.Errorf("jsonpb: Unmarshal needs a non-nil pointer, got %T", v)
	}
	e := rv.Elem()
	switch {
	case e.Kind() == reflect.Pointer && e.Type().Implements(protoMessageType) && e.Type().Elem().Kind() == reflect.Struct:
		// **T, e.g. &protoReq.Attribute.
		nv := reflect.New(e.Type().Elem())
		if err := d.decodeTopMessage(nv.Interface().(proto.Message).ProtoReflect()); err != nil {
			return nil, err
		}
		return func() { e.Set(nv) }, nil
	case e.Kind() == reflect.Slice && e.Type().Elem().Kind() == reflect.Pointer &&
		e.Type().Elem().Implements(protoMessageType) && e.Type().Elem().Elem().Kind() == reflect.Struct:
		// *[]*T, e.g. &protoReq.Items.
		out, err := d.decodeTopSlice(e.Type())
		if err != nil {
			return nil, err
		}
		return func() { e.Set(out) }, nil
	}
	return d.decodeOther(rv)
}

func (d *decoder) decodeTopMessage(m protoreflect.Message) error {
	info := messageInfo(m.Descriptor())
	want := byte('{')
	if info.jsonArray != nil {
		want = '['
	}
	if info.wkt == wktNone && d.peek() != want {
		return d.topTypeErr(want)
	}
	return d.decodeMessage(m)
}

func (d *decoder) decodeTopSlice(sliceType reflect.Type) (reflect.Value, error) {
	if d.peek() != '[' {
		return reflect.Value{}, d.topTypeErr('[')
	}
	elemType := sliceType.Elem().Elem() // T
	out := reflect.MakeSlice(sliceType, 0, 8)
	err := d.array(func(i int) error {
		nv := reflect.New(elemType)
		m := nv.Interface().(proto.Message).ProtoReflect()
		if d.peek() == 'n' {
			if err := d.literal("null"); err != nil {
				return err
			}
			return d.fieldErr("must be an object, not null")
		}
		if err := d.decodeMessage(m); err != nil {
			return err
		}
		out = reflect.Append(out, nv)
		return nil
	})
	return out, err
}

// decodeOther decodes a body into a target that is not a message (e.g. a repeated scalar field
// used as the body) with encoding/json, as strictly as it allows.
func (d *decoder) decodeOther(rv reflect.Value) (commit func(), err error) {
	if !utf8.Valid(d.data) {
		return nil, &apierr.DecodeError{Field: "body", Message: "invalid UTF-8"}
	}
	nv := reflect.New(rv.Elem().Type())
	dec := json.NewDecoder(bytes.NewReader(d.data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(nv.Interface()); err != nil {
		return nil, &apierr.DecodeError{Field: "body", Message: strings.ReplaceAll(err.Error(), "\n", " ")}
	}
	d.pos = int(dec.InputOffset())
	return func() { rv.Elem().Set(nv.Elem()) }, nil
}

func (d *decoder) topTypeErr(want byte) error {
	if err := d.skipValue(); err != nil {
		return err
	}
	if want == '[' {
		return &apierr.DecodeError{Field: "body", Message: "must be a JSON array"}
	}
	return &apierr.DecodeError{Field: "body", Message: "must be a JSON object"}
}

// decoder is a strict JSON reader driven by message descriptors.
type decoder struct {
	data  []byte
	pos   int
	path  []pathSeg
	depth int
}

// pathSeg is one step of the JSON path of the value being read: a key or an array index.
type pathSeg struct {
	key   []byte
	index int // -1 for a key
}

func (d *decoder) push(key []byte) { d.path = append(d.path, pathSeg{key: key, index: -1}) }
func (d *decoder) pushIndex(i int) { d.path = append(d.path, pathSeg{index: i}) }
func (d *decoder) pop()            { d.path = d.path[:len(d.path)-1] }

// pathString is the JSON path: `code`, `[2].code`, `constraints.minLength`, `values[1]`;
// "body" for the whole body.
func (d *decoder) pathString() string {
	if len(d.path) == 0 {
		return "body"
	}
	var sb strings.Builder
	for _, s := range d.path {
		if s.index >= 0 {
			sb.WriteByte('[')
			sb.WriteString(strconv.Itoa(s.index))
			sb.WriteByte(']')
			continue
		}
		if sb.Len() > 0 {
			sb.WriteByte('.')
		}
		sb.Write(s.key)
	}
	return sb.String()
}

func (d *decoder) fieldErr(msg string) error {
	return &apierr.DecodeError{Field: d.pathString(), Message: msg}
}

// syntaxErr reports malformed JSON at the current position.
func (d *decoder) syntaxErr(msg string) error {
	line, col := 1, 1
	for _, c := range d.data[:min(d.pos, len(d.data))] {
		if c == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return &apierr.DecodeError{Field: "body", Message: fmt.Sprintf("malformed JSON at line %d, column %d: %s", line, col, msg)}
}

func (d *decoder) describeChar() string {
	if d.pos >= len(d.data) {
		return "end of input"
	}
	c := d.data[d.pos]
	if c >= 0x20 && c < 0x7f {
		return strconv.Quote(string(c))
	}
	return fmt.Sprintf("byte 0x%02x", c)
}

func (d *decoder) skipWS() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

// peek skips white space and returns the next byte (0 at the end).
func (d *decoder) peek() byte {
	d.skipWS()
	if d.pos < len(d.data) {
		return d.data[d.pos]
	}
	return 0
}

// kindOfNext names the JSON type of the next value, for type errors.
func (d *decoder) kindOfNext() string {
	switch c := d.peek(); c {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	default:
		return "a number"
	}
}

// typeErr reports a value of the wrong JSON type: "must be a string, not a number".
func (d *decoder) typeErr(want string) error {
	return d.valueErr("must be " + want + ", not " + d.kindOfNext())
}

// valueErr reports msg about the value that starts here, unless that value is malformed JSON:
// malformed JSON is reported as such.
func (d *decoder) valueErr(msg string) error {
	depth := len(d.path)
	if err := d.skipValue(); err != nil {
		var de *apierr.DecodeError
		if errors.As(err, &de) && de.Field == "body" {
			return err
		}
	}
	d.path = d.path[:depth]
	return d.fieldErr(msg)
}

// skipValue reads one JSON value without storing it.
func (d *decoder) skipValue() error {
	switch c := d.peek(); {
	case c == '{':
		return d.object(func([]byte) error { return d.skipValue() })
	case c == '[':
		return d.array(func(int) error { return d.skipValue() })
	case c == '"':
		_, err := d.readString()
		return err
	case c == 't':
		return d.literal("true")
	case c == 'f':
		return d.literal("false")
	case c == 'n':
		return d.literal("null")
	case c == '-' || isDigit(c):
		_, _, err := d.readNumber()
		return err
	}
	return d.syntaxErr("unexpected character " + d.describeChar())
}

func (d *decoder) literal(word string) error {
	if !bytes.HasPrefix(d.data[d.pos:], []byte(word)) {
		return d.syntaxErr("invalid literal, expected " + word)
	}
	d.pos += len(word)
	return nil
}

// readString reads a JSON string. The result aliases the input when it has no escapes.
// Strings must be valid UTF-8 (unpaired surrogate escapes included).
func (d *decoder) readString() ([]byte, error) {
	d.pos++ // opening quote
	start := d.pos
	// Fast path: no escapes.
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		switch {
		case c == '"':
			s := d.data[start:d.pos]
			d.pos++
			return s, nil
		case c == '\\':
			return d.readEscapedString(start)
		case c < 0x20:
			return nil, d.syntaxErr("control character in string")
		case c < utf8.RuneSelf:
			d.pos++
		default:
			r, size := utf8.DecodeRune(d.data[d.pos:])
			if r == utf8.RuneError && size == 1 {
				return nil, d.fieldErr("invalid UTF-8")
			}
			d.pos += size
		}
	}
	return nil, d.syntaxErr("unterminated string")
}

func (d *decoder) readEscapedString(start int) ([]byte, error) {
	out := make([]byte, 0, d.pos-start+16)
	out = append(out, d.data[start:d.pos]...)
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		switch {
		case c == '"':
			d.pos++
			return out, nil
		case c == '\\':
			if d.pos+1 >= len(d.data) {
				return nil, d.syntaxErr("unterminated string")
			}
			e := d.data[d.pos+1]
			d.pos += 2
			switch e {
			case '"', '\\', '/':
				out = append(out, e)
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r, ok := d.hex4()
				if !ok {
					return nil, d.syntaxErr(`invalid \u escape`)
				}
				if utf16.IsSurrogate(r) {
					if r >= 0xDC00 || !bytes.HasPrefix(d.data[d.pos:], []byte(`\u`)) {
						return nil, d.fieldErr("invalid UTF-8 (unpaired surrogate)")
					}
					d.pos += 2
					r2, ok := d.hex4()
					if !ok {
						return nil, d.syntaxErr(`invalid \u escape`)
					}
					if r = utf16.DecodeRune(r, r2); r == utf8.RuneError {
						return nil, d.fieldErr("invalid UTF-8 (unpaired surrogate)")
					}
				}
				out = utf8.AppendRune(out, r)
			default:
				d.pos -= 2
				return nil, d.syntaxErr("invalid escape")
			}
		case c < 0x20:
			return nil, d.syntaxErr("control character in string")
		case c < utf8.RuneSelf:
			out = append(out, c)
			d.pos++
		default:
			r, size := utf8.DecodeRune(d.data[d.pos:])
			if r == utf8.RuneError && size == 1 {
				return nil, d.fieldErr("invalid UTF-8")
			}
			out = append(out, d.data[d.pos:d.pos+size]...)
			d.pos += size
		}
	}
	return nil, d.syntaxErr("unterminated string")
}

func (d *decoder) hex4() (rune, bool) {
	if d.pos+4 > len(d.data) {
		return 0, false
	}
	var r rune
	for _, c := range d.data[d.pos : d.pos+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	d.pos += 4
	return r, true
}

// readNumber reads a JSON number literal; integer tells it has no fraction and no exponent.
func (d *decoder) readNumber() (lit []byte, integer bool, err error) {
	start := d.pos
	p := d.pos
	n := len(d.data)
	if p < n && d.data[p] == '-' {
		p++
	}
	switch {
	case p < n && d.data[p] == '0':
		p++
	case p < n && d.data[p] >= '1' && d.data[p] <= '9':
		for p < n && isDigit(d.data[p]) {
			p++
		}
	default:
		d.pos = p
		return nil, false, d.syntaxErr("invalid number")
	}
	integer = true
	if p < n && d.data[p] == '.' {
		integer = false
		p++
		if p >= n || !isDigit(d.data[p]) {
			d.pos = p
			return nil, false, d.syntaxErr("invalid number")
		}
		for p < n && isDigit(d.data[p]) {
			p++
		}
	}
	if p < n && (d.data[p] == 'e' || d.data[p] == 'E') {
		integer = false
		p++
		if p < n && (d.data[p] == '+' || d.data[p] == '-') {
			p++
		}
		if p >= n || !isDigit(d.data[p]) {
			d.pos = p
			return nil, false, d.syntaxErr("invalid number")
		}
		for p < n && isDigit(d.data[p]) {
			p++
		}
	}
	d.pos = p
	return d.data[start:p], integer, nil
}

// object reads `{"k": v, ...}`, calling fn with each key positioned at its value. fn must read
// the value. The key is pushed on the path while fn runs.
func (d *decoder) object(fn func(key []byte) error) error {
	more, err := d.objectStart()
	for ; more && err == nil; more, err = d.objectNext() {
		key, err := d.objectKey()
		if err != nil {
			return err
		}
		d.push(key)
		if err := fn(key); err != nil {
			return err
		}
		d.pop()
	}
	return err
}

// objectStart consumes '{'; more is false for an empty object.
func (d *decoder) objectStart() (more bool, err error) {
	if d.depth++; d.depth > maxDepth {
		return false, d.fieldErr("nested too deeply")
	}
	d.pos++ // {
	if d.peek() == '}' {
		d.pos++
		d.depth--
		return false, nil
	}
	return true, nil
}

// objectKey reads `"key":`, leaving the position at the value.
func (d *decoder) objectKey() ([]byte, error) {
	if d.peek() != '"' {
		return nil, d.syntaxErr("expected a string key, found " + d.describeChar())
	}
	key, err := d.readString()
	if err != nil {
		return nil, err
	}
	if d.peek() != ':' {
		return nil, d.syntaxErr("expected ':' after a key, found " + d.describeChar())
	}
	d.pos++
	d.skipWS()
	return key, nil
}

// objectNext consumes ',' (more) or '}' (done) after a value.
func (d *decoder) objectNext() (more bool, err error) {
	switch d.peek() {
	case ',':
		d.pos++
		return true, nil
	case '}':
		d.pos++
		d.depth--
		return false, nil
	}
	return false, d.syntaxErr("expected ',' or '}', found " + d.describeChar())
}

// array reads `[v, ...]`, calling fn with each index positioned at its element. The index is
// pushed on the path while fn runs.
func (d *decoder) array(fn func(i int) error) error {
	if d.depth++; d.depth > maxDepth {
		return d.fieldErr("nested too deeply")
	}
	d.pos++ // [
	if d.peek() == ']' {
		d.pos++
		d.depth--
		return nil
	}
	for i := 0; ; i++ {
		d.skipWS()
		d.pushIndex(i)
		if err := fn(i); err != nil {
			return err
		}
		d.pop()
		switch d.peek() {
		case ',':
			d.pos++
		case ']':
			d.pos++
			d.depth--
			return nil
		default:
			return d.syntaxErr("expected ',' or ']', found " + d.describeChar())
		}
	}
}

// decodeMessage reads a message value: an object, or the JSON form of a well-known type or of a
// json_array message.
func (d *decoder) decodeMessage(m protoreflect.Message) error {
	info := messageInfo(m.Descriptor())
	switch info.wkt {
	case wktTimestamp:
		return d.decodeTimestamp(m)
	case wktDuration:
		return d.decodeDuration(m)
	case wktStruct:
		return d.decodeStruct(m)
	case wktValue:
		return d.decodeStructValue(m)
	case wktListValue:
		return d.decodeListValue(m)
	case wktWrapper:
		fd := m.Descriptor().Fields().ByNumber(1)
		v, err := d.decodeScalar(fd)
		if err != nil {
			return err
		}
		m.Set(fd, v)
		return nil
	case wktFieldMask:
		return d.fieldErr("a field mask is not accepted in JSON")
	case wktAny:
		return d.fieldErr("google.protobuf.Any is not accepted in JSON")
	}
	if info.jsonArray != nil {
		if d.peek() != '[' {
			return d.typeErr("an array")
		}
		return d.decodeList(m.Mutable(info.jsonArray).List(), info.jsonArray)
	}
	if d.peek() != '{' {
		return d.typeErr("an object")
	}
	// Fields seen in this object: a bit per field number below 64, a list for the others.
	var seenLow uint64
	var seenHigh []protoreflect.FieldNumber
	var mask []string
	if info.updateMask != nil {
		mask = make([]string, 0, len(info.fields))
	}
	more, err := d.objectStart()
	for ; more && err == nil; more, err = d.objectNext() {
		key, err := d.objectKey()
		if err != nil {
			return err
		}
		d.push(key)
		fd := info.byName[string(key)]
		if fd == nil {
			return d.fieldErr("unknown field")
		}
		if n := fd.Number(); n < 64 {
			if seenLow&(1<<n) != 0 {
				return d.fieldErr("duplicate field")
			}
			seenLow |= 1 << n
		} else {
			if slices.Contains(seenHigh, n) {
				return d.fieldErr("duplicate field")
			}
			seenHigh = append(seenHigh, n)
		}
		// null on a repeated or map field leaves it unchanged (DESIGN.md: null clears only a
		// nullable field; [] and {} empty these), so it is not in the mask. A nullable list is a
		// json_array message field (null clears it, as allowedValues of input type constraints).
		if info.updateMask != nil && !(d.peek() == 'n' && (fd.IsList() || fd.IsMap())) {
			mask = append(mask, string(fd.Name()))
		}
		if od := fd.ContainingOneof(); od != nil && !od.IsSynthetic() {
			if other := m.WhichOneof(od); other != nil && other != fd {
				return d.fieldErr(fmt.Sprintf("only one of the fields of %s may be given", od.Name()))
			}
		}
		if err := d.decodeField(m, fd); err != nil {
			return err
		}
		d.pop()
	}
	if err != nil {
		return err
	}
	if info.updateMask != nil {
		mv := m.NewField(info.updateMask)
		if fm, ok := mv.Message().Interface().(*fieldmaskpb.FieldMask); ok {
			fm.Paths = mask
		} else {
			paths := mv.Message().Mutable(mv.Message().Descriptor().Fields().ByNumber(1)).List()
			for _, p := range mask {
				paths.Append(protoreflect.ValueOfString(p))
			}
		}
		m.Set(info.updateMask, mv)
	}
	return nil
}

// decodeField reads the value of field fd of m. null leaves the field unset.
func (d *decoder) decodeField(m protoreflect.Message, fd protoreflect.FieldDescriptor) error {
	if d.peek() == 'n' {
		return d.literal("null")
	}
	switch {
	case fd.IsList():
		if d.peek() != '[' {
			return d.typeErr("an array")
		}
		return d.decodeList(m.Mutable(fd).List(), fd)
	case fd.IsMap():
		if d.peek() != '{' {
			return d.typeErr("an object")
		}
		return d.decodeMap(m.Mutable(fd).Map(), fd)
	case fd.Message() != nil:
		v := m.NewField(fd)
		if err := d.decodeMessage(v.Message()); err != nil {
			return err
		}
		m.Set(fd, v)
		return nil
	}
	v, err := d.decodeScalar(fd)
	if err != nil {
		return err
	}
	m.Set(fd, v)
	return nil
}

// isValueMessage: elements of this type take null as a value (google.protobuf.Value).
func isValueMessage(fd protoreflect.FieldDescriptor) bool {
	return fd.Message() != nil && fd.Message().FullName() == "google.protobuf.Value"
}

func (d *decoder) decodeList(l protoreflect.List, fd protoreflect.FieldDescriptor) error {
	return d.array(func(int) error {
		if d.peek() == 'n' && !isValueMessage(fd) {
			return d.typeErr(d.elementKind(fd))
		}
		if fd.Message() != nil {
			v := l.NewElement()
			if err := d.decodeMessage(v.Message()); err != nil {
				return err
			}
			l.Append(v)
			return nil
		}
		v, err := d.decodeScalar(fd)
		if err != nil {
			return err
		}
		l.Append(v)
		return nil
	})
}

// elementKind names what a value of fd's type must be, for the "null in an array" error.
func (d *decoder) elementKind(fd protoreflect.FieldDescriptor) string {
	switch fd.Kind() {
	case protoreflect.StringKind:
		if acceptsJSONNumber(fd) {
			return "a string or a number"
		}
		return "a string"
	case protoreflect.BytesKind, protoreflect.EnumKind:
		return "a string"
	case protoreflect.BoolKind:
		return "a boolean"
	case protoreflect.MessageKind, protoreflect.GroupKind:
		switch messageInfo(fd.Message()).wkt {
		case wktTimestamp, wktDuration:
			return "a string"
		case wktWrapper:
			return d.elementKind(fd.Message().Fields().ByNumber(1))
		}
		if messageInfo(fd.Message()).jsonArray != nil {
			return "an array"
		}
		return "an object"
	}
	return "a number"
}

func (d *decoder) decodeMap(mp protoreflect.Map, fd protoreflect.FieldDescriptor) error {
	kfd, vfd := fd.MapKey(), fd.MapValue()
	return d.object(func(key []byte) error {
		k, err := parseMapKey(kfd, string(key))
		if err != nil {
			return d.fieldErr(err.Error())
		}
		if mp.Has(k) {
			return d.fieldErr("duplicate key")
		}
		if d.peek() == 'n' && !isValueMessage(vfd) {
			return d.typeErr(d.elementKind(vfd))
		}
		if vfd.Message() != nil {
			v := mp.NewValue()
			if err := d.decodeMessage(v.Message()); err != nil {
				return err
			}
			mp.Set(k, v)
			return nil
		}
		v, err := d.decodeScalar(vfd)
		if err != nil {
			return err
		}
		mp.Set(k, v)
		return nil
	})
}

func parseMapKey(fd protoreflect.FieldDescriptor, s string) (protoreflect.MapKey, error) {
	switch fd.Kind() {
	case protoreflect.StringKind:
		return protoreflect.ValueOfString(s).MapKey(), nil
	case protoreflect.BoolKind:
		switch s {
		case "true":
			return protoreflect.ValueOfBool(true).MapKey(), nil
		case "false":
			return protoreflect.ValueOfBool(false).MapKey(), nil
		}
		return protoreflect.MapKey{}, errors.New("key must be true or false")
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		n, err := strconv.ParseInt(s, 10, 32)
		if err != nil {
			return protoreflect.MapKey{}, errors.New("key must be a 32-bit integer")
		}
		return protoreflect.ValueOfInt32(int32(n)).MapKey(), nil
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return protoreflect.MapKey{}, errors.New("key must be a 64-bit integer")
		}
		return protoreflect.ValueOfInt64(n).MapKey(), nil
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		n, err := strconv.ParseUint(s, 10, 32)
		if err != nil {
			return protoreflect.MapKey{}, errors.New("key must be an unsigned 32-bit integer")
		}
		return protoreflect.ValueOfUint32(uint32(n)).MapKey(), nil
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return protoreflect.MapKey{}, errors.New("key must be an unsigned 64-bit integer")
		}
		return protoreflect.ValueOfUint64(n).MapKey(), nil
	}
	return protoreflect.MapKey{}, fmt.Errorf("unsupported map key kind %v", fd.Kind())
}

// decodeScalar reads a value of a non-message field kind.
func (d *decoder) decodeScalar(fd protoreflect.FieldDescriptor) (protoreflect.Value, error) {
	c := d.peek()
	switch fd.Kind() {
	case protoreflect.StringKind:
		if c != '"' {
			if acceptsJSONNumber(fd) {
				return d.decodeNumberText()
			}
			return protoreflect.Value{}, d.typeErr("a string")
		}
		s, err := d.readString()
		if err != nil {
			return protoreflect.Value{}, err
		}
		return protoreflect.ValueOfString(string(s)), nil
	case protoreflect.BoolKind:
		switch c {
		case 't':
			return protoreflect.ValueOfBool(true), d.literal("true")
		case 'f':
			return protoreflect.ValueOfBool(false), d.literal("false")
		}
		return protoreflect.Value{}, d.typeErr("a boolean")
	case protoreflect.EnumKind:
		if c != '"' {
			return protoreflect.Value{}, d.valueErr(EnumError(fd.Enum()))
		}
		s, err := d.readString()
		if err != nil {
			return protoreflect.Value{}, err
		}
		n, ok := enumInfoOf(fd.Enum()).parse[string(s)]
		if !ok {
			return protoreflect.Value{}, d.fieldErr(EnumError(fd.Enum()))
		}
		return protoreflect.ValueOfEnum(n), nil
	case protoreflect.BytesKind:
		if c != '"' {
			return protoreflect.Value{}, d.typeErr("a base64 string")
		}
		s, err := d.readString()
		if err != nil {
			return protoreflect.Value{}, err
		}
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
			if b, err := enc.DecodeString(string(s)); err == nil {
				return protoreflect.ValueOfBytes(b), nil
			}
		}
		return protoreflect.Value{}, d.fieldErr("must be base64")
	}
	// Numbers.
	if c != '-' && !isDigit(c) {
		want := "a number"
		if fd.Kind() != protoreflect.FloatKind && fd.Kind() != protoreflect.DoubleKind {
			want = "an integer"
		}
		return protoreflect.Value{}, d.typeErr(want)
	}
	lit, integer, err := d.readNumber()
	if err != nil {
		return protoreflect.Value{}, err
	}
	s := string(lit)
	switch fd.Kind() {
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		n, err := strconv.ParseInt(s, 10, 32)
		if !integer || err != nil {
			return protoreflect.Value{}, d.fieldErr(fmt.Sprintf("must be an integer from %d to %d", math.MinInt32, math.MaxInt32))
		}
		return protoreflect.ValueOfInt32(int32(n)), nil
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		n, err := strconv.ParseInt(s, 10, 64)
		if !integer || err != nil {
			return protoreflect.Value{}, d.fieldErr(fmt.Sprintf("must be an integer from %d to %d", math.MinInt64, math.MaxInt64))
		}
		return protoreflect.ValueOfInt64(n), nil
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		n, err := strconv.ParseUint(s, 10, 32)
		if !integer || err != nil {
			return protoreflect.Value{}, d.fieldErr(fmt.Sprintf("must be an integer from 0 to %d", math.MaxUint32))
		}
		return protoreflect.ValueOfUint32(uint32(n)), nil
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		n, err := strconv.ParseUint(s, 10, 64)
		if !integer || err != nil {
			return protoreflect.Value{}, d.fieldErr(fmt.Sprintf("must be an integer from 0 to %d", uint64(math.MaxUint64)))
		}
		return protoreflect.ValueOfUint64(n), nil
	case protoreflect.FloatKind:
		f, err := strconv.ParseFloat(s, 32)
		if err != nil {
			return protoreflect.Value{}, d.fieldErr("number out of range")
		}
		return protoreflect.ValueOfFloat32(float32(f)), nil
	case protoreflect.DoubleKind:
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return protoreflect.Value{}, d.fieldErr("number out of range")
		}
		return protoreflect.ValueOfFloat64(f), nil
	}
	return protoreflect.Value{}, d.fieldErr(fmt.Sprintf("unsupported field kind %v", fd.Kind()))
}

const timestampHint = "must be a date-time in RFC 3339 format, e.g. 2026-01-02T03:04:05Z"

func (d *decoder) decodeTimestamp(m protoreflect.Message) error {
	if d.peek() != '"' {
		return d.typeErr("a date-time string")
	}
	s, err := d.readString()
	if err != nil {
		return err
	}
	t, err := time.Parse(time.RFC3339Nano, string(s))
	if err != nil {
		return d.fieldErr(timestampHint)
	}
	if sec := t.Unix(); sec < minTimestampSeconds || sec > maxTimestampSeconds {
		return d.fieldErr("date-time out of range")
	}
	SetTimestamp(m, t)
	return nil
}

// SetTimestamp fills a google.protobuf.Timestamp message (generated or dynamic) with t.
func SetTimestamp(m protoreflect.Message, t time.Time) {
	fds := m.Descriptor().Fields()
	m.Set(fds.ByNumber(1), protoreflect.ValueOfInt64(t.Unix()))
	m.Set(fds.ByNumber(2), protoreflect.ValueOfInt32(int32(t.Nanosecond())))
}

// decodeDuration reads protojson's duration form: "1.5s", "-0.001s".
func (d *decoder) decodeDuration(m protoreflect.Message) error {
	if d.peek() != '"' {
		return d.typeErr("a duration string")
	}
	b, err := d.readString()
	if err != nil {
		return err
	}
	const hint = `must be a duration in seconds with the suffix "s", e.g. "1.5s"`
	s, ok := strings.CutSuffix(string(b), "s")
	if !ok || s == "" {
		return d.fieldErr(hint)
	}
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" || len(frac) > 9 || strings.ContainsAny(whole+frac, "+-") {
		return d.fieldErr(hint)
	}
	sec, err := strconv.ParseInt(whole, 10, 64)
	if err != nil || sec > 315576000000 {
		return d.fieldErr(hint)
	}
	var nanos int64
	if frac != "" {
		n, err := strconv.ParseInt(frac, 10, 64)
		if err != nil {
			return d.fieldErr(hint)
		}
		nanos = n * int64(math.Pow10(9-len(frac)))
	}
	if neg {
		sec, nanos = -sec, -nanos
	}
	fds := m.Descriptor().Fields()
	m.Set(fds.ByNumber(1), protoreflect.ValueOfInt64(sec))
	m.Set(fds.ByNumber(2), protoreflect.ValueOfInt32(int32(nanos)))
	return nil
}

// decodeStruct reads any JSON object into google.protobuf.Struct.
func (d *decoder) decodeStruct(m protoreflect.Message) error {
	if d.peek() != '{' {
		return d.typeErr("an object")
	}
	fd := m.Descriptor().Fields().ByNumber(1)
	mp := m.Mutable(fd).Map()
	return d.object(func(key []byte) error {
		k := protoreflect.ValueOfString(string(key)).MapKey()
		if mp.Has(k) {
			return d.fieldErr("duplicate key")
		}
		v := mp.NewValue()
		if err := d.decodeStructValue(v.Message()); err != nil {
			return err
		}
		mp.Set(k, v)
		return nil
	})
}

// decodeListValue reads any JSON array into google.protobuf.ListValue.
func (d *decoder) decodeListValue(m protoreflect.Message) error {
	if d.peek() != '[' {
		return d.typeErr("an array")
	}
	fd := m.Descriptor().Fields().ByNumber(1)
	l := m.Mutable(fd).List()
	return d.array(func(int) error {
		v := l.NewElement()
		if err := d.decodeStructValue(v.Message()); err != nil {
			return err
		}
		l.Append(v)
		return nil
	})
}

// decodeStructValue reads any JSON value into google.protobuf.Value.
func (d *decoder) decodeStructValue(m protoreflect.Message) error {
	fds := m.Descriptor().Fields()
	switch c := d.peek(); {
	case c == 'n':
		m.Set(fds.ByNumber(1), protoreflect.ValueOfEnum(0))
		return d.literal("null")
	case c == 't' || c == 'f':
		v, err := d.decodeScalar(fds.ByNumber(4))
		if err != nil {
			return err
		}
		m.Set(fds.ByNumber(4), v)
	case c == '"':
		v, err := d.decodeScalar(fds.ByNumber(3))
		if err != nil {
			return err
		}
		m.Set(fds.ByNumber(3), v)
	case c == '-' || isDigit(c):
		start := d.pos
		v, err := d.decodeScalar(fds.ByNumber(2))
		if err != nil {
			return err
		}
		m.Set(fds.ByNumber(2), v)
		keepNumberLiteral(m, d.data[start:d.pos], v.Float())
	case c == '{':
		fd := fds.ByNumber(5)
		v := m.NewField(fd)
		if err := d.decodeStruct(v.Message()); err != nil {
			return err
		}
		m.Set(fd, v)
	case c == '[':
		fd := fds.ByNumber(6)
		v := m.NewField(fd)
		if err := d.decodeListValue(v.Message()); err != nil {
			return err
		}
		m.Set(fd, v)
	default:
		return d.syntaxErr("unexpected character " + d.describeChar())
	}
	return nil
}
