package inputs

import (
	"encoding/json"
	"strings"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

// num is JSON sent as written: a number literal (json.Marshal would go through a float64).
func num(lit string) json.RawMessage { return json.RawMessage(lit) }

// TestInputTypeNumberBounds: min, max and allowedValues take JSON numbers as well as strings
// (DESIGN.md "Numbers"), kept as the literal's text and returned as strings.
func TestInputTypeNumberBounds(t *testing.T) {
	t.Parallel()
	c, _ := env.TenantClient(t)
	g := mkTypeGroup(t, c, "pricing", "product")

	// Decimal: numbers and strings mixed; the text is kept as written ("100.50", not 100.5).
	r := Want(t, c.Post("/v1/input-types", Body("typeGroupUuid", g, "code", "weight", "dataType", "decimal",
		"constraints", Body("min", num("0"), "max", "100.5", "allowedValues", num(`[1, "2.5", 100.50]`)))), 201)
	dec := r.Obj()
	wantInputType(t, "decimal", dec, g, "weight", "weight", "decimal", false,
		constraints("min", "0", "max", "100.5", "allowedValues", []any{"1", "2.5", "100.50"}))
	if !strings.Contains(string(r.Raw), `"min":"0","max":"100.5"`) {
		t.Errorf("bounds not written as strings: %s", r.Raw)
	}
	id := Str(dec, "uuid")
	WantFields(t, "decimal get", Want(t, c.Get("/v1/input-types/"+id), 200).Obj(), "constraints", dec["constraints"])

	// Integer and money bounds.
	it := mkInputType(t, c, g, "stock", "integer", "constraints", Body("min", num("-5"), "max", num("100000"), "allowedValues", num(`[0, 10, "100"]`)))
	WantFields(t, "integer", it, "constraints", constraints("min", "-5", "max", "100000", "allowedValues", []any{"0", "10", "100"}))
	it = mkInputType(t, c, g, "msrp", "money", "constraints", Body("min", num("0.01"), "max", num("99999.99")))
	WantFields(t, "money", it, "constraints", constraints("min", "0.01", "max", "99999.99"))
	// text: a number in allowedValues is the string of its text.
	it = mkInputType(t, c, g, "size", "text", "constraints", Body("allowedValues", num(`[36, 38.5, "XL"]`)))
	WantFields(t, "text", it, "constraints", constraints("allowedValues", []any{"36", "38.5", "XL"}))

	// Bad bounds: 400 VALIDATION_FAILED naming the constraint.
	post := func(dataType string, cons map[string]any) Resp {
		return c.Post("/v1/input-types", Body("typeGroupUuid", g, "code", "x_"+RandomHex(3), "dataType", dataType, "constraints", cons))
	}
	for _, x := range []struct {
		what, dataType string
		cons           map[string]any
		field, detail  string
	}{
		{"exponent", "decimal", Body("min", num("1e3")), "constraints.min", "without an exponent"},
		{"exponent in allowedValues", "decimal", Body("allowedValues", num(`[1, 2.5E-1]`)), "constraints.allowedValues[1]", "without an exponent"},
		{"exponent on integer", "integer", Body("max", num("1E2")), "constraints.max", "without an exponent"},
		{"fraction on integer", "integer", Body("max", num("5.5")), "constraints.max", "must be an integer"},
		{"zero fraction on integer", "integer", Body("min", num("5.0")), "constraints.min", "must be an integer"},
		{"integer beyond 2^53-1", "integer", Body("min", num("-9007199254740992")), "constraints.min", "2^53-1"},
		{"min over max by one digit a float loses", "decimal", Body("min", num("0.30000000000000001"), "max", num("0.3")), "constraints.min", "greater than max"},
		{"allowed value over max by a digit a float loses", "decimal", Body("max", num("100.5"), "allowedValues", num(`[100.50000000000000001]`)),
			"constraints.allowedValues[0]", "max"},
		{"allowed values equal by value", "decimal", Body("allowedValues", num(`[1, 1.0]`)), "constraints.allowedValues[1]", "repeats"},
		{"decimal too long", "decimal", Body("max", num("1."+strings.Repeat("0", 100))), "constraints.max", "at most 100 characters"},
		{"number on a date", "date", Body("min", num("20240101")), "constraints.min", "YYYY-MM-DD"},
		{"number min on text", "text", Body("min", num("1")), "constraints.min", "does not apply"},
		{"number allowed text too long", "text", Body("maxLength", 2, "allowedValues", num(`[100]`)), "constraints.allowedValues[0]", "maxLength"},
	} {
		if p := WantProblem(t, post(x.dataType, x.cons), 400, "VALIDATION_FAILED", x.field); !strings.Contains(problemText(p), x.detail) {
			t.Errorf("%s: problem does not say %q: %v", x.what, x.detail, p)
		}
	}
	// Other JSON types are still decode errors; string fields without the rule still refuse numbers.
	Problem(t, "boolean min", post("decimal", Body("min", true)), 400, "MALFORMED_REQUEST", "constraints.min")
	Problem(t, "object max", post("decimal", Body("max", Body("v", 1))), 400, "MALFORMED_REQUEST", "constraints.max")
	Problem(t, "null allowed value", post("decimal", Body("allowedValues", num(`[1, null]`))), 400, "MALFORMED_REQUEST", "constraints.allowedValues[1]")
	Problem(t, "number pattern", post("text", Body("pattern", num("5"))), 400, "MALFORMED_REQUEST", "constraints.pattern")
	Problem(t, "number code", c.Post("/v1/input-types", Body("typeGroupUuid", g, "code", num("5"), "dataType", "decimal")), 400, "MALFORMED_REQUEST", "code")
	Problem(t, "malformed number", c.Post("/v1/input-types",
		`{"typeGroupUuid":"`+g+`","code":"y","dataType":"decimal","constraints":{"min":01}}`), 400, "MALFORMED_REQUEST", "body")
	// Bulk: the item is named.
	Problem(t, "bulk", c.Post("/v1/input-types/bulk", []any{
		Body("typeGroupUuid", g, "code", "b1", "dataType", "decimal", "constraints", Body("min", num("1"))),
		Body("typeGroupUuid", g, "code", "b2", "dataType", "decimal", "constraints", Body("min", num("1e2"))),
	}), 400, "VALIDATION_FAILED", "[1].constraints.min")

	// PATCH: the constraints patch takes numbers too; null still removes a constraint.
	u := Want(t, c.Patch("/v1/input-types/"+id, Body("constraints", Body("min", num("-1.50"), "allowedValues", num(`[2, "3.25", -1.5]`)))), 200).Obj()
	WantFields(t, "patch numbers", u, "constraints", constraints("min", "-1.50", "max", "100.5", "allowedValues", []any{"2", "3.25", "-1.5"}))
	u = Want(t, c.Patch("/v1/input-types/"+id, Body("constraints", Body("max", nil, "allowedValues", nil))), 200).Obj()
	WantFields(t, "patch nulls", u, "constraints", constraints("min", "-1.50"))
	Problem(t, "patch exponent", c.Patch("/v1/input-types/"+id, Body("constraints", Body("max", num("1e2")))), 400, "VALIDATION_FAILED", "constraints.max")
	Problem(t, "patch min over max", c.Patch("/v1/input-types/"+id, Body("constraints", Body("min", num("7"), "max", num("6.99")))), 400, "VALIDATION_FAILED", "constraints.min")
	Problem(t, "patch boolean", c.Patch("/v1/input-types/"+id, Body("constraints", Body("max", false))), 400, "MALFORMED_REQUEST", "constraints.max")
	WantFields(t, "unchanged after refused patches", Want(t, c.Get("/v1/input-types/"+id), 200).Obj(), "constraints", constraints("min", "-1.50"))
	up := Want(t, c.Patch("/v1/input-types/bulk", []any{Body("uuid", id, "constraints", Body("max", num("250.125")))}), 200).Objs()
	WantFields(t, "bulk patch", up[0], "constraints", constraints("min", "-1.50", "max", "250.125"))
	Problem(t, "bulk patch item named", c.Patch("/v1/input-types/bulk", []any{Body("uuid", id, "constraints", Body("max", num("2.5e2")))}),
		400, "VALIDATION_FAILED", "[0].constraints.max")
}

// problemText is a problem's detail and field messages, for checking what it says.
func problemText(p map[string]any) string {
	s, _ := p["detail"].(string)
	errs, _ := p["errors"].([]any)
	for _, e := range errs {
		if m, ok := e.(map[string]any); ok {
			msg, _ := m["message"].(string)
			s += " | " + msg
		}
	}
	return s
}
