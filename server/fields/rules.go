package fields

import (
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	catalogv1 "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/jsonpb"
)

// The request rules of the API are declared once, on the request fields in proto
// ((catalog.v1.rules), see proto/catalog/v1/options.proto). The OpenAPI document publishes them and
// the server enforces them here, for every RPC, before its handler runs (server/app's interceptor
// calls Request.Check), so the document and the server cannot disagree. The services keep only
// the checks no annotation can state: rules across fields, rules that need the database, and
// special forms (BCP 47 codes, webhook targets, input values and constraints).
//
// Besides the annotations, CheckRules applies the naming convention the OpenAPI document uses for
// uuids: a string field whose JSON name is uuid, uuids or ends in Uuid or Uuids holds uuids (the
// canonical 36-character form); and, as the document states, the uuid of each item of a bulk
// update is required (a single update takes it from the path).

// RulesOf returns the (catalog.v1.rules) of a field (nil when it has none).
func RulesOf(fd protoreflect.FieldDescriptor) *catalogv1.FieldRules {
	if md := fd.ContainingMessage(); md != nil && !fd.IsExtension() {
		return metaOf(md).fields[fd.Index()].rules
	}
	r, _ := proto.GetExtension(fd.Options(), catalogv1.E_Rules).(*catalogv1.FieldRules)
	return r
}

// messageMeta is what the checks read of a message type on every request, worked out once per
// type: a bulk create of 100 items reads it for each item.
type messageMeta struct {
	fields []fieldMeta // by field index
	// strings: a string can be reached from the type (string fields, maps, Value/Struct/ListValue).
	strings bool
}

// fieldMeta is what the checks read of a field.
type fieldMeta struct {
	rules *catalogv1.FieldRules
	// uuidName and codeName: the field's JSON name puts it under the uuid or the code convention.
	uuidName, codeName bool
}

var messageMetas sync.Map // protoreflect.MessageDescriptor → *messageMeta

func metaOf(md protoreflect.MessageDescriptor) *messageMeta {
	if m, ok := messageMetas.Load(md); ok {
		return m.(*messageMeta)
	}
	fs := md.Fields()
	m := &messageMeta{fields: make([]fieldMeta, fs.Len()), strings: computeHasStrings(md, map[protoreflect.FullName]bool{})}
	for i := range m.fields {
		fd := fs.Get(i)
		r, _ := proto.GetExtension(fd.Options(), catalogv1.E_Rules).(*catalogv1.FieldRules)
		m.fields[i] = fieldMeta{rules: r, uuidName: IsUUIDName(fd.JSONName()), codeName: IsCodeName(fd.JSONName())}
	}
	messageMetas.Store(md, m)
	return m
}

// IsUUIDName reports whether a field's JSON name says it holds uuids: uuid, uuids, …Uuid, …Uuids.
func IsUUIDName(jsonName string) bool {
	return jsonName == "uuid" || jsonName == "uuids" || strings.HasSuffix(jsonName, "Uuid") || strings.HasSuffix(jsonName, "Uuids")
}

// CheckRules records in v every violation of the rules of m's fields, recursively through the
// message fields m sets, naming each field by its JSON name under v's prefix: `code`,
// `constraints.pattern`, `localeUuids[2]`, `items[0].code`. Optional fields are checked only
// when present; lengths count Unicode code points.
func CheckRules(v apierr.Validator, m proto.Message) {
	r := m.ProtoReflect()
	if !r.IsValid() {
		r = r.Type().New() // an absent message: only its required fields can be violated
	}
	checkMessage(v, r, "", false)
}

// Check is a service's own check of a request message, or of a body (an item of a bulk body),
// beyond its rules: rules across fields, special forms. It must not read the database.
type Check func(v apierr.Validator, m proto.Message)

// Checks are the services' own checks by message name. A service runs them itself; when a request
// breaks a rule, Request.Check runs them too, so that the one answer lists every violation of the
// request, as the service's own validation would have.
type Checks map[protoreflect.FullName]Check

