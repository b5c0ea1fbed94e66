package jsonpb

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/fieldmaskpb"
	"google.golang.org/protobuf/types/known/structpb"
	"google.golang.org/protobuf/types/known/timestamppb"
	"google.golang.org/protobuf/types/known/wrapperspb"

	catalogv1 "github.com/catalogd/catalogd/gen/catalog/v1"
)

func mustMarshal(t *testing.T, v any) string {
	t.Helper()
	b, err := Marshaler{}.Marshal(v)
	if err != nil {
		t.Fatalf("Marshal(%T): %v", v, err)
	}
	return string(b)
}

func ts(t time.Time) *timestamppb.Timestamp { return timestamppb.New(t) }

var (
	created = time.Date(2026, 1, 2, 3, 4, 5, 123456789, time.UTC)
	// Zero fraction, non-UTC zone: 2026-01-02T05:04:05+02:00 is 03:04:05Z.
	updated = time.Date(2026, 1, 2, 5, 4, 5, 0, time.FixedZone("EET", 2*3600))
)

func sampleAttribute() *catalogv1.Attribute {
	return &catalogv1.Attribute{
		Uuid:        "0190a4e2-7b1c-7c3d-8e4f-5a6b7c8d9e0f",
		CreatedAt:   ts(created),
		UpdatedAt:   ts(updated),
		Status:      catalogv1.AttributeStatus_ATTRIBUTE_STATUS_DRAFT,
		Code:        "color",
		DisplayName: "Color",
	}
}

