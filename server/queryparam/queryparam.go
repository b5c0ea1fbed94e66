// Package queryparam is the strict query-parameter parser of the REST gateway (DESIGN.md "Lists"),
// replacing grpc-gateway's lenient default, which silently ignores unknown keys.
//
// Install it with runtime.SetQueryParameterParser(queryparam.Parser{}) and wrap the gateway's mux
// with PreserveOrder.
//
// Keys:
//   - `name[op]` sets the field path name.op (`codes[eq]`, `code[contains]`, `createdAt[min]`,
//     `include[contents]`, `isRemoved[eq]`), by JSON names or proto names;
//   - a plain `name` sets a top-level scalar field (`page`, `size`);
//   - `<field>[order]=asc|desc` appends an OrderBy{field, direction} to the request's repeated
//     `order_by` field; `<field>` must be one of the request's `(catalog.v1.list).order_fields`.
//
// A repeated scalar field is `name[]` (`facets[]=a&facets[]=b`), or its plain name.
//
// Repeated fields take every value of a repeated parameter (`uuids[eq]=a&uuids[eq]=b`); a singular
// one given twice is an error. Keys the gateway excludes (path parameters, body fields) are skipped,
// as the default parser does. Every other problem is an *apierr.DecodeError naming the parameter
// exactly as the client wrote it.
//
// # Order of the [order] parameters
//
// Several `[order]` parameters apply in the order they appear in the query string, but the gateway
// hands Parse a url.Values (a map: the order is lost) and no request or context. PreserveOrder, an
// HTTP middleware around the gateway's mux, therefore records the order in the request itself: when
// the raw query has two or more `[order]` keys it appends the hidden parameter OrderKey ("__order")
// once per `[order]` key, in order of first appearance (`&__order=code%5Border%5D&__order=...`).
// url.Values keeps the order of the values of one key, so Parse reads the sequence back from
// values["__order"] and drops the key. Repeated values rather than one comma-separated value need no
// escaping of keys that could themselves hold a comma. Any client-supplied `__order` is stripped by
// the middleware first. Parse accepts `__order` only when its values are exactly the `[order]` keys
// present (otherwise it is an unknown parameter), and refuses two or more `[order]` keys without it:
// the middleware is missing and the order cannot be known (better a 400 than a silently wrong sort).
//
// When the gateway's X-HTTP-Method-Override POST→GET fallback takes the parameters from a form body,
// the middleware cannot see their order; only the URL query is covered.
package queryparam

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"github.com/grpc-ecosystem/grpc-gateway/v2/utilities"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	catalogv1 "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/jsonpb"
)

// OrderKey is the hidden query parameter PreserveOrder uses to pass the order of the `[order]`
// parameters to Parse.
const OrderKey = "__order"

const orderOp = "order"

// Messages of the decode errors.
const (
	msgUnknown     = "unknown query parameter"
	msgTwice       = "given more than once"
	msgDateTime    = "invalid date-time: use RFC 3339, e.g. 2026-01-02T03:04:05Z"
	msgBool        = "must be true or false"
	msgOrderValue  = "order must be asc or desc"
	msgInvalidUTF8 = "invalid UTF-8"
)

// ErrOrderNotPreserved is returned when two or more `[order]` parameters reach Parse without the
// PreserveOrder middleware having recorded their order.
var ErrOrderNotPreserved = errors.New("queryparam: several [order] parameters but their order was not recorded (wrap the gateway mux with queryparam.PreserveOrder)")

// Parser implements runtime.QueryParameterParser.
type Parser struct{}

var _ runtime.QueryParameterParser = Parser{}

type orderEntry struct {
	key       string // as written, e.g. "createdAt[order]"
	field     string // JSON name, e.g. "createdAt"
	direction protoreflect.EnumNumber
}

