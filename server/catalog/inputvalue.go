package catalog

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/big"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"google.golang.org/protobuf/types/known/structpb"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/fields"
	"github.com/catalogd/catalogd/server/jsonpb"
)

// Input values and the constraints of their input types.
//
// A value is JSON typed by its input type's data type:
//
//	text, rich_text  a string
//	url              a string: an absolute http or https URL with a host, at most 2048 characters
//	integer          a number without fraction, at most 2^53-1 in magnitude (exact in JSON)
//	decimal          a decimal in plain notation, as a string or a JSON number: "12.50", 12.50,
//	                 "-0.5"; stored and returned as a string (see "Decimals" below)
//	boolean          true or false
//	date             a string "YYYY-MM-DD"
//	date_time        an RFC 3339 string with an offset: "2024-01-31T10:00:00Z"
//	money            {"amount": <decimal as for decimal>, "currency": "<ISO 4217 code, e.g. EUR>"}
//	json             any JSON value but null, stored as given
//
// Constraints, each for some data types only (inputConstraintsFor):
//
//	minLength, maxLength  characters (code points) of text, rich_text, url
//	min, max              inclusive bounds of integer, decimal, money (its amount), date, date_time,
//	                      in the data type's form ("-5", "0.01", "2024-01-31",
//	                      "2024-01-31T10:00:00Z"); those of integer, decimal and money also as a JSON
//	                      number (-5, 0.01), kept as its literal text and returned as a string
//	pattern               an RE2 expression the value must match (anywhere, as JSON Schema's
//	                      pattern: anchor it with ^…$ to match the whole value): text, url
//	allowedValues         the values accepted (1 to 1000 distinct strings, or numbers taken as
//	                      their literal text; integers and decimals written as for min and compared
//	                      by value): text, integer, decimal
//
// Decimals (DESIGN.md "Numbers") are exact: a JSON number is never read through a float.
//   - A REST body's number counts as the string of its literal text: 19.99 is "19.99", 5.10 is
//     "5.10" (the trailing zero stays), 0.1000000000000000055511151231257827 keeps every digit. The
//     codec gives the string fields of bounds that text (their json_number rule), and
//     jsonpb.NumberText gives it for a number in a google.protobuf.Value.
//   - A gRPC client's number_value is the shortest decimal that reads back as its float64 (5.1,
//     never 5.0999999999999996447286321199499070644378662109375).
//   - The text must be plain notation, as a string must: -?digits[.digits], at most 100
//     characters. An exponent (1e3, 2.5E-2) is refused with a message saying so, although its value
//     is exact, so that a number and the string of its text are always judged alike.
//   - A decimal value or money amount given as a number is stored as that string ("value": 19.99
//     reads back "19.99"); a bound keeps the text it came with (returned as "0" for min: 0).
//   - For text, a number in allowedValues is the string of its text (1 allows the value "1").

// Data types of input types (InputTypeDataType short names).
const (
	dtText     = "text"
	dtRichText = "rich_text"
	dtInteger  = "integer"
	dtDecimal  = "decimal"
	dtBoolean  = "boolean"
	dtDate     = "date"
	dtDateTime = "date_time"
	dtURL      = "url"
	dtMoney    = "money"
	dtJSON     = "json"
)

// Constraint names, as in the API.
const (
	cMinLength     = "minLength"
	cMaxLength     = "maxLength"
	cMin           = "min"
	cMax           = "max"
	cPattern       = "pattern"
	cAllowedValues = "allowedValues"
)

// inputConstraintsFor lists the constraints each data type takes.
var inputConstraintsFor = map[string][]string{
	dtText:     {cMinLength, cMaxLength, cPattern, cAllowedValues},
	dtRichText: {cMinLength, cMaxLength},
	dtURL:      {cMinLength, cMaxLength, cPattern},
	dtInteger:  {cMin, cMax, cAllowedValues},
	dtDecimal:  {cMin, cMax, cAllowedValues},
	dtMoney:    {cMin, cMax},
	dtDate:     {cMin, cMax},
	dtDateTime: {cMin, cMax},
	dtBoolean:  {},
	dtJSON:     {},
}

// Limits of constraint definitions and values.
const (
	maxAllowedValues     = 1000
	maxAllowedValueChars = 1000
	maxURLLength         = 2048
	maxDecimalChars      = 100
	maxSafeInteger       = 1<<53 - 1
)

