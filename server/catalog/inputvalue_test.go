package catalog

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/fieldmaskpb"
	"google.golang.org/protobuf/types/known/structpb"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/jsonpb"
)

func sv(s string) *structpb.Value  { return structpb.NewStringValue(s) }
func nv(f float64) *structpb.Value { return structpb.NewNumberValue(f) }
func bv(b bool) *structpb.Value    { return structpb.NewBoolValue(b) }
func money(amount any, currency any) *structpb.Value {
	v, err := structpb.NewValue(map[string]any{"amount": amount, "currency": currency})
	if err != nil {
		panic(err)
	}
	return v
}
func anyValue(x any) *structpb.Value {
	v, err := structpb.NewValue(x)
	if err != nil {
		panic(err)
	}
	return v
}

func allowed(vs ...string) *pb.InputTypeAllowedValues { return &pb.InputTypeAllowedValues{Values: vs} }

// bodyValue is the value of a REST body `{"value": <body>}`, as the gateway's codec decodes it
// (a number keeps its literal).
func bodyValue(body string) *structpb.Value {
	var c *pb.ProductInputValueCreate
	if err := (jsonpb.Marshaler{}).Unmarshal([]byte(`{"value":`+body+`}`), &c); err != nil {
		panic(err)
	}
	return c.GetValue()
}

