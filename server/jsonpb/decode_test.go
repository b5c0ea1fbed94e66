package jsonpb

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/fieldmaskpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	catalogv1 "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/apierr"
)

func decodeErrOf(t *testing.T, err error) *apierr.DecodeError {
	t.Helper()
	var de *apierr.DecodeError
	if !errors.As(err, &de) {
		t.Fatalf("want *apierr.DecodeError, got %T %v", err, err)
	}
	return de
}

func wantDecodeErr(t *testing.T, err error, field, msgPrefix string) {
	t.Helper()
	de := decodeErrOf(t, err)
	if de.Field != field || !strings.HasPrefix(de.Message, msgPrefix) {
		t.Errorf("got field %q message %q, want field %q message %q…", de.Field, de.Message, field, msgPrefix)
	}
}

// decodeVia goes through NewDecoder, as the gateway does.
func decodeVia(body string, v any) error {
	return Marshaler{}.NewDecoder(strings.NewReader(body)).Decode(v)
}

func TestDecodeDoublePointerAndUpdateMask(t *testing.T) {
	var req catalogv1.UpdateAttributeRequest
	if err := decodeVia(`{"code":"size","displayName":null}`, &req.Attribute); err != nil {
		t.Fatal(err)
	}
	u := req.Attribute
	if u == nil {
		t.Fatal("**T not allocated")
	}
	if u.GetCode() != "size" || u.DisplayName != nil {
		t.Errorf("code %v displayName %v", u.Code, u.DisplayName)
	}
	if got := u.GetUpdateMask().GetPaths(); !slices.Equal(got, []string{"code", "display_name"}) {
		t.Errorf("mask = %v, want [code display_name] (null keys count, in order)", got)
	}

	// Proto names are accepted; the order of the keys is kept.
	var u2 *catalogv1.AttributeUpdate
	if err := decodeVia(`{"display_name":"Size","code":null}`, &u2); err != nil {
		t.Fatal(err)
	}
	if u2.GetDisplayName() != "Size" || u2.Code != nil || !slices.Equal(u2.GetUpdateMask().GetPaths(), []string{"display_name", "code"}) {
		t.Errorf("got %v", u2)
	}

	// An empty object: nothing given, but the mask is there (empty).
	var u3 *catalogv1.AttributeUpdate
	if err := decodeVia(`{}`, &u3); err != nil {
		t.Fatal(err)
	}
	if u3.UpdateMask == nil || len(u3.UpdateMask.Paths) != 0 {
		t.Errorf("mask = %v, want present and empty", u3.UpdateMask)
	}
}

func TestDecodeNullClearsVsAbsent(t *testing.T) {
	// description: null is "clear"; absent is "unchanged". Both leave the field unset; the mask tells.
	var cleared, absent *catalogv1.AttributeContentUpdate
	if err := decodeVia(`{"description":null}`, &cleared); err != nil {
		t.Fatal(err)
	}
	if err := decodeVia(`{"displayName":"x"}`, &absent); err != nil {
		t.Fatal(err)
	}
	if cleared.Description != nil || absent.Description != nil {
		t.Fatal("null must leave the field unset")
	}
	if !slices.Contains(cleared.UpdateMask.Paths, "description") || slices.Contains(absent.UpdateMask.Paths, "description") {
		t.Errorf("masks: cleared %v absent %v", cleared.UpdateMask.Paths, absent.UpdateMask.Paths)
	}
}

func TestDecodeSliceOfMessagesWithMaskPerItem(t *testing.T) {
	var req catalogv1.BulkUpdateAttributesRequest
	body := `[{"uuid":"a","code":"c1"},{"uuid":"b","displayName":"D","code":null},{"uuid":"c"}]`
	if err := decodeVia(body, &req.Items); err != nil {
		t.Fatal(err)
	}
	if len(req.Items) != 3 {
		t.Fatalf("%d items", len(req.Items))
	}
	wantMasks := [][]string{{"uuid", "code"}, {"uuid", "display_name", "code"}, {"uuid"}}
	for i, it := range req.Items {
		if got := it.GetUpdateMask().GetPaths(); !slices.Equal(got, wantMasks[i]) {
			t.Errorf("item %d mask %v, want %v", i, got, wantMasks[i])
		}
	}
	want := &catalogv1.AttributeUpdate{Uuid: "b", DisplayName: proto.String("D"), UpdateMask: &fieldmaskpb.FieldMask{Paths: wantMasks[1]}}
	if !proto.Equal(req.Items[1], want) {
		t.Errorf("item 1 = %v", req.Items[1])
	}

	// Empty array: an empty (non-nil) slice.
	var items []*catalogv1.AttributeCreate
	if err := decodeVia(`[]`, &items); err != nil || items == nil || len(items) != 0 {
		t.Errorf("[] → %v %v", items, err)
	}
}

