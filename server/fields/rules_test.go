package fields

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/known/fieldmaskpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/apierr"
)

const validUUID = "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"

// violations runs CheckRules on m and lists its violations as "field: message".
func violations(m proto.Message) []string {
	v := apierr.NewValidator()
	CheckRules(v, m)
	return list(v.Err())
}

func list(err error) []string {
	if err == nil {
		return nil
	}
	var e *apierr.Error
	if !errors.As(err, &e) {
		return []string{"not an apierr.Error: " + err.Error()}
	}
	out := []string{}
	for _, f := range e.Fields {
		out = append(out, f.Field+": "+f.Message)
	}
	return out
}

func want(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if len(got) == 0 && len(want) == 0 {
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n  got  %q\n  want %q", what, got, want)
	}
}

func str(s string) *string { return &s }
func i32(n int32) *int32   { return &n }

func TestRequiredAndLengths(t *testing.T) {
	want(t, "missing code", violations(&pb.AttributeCreate{}), "code: is required")
	want(t, "empty code", violations(&pb.AttributeCreate{Code: ""}), "code: is required")
	want(t, "1 character", violations(&pb.AttributeCreate{Code: "x"}))
	want(t, "100 characters", violations(&pb.AttributeCreate{Code: strings.Repeat("x", 100)}))
	want(t, "101 characters", violations(&pb.AttributeCreate{Code: strings.Repeat("x", 101)}), "code: must be 1 to 100 characters")
	// Code points, not bytes: 100 two-, three- and four-byte characters are 100 characters.
	for _, r := range []string{"é", "名", "😀"} {
		want(t, "100 × "+r, violations(&pb.AttributeCreate{Code: strings.Repeat(r, 100), DisplayName: str(strings.Repeat(r, 100))}))
		want(t, "101 × "+r, violations(&pb.AttributeCreate{Code: strings.Repeat(r, 101)}), "code: must be 1 to 100 characters")
	}
	// A max-only bound (description: up to 10 000 characters, optional).
	content := func(d *string) *pb.AttributeContentCreate {
		return &pb.AttributeContentCreate{LocaleUuid: validUUID, DisplayName: "Colour", Description: d}
	}
	want(t, "no description", violations(content(nil)))
	want(t, "empty description", violations(content(str(""))))
	want(t, "10000 characters", violations(content(str(strings.Repeat("ü", 10000)))))
	want(t, "10001 characters", violations(content(str(strings.Repeat("ü", 10001)))), "description: must be 0 to 10000 characters")
	// A required string without presence (displayName of a content).
	want(t, "content without displayName", violations(&pb.AttributeContentCreate{LocaleUuid: validUUID}), "displayName: is required")
}

func TestOptionalFieldsOnlyWhenPresent(t *testing.T) {
	want(t, "displayName absent", violations(&pb.AttributeCreate{Code: "x"}))
	want(t, "displayName empty", violations(&pb.AttributeCreate{Code: "x", DisplayName: str("")}), "displayName: is required")
	want(t, "displayName too long", violations(&pb.AttributeCreate{Code: "x", DisplayName: str(strings.Repeat("d", 101))}),
		"displayName: must be 1 to 100 characters")
	// An update gives nothing: nothing to judge; each field given is judged.
	want(t, "empty update", violations(&pb.AttributeUpdate{}))
	want(t, "update", violations(&pb.AttributeUpdate{Code: str(""), DisplayName: str(strings.Repeat("d", 101))}),
		"code: is required", "displayName: must be 1 to 100 characters")
	// Optional integers: absent is fine, present is bounded.
	want(t, "timeout absent", violations(&pb.WebhookSubscriptionUpdate{}))
	want(t, "timeout present", violations(&pb.WebhookSubscriptionUpdate{RequestTimeoutMs: i32(999)}), "requestTimeoutMs: must be 1000 to 30000")
}

