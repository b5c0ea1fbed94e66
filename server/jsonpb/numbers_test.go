package jsonpb

import (
	"math"
	"slices"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	catalogv1 "github.com/catalogd/catalogd/gen/catalog/v1"
)

// TestJSONNumberStringFields: a string field with (catalog.v1.rules).json_number takes a JSON
// number as its literal text, singular and repeated, and still a string.
func TestJSONNumberStringFields(t *testing.T) {
	var c catalogv1.InputTypeConstraints
	body := `{"min": 0, "max":"100.5", "allowedValues":[1, "2.5", -0.50 ,1E+3, 19.990]}`
	if err := decodeVia(body, &c); err != nil {
		t.Fatal(err)
	}
	if c.GetMin() != "0" || c.GetMax() != "100.5" {
		t.Errorf("min %q max %q", c.GetMin(), c.GetMax())
	}
	if want := []string{"1", "2.5", "-0.50", "1E+3", "19.990"}; !slices.Equal(c.GetAllowedValues().GetValues(), want) {
		t.Errorf("allowedValues %q, want %q", c.GetAllowedValues().GetValues(), want)
	}

	// The text is the literal, never a float's rendering: every digit is kept.
	for _, lit := range []string{
		"0.1000000000000000055511151231257827",
		"123456789012345678901234567890.123456789",
		"-9007199254740993",
		"1e400", // out of a float64's range, yet a well-formed number: its judge is the field's validation
	} {
		var c catalogv1.InputTypeConstraints
		if err := decodeVia(`{"min":`+lit+`}`, &c); err != nil {
			t.Fatalf("%s: %v", lit, err)
		}
		if c.GetMin() != lit {
			t.Errorf("min = %q, want %q", c.GetMin(), lit)
		}
	}
}

func TestJSONNumberStringFieldsRefuse(t *testing.T) {
	cons := func() any { return &catalogv1.InputTypeConstraints{} }
	for _, tc := range []struct {
		body       string
		target     func() any
		field, msg string
	}{
		// Other JSON types stay type errors, naming the two accepted.
		{`{"min":true}`, cons, "min", "must be a string or a number, not a boolean"},
		{`{"max":{"v":1}}`, cons, "max", "must be a string or a number, not an object"},
		{`{"min":[1]}`, cons, "min", "must be a string or a number, not an array"},
		{`{"allowedValues":[1,null]}`, cons, "allowedValues[1]", "must be a string or a number, not null"},
		{`{"allowedValues":["a",false]}`, cons, "allowedValues[1]", "must be a string or a number, not a boolean"},
		{`{"allowedValues":3}`, cons, "allowedValues", "must be an array, not a number"},
		// Malformed numbers are malformed JSON, as anywhere else.
		{`{"min":01}`, cons, "body", "malformed JSON"},
		{`{"min":1.}`, cons, "body", "malformed JSON"},
		{`{"min":-}`, cons, "body", "malformed JSON"},
		{`{"min":.5}`, cons, "body", "malformed JSON"},
		{`{"min":+1}`, cons, "body", "malformed JSON"},
		{`{"min":1e}`, cons, "body", "malformed JSON"},
		{`{"min":NaN}`, cons, "body", "malformed JSON"},
		{`{"allowedValues":[1,2x]}`, cons, "body", "malformed JSON"},
		// String fields without the rule still refuse numbers.
		{`{"pattern":5}`, cons, "pattern", "must be a string, not a number"},
		{`{"code":1.5}`, func() any { return new(*catalogv1.InputTypeCreate) }, "code", "must be a string, not a number"},
		{`{"value":1}`, func() any { return new(*catalogv1.AttributeContentCreate) }, "value", "unknown field"},
		{`{"codes":{"eq":["a",2]}}`, func() any { return &catalogv1.ListInputTypesRequest{} }, "codes.eq[1]", "must be a string, not a number"},
	} {
		err := decodeVia(tc.body, tc.target())
		wantDecodeErr(t, err, tc.field, tc.msg)
	}
}