// inputConstraints is an input type's constraints as stored (the jsonb column: only those set).
// A non-nil empty AllowedValues is an (invalid) empty list given by the client.
type inputConstraints struct {
	MinLength     *int32   `json:"minLength,omitempty"`
	MaxLength     *int32   `json:"maxLength,omitempty"`
	Min           *string  `json:"min,omitempty"`
	Max           *string  `json:"max,omitempty"`
	Pattern       *string  `json:"pattern,omitempty"`
	AllowedValues []string `json:"allowedValues,omitempty"`
}

// set lists the names of the constraints set.
func (c inputConstraints) set() []string {
	var out []string
	add := func(ok bool, name string) {
		if ok {
			out = append(out, name)
		}
	}
	add(c.MinLength != nil, cMinLength)
	add(c.MaxLength != nil, cMaxLength)
	add(c.Min != nil, cMin)
	add(c.Max != nil, cMax)
	add(c.Pattern != nil, cPattern)
	add(c.AllowedValues != nil, cAllowedValues)
	return out
}

func (c inputConstraints) json() string {
	b, _ := json.Marshal(c)
	return string(b)
}

func parseInputConstraints(raw []byte) inputConstraints {
	var c inputConstraints
	if len(raw) > 0 {
		_ = json.Unmarshal(raw, &c) // written by this package only
	}
	return c
}

func (c inputConstraints) toPB() *pb.InputTypeConstraints {
	out := &pb.InputTypeConstraints{MinLength: c.MinLength, MaxLength: c.MaxLength, Min: c.Min, Max: c.Max, Pattern: c.Pattern}
	if c.AllowedValues != nil {
		out.AllowedValues = &pb.InputTypeAllowedValues{Values: slices.Clone(c.AllowedValues)}
	}
	return out
}

func constraintsFromPB(p *pb.InputTypeConstraints) inputConstraints {
	if p == nil {
		return inputConstraints{}
	}
	c := inputConstraints{MinLength: p.MinLength, MaxLength: p.MaxLength, Min: p.Min, Max: p.Max, Pattern: p.Pattern}
	if p.AllowedValues != nil {
		c.AllowedValues = append([]string{}, p.AllowedValues.Values...)
	}
	return c
}

// merge applies a constraints patch (JSON merge patch): a constraint given is set, one named
// without a value is removed, others stay. With a mask (gRPC), only the constraints it names change.
func (c inputConstraints) merge(p *pb.InputTypeConstraintsPatch) inputConstraints {
	mask := fields.NewMask(p.GetUpdateMask())
	masked := len(p.GetUpdateMask().GetPaths()) > 0
	named := func(name string) bool {
		for _, x := range p.GetUpdateMask().GetPaths() {
			if x == name || x == fields.Snake(name) {
				return true
			}
		}
		return false
	}
	// apply decides one constraint: keep, set (has) or clear.
	apply := func(name string, has bool) (change, clear bool) {
		if masked && !named(name) {
			return false, false
		}
		if has {
			return true, false
		}
		return mask.Clears(fields.Snake(name), false), true
	}
	if ch, cl := apply(cMinLength, p.MinLength != nil); ch {
		c.MinLength = orNil(p.MinLength, cl)
	}
	if ch, cl := apply(cMaxLength, p.MaxLength != nil); ch {
		c.MaxLength = orNil(p.MaxLength, cl)
	}
	if ch, cl := apply(cMin, p.Min != nil); ch {
		c.Min = orNil(p.Min, cl)
	}
	if ch, cl := apply(cMax, p.Max != nil); ch {
		c.Max = orNil(p.Max, cl)
	}
	if ch, cl := apply(cPattern, p.Pattern != nil); ch {
		c.Pattern = orNil(p.Pattern, cl)
	}
	if ch, cl := apply(cAllowedValues, p.AllowedValues != nil); ch {
		if cl {
			c.AllowedValues = nil
		} else {
			c.AllowedValues = append([]string{}, p.AllowedValues.Values...)
		}
	}
	return c
}

func orNil[T any](p *T, clear bool) *T {
	if clear {
		return nil
	}
	return p
}