// TestValidateInputValue runs every data type with and without constraints: "" as want means the
// value is accepted, else the constraint the error must name.
func TestValidateInputValue(t *testing.T) {
	type C = pb.InputTypeConstraints
	cases := []struct {
		name     string
		dataType string
		c        *C
		v        *structpb.Value
		want     string
	}{
		// Presence and null.
		{"nil value", dtText, nil, nil, "dataType"},
		{"empty value", dtText, nil, &structpb.Value{}, "dataType"},
		{"null text", dtText, nil, structpb.NewNullValue(), "dataType"},
		{"null json", dtJSON, nil, structpb.NewNullValue(), "dataType"},

		// text.
		{"text", dtText, nil, sv("hello"), ""},
		{"empty text", dtText, nil, sv(""), ""},
		{"text number", dtText, nil, nv(1), "dataType"},
		{"text bool", dtText, nil, bv(true), "dataType"},
		{"text minLength ok", dtText, &C{MinLength: proto.Int32(3)}, sv("abc"), ""},
		{"text minLength code points", dtText, &C{MinLength: proto.Int32(3)}, sv("äöü"), ""},
		{"text minLength short", dtText, &C{MinLength: proto.Int32(3)}, sv("ab"), "minLength"},
		{"text maxLength ok", dtText, &C{MaxLength: proto.Int32(3)}, sv("日本語"), ""},
		{"text maxLength long", dtText, &C{MaxLength: proto.Int32(3)}, sv("abcd"), "maxLength"},
		{"text pattern anywhere", dtText, &C{Pattern: proto.String("[0-9]+")}, sv("abc123"), ""},
		{"text pattern anchored", dtText, &C{Pattern: proto.String("^[0-9]+$")}, sv("abc123"), "pattern"},
		{"text pattern anchored ok", dtText, &C{Pattern: proto.String("^[0-9]+$")}, sv("123"), ""},
		{"text allowed", dtText, &C{AllowedValues: allowed("red", "blue")}, sv("blue"), ""},
		{"text not allowed", dtText, &C{AllowedValues: allowed("red", "blue")}, sv("Blue"), "allowedValues"},
		{"text allowed checked before length", dtText, &C{AllowedValues: allowed("red"), MaxLength: proto.Int32(3)}, sv("green"), "allowedValues"},

		// rich_text.
		{"rich text", dtRichText, &C{MaxLength: proto.Int32(20)}, sv("<p>Hi</p>"), ""},
		{"rich text long", dtRichText, &C{MaxLength: proto.Int32(5)}, sv("<p>Hi</p>"), "maxLength"},
		{"rich text object", dtRichText, nil, anyValue(map[string]any{"html": "x"}), "dataType"},

		// url.
		{"url https", dtURL, nil, sv("https://example.com/a?b=c"), ""},
		{"url http upper scheme", dtURL, nil, sv("HTTP://example.com"), ""},
		{"url relative", dtURL, nil, sv("/a/b"), "dataType"},
		{"url ftp", dtURL, nil, sv("ftp://example.com/x"), "dataType"},
		{"url no host", dtURL, nil, sv("https:///x"), "dataType"},
		{"url space", dtURL, nil, sv("https://example.com/a b"), "dataType"},
		{"url too long", dtURL, nil, sv("https://example.com/" + strings.Repeat("a", 2048)), "dataType"},
		{"url number", dtURL, nil, nv(3), "dataType"},
		{"url pattern", dtURL, &C{Pattern: proto.String(`^https://`)}, sv("http://example.com"), "pattern"},
		{"url maxLength", dtURL, &C{MaxLength: proto.Int32(10)}, sv("https://example.com"), "maxLength"},

		// integer.
		{"integer", dtInteger, nil, nv(42), ""},
		{"integer negative", dtInteger, nil, nv(-7), ""},
		{"integer fraction", dtInteger, nil, nv(1.5), "dataType"},
		{"integer string", dtInteger, nil, sv("42"), "dataType"},
		{"integer max safe", dtInteger, nil, nv(1<<53 - 1), ""},
		{"integer beyond safe", dtInteger, nil, nv(1 << 53), "dataType"},
		{"integer literal underflowing to 0", dtInteger, nil, bodyValue("1e-400"), "dataType"},
		{"integer literal fraction lost in a float", dtInteger, nil, bodyValue("0." + strings.Repeat("0", 400) + "1"), "dataType"},
		{"integer literal fraction lost near 2^53", dtInteger, nil, bodyValue("9007199254740990.5"), "dataType"},
		{"integer literal huge negative exponent", dtInteger, nil, bodyValue("0e-99999999"), "dataType"},
		{"integer literal exponent", dtInteger, nil, bodyValue("1e3"), ""},
		{"integer literal trailing zero", dtInteger, nil, bodyValue("2.0"), ""},
		{"integer min", dtInteger, &C{Min: proto.String("-5")}, nv(-5), ""},
		{"integer below min", dtInteger, &C{Min: proto.String("-5")}, nv(-6), "min"},
		{"integer max", dtInteger, &C{Max: proto.String("10")}, nv(10), ""},
		{"integer above max", dtInteger, &C{Max: proto.String("10")}, nv(11), "max"},
		{"integer allowed", dtInteger, &C{AllowedValues: allowed("1", "2", "3")}, nv(2), ""},
		{"integer not allowed", dtInteger, &C{AllowedValues: allowed("1", "2", "3")}, nv(4), "allowedValues"},

		// decimal.
		{"decimal", dtDecimal, nil, sv("12.50"), ""},
		{"decimal integer form", dtDecimal, nil, sv("-3"), ""},
		{"decimal number", dtDecimal, nil, nv(12.5), ""},
		{"decimal number shortest form", dtDecimal, &C{Max: proto.String("0.1")}, nv(0.1), ""},
		{"decimal number NaN", dtDecimal, nil, nv(math.NaN()), "dataType"},
		{"decimal number infinite", dtDecimal, nil, nv(math.Inf(1)), "dataType"},
		{"decimal number tiny", dtDecimal, nil, nv(1e-120), "dataType"}, // 122 characters in plain notation
		{"decimal bool", dtDecimal, nil, bv(true), "dataType"},
		{"decimal exponent", dtDecimal, nil, sv("1e3"), "dataType"},
		{"decimal literal", dtDecimal, nil, bodyValue("19.990"), ""},
		{"decimal literal exponent", dtDecimal, nil, bodyValue("1e3"), "dataType"},
		{"decimal literal beyond a float", dtDecimal, &C{Max: proto.String("0.1")}, bodyValue("0.1000000000000000000001"), "max"},
		{"decimal literal beyond a float ok", dtDecimal, &C{Max: proto.String("0.1")}, bodyValue("0.1000000000000000000000"), ""},
		{"decimal number below min", dtDecimal, &C{Min: proto.String("0.5")}, nv(0.49), "min"},
		{"decimal number allowed", dtDecimal, &C{AllowedValues: allowed("0.5", "1")}, bodyValue("1.000"), ""},
		{"decimal number not allowed", dtDecimal, &C{AllowedValues: allowed("0.5", "1")}, nv(0.25), "allowedValues"},
		{"decimal leading dot", dtDecimal, nil, sv(".5"), "dataType"},
		{"decimal trailing dot", dtDecimal, nil, sv("5."), "dataType"},
		{"decimal plus", dtDecimal, nil, sv("+5"), "dataType"},
		{"decimal leading zeros", dtDecimal, nil, sv("007"), "dataType"},
		{"decimal too long", dtDecimal, nil, sv("1." + strings.Repeat("0", 100)), "dataType"},
		{"decimal exact min", dtDecimal, &C{Min: proto.String("0.1")}, sv("0.10"), ""},
		{"decimal below min", dtDecimal, &C{Min: proto.String("0.1")}, sv("0.0999999999999999999999"), "min"},
		{"decimal above max", dtDecimal, &C{Max: proto.String("100")}, sv("100.000001"), "max"},
		{"decimal allowed by value", dtDecimal, &C{AllowedValues: allowed("0.5", "1")}, sv("1.00"), ""},
		{"decimal not allowed", dtDecimal, &C{AllowedValues: allowed("0.5", "1")}, sv("0.25"), "allowedValues"},

		// money.
		{"money", dtMoney, nil, money("12.50", "EUR"), ""},
		{"money number amount", dtMoney, nil, money(12.5, "EUR"), ""},
		{"money literal amount", dtMoney, &C{Min: proto.String("5.1")}, bodyValue(`{"amount":5.10,"currency":"EUR"}`), ""},
		{"money literal amount below min", dtMoney, &C{Min: proto.String("5.1")}, bodyValue(`{"amount":5.0999999999999999999,"currency":"EUR"}`), "min"},
		{"money exponent amount", dtMoney, nil, bodyValue(`{"amount":1E2,"currency":"EUR"}`), "dataType"},
		{"money bool amount", dtMoney, nil, money(true, "EUR"), "dataType"},
		{"money bad amount", dtMoney, nil, money("12,50", "EUR"), "dataType"},
		{"money lower currency", dtMoney, nil, money("1", "eur"), "dataType"},
		{"money long currency", dtMoney, nil, money("1", "EURO"), "dataType"},
		{"money no currency", dtMoney, nil, anyValue(map[string]any{"amount": "1"}), "dataType"},
		{"money no amount", dtMoney, nil, anyValue(map[string]any{"currency": "EUR"}), "dataType"},
		{"money extra key", dtMoney, nil, anyValue(map[string]any{"amount": "1", "currency": "EUR", "cents": 100}), "dataType"},
		{"money string", dtMoney, nil, sv("12.50 EUR"), "dataType"},
		{"money min", dtMoney, &C{Min: proto.String("0")}, money("-0.01", "USD"), "min"},
		{"money max", dtMoney, &C{Max: proto.String("999.99")}, money("999.99", "USD"), ""},
		{"money above max", dtMoney, &C{Max: proto.String("999.99")}, money("1000", "USD"), "max"},

		// boolean.
		{"boolean true", dtBoolean, nil, bv(true), ""},
		{"boolean false", dtBoolean, nil, bv(false), ""},
		{"boolean string", dtBoolean, nil, sv("true"), "dataType"},
		{"boolean number", dtBoolean, nil, nv(1), "dataType"},

		// date.
		{"date", dtDate, nil, sv("2024-02-29"), ""},
		{"date not leap", dtDate, nil, sv("2023-02-29"), "dataType"},
		{"date unpadded", dtDate, nil, sv("2024-1-5"), "dataType"},
		{"date with time", dtDate, nil, sv("2024-01-05T00:00:00Z"), "dataType"},
		{"date number", dtDate, nil, nv(20240105), "dataType"},
		{"date min", dtDate, &C{Min: proto.String("2024-01-01")}, sv("2024-01-01"), ""},
		{"date below min", dtDate, &C{Min: proto.String("2024-01-01")}, sv("2023-12-31"), "min"},
		{"date above max", dtDate, &C{Max: proto.String("2024-12-31")}, sv("2025-01-01"), "max"},

		// date_time.
		{"date_time Z", dtDateTime, nil, sv("2024-01-31T10:00:00Z"), ""},
		{"date_time offset fraction", dtDateTime, nil, sv("2024-01-31T10:00:00.123456+02:00"), ""},
		{"date_time no offset", dtDateTime, nil, sv("2024-01-31T10:00:00"), "dataType"},
		{"date_time date only", dtDateTime, nil, sv("2024-01-31"), "dataType"},
		{"date_time min by instant", dtDateTime, &C{Min: proto.String("2024-01-31T10:00:00Z")}, sv("2024-01-31T11:00:00+01:00"), ""},
		{"date_time below min by instant", dtDateTime, &C{Min: proto.String("2024-01-31T10:00:00Z")}, sv("2024-01-31T10:59:59+01:00"), "min"},
		{"date_time above max", dtDateTime, &C{Max: proto.String("2024-01-31T10:00:00Z")}, sv("2024-01-31T10:00:00.000001Z"), "max"},

		// json.
		{"json object", dtJSON, nil, anyValue(map[string]any{"a": []any{1, "b", nil}}), ""},
		{"json string", dtJSON, nil, sv("x"), ""},
		{"json number", dtJSON, nil, nv(1), ""},
		{"json array", dtJSON, nil, anyValue([]any{}), ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := ValidateInputValue(tc.dataType, tc.c, tc.v)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("ValidateInputValue(%s, %v, %v) = %v, want nil", tc.dataType, tc.c, tc.v, err)
				}
				return
			}
			var ive *InputValueError
			if !errors.As(err, &ive) {
				t.Fatalf("ValidateInputValue(%s, %v, %v) = %v, want an *InputValueError naming %s", tc.dataType, tc.c, tc.v, err, tc.want)
			}
			if ive.Constraint != tc.want || ive.Message == "" {
				t.Fatalf("error %+v, want constraint %s", ive, tc.want)
			}
		})
	}
}