func TestIntegerBounds(t *testing.T) {
	sub := func(ms int32) *pb.WebhookSubscriptionCreate {
		return &pb.WebhookSubscriptionCreate{DisplayName: "hook", TargetUrl: "https://example.com/hook", RequestTimeoutMs: &ms}
	}
	want(t, "1000", violations(sub(1000)))
	want(t, "30000", violations(sub(30000)))
	want(t, "999", violations(sub(999)), "requestTimeoutMs: must be 1000 to 30000")
	want(t, "30001", violations(sub(30001)), "requestTimeoutMs: must be 1000 to 30000")
	// A minimum only.
	want(t, "minCount 0", violations(&pb.FamilyAssetTypeCreate{ProductAssetTypeUuid: validUUID, MinCount: i32(0)}))
	want(t, "minCount -1, maxCount -2", violations(&pb.FamilyAssetTypeCreate{ProductAssetTypeUuid: validUUID, MinCount: i32(-1), MaxCount: i32(-2)}),
		"minCount: must be 0 or more", "maxCount: must be 0 or more")
	// page and size of a list.
	want(t, "page and size absent", violations(&pb.ListAttributesRequest{}))
	want(t, "page 1, size 1", violations(&pb.ListAttributesRequest{Page: i32(1), Size: i32(1)}))
	want(t, "size 100", violations(&pb.ListAttributesRequest{Size: i32(100)}))
	want(t, "page 0, size 0", violations(&pb.ListAttributesRequest{Page: i32(0), Size: i32(0)}),
		"page: must be 1 or more", "size: must be 1 to 100")
	want(t, "page -1, size 101", violations(&pb.ListAttributesRequest{Page: i32(-1), Size: i32(101)}),
		"page: must be 1 or more", "size: must be 1 to 100")
}

func TestRequiredEnumsAndMessages(t *testing.T) {
	want(t, "product without kind", violations(&pb.ProductCreate{Code: "sku"}), "kind: is required: one of simple, variant_parent, variant")
	want(t, "product with kind", violations(&pb.ProductCreate{Code: "sku", Kind: pb.ProductKind_PRODUCT_KIND_SIMPLE}))
	want(t, "schedule without anything", violations(&pb.PublicationScheduleCreate{}),
		"transition: is required: one of publish, unpublish", "scheduledAt: is required")
	want(t, "schedule", violations(&pb.PublicationScheduleCreate{Transition: pb.ProductPublicationTransition_PRODUCT_PUBLICATION_TRANSITION_PUBLISH,
		ScheduledAt: timestamppb.Now()}))
}

func TestFormats(t *testing.T) {
	sub := func(url string) *pb.WebhookSubscriptionCreate {
		return &pb.WebhookSubscriptionCreate{DisplayName: "hook", TargetUrl: url}
	}
	want(t, "https URL", violations(sub("https://example.com/hook?x=1")))
	want(t, "not a URI", violations(sub("example.com/hook")), "targetUrl: must be an absolute URI")
	want(t, "no target", violations(sub("")), "targetUrl: is required")
	want(t, "2048 characters", violations(sub("https://example.com/"+strings.Repeat("a", 2048-20))))
	want(t, "2049 characters", violations(sub("https://example.com/"+strings.Repeat("a", 2049-20))), "targetUrl: must be 1 to 2048 characters")
	for name, f := range formats {
		if f.check("") == "" && name != "uuid" {
			t.Errorf("format %s accepts an empty string", name)
		}
	}
	if formats["date"].check("2024-02-30") == "" || formats["date-time"].check("2024-01-31 10:00") == "" {
		t.Error("an invalid date or date-time is accepted")
	}
	if formats["date"].check("2024-02-29") != "" || formats["date-time"].check("2024-01-31T10:00:00Z") != "" {
		t.Error("a valid date or date-time is refused")
	}
}