// checkConstraints records through add the violations of constraints c for dataType (an empty
// dataType, itself refused elsewhere, checks only what does not depend on it). Fields are named
// constraints.<name>.
func checkConstraints(add func(field, format string, args ...any), dataType string, c inputConstraints) {
	name := func(n string) string { return "constraints." + n }
	bad := false
	fail := func(n, format string, args ...any) {
		bad = true
		add(name(n), format, args...)
	}
	if allowed, ok := inputConstraintsFor[dataType]; ok {
		for _, n := range c.set() {
			if !slices.Contains(allowed, n) {
				fail(n, "does not apply to data type %s", dataType)
			}
		}
	}
	if bad {
		return // the constraints given do not fit the type: their values are not worth judging
	}
	if c.MinLength != nil && *c.MinLength < 0 {
		fail(cMinLength, "must not be negative")
	}
	if c.MaxLength != nil && *c.MaxLength < 0 {
		fail(cMaxLength, "must not be negative")
	}
	if c.MinLength != nil && c.MaxLength != nil && *c.MinLength >= 0 && *c.MinLength > *c.MaxLength {
		fail(cMinLength, "must not be greater than maxLength")
	}
	var lo, hi *bound
	if c.Min != nil && dataType != "" {
		b, err := parseBound(dataType, *c.Min)
		if err != nil {
			fail(cMin, "%s", err)
		}
		lo = b
	}
	if c.Max != nil && dataType != "" {
		b, err := parseBound(dataType, *c.Max)
		if err != nil {
			fail(cMax, "%s", err)
		}
		hi = b
	}
	if lo != nil && hi != nil && lo.cmp(hi) > 0 {
		fail(cMin, "must not be greater than max")
	}
	var pattern *compiledPattern
	if c.Pattern != nil {
		cp, err := compilePattern(*c.Pattern)
		if err != nil {
			fail(cPattern, "%s", err)
		}
		pattern = cp
	}
	if c.AllowedValues != nil {
		if n := len(c.AllowedValues); n < 1 || n > maxAllowedValues {
			fail(cAllowedValues, "must hold 1 to %d values (null removes the constraint)", maxAllowedValues)
		}
		seen := map[string]int{}
		for i, s := range c.AllowedValues {
			field := fmt.Sprintf("%s[%d]", cAllowedValues, i)
			key := s
			switch dataType {
			case dtInteger, dtDecimal:
				b, err := parseBound(dataType, s)
				if err != nil {
					fail(field, "%s", err)
					continue
				}
				key = b.rat.RatString()
			default:
				if n := utf8.RuneCountInString(s); n < 1 || n > maxAllowedValueChars {
					fail(field, "must be 1 to %d characters", maxAllowedValueChars)
					continue
				}
			}
			if j, dup := seen[key]; dup {
				fail(field, "repeats allowedValues[%d]", j)
				continue
			}
			seen[key] = i
		}
	}
	if bad || c.AllowedValues == nil || dataType == "" {
		return
	}
	// Every allowed value must pass the other constraints, else it could never be entered. With a
	// pattern, the allowed values share one budget of pattern work (pattern.go).
	if pattern != nil {
		total := 0
		for _, s := range c.AllowedValues {
			total += utf8.RuneCountInString(s)
		}
		if total > pattern.maxChars() {
			fail(cAllowedValues, "hold %d characters in all: at most %d can be checked against this pattern (fewer or shorter values, or a simpler pattern)", total, pattern.maxChars())
			return
		}
	}
	others := c
	others.AllowedValues = nil
	for i, s := range c.AllowedValues {
		v := structpb.NewStringValue(s)
		if dataType == dtInteger {
			b, _ := parseBound(dataType, s)
			f, _ := b.rat.Float64()
			v = structpb.NewNumberValue(f)
		}
		if err := others.validate(dataType, v); err != nil {
			e := err.(*InputValueError)
			fail(fmt.Sprintf("%s[%d]", cAllowedValues, i), "does not satisfy %s: %s", e.Constraint, e.Message)
		}
	}
}

// bound is a comparable value of an ordered data type.
type bound struct {
	rat *big.Rat  // integer, decimal, money
	t   time.Time // date, date_time
}

func (b *bound) cmp(o *bound) int {
	if b.rat != nil {
		return b.rat.Cmp(o.rat)
	}
	return b.t.Compare(o.t)
}

