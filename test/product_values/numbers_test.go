package product_values

import (
	"context"
	"encoding/json"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/types/known/structpb"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	. "github.com/catalogd/catalogd/server/apptest"
)

// num is JSON sent as written: a number literal (json.Marshal would go through a float64).
func num(lit string) json.RawMessage { return json.RawMessage(lit) }

// wantStored checks the value as the database holds it (jsonb text).
func wantStored(t *testing.T, id, want string) {
	t.Helper()
	var got string
	if err := pool.QueryRow(context.Background(), `SELECT value::text FROM product_input_values WHERE uuid = $1`, id).Scan(&got); err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("stored value %s, want %s", got, want)
	}
}

// TestDecimalNumbers: a decimal value or money amount may be a JSON number, read exactly from its
// literal and stored and returned as the string of that text (DESIGN.md "Numbers").
func TestDecimalNumbers(t *testing.T) {
	t.Parallel()
	c, _ := env.TenantClient(t)
	p := mkProduct(t, c, "simple")
	g := mkGroup(t, c)

	// Bounds given as numbers and strings, enforced on values given as numbers.
	dec := mkInputType(t, c, g, "decimal", "constraints", Body("min", num("0"), "max", "100.5"))
	v := Want(t, c.Post(base(p), Body("inputTypeUuid", dec, "value", num("19.99"))), 201).Obj()
	id := Str(v, "uuid")
	wantValue(t, "19.99", v, "value", "19.99")
	wantValue(t, "19.99 get", Want(t, c.Get(base(p)+"/"+id), 200).Obj(), "value", "19.99")
	wantStored(t, id, `"19.99"`)

	// The literal's text is kept: trailing zeros, and digits a float64 cannot hold.
	for _, lit := range []string{"19.990", "100.5000000000000000000", "0.1000000000000000055511151231257827", "-0.0", "0"} {
		u := Want(t, c.Patch(base(p)+"/"+id, Body("value", num(lit))), 200).Obj()
		wantValue(t, lit, u, "value", lit)
		wantValue(t, lit+" get", Want(t, c.Get(base(p)+"/"+id), 200).Obj(), "value", lit)
		wantStored(t, id, `"`+lit+`"`)
	}
	// Bounds are judged on the exact value: a float64 would round these onto the bound.
	wantConstraint(t, c.Patch(base(p)+"/"+id, Body("value", num("100.50000000000000001"))), "value", "max")
	wantConstraint(t, c.Patch(base(p)+"/"+id, Body("value", num("-0.00000000000000000001"))), "value", "min")
	wantConstraint(t, c.Post(base(mkProduct(t, c, "simple")), Body("inputTypeUuid", dec, "value", num("100.51"))), "value", "max")
	// Plain notation only, as for a string; other JSON types are not decimals.
	wantConstraint(t, c.Patch(base(p)+"/"+id, Body("value", num("1e1"))), "value", "dataType")
	wantConstraint(t, c.Patch(base(p)+"/"+id, Body("value", num("1.5E-1"))), "value", "dataType")
	wantConstraint(t, c.Patch(base(p)+"/"+id, Body("value", true)), "value", "dataType")
	wantConstraint(t, c.Patch(base(p)+"/"+id, Body("value", []any{"1"})), "value", "dataType")
	WantProblem(t, c.Patch(base(p)+"/"+id, `{"value": 1.}`), 400, "MALFORMED_REQUEST", "body")
	wantValue(t, "unchanged", Want(t, c.Get(base(p)+"/"+id), 200).Obj(), "value", "0")
	wantStored(t, id, `"0"`)
	// Bulk create and update with numbers.
	q := mkProduct(t, c, "simple")
	dec2 := mkInputType(t, c, g, "decimal")
	items := Want(t, c.Post(base(q)+"/bulk", []any{
		Body("inputTypeUuid", dec, "value", num("2.50")),
		Body("inputTypeUuid", dec2, "value", "7"),
	}), 201).Objs()
	wantValue(t, "bulk [0]", items[0], "value", "2.50")
	wantValue(t, "bulk [1]", items[1], "value", "7")
	items = Want(t, c.Patch(base(q)+"/bulk", []any{
		Body("uuid", Str(items[1], "uuid"), "value", num("-12345678901234567890.125")),
		Body("uuid", Str(items[0], "uuid"), "value", num("3")),
	}), 200).Objs()
	wantValue(t, "bulk update [0]", items[0], "value", "-12345678901234567890.125")
	wantValue(t, "bulk update [1]", items[1], "value", "3")
	wantStored(t, Str(items[0], "uuid"), `"-12345678901234567890.125"`)
	wantConstraint(t, c.Patch(base(q)+"/bulk", []any{
		Body("uuid", Str(items[1], "uuid"), "value", num("4")),
		Body("uuid", Str(items[0], "uuid"), "value", num("4e0")),
	}), "[1].value", "dataType")
	wantValue(t, "after a failed bulk", Want(t, c.Get(base(q)+"/"+Str(items[1], "uuid")), 200).Obj(), "value", "3")

	// Allowed values given as numbers compare by value with values given as numbers.
	allowedType := mkInputType(t, c, g, "decimal", "constraints", Body("allowedValues", num(`[1, "2.5"]`)))
	wantValue(t, "allowed 2.50", set(t, c, mkProduct(t, c, "simple"), "inputTypeUuid", allowedType, "value", num("2.50")), "value", "2.50")
	wantValue(t, "allowed 1", set(t, c, mkProduct(t, c, "simple"), "inputTypeUuid", allowedType, "value", num("1")), "value", "1")
	wantConstraint(t, c.Post(base(mkProduct(t, c, "simple")), Body("inputTypeUuid", allowedType, "value", num("2.5000000000000000001"))), "value", "allowedValues")

	// Money: the amount as a number keeps its text ("5.10", not "5.1").
	money := mkInputType(t, c, g, "money", "constraints", Body("min", num("5.1")))
	m := Want(t, c.Post(base(p), Body("inputTypeUuid", money, "value", Body("amount", num("5.10"), "currency", "EUR"))), 201).Obj()
	wantValue(t, "money", m, "value", map[string]any{"amount": "5.10", "currency": "EUR"})
	wantValue(t, "money get", Want(t, c.Get(base(p)+"/"+Str(m, "uuid")), 200).Obj(), "value", map[string]any{"amount": "5.10", "currency": "EUR"})
	wantStored(t, Str(m, "uuid"), `{"amount": "5.10", "currency": "EUR"}`)
	wantConstraint(t, c.Patch(base(p)+"/"+Str(m, "uuid"), Body("value", Body("amount", num("5.0999999999999999999"), "currency", "EUR"))), "value", "min")
	wantConstraint(t, c.Patch(base(p)+"/"+Str(m, "uuid"), Body("value", Body("amount", num("1e1"), "currency", "EUR"))), "value", "dataType")
	u := Want(t, c.Patch(base(p)+"/"+Str(m, "uuid"), Body("value", Body("currency", "USD", "amount", num("1234.5")))), 200).Obj()
	wantValue(t, "money update", u, "value", map[string]any{"amount": "1234.5", "currency": "USD"})
	wantStored(t, Str(m, "uuid"), `{"amount": "1234.5", "currency": "USD"}`)

	// json values are kept as JSON numbers, as before.
	js := mkInputType(t, c, g, "json")
	j := set(t, c, p, "inputTypeUuid", js, "value", num(`{"amount": 5.10, "n": [1.50, 2]}`))
	wantValue(t, "json", j, "value", map[string]any{"amount": 5.1, "n": []any{1.5, float64(2)}})
	wantStored(t, Str(j, "uuid"), `{"n": [1.5, 2], "amount": 5.1}`)
	jd := set(t, c, p, "inputTypeUuid", mkInputType(t, c, g, "json"), "value", num("19.990"))
	wantValue(t, "json number", jd, "value", 19.99)
	wantStored(t, Str(jd, "uuid"), `19.99`)
	// A number the float64 of a JSON value cannot keep is refused rather than changed (an
	// integer past 2^53, a 17-digit one); one it keeps in another notation is accepted.
	wantConstraint(t, c.Post(base(q), Body("inputTypeUuid", js, "value", num(`{"id": 9223372036854775808}`))), "value", "dataType")
	wantConstraint(t, c.Post(base(q), Body("inputTypeUuid", js, "value", num(`[1, [12345678901234567]]`))), "value", "dataType")
	// Numbers that read back as the float64 0 are compared by their text, whatever the exponent.
	wantConstraint(t, c.Post(base(q), Body("inputTypeUuid", js, "value", num(`{"tiny": 1e-999999}`))), "value", "dataType")
	wantConstraint(t, c.Post(base(q), Body("inputTypeUuid", js, "value", num(`[1e-1000001]`))), "value", "dataType")
	big := set(t, c, q, "inputTypeUuid", js, "value", num(`[9007199254740992, 1e3, 0.1]`))
	wantValue(t, "json exact numbers", big, "value", []any{float64(9007199254740992), float64(1000), 0.1})
	wantStored(t, Str(big, "uuid"), `[9007199254740992, 1000, 0.1]`)
	// Integers keep their rules: a number without fraction, at most 2^53-1.
	in := mkInputType(t, c, g, "integer", "constraints", Body("max", num("100")))
	wantValue(t, "integer 1.0", set(t, c, p, "inputTypeUuid", in, "value", num("1.0")), "value", float64(1))
	wantConstraint(t, c.Post(base(q), Body("inputTypeUuid", in, "value", num("1.5"))), "value", "dataType")
	wantConstraint(t, c.Post(base(q), Body("inputTypeUuid", in, "value", "5")), "value", "dataType")
	wantConstraint(t, c.Post(base(q), Body("inputTypeUuid", in, "value", num("101"))), "value", "max")

	// text with allowed values given as numbers: they are strings ("36"), and so must the value be.
	size := mkInputType(t, c, g, "text", "constraints", Body("allowedValues", num(`[36, 38]`)))
	wantValue(t, "text allowed", set(t, c, p, "inputTypeUuid", size, "value", "36"), "value", "36")
	wantConstraint(t, c.Post(base(q), Body("inputTypeUuid", size, "value", num("36"))), "value", "dataType")
	wantConstraint(t, c.Post(base(q), Body("inputTypeUuid", size, "value", "37")), "value", "allowedValues")
}