func TestUUIDConvention(t *testing.T) {
	product := func(family *string) *pb.ProductCreate {
		return &pb.ProductCreate{Code: "sku", Kind: pb.ProductKind_PRODUCT_KIND_VARIANT_PARENT, FamilyUuid: family}
	}
	want(t, "uuid", violations(product(str(validUUID))))
	want(t, "not a uuid", violations(product(str("nope"))), "familyUuid: must be a uuid")
	want(t, "uuid without dashes", violations(product(str(strings.ReplaceAll(validUUID, "-", "")))), "familyUuid: must be a uuid")
	want(t, "given empty", violations(product(str(""))), "familyUuid: is required")
	// A required reference: missing, then malformed.
	want(t, "missing attributeUuid", violations(&pb.FamilyAttributeCreate{}), "attributeUuid: is required")
	want(t, "bad attributeUuid", violations(&pb.FamilyAttributeCreate{AttributeUuid: "x"}), "attributeUuid: must be a uuid")
	// Lists of uuids: each element, named by its index.
	want(t, "locale list", violations(&pb.ChannelCreate{Code: "web", LocaleUuids: []string{validUUID, "x", ""}}),
		"localeUuids[1]: must be a uuid", "localeUuids[2]: is required")
}

func TestItemCounts(t *testing.T) {
	many := make([]string, 101)
	for i := range many {
		many[i] = "bad" // not judged: the count is wrong
	}
	want(t, "100 locales", violations(&pb.ChannelCreate{Code: "web", LocaleUuids: many[:0]}))
	want(t, "101 locales", violations(&pb.ChannelCreate{Code: "web", LocaleUuids: many}), "localeUuids: must hold at most 100 locales")
	// A json_array message field (the update's localeUuids): its rules are its list's.
	want(t, "update without localeUuids", violations(&pb.ChannelUpdate{}))
	want(t, "update with an empty list", violations(&pb.ChannelUpdate{LocaleUuids: &pb.UuidList{}}))
	want(t, "update with a bad uuid", violations(&pb.ChannelUpdate{LocaleUuids: &pb.UuidList{Values: []string{validUUID, "x"}}}),
		"localeUuids[1]: must be a uuid")
	want(t, "update with 101", violations(&pb.ChannelUpdate{LocaleUuids: &pb.UuidList{Values: many}}),
		"localeUuids: must hold at most 100 locales")
}

func TestNestingAndPrefix(t *testing.T) {
	// Message fields are named by their path; the validator's prefix comes first.
	want(t, "nested", violations(&pb.CreateAttributeRequest{Attribute: &pb.AttributeCreate{Code: strings.Repeat("c", 101)}}),
		"attribute.code: must be 1 to 100 characters")
	want(t, "bulk", violations(&pb.BulkCreateAttributesRequest{Items: []*pb.AttributeCreate{{Code: "ok"}, {}, {Code: "x", DisplayName: str("")}}}),
		"items[1].code: is required", "items[2].displayName: is required")
	v := apierr.NewValidator()
	CheckRules(v.Item(2), &pb.AttributeCreate{})
	want(t, "item prefix", list(v.Err()), "[2].code: is required")
	// An absent message: only its required fields.
	want(t, "nil message", violations((*pb.AttributeCreate)(nil)), "code: is required")
	// Violations follow the fields' order and are all reported.
	want(t, "all of them", violations(&pb.InputTypeCreate{TypeGroupUuid: "x", DisplayName: str("")}),
		"typeGroupUuid: must be a uuid", "code: is required", "displayName: is required", "dataType: is required: one of text, rich_text, integer, decimal, boolean, date, date_time, url, money, json")
}

func method(t testing.TB, service, name string) *Request {
	t.Helper()
	d, err := protoregistry.GlobalFiles.FindDescriptorByName(protoreflect.FullName("catalog.v1." + service))
	if err != nil {
		t.Fatal(err)
	}
	rq, err := NewRequest(d.(protoreflect.ServiceDescriptor).Methods().ByName(protoreflect.Name(name)), nil)
	if err != nil {
		t.Fatal(err)
	}
	return rq
}