var (
	integerRe  = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)
	decimalRe  = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?$`)
	exponentRe = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?[eE][-+]?[0-9]+$`)
	currencyRe = regexp.MustCompile(`^[A-Z]{3}$`)
)

// Refusals of a number in exponent notation (1e3) where plain notation is required.
var (
	errIntegerExponent = errors.New("must be written without an exponent, in plain notation such as 1000 (as a number or a string)")
	errDecimalExponent = errors.New("must be written without an exponent, in plain notation such as 1000 or 0.025 (as a number or a string)")
)

// parseBound reads a min, max or allowed value written in dataType's string form.
func parseBound(dataType, s string) (*bound, error) {
	switch dataType {
	case dtInteger:
		if exponentRe.MatchString(s) {
			return nil, errIntegerExponent
		}
		if !integerRe.MatchString(s) || len(s) > 17 {
			return nil, fmt.Errorf("must be an integer, such as -5 or \"-5\"")
		}
		r, _ := new(big.Rat).SetString(s)
		if r.Num().CmpAbs(big.NewInt(maxSafeInteger)) > 0 {
			return nil, fmt.Errorf("must be at most 2^53-1 in magnitude")
		}
		return &bound{rat: r}, nil
	case dtDecimal, dtMoney:
		r, err := parseDecimal(s)
		if err != nil {
			return nil, err
		}
		return &bound{rat: r}, nil
	case dtDate:
		t, err := parseDate(s)
		if err != nil {
			return nil, err
		}
		return &bound{t: t}, nil
	case dtDateTime:
		t, err := parseDateTime(s)
		if err != nil {
			return nil, err
		}
		return &bound{t: t}, nil
	}
	return nil, fmt.Errorf("does not apply to data type %s", dataType)
}

// parseDecimal reads a decimal in plain notation: a string's text or a JSON number's literal.
func parseDecimal(s string) (*big.Rat, error) {
	if len(s) <= maxDecimalChars && exponentRe.MatchString(s) {
		return nil, errDecimalExponent
	}
	if len(s) > maxDecimalChars || !decimalRe.MatchString(s) {
		return nil, fmt.Errorf("must be a decimal in plain notation, such as 12.50 or \"12.50\" (at most %d characters)", maxDecimalChars)
	}
	r, _ := new(big.Rat).SetString(s)
	return r, nil
}

func parseDate(s string) (time.Time, error) {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return t, fmt.Errorf("must be a date YYYY-MM-DD")
	}
	return t, nil
}

func parseDateTime(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return t, fmt.Errorf("must be an RFC 3339 date-time with an offset, such as 2024-01-31T10:00:00Z")
	}
	return t, nil
}

// InputValueError is a value that does not fit its input type. Constraint names what it breaks:
// "dataType" (not a value of the data type) or a constraint ("maxLength", "pattern", …).
type InputValueError struct {
	Constraint string
	Message    string
}

func (e *InputValueError) Error() string { return e.Message + " (" + e.Constraint + ")" }

// Problem is the 400 VALIDATION_FAILED naming field (the value's field, e.g. "[2].value"), with the
// broken constraint in the message and in meta.constraint.
func (e *InputValueError) Problem(field string) *apierr.Error {
	return apierr.Field(field, e.Error()).WithMeta("constraint", e.Constraint)
}

func valueErr(constraint, format string, args ...any) error {
	return &InputValueError{Constraint: constraint, Message: fmt.Sprintf(format, args...)}
}

// ValidateInputValue checks value against an input type: its data type (the short name: "text",
// "date_time", …) and its constraints (nil: none). The error, when not nil, is an *InputValueError.
func ValidateInputValue(dataType string, constraints *pb.InputTypeConstraints, value *structpb.Value) error {
	if _, ok := inputConstraintsFor[dataType]; !ok {
		return fmt.Errorf("catalog: unknown input data type %q", dataType)
	}
	return constraintsFromPB(constraints).validate(dataType, value)
}