// Parse fills msg from values. See the package comment for the rules.
func (Parser) Parse(msg proto.Message, values url.Values, filter *utilities.DoubleArray) error {
	m := msg.ProtoReflect()
	info := listInfoOf(m.Descriptor())

	keys := make([]string, 0, len(values))
	for k := range values {
		if k != OrderKey {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys) // deterministic: the first bad key in byte order is reported

	var orders []orderEntry
	seen := make(map[string]struct{}, len(keys))
	for _, key := range keys {
		vals := values[key]
		if base, isList := strings.CutSuffix(key, "[]"); isList {
			// `name[]` repeats a list of scalars (facets[]=a&facets[]=b).
			fd := fieldByName(m.Descriptor(), base)
			if fd == nil || !fd.IsList() || fd.Message() != nil || strings.ContainsAny(base, "[]") {
				return decodeErr(key, msgUnknown)
			}
			if filtered(filter, string(fd.Name())) {
				continue
			}
			if _, dup := seen[string(fd.Name())]; dup {
				return decodeErr(key, msgTwice)
			}
			seen[string(fd.Name())] = struct{}{}
			if err := setValues(m, fd, key, vals); err != nil {
				return err
			}
			continue
		}
		name, op, ok := splitKey(key)
		if !ok {
			return decodeErr(key, msgUnknown)
		}
		if op == orderOp {
			e, skip, err := parseOrder(info, key, name, vals, filter)
			if err != nil {
				return err
			}
			if skip {
				continue
			}
			if _, dup := seen["order:"+e.field]; dup {
				return decodeErr(key, msgTwice)
			}
			seen["order:"+e.field] = struct{}{}
			orders = append(orders, e)
			continue
		}

		fd := fieldByName(m.Descriptor(), name)
		if fd == nil || fd.Name() == "etag" { // a request's etag is the If-Match header over REST
			return decodeErr(key, msgUnknown)
		}
		if filtered(filter, string(fd.Name())) {
			continue
		}
		if fd.IsMap() || (fd.IsList() && fd.Message() != nil) { // e.g. order_by: not addressable
			return decodeErr(key, msgUnknown)
		}
		target, tfd, path := m, fd, string(fd.Name())
		if op == "" {
			if fd.Message() != nil && !isTimestamp(fd.Message()) {
				return decodeErr(key, "needs an operator: "+operatorList(name, fd.Message()))
			}
		} else {
			if fd.Message() == nil || fd.IsList() || isTimestamp(fd.Message()) {
				return decodeErr(key, "takes no operator")
			}
			sub := fieldByName(fd.Message(), op)
			if sub == nil || sub.IsMap() || (sub.Message() != nil && !isTimestamp(sub.Message())) {
				return decodeErr(key, "unknown operator; use "+operatorList(name, fd.Message()))
			}
			if filtered(filter, string(fd.Name()), string(sub.Name())) {
				continue
			}
			target, tfd, path = m.Mutable(fd).Message(), sub, path+"."+string(sub.Name())
		}
		if _, dup := seen[path]; dup { // the same field spelt with its JSON and its proto name
			return decodeErr(key, msgTwice)
		}
		seen[path] = struct{}{}
		if err := setValues(target, tfd, key, vals); err != nil {
			return err
		}
	}

	if err := sortOrders(orders, values[OrderKey]); err != nil {
		return err
	}
	if len(orders) > 0 {
		l := m.Mutable(info.orderBy).List()
		for _, e := range orders {
			el := l.NewElement()
			om := el.Message()
			om.Set(info.orderByField, protoreflect.ValueOfString(e.field))
			om.Set(info.orderByDirection, protoreflect.ValueOfEnum(e.direction))
			l.Append(el)
		}
	}
	return nil
}

func parseOrder(info *listInfo, key, name string, vals []string, filter *utilities.DoubleArray) (e orderEntry, skip bool, err error) {
	if info.orderBy == nil {
		return e, false, decodeErr(key, msgUnknown)
	}
	if filtered(filter, string(info.orderBy.Name())) {
		return e, true, nil
	}
	field, ok := info.orderField(name)
	if !ok {
		if len(info.orderFields) == 0 {
			return e, false, decodeErr(key, "cannot be ordered")
		}
		return e, false, decodeErr(key, "cannot be ordered; orderable fields: "+strings.Join(info.orderFields, ", "))
	}
	if len(vals) != 1 {
		return e, false, decodeErr(key, msgTwice)
	}
	var dir string
	switch {
	case strings.EqualFold(vals[0], "asc"):
		dir = "asc"
	case strings.EqualFold(vals[0], "desc"):
		dir = "desc"
	default:
		return e, false, decodeErr(key, msgOrderValue)
	}
	n, ok := jsonpb.ParseEnum(info.orderByDirection.Enum(), dir)
	if !ok {
		return e, false, fmt.Errorf("queryparam: enum %s has no value %q", info.orderByDirection.Enum().FullName(), dir)
	}
	return orderEntry{key: key, field: field, direction: n}, false, nil
}

// sortOrders puts the order entries in the sequence recorded by PreserveOrder.
func sortOrders(orders []orderEntry, recorded []string) error {
	if len(recorded) == 0 {
		if len(orders) > 1 {
			return ErrOrderNotPreserved
		}
		return nil
	}
	// Only PreserveOrder's own value is accepted: exactly the [order] keys present, once each.
	if len(orders) < 2 || len(recorded) != len(orders) {
		return decodeErr(OrderKey, msgUnknown)
	}
	pos := make(map[string]int, len(recorded))
	for i, k := range recorded {
		if _, dup := pos[k]; dup {
			return decodeErr(OrderKey, msgUnknown)
		}
		pos[k] = i
	}
	for _, e := range orders {
		if _, ok := pos[e.key]; !ok {
			return decodeErr(OrderKey, msgUnknown)
		}
	}
	slices.SortFunc(orders, func(a, b orderEntry) int { return pos[a.key] - pos[b.key] })
	return nil
}

// setValues parses vals into field fd of m: every value for a repeated field, one for a singular one.
func setValues(m protoreflect.Message, fd protoreflect.FieldDescriptor, key string, vals []string) error {
	if fd.IsList() {
		l := m.Mutable(fd).List()
		for _, s := range vals {
			v, err := parseValue(l.NewElement, fd, s)
			if err != nil {
				return decodeErr(key, err.Error())
			}
			l.Append(v)
		}
		return nil
	}
	if len(vals) != 1 {
		return decodeErr(key, msgTwice)
	}
	v, err := parseValue(func() protoreflect.Value { return m.NewField(fd) }, fd, vals[0])
	if err != nil {
		return decodeErr(key, err.Error())
	}
	m.Set(fd, v)
	return nil
}

// parseValue parses one query value for a field of fd's kind. newMsg makes the message value of a
// Timestamp field.
func parseValue(newMsg func() protoreflect.Value, fd protoreflect.FieldDescriptor, s string) (protoreflect.Value, error) {
	switch fd.Kind() {
	case protoreflect.StringKind:
		if !utf8.ValidString(s) {
			return protoreflect.Value{}, errors.New(msgInvalidUTF8)
		}
		return protoreflect.ValueOfString(s), nil
	case protoreflect.BoolKind:
		switch s {
		case "true", "1":
			return protoreflect.ValueOfBool(true), nil
		case "false", "0":
			return protoreflect.ValueOfBool(false), nil
		}
		return protoreflect.Value{}, errors.New(msgBool)
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		n, err := strconv.ParseInt(s, 10, 32)
		if err != nil {
			return protoreflect.Value{}, fmt.Errorf("must be an integer from %d to %d", math.MinInt32, math.MaxInt32)
		}
		return protoreflect.ValueOfInt32(int32(n)), nil
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return protoreflect.Value{}, fmt.Errorf("must be an integer from %d to %d", math.MinInt64, math.MaxInt64)
		}
		return protoreflect.ValueOfInt64(n), nil
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		n, err := strconv.ParseUint(s, 10, 32)
		if err != nil {
			return protoreflect.Value{}, fmt.Errorf("must be an integer from 0 to %d", math.MaxUint32)
		}
		return protoreflect.ValueOfUint32(uint32(n)), nil
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return protoreflect.Value{}, fmt.Errorf("must be an integer from 0 to %d", uint64(math.MaxUint64))
		}
		return protoreflect.ValueOfUint64(n), nil
	case protoreflect.FloatKind, protoreflect.DoubleKind:
		bits := 64
		if fd.Kind() == protoreflect.FloatKind {
			bits = 32
		}
		f, err := strconv.ParseFloat(s, bits)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return protoreflect.Value{}, errors.New("must be a number")
		}
		if bits == 32 {
			return protoreflect.ValueOfFloat32(float32(f)), nil
		}
		return protoreflect.ValueOfFloat64(f), nil
	case protoreflect.EnumKind:
		n, ok := jsonpb.ParseEnum(fd.Enum(), s)
		if !ok {
			return protoreflect.Value{}, errors.New(jsonpb.EnumError(fd.Enum()))
		}
		return protoreflect.ValueOfEnum(n), nil
	case protoreflect.MessageKind:
		if isTimestamp(fd.Message()) {
			t, err := time.Parse(time.RFC3339Nano, s)
			if err != nil || t.Year() < 1 {
				return protoreflect.Value{}, errors.New(msgDateTime)
			}
			v := newMsg()
			jsonpb.SetTimestamp(v.Message(), t)
			return v, nil
		}
	}
	return protoreflect.Value{}, fmt.Errorf("cannot be given as a query parameter")
}