func TestDecodeUnknownKeys(t *testing.T) {
	var items []*catalogv1.AttributeUpdate
	wantDecodeErr(t, decodeVia(`[{"uuid":"a"},{"uuid":"b","foo":1}]`, &items), "[1].foo", "unknown field")
	var u *catalogv1.AttributeUpdate
	wantDecodeErr(t, decodeVia(`{"updateMask":"code"}`, &u), "updateMask", "unknown field")
	wantDecodeErr(t, decodeVia(`{"update_mask":{"paths":["code"]}}`, &u), "update_mask", "unknown field")
	wantDecodeErr(t, decodeVia(`{"Code":"x"}`, &u), "Code", "unknown field") // names are case-sensitive
	var req catalogv1.CreateAttributeRequest
	wantDecodeErr(t, decodeVia(`{"attribute":{"code":"x","extra":true}}`, &req), "attribute.extra", "unknown field")
	// A response-only field is unknown in a create body.
	var c *catalogv1.AttributeCreate
	wantDecodeErr(t, decodeVia(`{"code":"x","uuid":"u"}`, &c), "uuid", "unknown field")
}

func TestDecodeTypeErrorsWithPaths(t *testing.T) {
	cases := []struct {
		body   string
		target func() any
		field  string
		msg    string
	}{
		{`{"code":1}`, func() any { return new(*catalogv1.AttributeCreate) }, "code", "must be a string, not a number"},
		{`{"code":["x"]}`, func() any { return new(*catalogv1.AttributeCreate) }, "code", "must be a string, not an array"},
		{`[{"code":"ok"},{"code":"ok"},{"code":true}]`, func() any { return new([]*catalogv1.AttributeCreate) }, "[2].code", "must be a string, not a boolean"},
		{`[{"code":"ok"},null]`, func() any { return new([]*catalogv1.AttributeCreate) }, "[1]", "must be an object, not null"},
		{`[1]`, func() any { return new([]*catalogv1.AttributeCreate) }, "[0]", "must be an object, not a number"},
		{`{"isDefault":"true"}`, func() any { return new(*catalogv1.LocaleUpdate) }, "isDefault", "must be a boolean, not a string"},
		{`{"page":"2"}`, func() any { return &catalogv1.ListAttributesRequest{} }, "page", "must be an integer, not a string"},
		{`{"page":1.5}`, func() any { return &catalogv1.ListAttributesRequest{} }, "page", "must be an integer from -2147483648 to 2147483647"},
		{`{"page":1e40}`, func() any { return &catalogv1.ListAttributesRequest{} }, "page", "must be an integer from -2147483648 to 2147483647"},
		{`{"page":2147483648}`, func() any { return &catalogv1.ListAttributesRequest{} }, "page", "must be an integer from -2147483648 to 2147483647"},
		{`{"size":-2147483649}`, func() any { return &catalogv1.ListAttributesRequest{} }, "size", "must be an integer from -2147483648 to 2147483647"},
		{`{"codes":{"eq":"a"}}`, func() any { return &catalogv1.ListAttributesRequest{} }, "codes.eq", "must be an array, not a string"},
		{`{"codes":{"eq":["a",2]}}`, func() any { return &catalogv1.ListAttributesRequest{} }, "codes.eq[1]", "must be a string, not a number"},
		{`{"codes":"a"}`, func() any { return &catalogv1.ListAttributesRequest{} }, "codes", "must be an object, not a string"},
		{`{"createdAt":{"min":"yesterday"}}`, func() any { return &catalogv1.ListAttributesRequest{} }, "createdAt.min", timestampHint},
		{`{"createdAt":{"min":1767322800}}`, func() any { return &catalogv1.ListAttributesRequest{} }, "createdAt.min", "must be a date-time string, not a number"},
		{`{"orderBy":[{"field":"code"},{"direction":"up"}]}`, func() any { return &catalogv1.ListAttributesRequest{} }, "orderBy[1].direction", "must be one of: asc, desc"},
		{`{"orderBy":[null]}`, func() any { return &catalogv1.ListAttributesRequest{} }, "orderBy[0]", "must be an object, not null"},
		{`{"contentUuids":{"values":["a"]}}`, func() any { return &catalogv1.Attribute{} }, "contentUuids", "must be an array, not an object"},
		{`{"contents":[{"uuid":5}]}`, func() any { return &catalogv1.Attribute{} }, "contents[0].uuid", "must be a string, not a number"},
		// The wrong type is named even when the value holds something else that is wrong.
		{"{\"code\":{\"a\":\"\xff\"}}", func() any { return new(*catalogv1.AttributeCreate) }, "code", "must be a string, not an object"},
		// But malformed JSON in a value of the wrong type is reported as malformed JSON.
		{`{"code":{"a":}}`, func() any { return new(*catalogv1.AttributeCreate) }, "body", "malformed JSON at line 1, column 14: unexpected character \"}\""},
		{`{"code":tru}`, func() any { return new(*catalogv1.AttributeCreate) }, "body", "malformed JSON at line 1, column 9: invalid literal, expected true"},
	}
	for _, c := range cases {
		err := decodeVia(c.body, c.target())
		de := decodeErrOf(t, err)
		if de.Field != c.field || de.Message != c.msg {
			t.Errorf("%s: got %q %q, want %q %q", c.body, de.Field, de.Message, c.field, c.msg)
		}
	}
}

