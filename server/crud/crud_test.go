package crud

import (
	"errors"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/catalogd/catalogd/server/apierr"
)

// writeErr turns every constraint the database enforces into an API error naming what it can, so
// that bad input that slips past validation is never a 500.
func TestWriteErrMapsDatabaseConstraints(t *testing.T) {
	f := &Family[int, int, int, int]{Kind: "thing", Unique: "code", References: map[string]string{"things_parent_fkey": "parentUuid"}}
	wrap := func(code, constraint string) error {
		return fmt.Errorf("insert: %w", &pgconn.PgError{Code: code, ConstraintName: constraint, Message: "boom"})
	}
	cases := []struct {
		name       string
		err        error
		i          int
		single     bool
		code       apierr.Code
		field      string
		constraint string
	}{
		{"unique, bulk item", wrap("23505", "things_code_key"), 2, false, apierr.AlreadyExists, "[2].code", ""},
		{"unique, single", wrap("23505", "things_code_key"), 0, true, apierr.AlreadyExists, "code", ""},
		{"known foreign key", wrap("23503", "things_parent_fkey"), 1, false, apierr.NotFound, "[1].parentUuid", ""},
		{"unknown foreign key", wrap("23503", "other_fkey"), 0, true, apierr.NotFound, "", ""},
		{"check", wrap("23514", "things_min_le_max"), 0, true, apierr.ValidationFailed, "", "things_min_le_max"},
		{"string too long", wrap("22001", ""), 0, true, apierr.ValidationFailed, "", ""},
		{"numeric out of range", wrap("22003", ""), 0, true, apierr.ValidationFailed, "", ""},
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
		if c.constraint != "" && ae.Meta["constraint"] != c.constraint {
			t.Errorf("%s: meta %v, want constraint %s", c.name, ae.Meta, c.constraint)
		}
	}
	// Anything else passes through unchanged (an infrastructure error stays one).
	other := errors.New("connection reset")
	if got := f.writeErr(other, 0, true); got != other {
		t.Errorf("other error became %v", got)
	}
}