// decodeErr names the parameter as the client wrote it (invalid UTF-8 replaced: the name ends up in
// protobuf strings).
func decodeErr(field, msg string) error {
	return &apierr.DecodeError{Field: strings.ToValidUTF8(field, "\uFFFD"), Message: msg}
}

// splitKey splits `name[op]` (op "" for a plain `name`); ok is false for any other bracket use.
func splitKey(key string) (name, op string, ok bool) {
	i := strings.IndexByte(key, '[')
	if i < 0 {
		if key == "" || strings.ContainsRune(key, ']') {
			return "", "", false
		}
		return key, "", true
	}
	name, op = key[:i], key[i+1:]
	op, closed := strings.CutSuffix(op, "]")
	if !closed || name == "" || op == "" || strings.ContainsAny(op, "[]") || strings.ContainsRune(name, ']') {
		return "", "", false
	}
	return name, op, true
}

func fieldByName(md protoreflect.MessageDescriptor, name string) protoreflect.FieldDescriptor {
	fds := md.Fields()
	if fd := fds.ByJSONName(name); fd != nil {
		return fd
	}
	return fds.ByTextName(name)
}

func isTimestamp(md protoreflect.MessageDescriptor) bool {
	return md.FullName() == "google.protobuf.Timestamp"
}

// filtered reports whether the gateway excludes the field path (proto names), as its default
// parser does with filter.HasCommonPrefix.
func filtered(filter *utilities.DoubleArray, path ...string) bool {
	return filter != nil && filter.HasCommonPrefix(path)
}