// validate checks a value of dataType: its form first, then each constraint.
func (c inputConstraints) validate(dataType string, value *structpb.Value) error {
	if value == nil || value.Kind == nil {
		return valueErr("dataType", "is required")
	}
	if _, null := value.Kind.(*structpb.Value_NullValue); null {
		return valueErr("dataType", "must not be null")
	}
	str, isStr := value.Kind.(*structpb.Value_StringValue)
	var num *bound // the value's position for min and max
	switch dataType {
	case dtText, dtRichText:
		if !isStr {
			return valueErr("dataType", "must be a string (data type %s)", dataType)
		}
	case dtURL:
		if !isStr {
			return valueErr("dataType", "must be a string holding a URL (data type url)")
		}
		if err := checkURL(str.StringValue); err != nil {
			return err
		}
	case dtInteger:
		n, ok := value.Kind.(*structpb.Value_NumberValue)
		if !ok {
			return valueErr("dataType", "must be a number without fraction (data type integer)")
		}
		f := n.NumberValue
		if math.IsNaN(f) || math.IsInf(f, 0) || f != math.Trunc(f) {
			return valueErr("dataType", "must be a number without fraction (data type integer)")
		}
		if math.Abs(f) > maxSafeInteger {
			return valueErr("dataType", "must be at most 2^53-1 in magnitude (data type integer)")
		}
		// The float64 may have rounded a fraction away (1e-400, 0.00…01 read as 0): the literal
		// itself must be an integer.
		if text, ok := jsonpb.NumberText(value); !ok || !exactInteger(text) {
			return valueErr("dataType", "must be a number without fraction (data type integer)")
		}
		num = &bound{rat: new(big.Rat).SetInt64(int64(f))}
	case dtDecimal:
		text, ok := decimalText(value)
		if !ok {
			return valueErr("dataType", "must be a decimal, such as 12.50 or \"12.50\" (data type decimal)")
		}
		r, err := parseDecimal(text)
		if err != nil {
			return valueErr("dataType", "%s (data type decimal)", err)
		}
		num = &bound{rat: r}
	case dtMoney:
		r, err := parseMoney(value)
		if err != nil {
			return err
		}
		num = &bound{rat: r}
	case dtBoolean:
		if _, ok := value.Kind.(*structpb.Value_BoolValue); !ok {
			return valueErr("dataType", "must be true or false (data type boolean)")
		}
	case dtDate:
		if !isStr {
			return valueErr("dataType", "must be a string holding a date YYYY-MM-DD (data type date)")
		}
		t, err := parseDate(str.StringValue)
		if err != nil {
			return valueErr("dataType", "%s (data type date)", err)
		}
		num = &bound{t: t}
	case dtDateTime:
		if !isStr {
			return valueErr("dataType", "must be a string holding an RFC 3339 date-time (data type date_time)")
		}
		t, err := parseDateTime(str.StringValue)
		if err != nil {
			return valueErr("dataType", "%s (data type date_time)", err)
		}
		num = &bound{t: t}
	case dtJSON:
		return exactNumbers(value)
	}

	if c.AllowedValues != nil {
		ok := false
		for _, a := range c.AllowedValues {
			if num != nil {
				if b, err := parseBound(dataType, a); err == nil && b.cmp(num) == 0 {
					ok = true
				}
			} else if isStr && a == str.StringValue {
				ok = true
			}
		}
		if !ok {
			return valueErr(cAllowedValues, "must be one of the allowed values %s", quoteList(c.AllowedValues))
		}
	}
	if isStr && (dataType == dtText || dataType == dtRichText || dataType == dtURL) {
		n := utf8.RuneCountInString(str.StringValue)
		if c.MinLength != nil && n < int(*c.MinLength) {
			return valueErr(cMinLength, "must be at least %d characters", *c.MinLength)
		}
		if c.MaxLength != nil && n > int(*c.MaxLength) {
			return valueErr(cMaxLength, "must be at most %d characters", *c.MaxLength)
		}
		if c.Pattern != nil {
			cp, err := compilePattern(*c.Pattern)
			if err != nil {
				return valueErr(cPattern, "cannot be checked: the input type's pattern %s", err)
			}
			if n > cp.maxChars() {
				return valueErr(cPattern, "is too long to be checked against the pattern of its input type: at most %d characters", cp.maxChars())
			}
			if !cp.re.MatchString(str.StringValue) {
				return valueErr(cPattern, "must match the pattern %s", *c.Pattern)
			}
		}
	}
	if num != nil {
		if c.Min != nil {
			if lo, err := parseBound(dataType, *c.Min); err == nil && num.cmp(lo) < 0 {
				return valueErr(cMin, "must be at least %s", *c.Min)
			}
		}
		if c.Max != nil {
			if hi, err := parseBound(dataType, *c.Max); err == nil && num.cmp(hi) > 0 {
				return valueErr(cMax, "must be at most %s", *c.Max)
			}
		}
	}
	return nil
}