func TestValidateInputValueUnknownDataType(t *testing.T) {
	err := ValidateInputValue("colour", nil, sv("red"))
	var ive *InputValueError
	if err == nil || errors.As(err, &ive) {
		t.Fatalf("unknown data type: %v, want a plain error", err)
	}
}

func TestInputValueErrorProblem(t *testing.T) {
	err := ValidateInputValue(dtText, &pb.InputTypeConstraints{MaxLength: proto.Int32(2)}, sv("abc"))
	p := err.(*InputValueError).Problem("[3].value")
	if p.Code != apierr.ValidationFailed || len(p.Fields) != 1 || p.Fields[0].Field != "[3].value" || p.Meta["constraint"] != "maxLength" ||
		!strings.Contains(p.Fields[0].Message, "at most 2 characters") {
		t.Fatalf("problem %+v", p)
	}
}

// TestCheckConstraints covers the definition of constraints: which apply to which data type and
// how their values are judged. want lists the fields named (empty: accepted).
func TestCheckConstraints(t *testing.T) {
	i32 := func(n int32) *int32 { return &n }
	s := func(x string) *string { return &x }
	cases := []struct {
		name     string
		dataType string
		c        inputConstraints
		want     []string
	}{
		{"none", dtBoolean, inputConstraints{}, nil},
		{"text all", dtText, inputConstraints{MinLength: i32(1), MaxLength: i32(5), Pattern: s("^[a-z]+$"), AllowedValues: []string{"abc", "de"}}, nil},
		{"pattern on boolean", dtBoolean, inputConstraints{Pattern: s("x")}, []string{"constraints.pattern"}},
		{"min on text", dtText, inputConstraints{Min: s("1")}, []string{"constraints.min"}},
		{"maxLength on integer", dtInteger, inputConstraints{MaxLength: i32(3)}, []string{"constraints.maxLength"}},
		{"allowedValues on money", dtMoney, inputConstraints{AllowedValues: []string{"1"}}, []string{"constraints.allowedValues"}},
		{"anything on json", dtJSON, inputConstraints{MinLength: i32(1), Max: s("3")}, []string{"constraints.minLength", "constraints.max"}},
		{"pattern on rich_text", dtRichText, inputConstraints{Pattern: s("x")}, []string{"constraints.pattern"}},
		{"negative lengths", dtText, inputConstraints{MinLength: i32(-1), MaxLength: i32(-2)}, []string{"constraints.minLength", "constraints.maxLength"}},
		{"min over max length", dtText, inputConstraints{MinLength: i32(5), MaxLength: i32(4)}, []string{"constraints.minLength"}},
		{"equal lengths", dtURL, inputConstraints{MinLength: i32(4), MaxLength: i32(4)}, nil},
		{"bad regexp", dtText, inputConstraints{Pattern: s("a(b")}, []string{"constraints.pattern"}},
		{"perl lookahead is not RE2", dtText, inputConstraints{Pattern: s("(?=a)")}, []string{"constraints.pattern"}},
		{"empty pattern", dtText, inputConstraints{Pattern: s("")}, []string{"constraints.pattern"}},
		{"long pattern", dtText, inputConstraints{Pattern: s(strings.Repeat("a", 1001))}, []string{"constraints.pattern"}},
		{"integer bounds", dtInteger, inputConstraints{Min: s("-10"), Max: s("10")}, nil},
		{"integer bound decimal", dtInteger, inputConstraints{Min: s("1.5")}, []string{"constraints.min"}},
		{"integer bound huge", dtInteger, inputConstraints{Max: s("9007199254740992")}, []string{"constraints.max"}},
		{"integer min over max", dtInteger, inputConstraints{Min: s("3"), Max: s("2")}, []string{"constraints.min"}},
		{"decimal bounds", dtDecimal, inputConstraints{Min: s("0.01"), Max: s("0.010")}, nil},
		{"decimal bound number-like", dtDecimal, inputConstraints{Min: s("1e2")}, []string{"constraints.min"}},
		{"decimal bounds from numbers", dtDecimal, inputConstraints{Min: s("0"), Max: s("100.5"), AllowedValues: []string{"1", "2.5", "100.50"}}, nil},
		{"decimal allowed exponent", dtDecimal, inputConstraints{AllowedValues: []string{"1", "1E-2"}}, []string{"constraints.allowedValues[1]"}},
		{"decimal allowed over max", dtDecimal, inputConstraints{Max: s("100.5"), AllowedValues: []string{"100.5000000000000000001"}}, []string{"constraints.allowedValues[0]"}},
		{"integer bound with zero fraction", dtInteger, inputConstraints{Max: s("5.0")}, []string{"constraints.max"}},
		{"integer bound exponent", dtInteger, inputConstraints{Max: s("1e3")}, []string{"constraints.max"}},
		{"text allowed number text", dtText, inputConstraints{AllowedValues: []string{"1", "2.50"}}, nil},
		{"money bounds", dtMoney, inputConstraints{Min: s("0"), Max: s("9999.99")}, nil},
		{"date bounds", dtDate, inputConstraints{Min: s("2024-01-01"), Max: s("2024-12-31")}, nil},
		{"date bound not a date", dtDate, inputConstraints{Max: s("2024-13-01")}, []string{"constraints.max"}},
		{"date min over max", dtDate, inputConstraints{Min: s("2024-02-01"), Max: s("2024-01-31")}, []string{"constraints.min"}},
		{"date_time bounds", dtDateTime, inputConstraints{Min: s("2024-01-01T00:00:00Z"), Max: s("2024-01-01T01:00:00+01:00")}, nil},
		{"date_time bound date only", dtDateTime, inputConstraints{Min: s("2024-01-01")}, []string{"constraints.min"}},
		{"empty allowed", dtText, inputConstraints{AllowedValues: []string{}}, []string{"constraints.allowedValues"}},
		{"empty allowed string", dtText, inputConstraints{AllowedValues: []string{"a", ""}}, []string{"constraints.allowedValues[1]"}},
		{"duplicate allowed", dtText, inputConstraints{AllowedValues: []string{"a", "b", "a"}}, []string{"constraints.allowedValues[2]"}},
		{"duplicate allowed decimals by value", dtDecimal, inputConstraints{AllowedValues: []string{"1.0", "1"}}, []string{"constraints.allowedValues[1]"}},
		{"allowed integer not integer", dtInteger, inputConstraints{AllowedValues: []string{"1", "x"}}, []string{"constraints.allowedValues[1]"}},
		{"allowed out of bounds", dtInteger, inputConstraints{Min: s("0"), AllowedValues: []string{"1", "-1"}}, []string{"constraints.allowedValues[1]"}},
		{"allowed too long", dtText, inputConstraints{MaxLength: i32(2), AllowedValues: []string{"ab", "abc"}}, []string{"constraints.allowedValues[1]"}},
		{"allowed not matching", dtText, inputConstraints{Pattern: s("^a"), AllowedValues: []string{"ab", "ba"}}, []string{"constraints.allowedValues[1]"}},
		{"too many allowed", dtText, inputConstraints{AllowedValues: make([]string, 1001)}, []string{"constraints.allowedValues"}},
		{"no data type: type-free checks only", "", inputConstraints{MinLength: i32(-1), Min: s("x")}, []string{"constraints.minLength"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			checkConstraints(func(f, format string, args ...any) { got = append(got, f) }, tc.dataType, tc.c)
			if len(tc.want) == 0 && len(got) > 0 || len(tc.want) > 0 && (len(got) == 0 || !containsAll(got, tc.want)) {
				t.Fatalf("violations %v, want %v", got, tc.want)
			}
		})
	}
}