// operatorList names the keys a filter message accepts: "code[contains], code[starts], code[ends]".
func operatorList(name string, md protoreflect.MessageDescriptor) string {
	fds := md.Fields()
	parts := make([]string, 0, fds.Len())
	for i := 0; i < fds.Len(); i++ {
		parts = append(parts, name+"["+fds.Get(i).JSONName()+"]")
	}
	return strings.Join(parts, ", ")
}

// listInfo is the per-request-message cache of its list options.
type listInfo struct {
	orderFields      []string // JSON names, as declared
	orderSet         map[string]struct{}
	orderBy          protoreflect.FieldDescriptor // repeated OrderBy order_by, or nil
	orderByField     protoreflect.FieldDescriptor // OrderBy.field
	orderByDirection protoreflect.FieldDescriptor // OrderBy.direction
}

// orderField finds the declared order field a client's `<name>[order]` means: the JSON name as
// declared, or its snake_case spelling.
func (li *listInfo) orderField(name string) (string, bool) {
	if _, ok := li.orderSet[name]; ok {
		return name, true
	}
	if strings.Contains(name, "_") {
		if camel := jsonpb.LowerCamel(name); camel != name {
			if _, ok := li.orderSet[camel]; ok {
				return camel, true
			}
		}
	}
	return "", false
}

var listInfos sync.Map // protoreflect.MessageDescriptor → *listInfo

func listInfoOf(md protoreflect.MessageDescriptor) *listInfo {
	if v, ok := listInfos.Load(md); ok {
		return v.(*listInfo)
	}
	v, _ := listInfos.LoadOrStore(md, buildListInfo(md))
	return v.(*listInfo)
}

