package fields

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/apierr"
)

const nul = "\x00"

func TestNULAnywhereNamesTheField(t *testing.T) {
	create := method(t, "AttributeService", "CreateAttribute")
	want(t, "code", list(create.Check(&pb.CreateAttributeRequest{Attribute: &pb.AttributeCreate{Code: "a" + nul}})),
		"code: must not contain U+0000")
	want(t, "description", list(create.Check(&pb.CreateAttributeRequest{Attribute: &pb.AttributeCreate{Code: "a", DisplayName: str("x" + nul)}})),
		"displayName: must not contain U+0000")
	bulk := method(t, "AttributeService", "BulkCreateAttributes")
	want(t, "bulk item", list(bulk.Check(&pb.BulkCreateAttributesRequest{Items: []*pb.AttributeCreate{{Code: "a"}, {Code: "b"}, {Code: nul}}})),
		"[2].code: must not contain U+0000")

	// Lists: filters are named as query parameters.
	lst := method(t, "AttributeService", "ListAttributes")
	want(t, "contains filter", list(lst.Check(&pb.ListAttributesRequest{Code: &pb.StringFilter{Contains: str("x" + nul)}})),
		"code[contains]: must not contain U+0000")
	want(t, "eq filter", list(lst.Check(&pb.ListAttributesRequest{Codes: &pb.StringsFilter{Eq: []string{"a", nul}}})),
		"codes[eq]: must not contain U+0000")
	// The event-type list any token can read.
	events := method(t, "WebhookEventTypeService", "ListWebhookEventTypes")
	want(t, "event types", list(events.Check(&pb.ListWebhookEventTypesRequest{Name: &pb.StringFilter{Contains: str(nul)}})),
		"name[contains]: must not contain U+0000")

	// JSON values: the path inside the google.protobuf.Value.
	iv := method(t, "ProductInputValueService", "CreateProductInputValue")
	v, err := structpb.NewValue(map[string]any{"a": []any{"x", "y" + nul}, "b c": map[string]any{"k" + nul: 1}})
	if err != nil {
		t.Fatal(err)
	}
	want(t, "json value", list(iv.Check(&pb.CreateProductInputValueRequest{ProductUuid: validUUID,
		ProductInputValue: &pb.ProductInputValueCreate{InputTypeUuid: validUUID, Value: v}})),
		`value.a[1]: must not contain U+0000`,
		`value["b c"]["k\u0000"]: must not contain U+0000 (in the key)`) // keys in order: a, "b c"
	for range 20 { // map order never shows
		if got := list(iv.Check(&pb.CreateProductInputValueRequest{ProductUuid: validUUID,
			ProductInputValue: &pb.ProductInputValueCreate{InputTypeUuid: validUUID, Value: v}})); len(got) != 2 || got[0] != `value.a[1]: must not contain U+0000` {
			t.Fatalf("unstable order: %q", got)
		}
	}
	// Path parameters by their JSON name.
	get := method(t, "AttributeService", "GetAttribute")
	want(t, "path", list(get.Check(&pb.GetAttributeRequest{AttributeUuid: "x" + nul})), "attributeUuid: must not contain U+0000")
	// Invalid UTF-8 built in Go (never after the wire).
	want(t, "invalid utf-8", list(create.Check(&pb.CreateAttributeRequest{Attribute: &pb.AttributeCreate{Code: "a\xff"}})),
		"code: must be valid UTF-8")
}

func TestCodesRefuseControlAndBidiCharacters(t *testing.T) {
	create := method(t, "AttributeService", "CreateAttribute")
	for _, bad := range []string{"a\u202eb", "\u2066x", "x\u200f", "x\u061c", "a\tb", "a\u007fb", "a\u0085", "zero\u200bwidth", "bom\ufeff", "ls\u2028", "tag\U000E0041"} {
		got := list(create.Check(&pb.CreateAttributeRequest{Attribute: &pb.AttributeCreate{Code: bad}}))
		if len(got) != 1 || !strings.HasPrefix(got[0], "code: must not contain control, invisible or bidirectional formatting characters") {
			t.Errorf("code %q: %q", bad, got)
		}
	}
	for _, good := range []string{"color", "Größe", "サイズ", "a b", "emoji-😀", "ﻻ"} {
		want(t, "code "+good, list(create.Check(&pb.CreateAttributeRequest{Attribute: &pb.AttributeCreate{Code: good}})))
	}
	// Other fields may hold them (a description with a tab); an update's code too is a code.
	want(t, "tab in displayName", list(create.Check(&pb.CreateAttributeRequest{Attribute: &pb.AttributeCreate{Code: "c", DisplayName: str("a\tb\u202e")}})))
	update := method(t, "AttributeService", "BulkUpdateAttributes")
	want(t, "update", list(update.Check(&pb.BulkUpdateAttributesRequest{Items: []*pb.AttributeUpdate{{Uuid: validUUID, Code: str("x\u202e")}}})),
		"[0].code: must not contain control, invisible or bidirectional formatting characters (U+202E at character 2)")
	if PatternOf(pb.File_catalog_v1_attributes_proto.Messages().ByName("AttributeCreate").Fields().ByName("code")) != CodePattern {
		t.Error("PatternOf(code) is not CodePattern")
	}
}