func TestMarshalAttributeEveryFieldInNumberOrder(t *testing.T) {
	got := mustMarshal(t, sampleAttribute())
	want := `{"uuid":"0190a4e2-7b1c-7c3d-8e4f-5a6b7c8d9e0f",` +
		`"createdAt":"2026-01-02T03:04:05.123456Z",` +
		`"updatedAt":"2026-01-02T03:04:05.000000Z",` +
		`"removedAt":null,"status":"draft","code":"color","displayName":"Color",` +
		`"contentUuids":null,"contents":null}`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestMarshalZeroValues(t *testing.T) {
	// Non-optional scalars are present with their zero value; messages are null.
	if got, want := mustMarshal(t, &catalogv1.Attribute{}),
		`{"uuid":"","createdAt":null,"updatedAt":null,"removedAt":null,"status":null,"code":"","displayName":"","contentUuids":null,"contents":null}`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got, want := mustMarshal(t, &catalogv1.ListAttributesResponse{}), `{"items":[],"pagination":null}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if got, want := mustMarshal(t, &catalogv1.Pagination{}), `{"page":0,"size":0,"totalItems":0,"totalPages":0,"nextCursor":null}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if got, want := mustMarshal(t, &catalogv1.Locale{}), `{"uuid":"","createdAt":null,"updatedAt":null,"code":"","displayName":"","isDefault":false}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestMarshalOptionalScalars(t *testing.T) {
	empty, no := "", false
	cases := []struct {
		msg  proto.Message
		want string
	}{
		{&catalogv1.AttributeContent{}, `{"uuid":"","createdAt":null,"updatedAt":null,"attributeUuid":"","localeUuid":"","displayName":"","description":null}`},
		{&catalogv1.AttributeContent{Description: &empty}, `{"uuid":"","createdAt":null,"updatedAt":null,"attributeUuid":"","localeUuid":"","displayName":"","description":""}`},
		{&catalogv1.LocaleCreate{Code: "en-US"}, `{"code":"en-US","displayName":null,"isDefault":null}`},
		{&catalogv1.LocaleCreate{Code: "en-US", IsDefault: &no}, `{"code":"en-US","displayName":null,"isDefault":false}`},
		{&catalogv1.IntFilter{Min: proto.Int32(0)}, `{"eq":null,"min":0,"max":null}`},
	}
	for _, c := range cases {
		if got := mustMarshal(t, c.msg); got != c.want {
			t.Errorf("%T: got %s, want %s", c.msg, got, c.want)
		}
	}
}

func TestMarshalTimestamps(t *testing.T) {
	cases := []struct {
		in   *timestamppb.Timestamp
		want string
	}{
		{ts(time.Date(2026, 1, 2, 3, 4, 5, 123456789, time.UTC)), `"2026-01-02T03:04:05.123456Z"`}, // truncated, not rounded
		{ts(time.Date(2026, 1, 2, 3, 4, 5, 999999999, time.UTC)), `"2026-01-02T03:04:05.999999Z"`},
		{ts(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)), `"2026-01-02T03:04:05.000000Z"`},
		{ts(time.Date(2026, 1, 2, 3, 4, 5, 1000, time.UTC)), `"2026-01-02T03:04:05.000001Z"`},
		{ts(time.Date(2026, 1, 1, 1, 0, 0, 500, time.FixedZone("", 3600+1800))), `"2025-12-31T23:30:00.000000Z"`},
		{ts(time.Date(2026, 3, 1, 12, 0, 0, 0, time.FixedZone("", -8*3600))), `"2026-03-01T20:00:00.000000Z"`},
		{&timestamppb.Timestamp{Seconds: -1, Nanos: 500000000}, `"1969-12-31T23:59:59.500000Z"`},
		{&timestamppb.Timestamp{}, `"1970-01-01T00:00:00.000000Z"`},
		{&timestamppb.Timestamp{Seconds: minTimestampSeconds}, `"0001-01-01T00:00:00.000000Z"`},
		{&timestamppb.Timestamp{Seconds: maxTimestampSeconds, Nanos: 999999999}, `"9999-12-31T23:59:59.999999Z"`},
	}
	for _, c := range cases {
		if got := mustMarshal(t, c.in); got != c.want {
			t.Errorf("%v: got %s, want %s", c.in.AsTime(), got, c.want)
		}
		// As a field too.
		a := &catalogv1.TimeFilter{Eq: c.in}
		if got, want := mustMarshal(t, a), `{"eq":`+c.want+`,"min":null,"max":null}`; got != want {
			t.Errorf("field: got %s, want %s", got, want)
		}
	}
	for _, bad := range []*timestamppb.Timestamp{
		{Seconds: maxTimestampSeconds + 1},
		{Seconds: minTimestampSeconds - 1},
		{Nanos: -1},
		{Nanos: 1e9},
	} {
		if _, err := (Marshaler{}).Marshal(&catalogv1.TimeFilter{Eq: bad}); err == nil {
			t.Errorf("%v: want an error for an out-of-range timestamp", bad)
		}
	}
}

func TestMarshalEnums(t *testing.T) {
	for v, want := range map[catalogv1.AttributeStatus]string{
		catalogv1.AttributeStatus_ATTRIBUTE_STATUS_UNSPECIFIED: `null`,
		catalogv1.AttributeStatus_ATTRIBUTE_STATUS_DRAFT:       `"draft"`,
		catalogv1.AttributeStatus_ATTRIBUTE_STATUS_PUBLISHED:   `"published"`,
		catalogv1.AttributeStatus_ATTRIBUTE_STATUS_UNPUBLISHED: `"unpublished"`,
		catalogv1.AttributeStatus_ATTRIBUTE_STATUS_REMOVED:     `"removed"`,
	} {
		got := mustMarshal(t, &catalogv1.Attribute{Status: v})
		if !strings.Contains(got, `"status":`+want+`,`) {
			t.Errorf("%v: got %s, want status %s", v, got, want)
		}
	}
	if got, want := mustMarshal(t, &catalogv1.OrderBy{Field: "code", Direction: catalogv1.SortDirection_SORT_DIRECTION_ASC}), `{"field":"code","direction":"asc"}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if _, err := (Marshaler{}).Marshal(&catalogv1.Attribute{Status: 42}); err == nil {
		t.Error("an enum number without a name: want an error")
	}
}

func TestUpperSnake(t *testing.T) {
	for in, want := range map[string]string{
		"AttributeStatus": "ATTRIBUTE_STATUS",
		"DataType":        "DATA_TYPE",
		"SortDirection":   "SORT_DIRECTION",
		"HTTPMethod":      "HTTP_METHOD",
		"Level2Kind":      "LEVEL2_KIND",
		"X":               "X",
	} {
		if got := upperSnake(in); got != want {
			t.Errorf("upperSnake(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMarshalJSONArrayMessages(t *testing.T) {
	base := `{"uuid":"","createdAt":null,"updatedAt":null,"removedAt":null,"status":null,"code":"","displayName":""`
	cases := []struct {
		a    *catalogv1.Attribute
		want string
	}{
		{&catalogv1.Attribute{}, base + `,"contentUuids":null,"contents":null}`},
		{&catalogv1.Attribute{ContentUuids: &catalogv1.UuidList{}, Contents: &catalogv1.AttributeContentList{}}, base + `,"contentUuids":[],"contents":[]}`},
		{&catalogv1.Attribute{
			ContentUuids: &catalogv1.UuidList{Values: []string{"a", "b"}},
			Contents: &catalogv1.AttributeContentList{Items: []*catalogv1.AttributeContent{
				{Uuid: "c1", CreatedAt: ts(created), LocaleUuid: "l1", DisplayName: "Farbe"},
			}},
		}, base + `,"contentUuids":["a","b"],"contents":[{"uuid":"c1","createdAt":"2026-01-02T03:04:05.123456Z","updatedAt":null,"attributeUuid":"","localeUuid":"l1","displayName":"Farbe","description":null}]}`},
	}
	for _, c := range cases {
		if got := mustMarshal(t, c.a); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
	// At the top level it is the bare array.
	if got := mustMarshal(t, &catalogv1.UuidList{Values: []string{"x"}}); got != `["x"]` {
		t.Errorf("top-level UuidList: %s", got)
	}
	if got := mustMarshal(t, &catalogv1.AttributeList{}); got != `[]` {
		t.Errorf("top-level empty AttributeList: %s", got)
	}
}

func TestMarshalFieldMaskNeverEmitted(t *testing.T) {
	u := &catalogv1.AttributeUpdate{Uuid: "u", Code: proto.String("c"), UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"code"}}}
	if got, want := mustMarshal(t, u), `{"uuid":"u","code":"c","displayName":null,"etag":null}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if got, want := mustMarshal(t, &catalogv1.AttributeUpdate{}), `{"uuid":"","code":null,"displayName":null,"etag":null}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestMarshalNonMessageValues(t *testing.T) {
	a, b := sampleAttribute(), &catalogv1.Attribute{Uuid: "b"}
	got := mustMarshal(t, []*catalogv1.Attribute{a, nil, b})
	want := "[" + mustMarshal(t, a) + ",null," + mustMarshal(t, b) + "]"
	if got != want {
		t.Errorf("slice: got %s\nwant %s", got, want)
	}
	if got := mustMarshal(t, []*catalogv1.Attribute(nil)); got != `[]` {
		t.Errorf("nil slice: %s", got)
	}
	if got := mustMarshal(t, (*catalogv1.Attribute)(nil)); got != `null` {
		t.Errorf("nil message: %s", got)
	}
	if got := mustMarshal(t, nil); got != `null` {
		t.Errorf("nil: %s", got)
	}
	// Anything else: encoding/json, without HTML escaping or a trailing newline.
	if got, want := mustMarshal(t, map[string]any{"a": "<b>&", "n": 1}), `{"a":"<b>&","n":1}`; got != want {
		t.Errorf("map: got %s, want %s", got, want)
	}
}

func TestMarshalStrings(t *testing.T) {
	in := "a\"b\\c\n\t\x01<>&é😀\u2028" + string([]byte{0xff}) + "z"
	got := mustMarshal(t, &catalogv1.OrderBy{Field: in})
	want := `{"field":"a\"b\\c\n\t\u0001<>&é😀\u2028\ufffdz","direction":null}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	var back struct{ Field string }
	if err := json.Unmarshal([]byte(got), &back); err != nil {
		t.Fatal(err)
	}
	if back.Field != strings.ToValidUTF8(in, "\uFFFD") {
		t.Errorf("round trip through encoding/json: %q", back.Field)
	}
}

func TestMarshalWellKnownTypes(t *testing.T) {
	// 2^53+1 cannot be represented as a float64: written exactly, as a number.
	if got := mustMarshal(t, wrapperspb.Int64(9007199254740993)); got != `9007199254740993` {
		t.Errorf("Int64Value: %s", got)
	}
	if got := mustMarshal(t, wrapperspb.UInt64(18446744073709551615)); got != `18446744073709551615` {
		t.Errorf("UInt64Value: %s", got)
	}
	st, err := structpb.NewStruct(map[string]any{"b": []any{1.5, "x", nil, true}, "a": map[string]any{"z": 1e21}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := mustMarshal(t, st), `{"a":{"z":1e+21},"b":[1.5,"x",null,true]}`; got != want {
		t.Errorf("Struct: got %s, want %s", got, want)
	}
	if got := mustMarshal(t, &structpb.Value{}); got != `null` {
		t.Errorf("empty Value: %s", got)
	}
	if _, err := (Marshaler{}).Marshal(structpb.NewNumberValue(nanValue())); err == nil {
		t.Error("NaN in a Value: want an error")
	}
}

func TestMarshalStatusWithAnyDetails(t *testing.T) {
	// What the gateway's default error handler marshals.
	info, err := anypb.New(&errdetails.ErrorInfo{Reason: "VALIDATION_FAILED", Domain: "catalogd"})
	if err != nil {
		t.Fatal(err)
	}
	got := mustMarshal(t, &spb.Status{Code: 3, Message: "bad", Details: []*anypb.Any{info}})
	want := `{"code":3,"message":"bad","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"VALIDATION_FAILED","domain":"catalogd","metadata":{}}]}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	empty, _ := anypb.New(&errdetails.BadRequest{})
	if got, want := mustMarshal(t, empty), `{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[]}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestEncoderAndContentType(t *testing.T) {
	var buf bytes.Buffer
	if err := (Marshaler{}).NewEncoder(&buf).Encode(&catalogv1.OrderBy{Field: "code"}); err != nil {
		t.Fatal(err)
	}
	if got := buf.String(); got != `{"field":"code","direction":null}` {
		t.Errorf("encoder wrote %q", got)
	}
	if ct := (Marshaler{}).ContentType(nil); ct != "application/json" {
		t.Errorf("ContentType = %q", ct)
	}
}

func nanValue() float64 { return math.NaN() }

func TestDurationAndFieldMaskForms(t *testing.T) {
	for _, c := range []struct {
		d    *durationpb.Duration
		want string
	}{
		{durationpb.New(1500 * time.Millisecond), `"1.500s"`},
		{durationpb.New(3 * time.Second), `"3s"`},
		{durationpb.New(-time.Microsecond), `"-0.000001s"`},
		{durationpb.New(time.Nanosecond), `"0.000000001s"`},
	} {
		got := mustMarshal(t, c.d)
		if got != c.want {
			t.Errorf("%v: got %s, want %s", c.d.AsDuration(), got, c.want)
		}
		back := &durationpb.Duration{}
		if err := (Marshaler{}).Unmarshal([]byte(got), back); err != nil || !proto.Equal(back, c.d) {
			t.Errorf("%s back: %v %v", got, back.AsDuration(), err)
		}
	}
	if err := (Marshaler{}).Unmarshal([]byte(`"1.5"`), &durationpb.Duration{}); err == nil {
		t.Error("a duration without the s suffix: want an error")
	}
	// A FieldMask marshalled on its own (never as a field) is protojson's string form.
	if got := mustMarshal(t, &fieldmaskpb.FieldMask{Paths: []string{"display_name", "a.b_c"}}); got != `"displayName,a.bC"` {
		t.Errorf("FieldMask: %s", got)
	}
}

// The timestamp writer agrees with time.Time's formatting over the whole range of
// google.protobuf.Timestamp, leap days and the ends of centuries included.
func TestTimestampMatchesTimeFormat(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	secs := []int64{minTimestampSeconds, maxTimestampSeconds, 0, -1, 86399, 86400, -86400, -86401,
		951782400, 951868799, 4107542400, -2203891200, 68256000000}
	for range 100000 {
		secs = append(secs, minTimestampSeconds+r.Int64N(maxTimestampSeconds-minTimestampSeconds+1))
	}
	for _, sec := range secs {
		nanos := int32(r.IntN(1e9))
		got, err := appendTimestamp(nil, sec, nanos)
		if err != nil {
			t.Fatalf("%d: %v", sec, err)
		}
		want := `"` + time.Unix(sec, int64(nanos)).UTC().Format("2006-01-02T15:04:05.000000") + `Z"`
		if string(got) != want {
			t.Fatalf("%d.%09d: got %s, want %s", sec, nanos, got, want)
		}
	}
}
