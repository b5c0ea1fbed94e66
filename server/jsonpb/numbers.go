package jsonpb

import (
	"math"
	"strconv"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/structpb"
)

// Exact numbers (DESIGN.md "Numbers"): a decimal sent as a JSON number is read from its literal
// text, never through a float.
//
//   - A string field with (catalog.v1.rules).json_number = true also accepts a JSON number; the
//     field gets the number's literal text as it is written in the body ("19.990", "-5", "1e3").
//     The tokenizer has checked it is a well-formed JSON number; what the text must look like
//     beyond that (plain notation, an integer, …) is for the field's own validation. Any other
//     JSON type is still a type error.
//   - google.protobuf.Value keeps a float64 for a number, which cannot tell 5.10 from 5.1, nor
//     0.1000000000000000055511151231257827 from 0.1. So when the literal is not exactly what
//     NumberText would rebuild from the float64 (the shortest form that reads back as it), the
//     codec also keeps the literal on the Value, as an unknown field that the gateway's gRPC call
//     carries to the server. The JSON form of the value is unchanged (protojson and this codec's
//     encoder ignore unknown fields): only code that asks NumberText for a decimal sees it.

// numberLiteralField is the number of the unknown field of a google.protobuf.Value that holds the
// literal of its number_value: the largest field number, which Value will not define.
const numberLiteralField protowire.Number = protowire.MaxValidNumber

// decodeNumberText reads a JSON number as the text of a string field (json_number) or, when the
// next value is of another type, reports the type error.
func (d *decoder) decodeNumberText() (protoreflect.Value, error) {
	if c := d.peek(); c != '-' && !isDigit(c) {
		return protoreflect.Value{}, d.typeErr("a string or a number")
	}
	lit, _, err := d.readNumber()
	if err != nil {
		return protoreflect.Value{}, err
	}
	return protoreflect.ValueOfString(string(lit)), nil
}

// keepNumberLiteral records lit on the google.protobuf.Value m (holding f, read from lit) unless
// shortestText(f) rebuilds it as it is.
func keepNumberLiteral(m protoreflect.Message, lit []byte, f float64) {
	var buf [32]byte
	if string(appendShortest(buf[:0], f)) == string(lit) {
		return
	}
	b := protowire.AppendTag(nil, numberLiteralField, protowire.BytesType)
	m.SetUnknown(protowire.AppendBytes(b, lit))
}

// appendShortest appends the shortest decimal in plain notation (no exponent) that reads back as f.
func appendShortest(b []byte, f float64) []byte { return strconv.AppendFloat(b, f, 'f', -1, 64) }

// NumberText is the text of the JSON number v holds (ok is false when v holds no number, or NaN or
// an infinity, which are not JSON numbers):
//   - decoded by this codec from a request body: the number's literal as written there ("19.99",
//     "5.10", "-0.5", "1e3", "12345678901234567890.5");
//   - otherwise (a gRPC client's number_value, a value built in code): the shortest decimal in
//     plain notation that reads back as the same float64 ("19.99", "5.1", "0.0000001").
//
// A literal is used only when it is a well-formed JSON number that reads back as number_value
// exactly, so it can never disagree with the number the value holds.
func NumberText(v *structpb.Value) (text string, ok bool) {
	n, isNum := v.GetKind().(*structpb.Value_NumberValue)
	if !isNum || math.IsNaN(n.NumberValue) || math.IsInf(n.NumberValue, 0) {
		return "", false
	}
	f := n.NumberValue
	if lit, ok := numberLiteral(v.ProtoReflect().GetUnknown()); ok && isJSONNumber(lit) {
		if g, err := strconv.ParseFloat(string(lit), 64); err == nil && math.Float64bits(g) == math.Float64bits(f) {
			return string(lit), true
		}
	}
	return string(appendShortest(nil, f)), true
}

// numberLiteral finds the last numberLiteralField in raw (a message's unknown fields).
func numberLiteral(raw protoreflect.RawFields) (lit []byte, ok bool) {
	for len(raw) > 0 {
		num, typ, n := protowire.ConsumeTag(raw)
		if n < 0 {
			return lit, ok
		}
		raw = raw[n:]
		if num == numberLiteralField && typ == protowire.BytesType {
			b, m := protowire.ConsumeBytes(raw)
			if m < 0 {
				return lit, ok
			}
			lit, ok = b, true
			raw = raw[m:]
			continue
		}
		m := protowire.ConsumeFieldValue(num, typ, raw)
		if m < 0 {
			return lit, ok
		}
		raw = raw[m:]
	}
	return lit, ok
}

// isJSONNumber: s is exactly one JSON number literal.
func isJSONNumber(s []byte) bool {
	d := &decoder{data: s}
	lit, _, err := d.readNumber()
	return err == nil && len(lit) == len(s)
}