// Request is the compiled check of one RPC's request message: which field the REST body holds
// (violations in it are named relative to the body, as a REST client sees them), which fields
// are path parameters, and the services' own checks.
type Request struct {
	body     protoreflect.FieldDescriptor // the body field (body: "attribute" or "items"); nil for none or "*"
	pathVars map[protoreflect.Name]bool
	checks   Checks
	// query: the fields that are neither the body nor path parameters are query parameters (no
	// body, or body: "<field>"), named name[op] in violations.
	query bool
}

// NewRequest compiles the check of method's request from its google.api.http rule, after checking
// that every rule on the fields it can reach is one this package enforces (an unknown format, a
// length bound on a number, …): the server refuses to start with a rule it would not apply.
// checks (may be nil) are the services' own checks (see Checks).
func NewRequest(method protoreflect.MethodDescriptor, checks Checks) (*Request, error) {
	in := method.Input()
	if err := CheckAnnotations(in); err != nil {
		return nil, fmt.Errorf("%s: %w", method.FullName(), err)
	}
	rq := &Request{pathVars: map[protoreflect.Name]bool{}, checks: checks}
	rule, _ := proto.GetExtension(method.Options(), annotations.E_Http).(*annotations.HttpRule)
	if rule == nil {
		return rq, nil
	}
	path := rule.GetGet() + rule.GetPost() + rule.GetPatch() + rule.GetDelete() + rule.GetPut()
	for _, seg := range strings.Split(path, "/") {
		if strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") {
			name, _, _ := strings.Cut(strings.Trim(seg, "{}"), "=")
			if in.Fields().ByName(protoreflect.Name(name)) == nil {
				return nil, fmt.Errorf("%s: path parameter %s is not a field of %s", method.FullName(), name, in.FullName())
			}
			rq.pathVars[protoreflect.Name(name)] = true
		}
	}
	rq.query = rule.GetBody() != "*"
	if b := rule.GetBody(); b != "" && b != "*" {
		rq.body = in.Fields().ByName(protoreflect.Name(b))
		if rq.body == nil || rq.body.Message() == nil && !rq.body.IsList() {
			return nil, fmt.Errorf("%s: body %q is not a message or list field of %s", method.FullName(), b, in.FullName())
		}
	}
	return rq, nil
}

// Check returns a VALIDATION_FAILED error listing every rule violation of req, or nil. A bulk body
// of the wrong size is the violation of field `body` (its items are not judged), with the item
// count in meta.items. A gRPC request the server codec could not decode (ServerCodec) is
// MALFORMED_REQUEST naming the field. Every string of the request must be valid UTF-8 without
// U+0000 (strings.go).
func (rq *Request) Check(req proto.Message) error {
	r := req.ProtoReflect()
	if err := rq.decodeFault(r); err != nil {
		return err
	}
	v := apierr.NewValidator()
	bulkCount := -1
	fs := r.Descriptor().Fields()
	meta := metaOf(r.Descriptor())
	for i := 0; i < fs.Len(); i++ {
		fd := fs.Get(i)
		switch {
		case fd == rq.body && fd.IsList():
			l := r.Get(fd).List()
			if msg := countViolation(RulesOf(fd), l.Len(), "", true); msg != "" {
				v.Add("body", "%s", msg)
				bulkCount = l.Len()
				continue
			}
			for j := 0; j < l.Len(); j++ {
				if fd.Message() != nil {
					checkMessage(v, l.Get(j).Message(), itemPrefix(j), true)
				}
			}
		case fd == rq.body:
			// Over REST the body is always there; an absent one (gRPC) reads as an empty object.
			checkMessage(v, r.Get(fd).Message(), "", false)
		case rq.pathVars[fd.Name()]:
			// Path parameters: their rules only; the services parse them in the order they resolve
			// them (a parent's 404 before a child's bad uuid).
			checkField(v, r, fd, &meta.fields[i], "", false)
		default:
			checkField(v, r, fd, &meta.fields[i], "", true)
		}
	}
	if bulkCount < 0 {
		rq.checkStrings(v, r)
	}
	err := v.Err()
	e, ok := err.(*apierr.Error)
	if !ok {
		return err
	}
	if bulkCount >= 0 {
		return e.WithMeta("items", fmt.Sprint(bulkCount)) // the items are not judged
	}
	return rq.withOwnChecks(e, r)
}

// itemPrefix names bulk item j: `[j].`.
func itemPrefix(j int) string { return "[" + strconv.Itoa(j) + "]." }