// TestJSONNumberPatch: the patch's bounds take numbers too, and null still clears (in the mask,
// unset).
func TestJSONNumberPatch(t *testing.T) {
	var p *catalogv1.InputTypeConstraintsPatch
	if err := decodeVia(`{"min":-2.50,"max":null,"allowedValues":[7,"8"]}`, &p); err != nil {
		t.Fatal(err)
	}
	if p.GetMin() != "-2.50" || p.Max != nil || !slices.Equal(p.GetAllowedValues().GetValues(), []string{"7", "8"}) {
		t.Errorf("patch %v", p)
	}
	if got := p.GetUpdateMask().GetPaths(); !slices.Equal(got, []string{"min", "max", "allowed_values"}) {
		t.Errorf("mask %v", got)
	}
	var q *catalogv1.InputTypeConstraintsPatch
	if err := decodeVia(`{"allowedValues":null,"min":null}`, &q); err != nil {
		t.Fatal(err)
	}
	if q.AllowedValues != nil || q.Min != nil || !slices.Equal(q.GetUpdateMask().GetPaths(), []string{"allowed_values", "min"}) {
		t.Errorf("clearing patch %v", q)
	}
}

// decodeValue decodes body as an input value's value.
func decodeValue(t *testing.T, body string) *structpb.Value {
	t.Helper()
	var c *catalogv1.ProductInputValueCreate
	if err := decodeVia(`{"inputTypeUuid":"x","value":`+body+`}`, &c); err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	return c.GetValue()
}

func wantNumberText(t *testing.T, what string, v *structpb.Value, want string) {
	t.Helper()
	got, ok := NumberText(v)
	if !ok || got != want {
		t.Errorf("%s: NumberText = %q, %v; want %q", what, got, ok, want)
	}
}

// TestValueNumberLiteral: a number decoded into a google.protobuf.Value keeps its literal for
// NumberText, through a gRPC hop, without changing the value's JSON.
func TestValueNumberLiteral(t *testing.T) {
	for _, tc := range []struct {
		lit  string
		f    float64
		kept bool // the literal differs from the float's shortest form, so it is recorded
	}{
		{"19.99", 19.99, false},
		{"42", 42, false},
		{"-0.5", -0.5, false},
		{"-0", math.Copysign(0, -1), false},
		{"5.10", 5.1, true},
		{"1.0", 1, true},
		{"1e3", 1000, true},
		{"-2.5E-1", -0.25, true},
		{"0.1000000000000000055511151231257827", 0.1, true},
		{"12345678901234567890", 12345678901234567890, true},
		{"9007199254740993", 9007199254740992, true},
	} {
		v := decodeValue(t, tc.lit)
		if v.GetNumberValue() != tc.f || math.Signbit(v.GetNumberValue()) != math.Signbit(tc.f) {
			t.Errorf("%s: number_value %v, want %v", tc.lit, v.GetNumberValue(), tc.f)
		}
		if kept := len(v.ProtoReflect().GetUnknown()) > 0; kept != tc.kept {
			t.Errorf("%s: literal recorded %v, want %v", tc.lit, kept, tc.kept)
		}
		wantNumberText(t, tc.lit, v, tc.lit)

		// The gateway's gRPC call: binary marshal and unmarshal keep it.
		b, err := proto.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var back structpb.Value
		if err := proto.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		wantNumberText(t, tc.lit+" after a gRPC hop", &back, tc.lit)

		// The value's JSON is the float's, as before: json-typed values are not altered.
		want, _ := protojson.Marshal(structpb.NewNumberValue(tc.f))
		if got, _ := protojson.Marshal(v); string(got) != string(want) {
			t.Errorf("%s: protojson %s, want %s", tc.lit, got, want)
		}
		if got := mustMarshal(t, v); got != string(want) {
			t.Errorf("%s: jsonpb %s, want %s", tc.lit, got, want)
		}
	}

	// Numbers nested in objects and arrays (a money amount, a json value) keep theirs too.
	v := decodeValue(t, `{"amount": 5.10, "currency":"EUR", "list":[1.50, 2, {"x":0.0}]}`)
	f := v.GetStructValue().GetFields()
	wantNumberText(t, "amount", f["amount"], "5.10")
	l := f["list"].GetListValue().GetValues()
	wantNumberText(t, "list[0]", l[0], "1.50")
	wantNumberText(t, "list[1]", l[1], "2")
	wantNumberText(t, "list[2].x", l[2].GetStructValue().GetFields()["x"], "0.0")
	if got := mustMarshal(t, v); got != `{"amount":5.1,"currency":"EUR","list":[1.5,2,{"x":0}]}` {
		t.Errorf("json of the object %s", got)
	}
	// A number out of a float64's range is still refused, as before.
	var c *catalogv1.ProductInputValueCreate
	wantDecodeErr(t, decodeVia(`{"value":1e400}`, &c), "value", "number out of range")
}