// A gRPC request whose string holds invalid UTF-8 decodes, marked, and its check is
// MALFORMED_REQUEST naming the field as REST names it.
func TestServerCodecReportsUndecodableRequests(t *testing.T) {
	cases := []struct {
		method, rpc string
		msg         proto.Message
		field       string
	}{
		{"AttributeService", "BulkCreateAttributes", &pb.BulkCreateAttributesRequest{Items: []*pb.AttributeCreate{{Code: "ok"}, {Code: "BAD!"}}}, "[1].code"},
		{"AttributeService", "CreateAttribute", &pb.CreateAttributeRequest{Attribute: &pb.AttributeCreate{Code: "BAD!"}}, "code"},
		{"AttributeService", "GetAttribute", &pb.GetAttributeRequest{AttributeUuid: "BAD!"}, "attributeUuid"},
		{"AttributeService", "ListAttributes", &pb.ListAttributesRequest{Code: &pb.StringFilter{Starts: str("BAD!")}}, "code[starts]"},
		{"ProductInputValueService", "CreateProductInputValue", &pb.CreateProductInputValueRequest{ProductUuid: validUUID,
			ProductInputValue: &pb.ProductInputValueCreate{InputTypeUuid: validUUID, Value: mustValue(t, map[string]any{"a": []any{1, "BAD!"}})}}, "value.a[1]"},
	}
	for _, c := range cases {
		b, err := proto.Marshal(c.msg)
		if err != nil {
			t.Fatal(err)
		}
		b = bytes.Replace(b, []byte("BAD!"), []byte("\xff\xfe!!"), 1)
		got := c.msg.ProtoReflect().New().Interface()
		if err := (ServerCodec{}).Unmarshal(mem.BufferSlice{mem.SliceBuffer(b)}, got); err != nil {
			t.Fatalf("%s: codec: %v", c.rpc, err)
		}
		err = method(t, c.method, c.rpc).Check(got)
		var e *apierr.Error
		if !errors.As(err, &e) || e.Code != apierr.MalformedRequest || len(e.Fields) != 1 || e.Fields[0].Field != c.field || e.Fields[0].Message != "must be valid UTF-8" {
			t.Errorf("%s: %#v, want MALFORMED_REQUEST naming %s", c.rpc, err, c.field)
		}
	}
	// Garbage is MALFORMED_REQUEST too; a good message decodes as grpc's codec would.
	got := &pb.CreateAttributeRequest{}
	if err := (ServerCodec{}).Unmarshal(mem.BufferSlice{mem.SliceBuffer([]byte{0xff, 0xff, 0xff})}, got); err != nil {
		t.Fatal(err)
	}
	var e *apierr.Error
	if err := method(t, "AttributeService", "CreateAttribute").Check(got); !errors.As(err, &e) || e.Code != apierr.MalformedRequest {
		t.Errorf("garbage: %v", err)
	}
	good, _ := proto.Marshal(&pb.CreateAttributeRequest{Attribute: &pb.AttributeCreate{Code: "fine"}})
	got = &pb.CreateAttributeRequest{}
	if err := (ServerCodec{}).Unmarshal(mem.BufferSlice{mem.SliceBuffer(good)}, got); err != nil || got.GetAttribute().GetCode() != "fine" {
		t.Errorf("good message: %v %v", got, err)
	}
	// Messages outside the API keep grpc's error.
	if err := (ServerCodec{}).Unmarshal(mem.BufferSlice{mem.SliceBuffer([]byte{0xff})}, &structpb.Struct{}); err == nil {
		t.Error("a non-API message decoded from garbage")
	}
}

func mustValue(t *testing.T, x any) *structpb.Value {
	v, err := structpb.NewValue(x)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// A json_array message is its list in JSON, in the string check and in the codec's names.
func TestJSONArrayNames(t *testing.T) {
	update := method(t, "ChannelService", "UpdateChannel")
	want(t, "json_array", list(update.Check(&pb.UpdateChannelRequest{ChannelUuid: validUUID,
		Channel: &pb.ChannelUpdate{LocaleUuids: &pb.UuidList{Values: []string{validUUID, nul}}}})),
		"localeUuids[1]: must be a uuid", "localeUuids[1]: must not contain U+0000")
}