// checkStrings applies the string check (strings.go) to every field of the request, naming each
// as the REST client knows it. Names are only worked out for a request that holds a bad string.
func (rq *Request) checkStrings(v apierr.Validator, r protoreflect.Message) {
	if !badStrings(r) {
		return
	}
	r.Range(func(fd protoreflect.FieldDescriptor, val protoreflect.Value) bool {
		switch {
		case fd == rq.body && fd.IsList():
			l := val.List()
			for j := 0; j < l.Len(); j++ {
				stringNamer{v: v}.single(fd, l.Get(j), "["+strconv.Itoa(j)+"]")
			}
		case fd == rq.body:
			stringNamer{v: v}.message(val.Message(), "")
		case rq.pathVars[fd.Name()]:
			stringNamer{v: v}.field(fd, val, fd.JSONName())
		default:
			stringNamer{v: v, query: rq.query}.field(fd, val, fd.JSONName())
		}
		return true
	})
}

// withOwnChecks adds to e, a request's rule violations, those of the services' own checks of the
// request, of its body or of each item of its bulk body, on fields that break no rule; violations
// are ordered by bulk item (rules first within an item).
func (rq *Request) withOwnChecks(e *apierr.Error, r protoreflect.Message) error {
	if len(rq.checks) == 0 {
		return e
	}
	own := apierr.NewValidator()
	run := func(v apierr.Validator, m protoreflect.Message) {
		if check := rq.checks[m.Descriptor().FullName()]; check != nil && m.IsValid() {
			check(v, m.Interface())
		}
	}
	run(own, r)
	if rq.body != nil && rq.body.IsList() {
		l := r.Get(rq.body).List()
		for j := 0; rq.body.Message() != nil && j < l.Len(); j++ {
			run(own.Item(j), l.Get(j).Message())
		}
	} else if rq.body != nil && r.Has(rq.body) {
		run(own, r.Get(rq.body).Message())
	}
	extra, _ := own.Err().(*apierr.Error)
	if extra == nil {
		return e
	}
	named := map[string]bool{}
	for _, f := range e.Fields {
		named[f.Field] = true
	}
	all := append([]apierr.FieldViolation(nil), e.Fields...)
	for _, f := range extra.Fields {
		if !named[f.Field] {
			all = append(all, f)
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return itemIndex(all[i].Field) < itemIndex(all[j].Field) })
	v := apierr.NewValidator()
	for _, f := range all {
		v.Add(f.Field, "%s", f.Message)
	}
	return v.Err()
}

// itemIndex is the bulk item a field name starts with ([2].code → 2), or -1.
func itemIndex(field string) int {
	var i int
	if _, err := fmt.Sscanf(field, "[%d]", &i); err != nil {
		return -1
	}
	return i
}

// checkMessage checks the fields of r, named prefix + JSON name; bulkItem: r is an item of a bulk
// body, whose uuid (when it has one: a bulk update) is required. An update whose update_mask is set
// (gRPC) changes only the fields it names (ApplyMask): the others are not judged.
func checkMessage(v apierr.Validator, r protoreflect.Message, prefix string, bulkItem bool) {
	fs := r.Descriptor().Fields()
	meta := metaOf(r.Descriptor())
	masked := maskedFields(r)
	for i := 0; i < fs.Len(); i++ {
		fd := fs.Get(i)
		if masked != nil && !masked[fd.Name()] && fd.Name() != "uuid" {
			continue
		}
		if bulkItem && fd.Name() == "uuid" && fd.Kind() == protoreflect.StringKind && !fd.IsList() && r.Get(fd).String() == "" {
			v.Add(prefix+fd.JSONName(), "is required")
			continue
		}
		checkField(v, r, fd, &meta.fields[i], prefix, true)
	}
}