func buildListInfo(md protoreflect.MessageDescriptor) *listInfo {
	li := &listInfo{orderSet: map[string]struct{}{}}
	if opts, ok := md.Options().(*descriptorpb.MessageOptions); ok && opts != nil {
		if lo, ok := proto.GetExtension(opts, catalogv1.E_List).(*catalogv1.ListOptions); ok && lo != nil {
			li.orderFields = slices.Clone(lo.GetOrderFields())
			for _, f := range li.orderFields {
				li.orderSet[f] = struct{}{}
			}
		}
	}
	if fd := md.Fields().ByName("order_by"); fd != nil && fd.IsList() && fd.Message() != nil {
		ofd := fd.Message().Fields().ByName("field")
		dfd := fd.Message().Fields().ByName("direction")
		if ofd != nil && ofd.Kind() == protoreflect.StringKind && !ofd.IsList() &&
			dfd != nil && dfd.Kind() == protoreflect.EnumKind && !dfd.IsList() {
			li.orderBy, li.orderByField, li.orderByDirection = fd, ofd, dfd
		}
	}
	return li
}

// OrderedKeys returns the distinct keys of a raw query string, unescaped as url.ParseQuery does,
// in the order of their first appearance. Segments url.ParseQuery rejects (a semicolon, a bad
// escape) are left out.
func OrderedKeys(rawQuery string) []string {
	var keys []string
	seen := map[string]struct{}{}
	for q := rawQuery; q != ""; {
		var seg string
		seg, q, _ = strings.Cut(q, "&")
		key, ok := segmentKey(seg)
		if !ok {
			continue
		}
		if _, dup := seen[key]; dup {
			continue
		}
		seen[key] = struct{}{}
		keys = append(keys, key)
	}
	return keys
}

// segmentKey is the unescaped key of one `key=value` segment of a raw query.
func segmentKey(seg string) (string, bool) {
	if seg == "" || strings.Contains(seg, ";") {
		return "", false
	}
	k, _, _ := strings.Cut(seg, "=")
	key, err := url.QueryUnescape(k)
	if err != nil {
		return "", false
	}
	return key, true
}

// PreserveOrder records the order of the `[order]` query parameters for Parse (see the package
// comment) and strips any client-supplied OrderKey. Wrap the gateway's mux with it. The request
// passed on is a shallow copy with its own URL; RequestURI is left as the client sent it.
func PreserveOrder(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw := r.URL.RawQuery
		// Fast path: no key can end in "[order]" nor be "__order" without these substrings
		// (a percent-encoded key contains '%').
		if strings.Contains(raw, orderOp) || strings.Contains(raw, "%") {
			if r2 := withOrder(r); r2 != nil {
				r = r2
			}
		}
		next.ServeHTTP(w, r)
	})
}

// withOrder returns the request rewritten for Parse, or nil when nothing needs to change.
func withOrder(r *http.Request) *http.Request {
	raw := r.URL.RawQuery
	var orderKeys []string
	hidden := false
	for _, k := range OrderedKeys(raw) {
		switch {
		case k == OrderKey:
			hidden = true
		case strings.HasSuffix(k, "["+orderOp+"]"):
			orderKeys = append(orderKeys, k)
		}
	}
	if !hidden && len(orderKeys) < 2 {
		return nil
	}
	var sb strings.Builder
	sb.Grow(len(raw) + 32*len(orderKeys))
	for q := raw; q != ""; {
		var seg string
		seg, q, _ = strings.Cut(q, "&")
		if k, ok := segmentKey(seg); ok && k == OrderKey {
			continue
		}
		if sb.Len() > 0 {
			sb.WriteByte('&')
		}
		sb.WriteString(seg)
	}
	if len(orderKeys) >= 2 {
		for _, k := range orderKeys {
			if sb.Len() > 0 {
				sb.WriteByte('&')
			}
			sb.WriteString(OrderKey)
			sb.WriteByte('=')
			sb.WriteString(url.QueryEscape(k))
		}
	}
	r2 := r.WithContext(r.Context()) // a shallow copy
	u := *r.URL
	u.RawQuery = sb.String()
	r2.URL = &u
	if r.Form != nil { // already parsed upstream: the gateway will not parse it again
		f := make(url.Values, len(r.Form)+1)
		for k, v := range r.Form {
			if k != OrderKey {
				f[k] = v
			}
		}
		if len(orderKeys) >= 2 {
			f[OrderKey] = orderKeys
		}
		r2.Form = f
	}
	return r2
}
