package crud

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/catalogd/catalogd/server/apierr"
)

// writeErr turns every constraint the database enforces into an API error naming what it can, so
// that bad input that slips past validation is never a 500.
func TestWriteErrMapsDatabaseConstraints(t *testing.T) {
	f := &Family[int, int, int, int]{Kind: "thing", Unique: "code", References: map[string]string{"things_parent_fkey": "parentUuid"}}
	wrap := func(code, constraint string) error {
		return fmt.Errorf("insert: %w", &pgconn.PgError{Code: code, ConstraintName: constraint, TableName: "things",
			Message: "value too long for type character varying(64)"})
	}
	cases := []struct {
		name   string
		err    error
		i      int
		single bool
		code   apierr.Code
		field  string
	}{
		{"unique, bulk item", wrap("23505", "things_code_key"), 2, false, apierr.AlreadyExists, "[2].code"},
		{"unique, single", wrap("23505", "things_code_key"), 0, true, apierr.AlreadyExists, "code"},
		{"known foreign key", wrap("23503", "things_parent_fkey"), 1, false, apierr.NotFound, "[1].parentUuid"},
		{"unknown foreign key", wrap("23503", "other_fkey"), 0, true, apierr.NotFound, ""},
		{"check", wrap("23514", "things_min_le_max"), 0, true, apierr.ValidationFailed, ""},
		{"string too long", wrap("22001", ""), 0, true, apierr.ValidationFailed, ""},
		{"numeric out of range", wrap("22003", ""), 0, true, apierr.ValidationFailed, ""},
	}
	for _, c := range cases {
		var ae *apierr.Error
		if !errors.As(f.writeErr(c.err, c.i, c.single), &ae) {
			t.Errorf("%s: not an API error", c.name)
			continue
		}
		if ae.Code != c.code {
			t.Errorf("%s: code %s, want %s", c.name, ae.Code, c.code)
		}
		if c.field != "" && (len(ae.Fields) != 1 || ae.Fields[0].Field != c.field) {
			t.Errorf("%s: fields %+v, want %s", c.name, ae.Fields, c.field)
		}
		// The schema's names and PostgreSQL's messages stay out of what the client sees.
		seen := fmt.Sprintf("%s %v %v", ae.Detail, ae.Fields, ae.Meta)
		for _, internal := range []string{"things_", "other_fkey", "character varying", "things"} {
			if strings.Contains(seen, internal) {
				t.Errorf("%s: %q shows %q", c.name, seen, internal)
			}
		}
	}
	// Anything else passes through unchanged (an infrastructure error stays one).
	other := errors.New("connection reset")
	if got := f.writeErr(other, 0, true); got != other {
		t.Errorf("other error became %v", got)
	}
}

// A lifecycle refusal names the item by its position in the request's uuids in a bulk move, and
// the bare field in a single one.
func TestMoveField(t *testing.T) {
	a, b := uuid.New(), uuid.New()
	bulk := &Tx{moves: []uuid.UUID{a, b, a}}
	if got := bulk.MoveField(b, "missing[0]"); got != "uuids[1].missing[0]" {
		t.Errorf("bulk b: %s", got)
	}
	if got := bulk.MoveField(a, "missing[2]"); got != "uuids[0].missing[2]" {
		t.Errorf("bulk a: %s", got)
	}
	single := &Tx{Single: true, moves: []uuid.UUID{a}}
	if got := single.MoveField(a, "missing[0]"); got != "missing[0]" {
		t.Errorf("single: %s", got)
	}
}

// Every restricting foreign key has one kind, and kinds read as resource names, never as schema
// names (the schema test in test/product_attributes checks the table against the database).
func TestReferenceKinds(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range references {
		if seen[r.Constraint] {
			t.Errorf("%s listed twice", r.Constraint)
		}
		seen[r.Constraint] = true
		if r.Kind == "" || strings.ContainsAny(r.Kind, "_.") || strings.Contains(r.Kind, r.Table) {
			t.Errorf("%s: kind %q is not a resource name", r.Constraint, r.Kind)
		}
	}
	if ReferenceKind("family_links_attribute_fkey") != "family attribute" || ReferenceKind("nope") != "" {
		t.Error("ReferenceKind")
	}
	if got := describeKinds([]string{"a", "b", "c"}); got != "a, b and c" {
		t.Errorf("describeKinds: %s", got)
	}
}

// Every generated statement with ON CONFLICT DO NOTHING has it on a line of its own, the form the
// plain first attempt of a create takes out (skipConflicts): a family insert written otherwise would
// silently keep paying for the clause.
func TestPlainInsertsFindTheClause(t *testing.T) {
	files, err := filepath.Glob("../../gen/db/*.sql.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no generated queries: %v", err)
	}
	n := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		for i := strings.Index(src, "ON CONFLICT DO NOTHING"); i >= 0; {
			n++
			if !strings.HasPrefix(src[i-1:], skipConflicts) {
				t.Errorf("%s: ON CONFLICT DO NOTHING not on a line of its own: %q", f, src[max(0, i-40):min(len(src), i+40)])
			}
			next := strings.Index(src[i+1:], "ON CONFLICT DO NOTHING")
			if next < 0 {
				break
			}
			i += 1 + next
		}
	}
	if n < 20 {
		t.Errorf("found the clause %d times: the family inserts are not where the test looks", n)
	}
	sql := "INSERT INTO t (a) SELECT unnest($1::text[])\nON CONFLICT DO NOTHING\nRETURNING *"
	if got := plainSQL(sql); got != "INSERT INTO t (a) SELECT unnest($1::text[])\nRETURNING *" {
		t.Errorf("plainSQL: %q", got)
	}
}