// TestNumberTextWithoutLiteral: values built in code or sent by a gRPC client give the shortest
// plain form of their float64; anything but a finite number is not a number.
func TestNumberTextWithoutLiteral(t *testing.T) {
	for f, want := range map[float64]string{
		19.99:               "19.99",
		5.10:                "5.1",
		1e21:                "1000000000000000000000",
		1e-7:                "0.0000001",
		-12.5:               "-12.5",
		1 << 53:             "9007199254740992",
		0.30000000000000004: "0.30000000000000004", // 0.1+0.2 at run time
	} {
		wantNumberText(t, want, structpb.NewNumberValue(f), want)
	}
	for _, v := range []*structpb.Value{nil, {}, structpb.NewStringValue("1"), structpb.NewBoolValue(true), structpb.NewNullValue(),
		structpb.NewNumberValue(math.NaN()), structpb.NewNumberValue(math.Inf(-1))} {
		if s, ok := NumberText(v); ok {
			t.Errorf("NumberText(%v) = %q, want not a number", v, s)
		}
	}
}

// TestNumberTextIgnoresForeignLiteral: a recorded literal is used only when it is a JSON number
// that reads back as the value's number (a gRPC client may send any unknown field).
func TestNumberTextIgnoresForeignLiteral(t *testing.T) {
	with := func(f float64, lit string) *structpb.Value {
		v := structpb.NewNumberValue(f)
		b := protowire.AppendTag(nil, numberLiteralField, protowire.BytesType)
		v.ProtoReflect().SetUnknown(protowire.AppendBytes(b, []byte(lit)))
		return v
	}
	wantNumberText(t, "consistent", with(2, "2.000"), "2.000")
	wantNumberText(t, "another number", with(2, "3"), "2")
	wantNumberText(t, "not JSON", with(2, "2.0abc"), "2")
	wantNumberText(t, "exponent without digits", with(2, "2e"), "2")
	wantNumberText(t, "leading plus", with(2, "+2"), "2")
	wantNumberText(t, "float rounding of another decimal", with(0.1, "0.10000000000000001"), "0.10000000000000001")
	wantNumberText(t, "a different float", with(0.1, "0.1000000000000001"), "0.1")

	// Other unknown fields around it are skipped.
	v := structpb.NewNumberValue(7)
	raw := protowire.AppendVarint(protowire.AppendTag(nil, 100, protowire.VarintType), 5)
	raw = protowire.AppendBytes(protowire.AppendTag(raw, numberLiteralField, protowire.BytesType), []byte("7.0"))
	raw = protowire.AppendFixed32(protowire.AppendTag(raw, 101, protowire.Fixed32Type), 1)
	v.ProtoReflect().SetUnknown(raw)
	wantNumberText(t, "among other unknown fields", v, "7.0")
}
