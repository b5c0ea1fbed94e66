package catalog

import (
	"encoding/json"
	"errors"
	"regexp/syntax"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/apierr"
)

// constraintViolations lists "field: message" for constraints c of a text type.
func constraintViolations(c inputConstraints) []string {
	var out []string
	checkConstraints(func(field, format string, args ...any) {
		v := apierr.NewValidator()
		v.Add(field, format, args...)
		var e *apierr.Error
		errors.As(v.Err(), &e)
		out = append(out, e.Fields[0].Field+": "+e.Fields[0].Message)
	}, dtText, c)
	return out
}

func TestPatternLimits(t *testing.T) {
	cases := []struct {
		name, pattern, want string // want: a part of the message; "" accepts
	}{
		{"plain", `^[A-Z]{3}-[0-9]{4,8}$`, ""},
		{"bounded repetition", `^[A-Z0-9]{1,100}$`, ""},
		{"at the length limit", strings.Repeat("a", maxPatternLength), ""},
		{"too long", strings.Repeat("a", maxPatternLength+1), "must be 1 to 256 characters"},
		{"too complex", `\pL{1000}`, "more than 1000 instructions"},
		{"too complex in sequence", strings.Repeat(`[a-z]{300}`, 4), "more than 1000 instructions"},
		{"nested repetition", `(?:(?:ab{10}){90})`, "more than 1000 instructions"},
		{"too many classes", strings.Repeat(`\pL`, maxPatternClasses+1), "character classes"},
		{"case folding", `(?i)abc`, "case-insensitive"},
		{"case folding in a group", `(?s-m:x)(?mi:y)`, "case-insensitive"},
		{"escaped paren is no flag", `\(\?i\)`, ""},
		{"invalid", `a(b`, "not a valid RE2"},
	}
	for _, c := range cases {
		got := constraintViolations(inputConstraints{Pattern: proto.String(c.pattern)})
		switch {
		case c.want == "" && len(got) > 0:
			t.Errorf("%s: refused: %q", c.name, got)
		case c.want != "" && (len(got) != 1 || !strings.HasPrefix(got[0], "constraints.pattern: ") || !strings.Contains(got[0], c.want)):
			t.Errorf("%s: %q, want constraints.pattern: …%s…", c.name, got, c.want)
		}
	}
}