func TestDecodeEnums(t *testing.T) {
	for _, in := range []string{`"publish"`} {
		var req catalogv1.TransitionAttributeRequest
		if err := decodeVia(`{"transition":`+in+`}`, &req); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if req.Transition != catalogv1.AttributeTransition_ATTRIBUTE_TRANSITION_PUBLISH {
			t.Errorf("%s → %v", in, req.Transition)
		}
	}
	for _, in := range []string{`1`, `"unspecified"`, `"ATTRIBUTE_TRANSITION_PUBLISH"`, `"ATTRIBUTE_TRANSITION_UNSPECIFIED"`, `"Publish"`, `"PUBLISH"`, `"bogus"`, `""`, `true`} {
		var req catalogv1.TransitionAttributeRequest
		wantDecodeErr(t, decodeVia(`{"transition":`+in+`}`, &req), "transition", "must be one of: publish, unpublish, remove, restore")
	}
	var req catalogv1.TransitionAttributeRequest
	if err := decodeVia(`{"transition":null}`, &req); err != nil || req.Transition != 0 {
		t.Errorf("null enum: %v %v", req.Transition, err)
	}
	if n, ok := ParseEnum(catalogv1.AttributeStatus(0).Descriptor(), "removed"); !ok || n != 4 {
		t.Errorf("ParseEnum: %v %v", n, ok)
	}
	if got := EnumValues(catalogv1.AttributeStatus(0).Descriptor()); !slices.Equal(got, []string{"draft", "published", "unpublished", "removed"}) {
		t.Errorf("EnumValues = %v", got)
	}
	if s, ok := EnumString(catalogv1.SortDirection(0).Descriptor(), 2); !ok || s != "desc" {
		t.Errorf("EnumString = %q %v", s, ok)
	}
}