// maskedFields are the fields an update's non-empty update_mask names (nil: no mask).
func maskedFields(r protoreflect.Message) map[protoreflect.Name]bool {
	mf := r.Descriptor().Fields().ByName("update_mask")
	if mf == nil || mf.Message() == nil || mf.Message().FullName() != "google.protobuf.FieldMask" || !r.Has(mf) {
		return nil
	}
	paths := r.Get(mf).Message().Get(mf.Message().Fields().ByName("paths")).List()
	if paths.Len() == 0 {
		return nil
	}
	out := map[protoreflect.Name]bool{}
	for i := 0; i < paths.Len(); i++ {
		p := paths.Get(i).String()
		if fd := r.Descriptor().Fields().ByName(protoreflect.Name(p)); fd != nil {
			out[fd.Name()] = true
		} else if fd := r.Descriptor().Fields().ByJSONName(p); fd != nil {
			out[fd.Name()] = true
		}
	}
	return out
}

// checkField checks field fd of r (meta: its fieldMeta), named prefix + its JSON name (the name is
// only built for a violation); uuids applies the uuid naming convention.
func checkField(v apierr.Validator, r protoreflect.Message, fd protoreflect.FieldDescriptor, meta *fieldMeta, prefix string, uuids bool) {
	rules := meta.rules
	name := func() string { return prefix + fd.JSONName() } // built for a violation only
	switch {
	case fd.IsMap():
		return
	case fd.IsList():
		checkList(v, r.Get(fd).List(), fd, rules, name(), uuids && meta.uuidName)
		return
	case fd.Message() != nil:
		if !r.Has(fd) {
			if rules.GetRequired() {
				v.Add(name(), "is required")
			}
			return
		}
		if inner := jsonArrayField(fd.Message()); inner != nil {
			// A json_array message is its list in JSON: the field's rules are the list's.
			checkList(v, r.Get(fd).Message().Get(inner).List(), inner, rules, name(), uuids && meta.uuidName)
			return
		}
		if strings.HasPrefix(string(fd.Message().FullName()), "google.protobuf.") {
			return
		}
		checkMessage(v, r.Get(fd).Message(), name()+".", false)
		return
	}
	has := r.Has(fd)
	switch fd.Kind() {
	case protoreflect.EnumKind:
		if rules.GetRequired() && r.Get(fd).Enum() == 0 {
			v.Add(name(), "is required: one of %s", strings.Join(jsonpb.EnumValues(fd.Enum()), ", "))
		}
	case protoreflect.StringKind:
		if !has { // unset, or empty without presence: not given
			if rules.GetRequired() {
				v.Add(name(), "is required")
			}
			return
		}
		s := r.Get(fd).String()
		if msg := stringViolation(s, rules, uuids && meta.uuidName); msg != "" {
			v.Add(name(), "%s", msg)
		}
		if uuids && meta.codeName && lengthViolation(s, int(rules.GetMinLen()), int(rules.GetMaxLen())) == "" {
			if msg := codeViolation(s); msg != "" {
				v.Add(name(), "%s", msg)
			}
		}
	case protoreflect.BoolKind, protoreflect.BytesKind, protoreflect.FloatKind, protoreflect.DoubleKind:
		if rules.GetRequired() && !has {
			v.Add(name(), "is required")
		}
	default: // integers
		if !has && (fd.HasPresence() || rules.GetRequired()) {
			if rules.GetRequired() {
				v.Add(name(), "is required")
			}
			return
		}
		var n int64
		switch fd.Kind() {
		case protoreflect.Uint32Kind, protoreflect.Fixed32Kind, protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
			u := r.Get(fd).Uint()
			if u > 1<<63-1 {
				u = 1<<63 - 1
			}
			n = int64(u)
		default:
			n = r.Get(fd).Int()
		}
		if msg := rangeViolation(rules, n); msg != "" {
			v.Add(name(), "%s", msg)
		}
	}
}

// checkList checks a list's item count and its items (not judged when the count is wrong).
func checkList(v apierr.Validator, l protoreflect.List, fd protoreflect.FieldDescriptor, rules *catalogv1.FieldRules, name string, uuids bool) {
	if l.Len() == 0 && rules.GetRequired() && rules.GetMinItems() == 0 {
		v.Add(name, "is required")
		return
	}
	if msg := countViolation(rules, l.Len(), name, false); msg != "" {
		v.Add(name, "%s", msg)
		return
	}
	for j := 0; j < l.Len(); j++ {
		elem := name + "[" + strconv.Itoa(j) + "]"
		switch {
		case fd.Message() != nil:
			if !strings.HasPrefix(string(fd.Message().FullName()), "google.protobuf.") {
				checkMessage(v, l.Get(j).Message(), elem+".", false)
			}
		case fd.Kind() == protoreflect.StringKind && uuids:
			if msg := stringViolation(l.Get(j).String(), nil, true); msg != "" {
				v.Add(elem, "%s", msg)
			}
		}
	}
}