func checkURL(s string) error {
	if utf8.RuneCountInString(s) > maxURLLength {
		return valueErr("dataType", "must be a URL of at most %d characters (data type url)", maxURLLength)
	}
	u, err := url.Parse(s)
	if err != nil || !u.IsAbs() || u.Host == "" || (!strings.EqualFold(u.Scheme, "http") && !strings.EqualFold(u.Scheme, "https")) ||
		strings.ContainsAny(s, " \t\r\n") {
		return valueErr("dataType", "must be an absolute http or https URL (data type url)")
	}
	return nil
}

// parseMoney reads {"amount": <decimal>, "currency": "<ISO 4217>"} and returns the amount.
func parseMoney(v *structpb.Value) (*big.Rat, error) {
	const form = `must be an object {"amount": <decimal>, "currency": "<ISO 4217 code>"} (data type money)`
	s, ok := v.Kind.(*structpb.Value_StructValue)
	if !ok || s.StructValue == nil {
		return nil, valueErr("dataType", form)
	}
	f := s.StructValue.Fields
	for k := range f {
		if k != "amount" && k != "currency" {
			return nil, valueErr("dataType", "%s: unknown key %q", form, k)
		}
	}
	amount, ok := decimalText(f["amount"])
	if !ok {
		return nil, valueErr("dataType", "%s: amount must be a decimal, such as 12.50 or \"12.50\"", form)
	}
	r, err := parseDecimal(amount)
	if err != nil {
		return nil, valueErr("dataType", "amount %s (data type money)", err)
	}
	cur, ok := f["currency"].GetKind().(*structpb.Value_StringValue)
	if !ok || !currencyRe.MatchString(cur.StringValue) {
		return nil, valueErr("dataType", "%s: currency must be three upper-case letters, such as EUR", form)
	}
	return r, nil
}

// decimalText is the text of a decimal value or money amount: a string's, or a JSON number's
// (jsonpb.NumberText: its literal in a REST body, else the shortest form of its float64). ok is
// false for any other JSON type.
func decimalText(v *structpb.Value) (string, bool) {
	if s, ok := v.GetKind().(*structpb.Value_StringValue); ok {
		return s.StringValue, true
	}
	return jsonpb.NumberText(v)
}

// storedInputValue is a valid value of dataType in the form stored and returned: a decimal, or a
// money amount, given as a JSON number becomes the string of its text (19.99 → "19.99"); other
// values are kept as they are (a json value is never changed).
func storedInputValue(dataType string, value *structpb.Value) *structpb.Value {
	switch dataType {
	case dtDecimal:
		if s, ok := jsonpb.NumberText(value); ok {
			return structpb.NewStringValue(s)
		}
	case dtMoney:
		f := value.GetStructValue().GetFields()
		if s, ok := jsonpb.NumberText(f["amount"]); ok {
			out := maps.Clone(f)
			out["amount"] = structpb.NewStringValue(s)
			return structpb.NewStructValue(&structpb.Struct{Fields: out})
		}
	}
	return value
}

func quoteList(xs []string) string {
	const show = 10
	q := make([]string, 0, min(len(xs), show)+1)
	for i, x := range xs {
		if i == show {
			q = append(q, fmt.Sprintf("… (%d in all)", len(xs)))
			break
		}
		q = append(q, fmt.Sprintf("%q", x))
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// MaxInputValueBytes bounds an input value: at most 64 KiB of JSON (DESIGN.md "Limits and
// fairness"), measured as its compact encoding (jsonSize).
const MaxInputValueBytes = 64 << 10

// checkValueSize records a violation of field when value is larger than MaxInputValueBytes.
func checkValueSize(v apierr.Validator, field string, value *structpb.Value) {
	if value == nil {
		return
	}
	if n := jsonSize(value, MaxInputValueBytes); n > MaxInputValueBytes {
		v.Add(field, "must be at most %d bytes of JSON (65536, 64 KiB)", MaxInputValueBytes)
	}
}

// jsonSize is the length in bytes of value's compact JSON encoding (strings with their escapes,
// numbers in their shortest form); it stops counting past limit.
func jsonSize(value *structpb.Value, limit int) int {
	switch k := value.GetKind().(type) {
	case *structpb.Value_StringValue:
		return stringJSONSize(k.StringValue)
	case *structpb.Value_NumberValue:
		if s, ok := jsonpb.NumberText(value); ok {
			return len(s)
		}
		return 24
	case *structpb.Value_BoolValue:
		if k.BoolValue {
			return 4
		}
		return 5
	case *structpb.Value_StructValue:
		n := 1 // {, then each member with its : and its , or the final }
		for key, f := range k.StructValue.GetFields() {
			n += stringJSONSize(key) + 2 + jsonSize(f, limit)
			if n > limit {
				return n
			}
		}
		return max(n, 2)
	case *structpb.Value_ListValue:
		n := 1
		for _, x := range k.ListValue.GetValues() {
			n += jsonSize(x, limit) + 1
			if n > limit {
				return n
			}
		}
		return max(n, 2)
	}
	return 4 // null
}

func stringJSONSize(s string) int {
	n := len(s) + 2
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			n++
		case c < 0x20:
			n += 5
		}
	}
	return n
}