func TestDecodeBodyShape(t *testing.T) {
	for _, body := range []string{"", "   \n\t "} {
		var a *catalogv1.AttributeCreate
		if err := decodeVia(body, &a); !errors.Is(err, io.EOF) {
			t.Errorf("%q: got %v, want io.EOF", body, err)
		}
		var items []*catalogv1.AttributeCreate
		if err := decodeVia(body, &items); !errors.Is(err, io.EOF) {
			t.Errorf("%q into slice: got %v, want io.EOF", body, err)
		}
		if a != nil || items != nil {
			t.Error("targets must be left alone on io.EOF")
		}
	}
	var a *catalogv1.AttributeCreate
	var items []*catalogv1.AttributeCreate
	for _, body := range []string{`[]`, `[{"code":"x"}]`, `"x"`, `1`, `null`, `true`} {
		wantDecodeErr(t, decodeVia(body, &a), "body", "must be a JSON object")
	}
	for _, body := range []string{`{}`, `{"code":"x"}`, `"x"`, `null`} {
		wantDecodeErr(t, decodeVia(body, &items), "body", "must be a JSON array")
	}
	// A json_array message as the whole body is an array.
	wantDecodeErr(t, decodeVia(`{}`, &catalogv1.UuidList{}), "body", "must be a JSON array")

	// Trailing data, malformed JSON: "body", with a position.
	wantDecodeErr(t, decodeVia(`{"code":"a"} x`, &a), "body", "malformed JSON at line 1, column 14: unexpected data after the JSON value")
	wantDecodeErr(t, decodeVia(`{"code":"a"}{}`, &a), "body", "malformed JSON at line 1, column 13: unexpected data")
	wantDecodeErr(t, decodeVia(`[{"code":"a"}] []`, &items), "body", "malformed JSON at line 1, column 16: unexpected data")
	wantDecodeErr(t, decodeVia("{\n  \"code\": \n}", &a), "body", "malformed JSON at line 3, column 1: unexpected character \"}\"")
	wantDecodeErr(t, decodeVia(`{"code":"a",}`, &a), "body", "malformed JSON at line 1, column 13: expected a string key")
	wantDecodeErr(t, decodeVia(`{"code":"a"`, &a), "body", "malformed JSON at line 1, column 12: expected ',' or '}', found end of input")
	wantDecodeErr(t, decodeVia(`{"code":"a}`, &a), "body", "malformed JSON at line 1, column 12: unterminated string")
	wantDecodeErr(t, decodeVia(`{'code':"a"}`, &a), "body", "malformed JSON at line 1, column 2: expected a string key")
	wantDecodeErr(t, decodeVia(`{"code":tru}`, &a), "body", "malformed JSON at line 1, column 9: invalid literal")
	wantDecodeErr(t, decodeVia(`{"code":"a\x"}`, &a), "body", "malformed JSON at line 1, column 11: invalid escape")
	wantDecodeErr(t, decodeVia("{\"code\":\"a\tb\"}", &a), "body", "malformed JSON at line 1, column 11: control character in string")
	wantDecodeErr(t, decodeVia(`x`, &a), "body", "malformed JSON at line 1, column 1: unexpected character \"x\"")
	var req catalogv1.ListAttributesRequest
	wantDecodeErr(t, decodeVia(`{"page":01}`, &req), "body", "malformed JSON at line 1, column 10: expected ',' or '}'")
	wantDecodeErr(t, decodeVia(`{"page":-}`, &req), "body", "malformed JSON at line 1, column 10: invalid number")
	wantDecodeErr(t, decodeVia(`{"page":1.}`, &req), "body", "malformed JSON at line 1, column 11: invalid number")
	if a != nil || items != nil {
		t.Error("targets must not be set on error")
	}
}

func TestDecodeDuplicateKeys(t *testing.T) {
	var a *catalogv1.AttributeCreate
	wantDecodeErr(t, decodeVia(`{"code":"a","code":"b"}`, &a), "code", "duplicate field")
	wantDecodeErr(t, decodeVia(`{"displayName":"a","display_name":"b"}`, &a), "display_name", "duplicate field")
	wantDecodeErr(t, decodeVia(`{"code":null,"code":"b"}`, &a), "code", "duplicate field")
	var items []*catalogv1.AttributeUpdate
	wantDecodeErr(t, decodeVia(`[{"uuid":"a"},{"uuid":"b","uuid":"c"}]`, &items), "[1].uuid", "duplicate field")
}