// Request names violations as a REST client sees them: relative to the body, bulk items by index,
// the whole array as `body`, path parameters by their JSON name.
func TestRequestNames(t *testing.T) {
	create := method(t, "AttributeService", "CreateAttribute")
	want(t, "body: attribute", list(create.Check(&pb.CreateAttributeRequest{Attribute: &pb.AttributeCreate{Code: strings.Repeat("c", 101)}})),
		"code: must be 1 to 100 characters")
	want(t, "absent body", list(create.Check(&pb.CreateAttributeRequest{})), "code: is required")

	bulk := method(t, "AttributeService", "BulkCreateAttributes")
	want(t, "two bad items", list(bulk.Check(&pb.BulkCreateAttributesRequest{Items: []*pb.AttributeCreate{
		{Code: "ok-1"}, {Code: ""}, {Code: "ok-2", DisplayName: str(strings.Repeat("x", 101))}}})),
		"[1].code: is required", "[2].displayName: must be 1 to 100 characters")
	err := bulk.Check(&pb.BulkCreateAttributesRequest{})
	want(t, "empty bulk", list(err), "body: must be an array of 1 to 100 items")
	var e *apierr.Error
	if !errors.As(err, &e) || e.Meta["items"] != "0" || e.Code != apierr.ValidationFailed {
		t.Errorf("empty bulk: %#v, want VALIDATION_FAILED with meta.items 0", err)
	}
	tooMany := make([]*pb.AttributeCreate, 101)
	for i := range tooMany {
		tooMany[i] = &pb.AttributeCreate{} // each one invalid, but only the size is reported
	}
	err = bulk.Check(&pb.BulkCreateAttributesRequest{Items: tooMany})
	want(t, "101 items", list(err), "body: must be an array of 1 to 100 items")
	if errors.As(err, &e); e.Meta["items"] != "101" {
		t.Errorf("101 items: meta %v", e.Meta)
	}

	// A bulk update's items name their uuid; a single update takes it from the path.
	bulkUpdate := method(t, "AttributeService", "BulkUpdateAttributes")
	want(t, "bulk update items", list(bulkUpdate.Check(&pb.BulkUpdateAttributesRequest{Items: []*pb.AttributeUpdate{
		{Uuid: validUUID, Code: str("fine")}, {Code: str("y")}, {Uuid: "nope"}}})),
		"[1].uuid: is required", "[2].uuid: must be a uuid")
	update := method(t, "AttributeService", "UpdateAttribute")
	want(t, "single update", list(update.Check(&pb.UpdateAttributeRequest{AttributeUuid: validUUID, Attribute: &pb.AttributeUpdate{Code: str("x")}})))
	want(t, "single update without path parameter", list(update.Check(&pb.UpdateAttributeRequest{Attribute: &pb.AttributeUpdate{Code: str("")}})),
		"attributeUuid: is required", "code: is required")
	// A path parameter's form is the service's to judge, in the order it resolves the path.
	want(t, "malformed path parameter", list(update.Check(&pb.UpdateAttributeRequest{AttributeUuid: "nope"})))

	// body "*": top-level names.
	transition := method(t, "AttributeService", "BulkTransitionAttributes")
	want(t, "empty transition", list(transition.Check(&pb.BulkTransitionAttributesRequest{})),
		"transition: is required: one of publish, unpublish, remove, restore", "uuids: must hold 1 to 100 uuids")
	want(t, "bad uuids", list(transition.Check(&pb.BulkTransitionAttributesRequest{Transition: pb.AttributeTransition_ATTRIBUTE_TRANSITION_PUBLISH,
		Uuids: []string{validUUID, "nope"}})), "uuids[1]: must be a uuid")
	want(t, "101 uuids", list(transition.Check(&pb.BulkTransitionAttributesRequest{Transition: pb.AttributeTransition_ATTRIBUTE_TRANSITION_PUBLISH,
		Uuids: make([]string, 101)})), "uuids: must hold 1 to 100 uuids")

	// Query parameters.
	want(t, "list", list(method(t, "AttributeService", "ListAttributes").Check(&pb.ListAttributesRequest{Size: i32(500)})), "size: must be 1 to 100")
	// Webhooks: a path parameter named uuid, and a body.
	want(t, "webhook update", list(method(t, "WebhookSubscriptionService", "UpdateWebhookSubscription").Check(
		&pb.UpdateWebhookSubscriptionRequest{WebhookSubscription: &pb.WebhookSubscriptionUpdate{TargetUrl: str("")}})),
		"uuid: is required", "targetUrl: is required")
}