// stringViolation is the message for a string that is given and breaks its rules, or "": its
// length, its format, and its form when the uuid convention applies.
func stringViolation(s string, rules *catalogv1.FieldRules, uuid bool) string {
	if msg := lengthViolation(s, int(rules.GetMinLen()), int(rules.GetMaxLen())); msg != "" {
		return msg
	}
	format := rules.GetFormat()
	if format == "" && uuid {
		format = "uuid"
	}
	if format == "" {
		return ""
	}
	if format == "uuid" && s == "" {
		return "is required" // as a uuid given empty always was
	}
	return formats[format].check(s)
}

// lengthViolation is the message for a string outside min..max characters (max 0: no maximum).
func lengthViolation(s string, min, max int) string {
	n := utf8.RuneCountInString(s)
	switch {
	case n == 0 && min > 0:
		return "is required"
	case n >= min && (max == 0 || n <= max):
		return ""
	case max == 0:
		return fmt.Sprintf("must be at least %d characters", min)
	default:
		return fmt.Sprintf("must be %d to %d characters", min, max)
	}
}

// countViolation is the message for a list of n items outside the rules' bounds: a bulk body
// (the whole request body) is "an array of …", any other list "must hold … <things>".
func countViolation(rules *catalogv1.FieldRules, n int, name string, body bool) string {
	lo, hi := int(rules.GetMinItems()), int(rules.GetMaxItems())
	if n >= lo && (hi == 0 || n <= hi) {
		return ""
	}
	var bounds string
	switch {
	case lo > 0 && hi > 0:
		bounds = fmt.Sprintf("%d to %d", lo, hi)
	case hi > 0:
		bounds = fmt.Sprintf("at most %d", hi)
	default:
		bounds = fmt.Sprintf("at least %d", lo)
	}
	if body {
		return "must be an array of " + bounds + " items"
	}
	return "must hold " + bounds + " " + itemNoun(name)
}

// itemNoun names the items of a list field: localeUuids → locales, uuids → uuids.
func itemNoun(name string) string {
	if i := strings.LastIndexAny(name, ".]"); i >= 0 {
		name = name[i+1:]
	}
	if base, ok := strings.CutSuffix(name, "Uuids"); ok && base != "" {
		return base + "s"
	}
	return name
}

// rangeViolation is the message for an integer outside the rules' inclusive bounds.
func rangeViolation(rules *catalogv1.FieldRules, n int64) string {
	if rules == nil {
		return ""
	}
	lo, hi := rules.Minimum, rules.Maximum
	if (lo == nil || n >= *lo) && (hi == nil || n <= *hi) {
		return ""
	}
	switch {
	case lo != nil && hi != nil:
		return fmt.Sprintf("must be %d to %d", *lo, *hi)
	case lo != nil:
		return fmt.Sprintf("must be %d or more", *lo)
	default:
		return fmt.Sprintf("must be %d or less", *hi)
	}
}

// format is a string format of OpenAPI that the server checks.
type format struct{ check func(string) string }

// formats are the values (catalog.v1.rules).format may take.
var formats = map[string]format{
	"uuid": {func(s string) string {
		if _, err := ParseUUID(s); err != nil {
			return "must be a uuid"
		}
		return ""
	}},
	"uri": {func(s string) string {
		if u, err := url.Parse(s); err != nil || !u.IsAbs() {
			return "must be an absolute URI"
		}
		return ""
	}},
	"date": {func(s string) string {
		if _, err := time.Parse(time.DateOnly, s); err != nil {
			return "must be a date YYYY-MM-DD"
		}
		return ""
	}},
	"date-time": {func(s string) string {
		if _, err := time.Parse(time.RFC3339Nano, s); err != nil {
			return "must be an RFC 3339 date-time with an offset, such as 2024-01-31T10:00:00Z"
		}
		return ""
	}},
}