func TestDecodeUTF8(t *testing.T) {
	var a *catalogv1.AttributeCreate
	wantDecodeErr(t, decodeVia("{\"code\":\"ab\xffc\"}", &a), "code", "invalid UTF-8")
	wantDecodeErr(t, decodeVia("{\"code\":\"a\\n\xc3\"}", &a), "code", "invalid UTF-8") // slow path (escapes)
	wantDecodeErr(t, decodeVia(`{"code":"\ud800"}`, &a), "code", "invalid UTF-8")
	wantDecodeErr(t, decodeVia(`{"code":"\udc00\ud800"}`, &a), "code", "invalid UTF-8")
	wantDecodeErr(t, decodeVia(`{"code":"\ud800\u0041"}`, &a), "code", "invalid UTF-8")
	wantDecodeErr(t, decodeVia("{\"co\xffde\":1}", &a), "body", "invalid UTF-8")
	var items []*catalogv1.AttributeCreate
	wantDecodeErr(t, decodeVia("[{},{\"displayName\":\"\xfe\"}]", &items), "[1].displayName", "invalid UTF-8")

	if err := decodeVia(`{"code":"\ud83d\ude00 \u00e9\/\"\\ \t","displayName":"日本"}`, &a); err != nil {
		t.Fatal(err)
	}
	if a.GetCode() != "😀 é/\"\\ \t" || a.GetDisplayName() != "日本" {
		t.Errorf("got %q %q", a.GetCode(), a.GetDisplayName())
	}
}

func TestDecodeTimestamps(t *testing.T) {
	var req catalogv1.ListAttributesRequest
	body := `{"createdAt":{"min":"2026-01-02T05:04:05.123456789+02:00","max":"2026-01-02T03:04:05Z"}}`
	if err := decodeVia(body, &req); err != nil {
		t.Fatal(err)
	}
	if got, want := req.CreatedAt.Min.AsTime(), time.Date(2026, 1, 2, 3, 4, 5, 123456789, time.UTC); !got.Equal(want) {
		t.Errorf("min %v, want %v", got, want)
	}
	if got, want := req.CreatedAt.Max.AsTime(), time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC); !got.Equal(want) {
		t.Errorf("max %v", got)
	}
	for _, bad := range []string{"2026-01-02", "2026-01-02 03:04:05Z", "2026-01-02T03:04:05", "2026-13-02T03:04:05Z", ""} {
		wantDecodeErr(t, decodeVia(`{"createdAt":{"eq":"`+bad+`"}}`, &catalogv1.ListAttributesRequest{}), "createdAt.eq", timestampHint)
	}
}

func TestDecodeIntoMessageMerges(t *testing.T) {
	req := &catalogv1.TransitionAttributeRequest{AttributeUuid: "from-path"}
	if err := (Marshaler{}).Unmarshal([]byte(`{"transition":"remove"}`), req); err != nil {
		t.Fatal(err)
	}
	if req.AttributeUuid != "from-path" || req.Transition != catalogv1.AttributeTransition_ATTRIBUTE_TRANSITION_REMOVE {
		t.Errorf("got %v", req)
	}
}

func TestDecodeOtherTargets(t *testing.T) {
	var uuids []string
	if err := decodeVia(`["a","b"]`, &uuids); err != nil || !slices.Equal(uuids, []string{"a", "b"}) {
		t.Errorf("[]string: %v %v", uuids, err)
	}
	wantDecodeErr(t, decodeVia(`["a",1]`, &uuids), "body", "json: cannot unmarshal")
	wantDecodeErr(t, decodeVia("[\"\xff\"]", &uuids), "body", "invalid UTF-8")
	wantDecodeErr(t, decodeVia(`["a"] x`, &uuids), "body", "malformed JSON at line 1, column 7: unexpected data")
	if err := decodeVia(`{}`, catalogv1.Attribute{}); err == nil || errors.As(err, new(*apierr.DecodeError)) {
		t.Errorf("non-pointer target: %v", err)
	}
	if err := decodeVia(`{}`, (*catalogv1.Attribute)(nil)); err == nil {
		t.Error("nil message target: want an error")
	}
}

func TestDecoderPassesReadErrorsThrough(t *testing.T) {
	boom := errors.New("http: request body too large")
	var a *catalogv1.AttributeCreate
	err := Marshaler{}.NewDecoder(iotest.ErrReader(boom)).Decode(&a)
	if !errors.Is(err, boom) {
		t.Errorf("got %v", err)
	}
}

