package jsonpb

import (
	"errors"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"
	_ "google.golang.org/protobuf/types/known/fieldmaskpb"
	_ "google.golang.org/protobuf/types/known/structpb"
	_ "google.golang.org/protobuf/types/known/timestamppb"

	"github.com/catalogd/catalogd/server/apierr"
)

// kindsDesc is a proto3 message with the field kinds the catalog protos do not have (64-bit
// integers, bytes, floats, maps, Struct/Value/ListValue, oneofs), built at run time.
var kindsDesc = func() protoreflect.MessageDescriptor {
	t := descriptorpb.FieldDescriptorProto_Type_value
	f := func(name string, num int32, typ string, label descriptorpb.FieldDescriptorProto_Label, typeName string) *descriptorpb.FieldDescriptorProto {
		fd := &descriptorpb.FieldDescriptorProto{
			Name:   proto.String(name),
			Number: proto.Int32(num),
			Type:   descriptorpb.FieldDescriptorProto_Type(t["TYPE_"+typ]).Enum(),
			Label:  label.Enum(),
		}
		if typeName != "" {
			fd.TypeName = proto.String(typeName)
		}
		return fd
	}
	opt, rep := descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL, descriptorpb.FieldDescriptorProto_LABEL_REPEATED
	maybe := f("maybe", 15, "INT64", opt, "")
	maybe.Proto3Optional, maybe.OneofIndex = proto.Bool(true), proto.Int32(1)
	a, b := f("a", 21, "STRING", opt, ""), f("b", 22, "INT32", opt, "")
	a.OneofIndex, b.OneofIndex = proto.Int32(0), proto.Int32(0)
	entry := func(name string, key, value string) *descriptorpb.DescriptorProto {
		return &descriptorpb.DescriptorProto{
			Name:    proto.String(name),
			Field:   []*descriptorpb.FieldDescriptorProto{f("key", 1, key, opt, ""), f("value", 2, value, opt, "")},
			Options: &descriptorpb.MessageOptions{MapEntry: proto.Bool(true)},
		}
	}
	file := &descriptorpb.FileDescriptorProto{
		Name:       proto.String("jsonpbtest/kinds.proto"),
		Package:    proto.String("jsonpbtest"),
		Syntax:     proto.String("proto3"),
		Dependency: []string{"google/protobuf/struct.proto", "google/protobuf/timestamp.proto", "google/protobuf/field_mask.proto"},
		EnumType: []*descriptorpb.EnumDescriptorProto{{
			Name: proto.String("DataType"),
			Value: []*descriptorpb.EnumValueDescriptorProto{
				{Name: proto.String("DATA_TYPE_UNSPECIFIED"), Number: proto.Int32(0)},
				{Name: proto.String("DATA_TYPE_RICH_TEXT"), Number: proto.Int32(1)},
				{Name: proto.String("DATA_TYPE_NUMBER"), Number: proto.Int32(2)},
			},
		}},
		MessageType: []*descriptorpb.DescriptorProto{{
			Name: proto.String("Kinds"),
			Field: []*descriptorpb.FieldDescriptorProto{
				f("i64", 1, "INT64", opt, ""),
				f("u64", 2, "UINT64", opt, ""),
				f("s32", 3, "SINT32", opt, ""),
				f("u32", 4, "UINT32", opt, ""),
				f("dbl", 5, "DOUBLE", opt, ""),
				f("flt", 6, "FLOAT", opt, ""),
				f("raw", 7, "BYTES", opt, ""),
				f("flag", 8, "BOOL", opt, ""),
				f("data_type", 9, "ENUM", opt, ".jsonpbtest.DataType"),
				f("many", 10, "INT64", rep, ""),
				f("counts", 11, "MESSAGE", rep, ".jsonpbtest.Kinds.CountsEntry"),
				f("meta", 12, "MESSAGE", opt, ".google.protobuf.Struct"),
				f("any_value", 13, "MESSAGE", opt, ".google.protobuf.Value"),
				f("list", 14, "MESSAGE", opt, ".google.protobuf.ListValue"),
				maybe,
				f("other_mask", 16, "MESSAGE", opt, ".google.protobuf.FieldMask"),
				f("types", 17, "ENUM", rep, ".jsonpbtest.DataType"),
				f("by_id", 18, "MESSAGE", rep, ".jsonpbtest.Kinds.ByIdEntry"),
				f("child", 19, "MESSAGE", opt, ".jsonpbtest.Kinds"),
				f("times", 20, "MESSAGE", rep, ".google.protobuf.Timestamp"),
				a, b,
			},
			NestedType: []*descriptorpb.DescriptorProto{entry("CountsEntry", "STRING", "INT32"), entry("ByIdEntry", "INT32", "STRING")},
			OneofDecl:  []*descriptorpb.OneofDescriptorProto{{Name: proto.String("choice")}, {Name: proto.String("_maybe")}},
		}},
	}
	fd, err := protodesc.NewFile(file, protoregistry.GlobalFiles)
	if err != nil {
		panic(err)
	}
	return fd.Messages().ByName("Kinds")
}()

func newKinds() protoreflect.Message { return dynamicpb.NewMessage(kindsDesc) }

func decodeKinds(t *testing.T, body string) (protoreflect.Message, error) {
	t.Helper()
	m := newKinds()
	err := Marshaler{}.Unmarshal([]byte(body), m.Interface())
	return m, err
}