// Every RPC of the API compiles, and each of its rules suits its field.
func TestEveryRequestCompiles(t *testing.T) {
	n := 0
	protoregistry.GlobalFiles.RangeFilesByPackage("catalog.v1", func(fd protoreflect.FileDescriptor) bool {
		for i := 0; i < fd.Services().Len(); i++ {
			ms := fd.Services().Get(i).Methods()
			for j := 0; j < ms.Len(); j++ {
				n++
				if _, err := NewRequest(ms.Get(j), nil); err != nil {
					t.Error(err)
				}
			}
		}
		return true
	})
	if n < 100 {
		t.Fatalf("only %d methods found", n)
	}
}

// message builds a message descriptor with one field f of typ (repeated when list) carrying rules.
func message(t *testing.T, rules *pb.FieldRules, typ descriptorpb.FieldDescriptorProto_Type, list bool) protoreflect.MessageDescriptor {
	t.Helper()
	opts := &descriptorpb.FieldOptions{}
	proto.SetExtension(opts, pb.E_Rules, rules)
	label := descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL
	if list {
		label = descriptorpb.FieldDescriptorProto_LABEL_REPEATED
	}
	fdp := &descriptorpb.FileDescriptorProto{Name: proto.String("rulestest.proto"), Package: proto.String("rulestest"), Syntax: proto.String("proto3"),
		MessageType: []*descriptorpb.DescriptorProto{{Name: proto.String("M"), Field: []*descriptorpb.FieldDescriptorProto{{
			Name: proto.String("f"), JsonName: proto.String("f"), Number: proto.Int32(1), Type: typ.Enum(), Label: label.Enum(), Options: opts}}}}}
	fd, err := protodesc.NewFile(fdp, protoregistry.GlobalFiles)
	if err != nil {
		t.Fatal(err)
	}
	return fd.Messages().Get(0)
}

// A rule the server would not apply is refused (at start-up, through NewRequest).
func TestCheckAnnotationsRefusesRulesItCannotApply(t *testing.T) {
	i64 := func(n int64) *int64 { return &n }
	const (
		str = descriptorpb.FieldDescriptorProto_TYPE_STRING
		num = descriptorpb.FieldDescriptorProto_TYPE_INT32
	)
	for _, tc := range []struct {
		name  string
		rules *pb.FieldRules
		typ   descriptorpb.FieldDescriptorProto_Type
		list  bool
		bad   string
	}{
		{"length on a number", &pb.FieldRules{MaxLen: 3}, num, false, "need a string field"},
		{"length on a list", &pb.FieldRules{MaxLen: 3}, str, true, "need a string field"},
		{"min above max", &pb.FieldRules{MinLen: 5, MaxLen: 3}, str, false, "above max_len"},
		{"unknown format", &pb.FieldRules{Format: "email"}, str, false, "not one the server checks"},
		{"items on a scalar", &pb.FieldRules{MaxItems: 3}, str, false, "need a repeated field"},
		{"bounds on a string", &pb.FieldRules{Minimum: i64(1)}, str, false, "need an integer field"},
		{"bounds crossed", &pb.FieldRules{Minimum: i64(5), Maximum: i64(1)}, num, false, "above maximum"},
		{"json_number on a number", &pb.FieldRules{JsonNumber: true}, num, false, "needs a string field"},
		{"fine string", &pb.FieldRules{Required: true, MinLen: 1, MaxLen: 3, Format: "uri"}, str, false, ""},
		{"fine list", &pb.FieldRules{MinItems: 1, MaxItems: 3}, str, true, ""},
		{"fine number", &pb.FieldRules{Minimum: i64(1), Maximum: i64(1)}, num, false, ""},
	} {
		err := CheckAnnotations(message(t, tc.rules, tc.typ, tc.list))
		switch {
		case tc.bad == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.bad != "" && (err == nil || !strings.Contains(err.Error(), tc.bad)):
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.bad)
		}
	}
}