func TestDecodeErrorSurvivesTheGateway(t *testing.T) {
	// The generated handlers flatten the error with status.Errorf(codes.InvalidArgument, "%v", err).
	var items []*catalogv1.AttributeUpdate
	err := decodeVia(`[{"uuid":"a"},{"uuid":"b","foo":1}]`, &items)
	st := status.Errorf(codes.InvalidArgument, "%v", err)
	e := apierr.From(st)
	if e.Code != apierr.MalformedRequest || len(e.Fields) != 1 || e.Fields[0].Field != "[1].foo" || e.Fields[0].Message != "unknown field" {
		t.Errorf("got %+v", e)
	}
	// Malformed JSON too: the message has no newline, so the whole of it is recovered.
	err = decodeVia("{\n\"code\" \"x\"}", new(*catalogv1.AttributeCreate))
	f, m, ok := apierr.ParseDecodeError(fmt.Sprint(err))
	if !ok || f != "body" || m != `malformed JSON at line 2, column 8: expected ':' after a key, found "\""` {
		t.Errorf("got %q %q %v", f, m, ok)
	}
}

func TestRoundTrip(t *testing.T) {
	a := sampleAttribute()
	a.CreatedAt = timestamppb.New(created.Truncate(time.Microsecond))
	a.RemovedAt = timestamppb.New(time.Date(2026, 2, 1, 0, 0, 0, 1000, time.UTC))
	a.Status = catalogv1.AttributeStatus_ATTRIBUTE_STATUS_REMOVED
	a.ContentUuids = &catalogv1.UuidList{Values: []string{"c1", "c2"}}
	a.Contents = &catalogv1.AttributeContentList{Items: []*catalogv1.AttributeContent{
		{Uuid: "c1", AttributeUuid: a.Uuid, LocaleUuid: "l", DisplayName: "Größe", Description: proto.String("")},
		{Uuid: "c2", CreatedAt: a.CreatedAt},
	}}
	resp := &catalogv1.ListAttributesResponse{
		Items:      []*catalogv1.Attribute{a, {Uuid: "empty"}, {ContentUuids: &catalogv1.UuidList{}}},
		Pagination: &catalogv1.Pagination{Page: 1, Size: 20, TotalItems: 3, TotalPages: 1},
	}
	b := mustMarshal(t, resp)
	var back catalogv1.ListAttributesResponse
	if err := (Marshaler{}).Unmarshal([]byte(b), &back); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	if !proto.Equal(resp, &back) {
		t.Errorf("round trip differs:\n%v\n%v", resp, &back)
	}
	if again := mustMarshal(t, &back); again != b {
		t.Errorf("second encoding differs:\n%s\n%s", b, again)
	}
}

func TestDecodeNullArrayOrObjectLeavesItOutOfTheMask(t *testing.T) {
	// A map or a list cannot be null: null on one means "unchanged" (like null on code), so it is
	// not in the mask, while {} / [] are (they empty the field).
	var u *catalogv1.AssetUpdate
	if err := decodeVia(`{"metadata":null,"code":"a"}`, &u); err != nil {
		t.Fatal(err)
	}
	if got := u.GetUpdateMask().GetPaths(); !slices.Equal(got, []string{"code"}) {
		t.Errorf("null map: mask = %v, want [code]", got)
	}
	if err := decodeVia(`{"metadata":{}}`, &u); err != nil {
		t.Fatal(err)
	}
	if got := u.GetUpdateMask().GetPaths(); !slices.Equal(got, []string{"metadata"}) {
		t.Errorf("empty map: mask = %v, want [metadata]", got)
	}
	// A json_array message is a nullable list: null on it is in the mask (it may clear it).
	var ch *catalogv1.ChannelUpdate
	if err := decodeVia(`{"localeUuids":null}`, &ch); err != nil {
		t.Fatal(err)
	}
	if got := ch.GetUpdateMask().GetPaths(); !slices.Equal(got, []string{"locale_uuids"}) || ch.LocaleUuids != nil {
		t.Errorf("null json_array: mask = %v (%v), want [locale_uuids] and unset", got, ch.LocaleUuids)
	}
}
