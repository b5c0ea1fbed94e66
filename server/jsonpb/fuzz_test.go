package jsonpb

import (
	"errors"
	"io"
	"testing"
	"unicode/utf8"

	"google.golang.org/protobuf/proto"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/apierr"
)

// FuzzDecode decodes arbitrary bytes into several request bodies (a create, an update with its
// mask, a JSON value, an input type's constraints, a bulk array). Properties: it never panics; a
// refusal is an *apierr.DecodeError whose field is valid UTF-8 (or io.EOF for an empty body);
// what decodes is a message the gRPC hop can carry (proto.Marshal succeeds), and its encoding
// decodes back to the same message (for the bodies whose encoding is a request body: not the
// update masks, which the codec fills from the keys), up to the literal text of numbers in JSON
// values, which the decoder keeps beside the float64 (an unknown field, see NumberText) and the
// encoder does not write back. Seeds: testdata/fuzz/FuzzDecode.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"code":"color","displayName":"Color"}`, `{"code":null}`, `{"code":"a\u0000b"}`, "{\"code\":\"\xff\"}",
		`{"inputTypeUuid":"0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b","value":{"a":[1,2.50,"x",true,null,{"b":1e400}]}}`,
		`{"value":5.10}`, `{"value":0.1000000000000000055511151231257827}`, `{"value":"\ud800"}`,
		`{"constraints":{"min":0,"max":"10.5","pattern":"^[a-z]+$","allowedValues":["a",1]}}`,
		`[{"code":"a"},{"code":"b"}]`, `[null]`, `[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]`, `{"code":"a","code":"b"}`,
		`{"dataType":"text","isLocalizable":true}`, `{"dataType":"TEXT"}`, `{"unknown":1}`, `{`, `"x"`, ``, `{"value":-0}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		targets := []struct {
			new       func() proto.Message
			roundTrip bool
		}{
			{func() proto.Message { return &pb.AttributeCreate{} }, true},
			{func() proto.Message { return &pb.AttributeUpdate{} }, false},
			{func() proto.Message { return &pb.ProductInputValueCreate{} }, true},
			{func() proto.Message { return &pb.InputTypeCreate{} }, true},
		}
		for _, target := range targets {
			m := target.new()
			if err := unmarshal(data, m); err != nil {
				checkDecodeErr(t, data, err)
				continue
			}
			if _, err := proto.Marshal(m); err != nil {
				t.Fatalf("%q: decoded a message the gRPC hop cannot carry: %v", data, err)
			}
			if !target.roundTrip {
				continue
			}
			out, err := Marshaler{}.Marshal(m)
			if err != nil {
				t.Fatalf("%q: re-encode: %v", data, err)
			}
			back := target.new()
			if err := unmarshal(out, back); err != nil {
				t.Fatalf("%q → %s: does not decode again: %v", data, out, err)
			}
			if !proto.Equal(withoutUnknown(t, m), withoutUnknown(t, back)) {
				t.Fatalf("%q → %s: decodes to another message", data, out)
			}
		}
		var items []*pb.AttributeCreate
		if err := unmarshal(data, &items); err != nil {
			checkDecodeErr(t, data, err)
		}
	})
}

func checkDecodeErr(t *testing.T, data []byte, err error) {
	t.Helper()
	var de *apierr.DecodeError
	switch {
	case errors.Is(err, io.EOF):
	case errors.As(err, &de):
		if !utf8.ValidString(de.Field) || de.Message == "" {
			t.Fatalf("%q: decode error %q: field not valid UTF-8 or no message", data, de.Error())
		}
	default:
		t.Fatalf("%q: error %T %v is not a DecodeError", data, err, err)
	}
}

// withoutUnknown is m without its unknown fields (the number literals of Values).
func withoutUnknown(t *testing.T, m proto.Message) proto.Message {
	b, err := proto.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	out := m.ProtoReflect().New().Interface()
	if err := (proto.UnmarshalOptions{DiscardUnknown: true}).Unmarshal(b, out); err != nil {
		t.Fatal(err)
	}
	return out
}