// The estimate never undercounts the program regexp/syntax compiles (it decides the refusal).
func TestProgramSizeEstimate(t *testing.T) {
	for _, p := range []string{`a`, `abc`, `[a-z]{3,10}`, `(a|bc|d)*x`, `\pL{0,20}`, `(?:ab){2,}`, `^x+?$`, `(a)(b)?`, `.{5}`, `(?:a{2}){3}`, `[^x]{1,9}y|z`} {
		tree, err := syntax.Parse(p, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		prog, err := syntax.Compile(tree.Simplify())
		if err != nil {
			t.Fatal(err)
		}
		if est := programSize(tree, 1<<20) + 2; est < len(prog.Inst) {
			t.Errorf("%q: estimate %d < %d instructions", p, est, len(prog.Inst))
		}
	}
}

func TestValueCheckedAgainstAPatternIsBounded(t *testing.T) {
	pattern := `^[a-z]{1,450}$` // ~900 instructions: values up to ~145 characters
	cp, err := compilePattern(pattern)
	if err != nil {
		t.Fatal(err)
	}
	c := &pb.InputTypeConstraints{Pattern: proto.String(pattern)}
	if err := ValidateInputValue(dtText, c, sv(strings.Repeat("a", cp.maxChars()))); err != nil {
		t.Errorf("value at the bound: %v", err)
	}
	err = ValidateInputValue(dtText, c, sv(strings.Repeat("a", cp.maxChars()+1)))
	var ive *InputValueError
	if !errors.As(err, &ive) || ive.Constraint != cPattern || !strings.Contains(ive.Message, "at most") {
		t.Errorf("value over the bound: %v", err)
	}
	// A simple pattern checks long values (a url of 2048 characters).
	if err := ValidateInputValue(dtURL, &pb.InputTypeConstraints{Pattern: proto.String(`^https://`)}, sv("https://x.example/"+strings.Repeat("a", 2000))); err != nil {
		t.Errorf("long url: %v", err)
	}
	// Allowed values share the budget.
	many := make([]string, 0, 200)
	for i := 0; len(many) < 200; i++ {
		many = append(many, strings.Repeat(string(rune('a'+i%26)), 1+i/26))
	}
	got := constraintViolations(inputConstraints{Pattern: proto.String(pattern), AllowedValues: many})
	if len(got) != 1 || !strings.HasPrefix(got[0], "constraints.allowedValues: hold") {
		t.Errorf("allowed values over the budget: %q", got)
	}
}

func TestInputValueSize(t *testing.T) {
	check := func(v any) []string {
		val := apierr.NewValidator()
		checkValueSize(val, "value", anyValue(v))
		var e *apierr.Error
		if !errors.As(val.Err(), &e) {
			return nil
		}
		return []string{e.Fields[0].Field + ": " + e.Fields[0].Message}
	}
	if got := check(strings.Repeat("a", MaxInputValueBytes-2)); got != nil {
		t.Errorf("64 KiB string: %q", got)
	}
	if got := check(strings.Repeat("a", MaxInputValueBytes-1)); len(got) != 1 || !strings.HasPrefix(got[0], "value: must be at most 65536 bytes") {
		t.Errorf("64 KiB + 1: %q", got)
	}
	// Nested: the size is that of the compact JSON (here encoding/json's, which has no escapes).
	doc := map[string]any{"a": []any{1.5, true, nil, "x"}, "b": map[string]any{"c": strings.Repeat("y", 100)}}
	raw, _ := json.Marshal(doc)
	if n := jsonSize(anyValue(doc), 1<<20); n != len(raw) {
		t.Errorf("jsonSize %d, encoding/json %d", n, len(raw))
	}
	if got := check([]any{strings.Repeat("z", 40000), strings.Repeat("z", 40000)}); len(got) != 1 {
		t.Errorf("nested over: %q", got)
	}
}

// BenchmarkPatternWorst is the slowest check the limits allow, found by trying the most costly
// constructions: a program at the instruction limit, of Unicode classes, against a value of the
// longest length it may check, of two-byte letters, which keeps every thread alive; and the
// costliest pattern to parse. The figures are in docs/design.md.
func BenchmarkPatternWorst(b *testing.B) {
	pattern := `(?:.?){1,332}Z` // 997 instructions, every thread alive on any value
	cp, err := compilePattern(pattern)
	if err != nil {
		b.Fatal(err)
	}
	value := strings.Repeat("é", cp.maxChars())
	if cp, err := compilePattern(strings.Repeat(`\pL`, maxPatternClasses)); err != nil || cp == nil {
		b.Fatalf("the costliest pattern to parse is refused: %v", err)
	}
	c := &pb.InputTypeConstraints{Pattern: proto.String(pattern)}
	b.Run("match", func(b *testing.B) {
		for b.Loop() {
			_ = ValidateInputValue(dtText, c, sv(value))
		}
	})
	b.Run("bulk100", func(b *testing.B) {
		for b.Loop() {
			for range 100 {
				_ = ValidateInputValue(dtText, c, sv(value))
			}
		}
	})
	worstParse := strings.Repeat(`\pL`, maxPatternClasses) // the costliest classes to build
	b.Run("define", func(b *testing.B) {
		i := 0
		for b.Loop() {
			i++
			patternCache.Lock()
			patternCache.m = nil // never cached: an attacker varies the pattern
			patternCache.Unlock()
			_, _ = compilePattern(worstParse)
		}
	})
}

// The attack's shape: a long, complex pattern and a 20 KB value. Refused when defined; checked
// against a value, it answers at once (a pattern stored before the limits).
func TestAttackPatternAnswersAtOnce(t *testing.T) {
	pattern := strings.Repeat(`\pL{1000}`, 107)[:961]
	start := time.Now()
	got := constraintViolations(inputConstraints{Pattern: proto.String(pattern)})
	err := ValidateInputValue(dtText, &pb.InputTypeConstraints{Pattern: proto.String(pattern)}, sv(strings.Repeat("é", 20000)))
	if len(got) != 1 || err == nil {
		t.Fatalf("attack pattern accepted: %q %v", got, err)
	}
	t.Logf("refused in %v", time.Since(start)) // a figure for the log, not an assertion
}
