package catalog

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/catalogd/catalogd/server/apierr"
)

// FuzzValidateInputValue checks a JSON value against a data type and constraints (a pattern,
// lengths, bounds, allowed values), all fuzzed. Properties: never a panic; constraints are either
// refused (each violation names constraints.<name>) or accepted, and only accepted ones judge
// values; a refused value is an *InputValueError with a constraint name and a message; an accepted
// value is stored in a form that is valid JSON of at most MaxInputValueBytes when its input was.
// The pattern limits bound the work of every case. Seeds: testdata/fuzz/FuzzValidateInputValue.
func FuzzValidateInputValue(f *testing.F) {
	for _, s := range []struct {
		dt, pattern, min, max, allowed, value string
		minLen, maxLen                        int32
	}{
		{"text", "^[a-z]+$", "", "", "red,blue", `"red"`, 1, 10},
		{"text", `\pL{1,498}Z`, "", "", "", `"` + strings.Repeat("é", 200) + `"`, -1, -1},
		{"text", "(?i)x", "", "", "", `"X"`, -1, -1},
		{"url", "^https://", "", "", "", `"https://example.com/x"`, -1, 2048},
		{"integer", "", "-5", "5", "1,2,3", `3`, -1, -1},
		{"decimal", "", "0.01", "99.99", "", `"12.50"`, -1, -1},
		{"decimal", "", "1e3", "", "", `1e3`, -1, -1},
		{"money", "", "0", "10", "", `{"amount":"9.99","currency":"EUR"}`, -1, -1},
		{"date", "", "2024-01-01", "2024-12-31", "", `"2024-02-30"`, -1, -1},
		{"date_time", "", "", "", "", `"2024-01-31T10:00:00Z"`, -1, -1},
		{"boolean", "x", "", "", "", `true`, -1, -1},
		{"json", "", "", "", "", `{"a":[1,"\u0000",null]}`, -1, -1},
		{"rich_text", "", "", "", "", `"<p>hi</p>"`, 0, 0},
		{"nope", "", "", "", "", `null`, -1, -1},
	} {
		f.Add(s.dt, s.pattern, s.min, s.max, s.allowed, s.value, s.minLen, s.maxLen)
	}
	f.Fuzz(func(t *testing.T, dataType, pattern, minB, maxB, allowedCSV, valueJSON string, minLen, maxLen int32) {
		if !utf8.ValidString(pattern+minB+maxB+allowedCSV) || len(valueJSON) > 4*MaxInputValueBytes {
			return // strings reach here valid: the codec and the request check refuse the others
		}
		c := inputConstraints{}
		if pattern != "" {
			c.Pattern = &pattern
		}
		if minB != "" {
			c.Min = &minB
		}
		if maxB != "" {
			c.Max = &maxB
		}
		if minLen >= 0 {
			c.MinLength = &minLen
		}
		if maxLen >= 0 {
			c.MaxLength = &maxLen
		}
		if allowedCSV != "" {
			c.AllowedValues = strings.Split(allowedCSV, ",")
		}
		var refused bool
		checkConstraints(func(field, format string, args ...any) {
			refused = true
			if !strings.HasPrefix(field, "constraints.") {
				t.Fatalf("violation names %q, not constraints.<name>", field)
			}
		}, dataType, c)
		value := &structpb.Value{}
		if err := protojson.Unmarshal([]byte(valueJSON), value); err != nil {
			return
		}
		if _, known := inputConstraintsFor[dataType]; !known {
			if err := ValidateInputValue(dataType, c.toPB(), value); err == nil {
				t.Fatalf("unknown data type %q accepted", dataType)
			}
			return
		}
		if refused {
			return // the service never stores refused constraints
		}
		err := ValidateInputValue(dataType, c.toPB(), value)
		if err != nil {
			var ive *InputValueError
			if !errors.As(err, &ive) || ive.Constraint == "" || ive.Message == "" {
				t.Fatalf("error %T %v is not an InputValueError", err, err)
			}
			return
		}
		stored := storedInputValue(dataType, value)
		raw, err := protojson.Marshal(stored)
		if err != nil {
			t.Fatalf("accepted value does not encode: %v", err)
		}
		v := apierr.NewValidator()
		checkValueSize(v, "value", value)
		if v.Err() == nil && len(raw) > 2*MaxInputValueBytes { // protojson may add spaces
			t.Fatalf("value of %d bytes passed the size check", len(raw))
		}
		if c.Pattern != nil && (dataType == dtText || dataType == dtURL) {
			cp, _ := compilePattern(*c.Pattern)
			if n := utf8.RuneCountInString(value.GetStringValue()); cp == nil || n > cp.maxChars() || !cp.re.MatchString(value.GetStringValue()) {
				t.Fatalf("value of %d characters accepted against pattern %q", n, *c.Pattern)
			}
		}
	})
}