func containsAll(got, want []string) bool {
	for _, w := range want {
		found := false
		for _, g := range got {
			if g == w {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func TestConstraintsMerge(t *testing.T) {
	base := inputConstraints{MinLength: proto.Int32(1), MaxLength: proto.Int32(10), Pattern: proto.String("x"), AllowedValues: []string{"a"}}
	// Presence only (gRPC without a mask): set what is given, keep the rest.
	m := base.merge(&pb.InputTypeConstraintsPatch{MaxLength: proto.Int32(5)})
	if *m.MaxLength != 5 || *m.MinLength != 1 || *m.Pattern != "x" || len(m.AllowedValues) != 1 {
		t.Errorf("presence merge: %+v", m)
	}
	// A REST body: the mask lists the keys present; a key without value removes the constraint.
	m = base.merge(&pb.InputTypeConstraintsPatch{Min: nil, UpdateMask: maskOf("pattern", "allowed_values", "min_length")})
	if m.Pattern != nil || m.AllowedValues != nil || m.MinLength != nil || *m.MaxLength != 10 {
		t.Errorf("clearing merge: %+v", m)
	}
	// A gRPC mask naming a field (JSON name) changes only it, even when others are set.
	m = base.merge(&pb.InputTypeConstraintsPatch{MinLength: proto.Int32(2), MaxLength: proto.Int32(3), UpdateMask: maskOf("minLength")})
	if *m.MinLength != 2 || *m.MaxLength != 10 {
		t.Errorf("masked merge: %+v", m)
	}
	// Replacing the allowed values.
	m = base.merge(&pb.InputTypeConstraintsPatch{AllowedValues: allowed("b", "c")})
	if len(m.AllowedValues) != 2 || m.AllowedValues[0] != "b" {
		t.Errorf("allowed merge: %+v", m)
	}
	// The stored JSON holds only the constraints set, and reads back the same.
	if j := m.json(); j != `{"minLength":1,"maxLength":10,"pattern":"x","allowedValues":["b","c"]}` {
		t.Errorf("json %s", j)
	}
	if back := parseInputConstraints([]byte(m.json())); !proto.Equal(back.toPB(), m.toPB()) {
		t.Errorf("round trip %+v != %+v", back, m)
	}
	if j := (inputConstraints{}).json(); j != `{}` {
		t.Errorf("empty json %s", j)
	}
}

func maskOf(paths ...string) *fieldmaskpb.FieldMask { return &fieldmaskpb.FieldMask{Paths: paths} }

// TestDecimalMessages: the errors about a decimal's form say what is accepted.
func TestDecimalMessages(t *testing.T) {
	for _, tc := range []struct {
		dataType string
		v        *structpb.Value
		want     string
	}{
		{dtDecimal, bodyValue("1e3"), "must be written without an exponent"},
		{dtDecimal, sv("2.5E-2"), "must be written without an exponent"},
		{dtDecimal, sv("12,50"), `must be a decimal in plain notation, such as 12.50 or "12.50"`},
		{dtDecimal, bv(false), `must be a decimal, such as 12.50 or "12.50" (data type decimal)`},
		{dtMoney, money(false, "EUR"), `amount must be a decimal, such as 12.50 or "12.50"`},
		{dtMoney, bodyValue(`{"amount":1e2,"currency":"EUR"}`), "amount must be written without an exponent"},
	} {
		err := ValidateInputValue(tc.dataType, nil, tc.v)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %v: %v, want …%s…", tc.dataType, tc.v, err, tc.want)
		}
	}
	var msgs []string
	checkConstraints(func(f, format string, args ...any) { msgs = append(msgs, f+": "+fmt.Sprintf(format, args...)) }, dtInteger,
		inputConstraints{Min: proto.String("1e3"), Max: proto.String("5.5")})
	if want := []string{"constraints.min: must be written without an exponent", "constraints.max: must be an integer, such as -5 or \"-5\""}; len(msgs) != 2 ||
		!strings.HasPrefix(msgs[0], want[0]) || !strings.HasPrefix(msgs[1], want[1]) {
		t.Errorf("integer bounds: %q, want %q…", msgs, want)
	}
}

// TestStoredInputValue: decimals and money amounts given as numbers are stored as strings of their
// text; everything else is stored as given.
func TestStoredInputValue(t *testing.T) {
	wantJSON := func(what string, v *structpb.Value, want string) {
		t.Helper()
		got, err := (jsonpb.Marshaler{}).Marshal(v)
		if err != nil || string(got) != want {
			t.Errorf("%s: %s %v, want %s", what, got, err, want)
		}
	}
	wantJSON("decimal literal", storedInputValue(dtDecimal, bodyValue("19.99")), `"19.99"`)
	wantJSON("decimal literal trailing zero", storedInputValue(dtDecimal, bodyValue("5.10")), `"5.10"`)
	wantJSON("decimal literal beyond a float", storedInputValue(dtDecimal, bodyValue("0.1000000000000000055511151231257827")), `"0.1000000000000000055511151231257827"`)
	wantJSON("decimal gRPC number", storedInputValue(dtDecimal, nv(5.10)), `"5.1"`)
	m := bodyValue(`{"currency":"EUR","amount":5.10}`)
	wantJSON("money literal", storedInputValue(dtMoney, m), `{"amount":"5.10","currency":"EUR"}`)
	if _, isNum := m.GetStructValue().GetFields()["amount"].GetKind().(*structpb.Value_NumberValue); !isNum {
		t.Error("the request's money value was changed")
	}
	for _, tc := range []struct {
		dataType string
		v        *structpb.Value
	}{
		{dtDecimal, sv("12.50")},
		{dtMoney, money("1.00", "EUR")},
		{dtInteger, bodyValue("1.0")},
		{dtJSON, bodyValue("19.990")},
		{dtJSON, bodyValue(`{"amount":5.10,"currency":"EUR"}`)},
	} {
		if got := storedInputValue(tc.dataType, tc.v); got != tc.v {
			t.Errorf("%s %v: stored as %v, want unchanged", tc.dataType, tc.v, got)
		}
	}
	wantJSON("json number", storedInputValue(dtJSON, bodyValue("19.990")), `19.99`)
}

// decimalKey: equal keys exactly for equal values, from the text alone (no big-number arithmetic,
// whatever the exponent).
func TestDecimalKey(t *testing.T) {
	same := [][]string{
		{"0", "-0", "0.000", "0e999999999999999999999", "-0.0e-5"},
		{"1.50", "1.5", "15e-1", "0.15E1", "150e-2"},
		{"1000", "1e3", "1E+3", "10.0e2"},
		{"-12.30", "-123e-1"},
		{"9223372036854775808", "9.223372036854775808e18"},
		{"0.0000001", "1e-7"},
	}
	for _, group := range same {
		want, ok := decimalKey(group[0])
		if !ok {
			t.Fatalf("%s: no key", group[0])
		}
		for _, s := range group[1:] {
			if got, ok := decimalKey(s); !ok || got != want {
				t.Errorf("decimalKey(%s) = %q, %v; want %q (as %s)", s, got, ok, want, group[0])
			}
		}
	}
	for _, pair := range [][2]string{{"9223372036854775808", "9223372036854776000"}, {"1e-999999", "0"}, {"1", "-1"}, {"0.1", "0.01"}, {"12", "120"}} {
		a, _ := decimalKey(pair[0])
		b, _ := decimalKey(pair[1])
		if a == b {
			t.Errorf("decimalKey(%s) = decimalKey(%s) = %q", pair[0], pair[1], a)
		}
	}
	if _, ok := decimalKey("1e99999999999999999999"); ok {
		t.Error("an exponent past int64 has a key")
	}
}