// jsonArrayField is the list of a (catalog.v1.json_array) message, or nil.
func jsonArrayField(md protoreflect.MessageDescriptor) protoreflect.FieldDescriptor {
	if ok, _ := proto.GetExtension(md.Options(), catalogv1.E_JsonArray).(bool); ok && md.Fields().Len() == 1 && md.Fields().Get(0).IsList() {
		return md.Fields().Get(0)
	}
	return nil
}

// CheckAnnotations verifies every (catalog.v1.rules) on the fields reachable from md: each rule
// suits its field's type (lengths and formats on strings, item counts on lists, bounds on
// integers), formats are known and bounds are ordered.
func CheckAnnotations(md protoreflect.MessageDescriptor) error {
	return checkAnnotations(md, map[protoreflect.FullName]bool{})
}

func checkAnnotations(md protoreflect.MessageDescriptor, seen map[protoreflect.FullName]bool) error {
	if seen[md.FullName()] {
		return nil
	}
	seen[md.FullName()] = true
	fs := md.Fields()
	for i := 0; i < fs.Len(); i++ {
		fd := fs.Get(i)
		if err := checkFieldAnnotation(fd); err != nil {
			return fmt.Errorf("%s: (catalog.v1.rules) %w", fd.FullName(), err)
		}
		if m := fd.Message(); m != nil && !fd.IsMap() {
			if err := checkAnnotations(m, seen); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkFieldAnnotation(fd protoreflect.FieldDescriptor) error {
	r := RulesOf(fd)
	if r == nil {
		return nil
	}
	isList := fd.IsList() || (fd.Message() != nil && jsonArrayField(fd.Message()) != nil)
	isString := fd.Kind() == protoreflect.StringKind && !fd.IsList()
	isInt := false
	switch fd.Kind() {
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind, protoreflect.Int64Kind,
		protoreflect.Sint64Kind, protoreflect.Sfixed64Kind, protoreflect.Uint32Kind, protoreflect.Fixed32Kind,
		protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		isInt = !fd.IsList()
	}
	switch {
	case fd.IsMap() && (r.GetRequired() || r.GetMinItems() > 0 || r.GetMaxItems() > 0):
		return fmt.Errorf("on a map field are not enforced")
	case (r.GetMinLen() > 0 || r.GetMaxLen() > 0) && !isString:
		return fmt.Errorf("min_len/max_len need a string field")
	case r.GetMaxLen() > 0 && r.GetMinLen() > r.GetMaxLen():
		return fmt.Errorf("min_len %d is above max_len %d", r.GetMinLen(), r.GetMaxLen())
	case r.GetFormat() != "" && !isString:
		return fmt.Errorf("format needs a string field")
	case r.GetFormat() != "" && formats[r.GetFormat()].check == nil:
		return fmt.Errorf("format %q is not one the server checks", r.GetFormat())
	case (r.GetMinItems() > 0 || r.GetMaxItems() > 0) && !isList:
		return fmt.Errorf("min_items/max_items need a repeated field")
	case r.GetMaxItems() > 0 && r.GetMinItems() > r.GetMaxItems():
		return fmt.Errorf("min_items %d is above max_items %d", r.GetMinItems(), r.GetMaxItems())
	case (r.Minimum != nil || r.Maximum != nil) && !isInt:
		return fmt.Errorf("minimum/maximum need an integer field")
	case r.Minimum != nil && r.Maximum != nil && r.GetMinimum() > r.GetMaximum():
		return fmt.Errorf("minimum %d is above maximum %d", r.GetMinimum(), r.GetMaximum())
	case r.GetJsonNumber() && fd.Kind() != protoreflect.StringKind:
		return fmt.Errorf("json_number needs a string field")
	}
	return nil
}

// CheckBody records in v every violation of the rules of a request body m (CheckRules) and every
// string of it that is not valid UTF-8 or holds U+0000, as Request.Check does for a request: for
// bodies built by the service itself (the lines of an import), which reach the families without a
// request of their own.
func CheckBody(v apierr.Validator, m proto.Message) {
	CheckRules(v, m)
	if r := m.ProtoReflect(); r.IsValid() && badStrings(r) {
		stringNamer{v: v}.message(r, "")
	}
}