// exactInteger reports whether a JSON number literal is an integer exactly (1, -5, 1e3, 2.0), not
// one only after rounding to a float64 (1e-400, 0.000…01). An exponent beyond ±64 is refused before
// any big-number arithmetic (the magnitude check has already bounded the value).
func exactInteger(text string) bool {
	if _, exp, ok := strings.Cut(strings.ToLower(text), "e"); ok {
		if e, err := strconv.Atoi(exp); err != nil || e < -64 || e > 64 {
			return false
		}
	}
	r, ok := new(big.Rat).SetString(text)
	return ok && r.IsInt()
}

// exactNumbers refuses a number in a json value that would not come back as it was sent: a
// google.protobuf.Value holds a float64, answered as its shortest decimal, so 9223372036854775808
// would be stored and answered as 9223372036854776000 (outside audit). A number whose value the
// float64 keeps exactly in its shortest decimal (1.50, 1e3, 0.1) is accepted; the others are 400,
// to be sent as strings.
func exactNumbers(v *structpb.Value) error {
	switch k := v.GetKind().(type) {
	case *structpb.Value_NumberValue:
		sent, ok := jsonpb.NumberText(v)
		if !ok {
			return nil
		}
		back := strconv.FormatFloat(k.NumberValue, 'f', -1, 64) // the shortest form, as answered
		a, okA := decimalKey(sent)
		b, _ := decimalKey(back)
		if !okA || a != b {
			return valueErr("dataType", "the number %s cannot be kept exactly in a json value (it would become %s): send it as a string (data type json)", sent, back)
		}
	case *structpb.Value_ListValue:
		for _, e := range k.ListValue.GetValues() {
			if err := exactNumbers(e); err != nil {
				return err
			}
		}
	case *structpb.Value_StructValue:
		for _, e := range k.StructValue.GetFields() {
			if err := exactNumbers(e); err != nil {
				return err
			}
		}
	}
	return nil
}

// decimalKey is a canonical text of the value of a JSON number literal: its sign, its significant
// digits and their power of ten ("-123e-2" for -1.230), "0" for any zero; two literals have the
// same value exactly when their keys are equal. It works on the text alone: a literal such as
// 1e-999999 reads back as the float64 0, and comparing it as a big.Rat would cost ~20 ms a number
// (64 KiB of them, two minutes). ok is false for an exponent beyond ±2^62, which no float64's
// shortest form has.
func decimalKey(lit string) (key string, ok bool) {
	sign := ""
	if rest, neg := strings.CutPrefix(lit, "-"); neg {
		sign, lit = "-", rest
	}
	mant, exp, _ := strings.Cut(strings.ToLower(lit), "e")
	whole, frac, _ := strings.Cut(mant, ".")
	digits := strings.TrimLeft(whole+frac, "0")
	if digits == "" {
		return "0", true
	}
	e := int64(0)
	if exp != "" {
		var err error
		if e, err = strconv.ParseInt(exp, 10, 64); err != nil || e > 1<<62 || e < -1<<62 {
			return "", false
		}
	}
	trimmed := strings.TrimRight(digits, "0")
	e += int64(len(digits)-len(trimmed)) - int64(len(frac))
	return sign + trimmed + "e" + strconv.FormatInt(e, 10), true
}