const zeroKinds = `{"i64":0,"u64":0,"s32":0,"u32":0,"dbl":0,"flt":0,"raw":"","flag":false,"dataType":null,` +
	`"many":[],"counts":{},"meta":null,"anyValue":null,"list":null,"maybe":null,"types":[],"byId":{},"child":null,"times":[],"a":null,"b":null}`

func TestMarshalEveryKind(t *testing.T) {
	if got := mustMarshal(t, newKinds().Interface()); got != zeroKinds {
		t.Errorf("zero:\ngot  %s\nwant %s", got, zeroKinds)
	}
	body := `{"i64":-9223372036854775808,"u64":18446744073709551615,"s32":-5,"u32":4294967295,"dbl":0.1,"flt":1.5,` +
		`"raw":"AP8=","flag":true,"dataType":"rich_text","many":[9007199254740993,-1],"counts":{"a":1,"b":2},` +
		`"meta":{"k":[1,"two",{"x":null}]},"anyValue":"s","list":[true,null],"maybe":0,"types":["number","rich_text"],` +
		`"byId":{"-1":"m","2":"two"},"child":` + zeroKinds + `,"times":["2026-01-02T03:04:05.5Z"],"a":null,"b":7}`
	m, err := decodeKinds(t, body)
	if err != nil {
		t.Fatal(err)
	}
	got := mustMarshal(t, m.Interface())
	want := strings.Replace(body, `"2026-01-02T03:04:05.5Z"`, `"2026-01-02T03:04:05.500000Z"`, 1)
	if got != want {
		t.Errorf("round trip:\ngot  %s\nwant %s", got, want)
	}
	// The other mask was decoded from nothing and is never written.
	if m.Has(kindsDesc.Fields().ByName("other_mask")) {
		t.Error("other_mask set")
	}
}

func TestDecodeEveryKindErrors(t *testing.T) {
	cases := []struct{ body, field, msg string }{
		{`{"i64":1.0}`, "i64", "must be an integer from -9223372036854775808 to 9223372036854775807"},
		{`{"i64":"1"}`, "i64", "must be an integer, not a string"},
		{`{"u64":-1}`, "u64", "must be an integer from 0 to 18446744073709551615"},
		{`{"u32":4294967296}`, "u32", "must be an integer from 0 to 4294967295"},
		{`{"s32":1e40}`, "s32", "must be an integer from -2147483648 to 2147483647"},
		{`{"flt":1e40}`, "flt", "number out of range"},
		{`{"dbl":"NaN"}`, "dbl", "must be a number, not a string"},
		{`{"raw":"***"}`, "raw", "must be base64"},
		{`{"raw":1}`, "raw", "must be a base64 string, not a number"},
		{`{"flag":1}`, "flag", "must be a boolean, not a number"},
		{`{"dataType":2}`, "dataType", "must be one of: rich_text, number"},
		{`{"types":["number",null]}`, "types[1]", "must be a string, not null"},
		{`{"many":[1,"2"]}`, "many[1]", "must be an integer, not a string"},
		{`{"many":{}}`, "many", "must be an array, not an object"},
		{`{"counts":{"a":1,"a":2}}`, "counts.a", "duplicate key"},
		{`{"counts":{"a":null}}`, "counts.a", "must be a number, not null"},
		{`{"byId":{"x":"y"}}`, "byId.x", "key must be a 32-bit integer"},
		{`{"meta":{"a":1,"a":2}}`, "meta.a", "duplicate key"},
		{`{"meta":[]}`, "meta", "must be an object, not an array"},
		{`{"list":{}}`, "list", "must be an array, not an object"},
		{`{"otherMask":"a"}`, "otherMask", "unknown field"},
		{`{"other_mask":"a"}`, "other_mask", "unknown field"},
		{`{"a":"x","b":1}`, "b", "only one of the fields of choice may be given"},
		{`{"child":{"child":{"times":["2026-01-02"]}}}`, "child.child.times[0]", timestampHint},
		{`{"times":["0000-12-31T00:00:00Z"]}`, "times[0]", "date-time out of range"},
	}
	for _, c := range cases {
		_, err := decodeKinds(t, c.body)
		var de *apierr.DecodeError
		if !errors.As(err, &de) {
			t.Errorf("%s: want a DecodeError, got %v", c.body, err)
			continue
		}
		if de.Field != c.field || de.Message != c.msg {
			t.Errorf("%s: got %q %q, want %q %q", c.body, de.Field, de.Message, c.field, c.msg)
		}
	}
}

func TestDecodeStructTakesAnyJSON(t *testing.T) {
	m, err := decodeKinds(t, `{"meta":{"s":"x","n":-1.25e2,"b":false,"z":null,"o":{"deep":[[]]},"l":[1,{}]},"anyValue":null}`)
	if err != nil {
		t.Fatal(err)
	}
	got := mustMarshal(t, m.Get(kindsDesc.Fields().ByName("meta")).Message().Interface())
	if want := `{"b":false,"l":[1,{}],"n":-125,"o":{"deep":[[]]},"s":"x","z":null}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if m.Has(kindsDesc.Fields().ByName("any_value")) {
		t.Error("a null Value field must stay unset")
	}
}

func TestDecodeDepthLimit(t *testing.T) {
	deep := `{"meta":{"a":` + strings.Repeat("[", 200) + strings.Repeat("]", 200) + `}}`
	_, err := decodeKinds(t, deep)
	var de *apierr.DecodeError
	if !errors.As(err, &de) || de.Message != "nested too deeply" {
		t.Fatalf("got %v", err)
	}
}