// When a request breaks a rule, the services' own checks run too: one answer lists every
// violation, item by item, and a field is reported once (by its rule).
func TestOwnChecksJoinTheRules(t *testing.T) {
	d, err := protoregistry.GlobalFiles.FindDescriptorByName("catalog.v1.InputTypeService")
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	checks := Checks{"catalog.v1.InputTypeCreate": func(v apierr.Validator, m proto.Message) {
		ran++
		c := m.(*pb.InputTypeCreate)
		if c.GetConstraints().GetPattern() != "" && c.GetDataType() == pb.InputTypeDataType_INPUT_TYPE_DATA_TYPE_BOOLEAN {
			v.Add("constraints.pattern", "does not apply to data type boolean")
		}
		if c.GetCode() == "" {
			v.Add("code", "a second opinion") // already named by a rule: dropped
		}
	}}
	bulk, err := NewRequest(d.(protoreflect.ServiceDescriptor).Methods().ByName("BulkCreateInputTypes"), checks)
	if err != nil {
		t.Fatal(err)
	}
	item := func(code string, dt pb.InputTypeDataType, pattern string) *pb.InputTypeCreate {
		c := &pb.InputTypeCreate{TypeGroupUuid: validUUID, Code: code, DataType: dt}
		if pattern != "" {
			c.Constraints = &pb.InputTypeConstraints{Pattern: str(pattern)}
		}
		return c
	}
	const text, boolean = pb.InputTypeDataType_INPUT_TYPE_DATA_TYPE_TEXT, pb.InputTypeDataType_INPUT_TYPE_DATA_TYPE_BOOLEAN
	want(t, "an item breaking a check, another a rule", list(bulk.Check(&pb.BulkCreateInputTypesRequest{Items: []*pb.InputTypeCreate{
		item("n1", text, ""), item("n2", boolean, "x"), item("", 0, "")}})),
		"[1].constraints.pattern: does not apply to data type boolean",
		"[2].code: is required", "[2].dataType: is required: one of text, rich_text, integer, decimal, boolean, date, date_time, url, money, json")
	// No rule broken: the service runs its own checks itself (not here).
	ran = 0
	want(t, "only a check broken", list(bulk.Check(&pb.BulkCreateInputTypesRequest{Items: []*pb.InputTypeCreate{item("n2", boolean, "x")}})))
	if ran != 0 {
		t.Errorf("own checks ran %d times for a request within its rules", ran)
	}
	// A single body.
	create, err := NewRequest(d.(protoreflect.ServiceDescriptor).Methods().ByName("CreateInputType"), checks)
	if err != nil {
		t.Fatal(err)
	}
	c := item(strings.Repeat("c", 101), boolean, "x")
	want(t, "single", list(create.Check(&pb.CreateInputTypeRequest{InputType: c})),
		"code: must be 1 to 100 characters", "constraints.pattern: does not apply to data type boolean")
}

// An update with an update_mask (gRPC) changes only the fields it names: the others are not judged.
func TestUpdateMaskLimitsTheCheck(t *testing.T) {
	u := &pb.AttributeUpdate{Code: str(""), DisplayName: str(strings.Repeat("d", 101))}
	want(t, "no mask", violations(u), "code: is required", "displayName: must be 1 to 100 characters")
	u.UpdateMask = &fieldmaskpb.FieldMask{Paths: []string{"display_name"}}
	want(t, "mask display_name", violations(u), "displayName: must be 1 to 100 characters")
	u.UpdateMask = &fieldmaskpb.FieldMask{Paths: []string{"displayName"}} // JSON names too
	want(t, "mask displayName", violations(u), "displayName: must be 1 to 100 characters")
	u.UpdateMask = &fieldmaskpb.FieldMask{Paths: []string{"code"}}
	want(t, "mask code", violations(u), "code: is required")
	u.UpdateMask.Paths = nil
	want(t, "empty mask", violations(u), "code: is required", "displayName: must be 1 to 100 characters")
}