// TestGRPCDecimalNumbers: a gRPC client's number_value for a decimal is the shortest decimal that
// reads back as its float64, stored as a string.
func TestGRPCDecimalNumbers(t *testing.T) {
	t.Parallel()
	tenant := "t-" + RandomHex(8)
	c := env.ClientFor(t, tenant)
	p := mkProduct(t, c, "simple")
	g := mkGroup(t, c)
	dec := mkInputType(t, c, g, "decimal", "constraints", Body("max", "100.5"))
	money := mkInputType(t, c, g, "money")
	ctx := GRPCContext(t, tenant)
	vc := pb.NewProductInputValueServiceClient(env.GRPC)

	created, err := vc.CreateProductInputValue(ctx, &pb.CreateProductInputValueRequest{ProductUuid: p,
		ProductInputValue: &pb.ProductInputValueCreate{InputTypeUuid: dec, Value: structpb.NewNumberValue(19.99)}})
	if err != nil {
		t.Fatal(err)
	}
	if got := created.ProductInputValue.GetValue().GetStringValue(); got != "19.99" {
		t.Errorf("created value %v, want \"19.99\"", created.ProductInputValue.GetValue())
	}
	wantStored(t, created.ProductInputValue.Uuid, `"19.99"`)
	wantValue(t, "REST get", Want(t, c.Get(base(p)+"/"+created.ProductInputValue.Uuid), 200).Obj(), "value", "19.99")
	f := 0.1
	f += 0.2
	up, err := vc.UpdateProductInputValue(ctx, &pb.UpdateProductInputValueRequest{ProductUuid: p, InputValueUuid: created.ProductInputValue.Uuid,
		ProductInputValue: &pb.ProductInputValueUpdate{Value: structpb.NewNumberValue(f)}})
	if err != nil || up.ProductInputValue.GetValue().GetStringValue() != "0.30000000000000004" {
		t.Errorf("update: %v %v", up, err)
	}
	_, err = vc.UpdateProductInputValue(ctx, &pb.UpdateProductInputValueRequest{ProductUuid: p, InputValueUuid: created.ProductInputValue.Uuid,
		ProductInputValue: &pb.ProductInputValueUpdate{Value: structpb.NewNumberValue(100.51)}})
	WantGRPC(t, "over max", err, codes.InvalidArgument, "VALIDATION_FAILED", "value")
	// String bounds and string values behave as before.
	_, err = vc.UpdateProductInputValue(ctx, &pb.UpdateProductInputValueRequest{ProductUuid: p, InputValueUuid: created.ProductInputValue.Uuid,
		ProductInputValue: &pb.ProductInputValueUpdate{Value: structpb.NewStringValue("1e2")}})
	WantGRPC(t, "exponent string", err, codes.InvalidArgument, "VALIDATION_FAILED", "value")

	amount, _ := structpb.NewValue(map[string]any{"amount": 5.10, "currency": "EUR"})
	mc, err := vc.CreateProductInputValue(ctx, &pb.CreateProductInputValueRequest{ProductUuid: p,
		ProductInputValue: &pb.ProductInputValueCreate{InputTypeUuid: money, Value: amount}})
	if err != nil {
		t.Fatal(err)
	}
	if got := mc.ProductInputValue.GetValue().GetStructValue().GetFields()["amount"].GetStringValue(); got != "5.1" {
		t.Errorf("money amount %v, want \"5.1\"", mc.ProductInputValue.GetValue())
	}
}
