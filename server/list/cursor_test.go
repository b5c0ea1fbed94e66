package list

import (
	"encoding/base64"
	"math"
	"slices"
	"strings"
	"testing"

	catalogv1 "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/apierr"
)

func sp(s string) *string { return &s }

var testSpec = &Spec{
	Table:      "keyset_unit",
	Filters:    CodeNameFilters(map[string]Field{"statuses": {Column: "status", Type: Enum, Values: []string{"draft", "removed"}}}),
	Order:      CodeNameOrder(map[string]string{"status": "status"}),
	SoftDelete: &SoftDelete{StatusColumn: "status", Removed: "removed", IsRemovedField: "isRemoved", StatusesField: "statuses"},
}

func errFields(err error) []string {
	var out []string
	for _, f := range apierr.From(err).Fields {
		out = append(out, f.Field)
	}
	return out
}

// nextCursor is the cursor Run would hand out for req after the row with key.
func nextCursor(req *catalogv1.ListAttributesRequest, page int32, total int64, key ...*string) string {
	return encodeCursor(queryHash(req.ProtoReflect(), "t1"), &position{Page: page, Total: total, Key: key})
}

func TestCursorRoundTrip(t *testing.T) {
	req := &catalogv1.ListAttributesRequest{Codes: &catalogv1.StringsFilter{Eq: []string{"a"}}}
	c := nextCursor(req, 3, 25, sp("2026-01-02 03:04:05.123456+00"), nil, sp("0b5e5b1c-7f3a-4e6d-9c1b-2a4f6d8e0c13"))
	if strings.ContainsAny(c, "+/=") {
		t.Errorf("cursor %q is not unpadded base64url", c)
	}
	p, msg := decodeCursor(c, queryHash(req.ProtoReflect(), "t1"), 3)
	if msg != "" {
		t.Fatalf("decode: %s", msg)
	}
	if p.Page != 3 || p.Total != 25 || len(p.Key) != 3 || *p.Key[0] != "2026-01-02 03:04:05.123456+00" || p.Key[1] != nil {
		t.Errorf("decoded %+v", p)
	}
}

func TestCursorRefused(t *testing.T) {
	req := &catalogv1.ListAttributesRequest{}
	hash := queryHash(req.ProtoReflect(), "t1")
	good := nextCursor(req, 2, 5, sp("x"), sp("0b5e5b1c-7f3a-4e6d-9c1b-2a4f6d8e0c13"))
	raw, _ := base64.RawURLEncoding.DecodeString(good)
	edit := func(f func(b []byte) []byte) string {
		return base64.RawURLEncoding.EncodeToString(f(slices.Clone(raw)))
	}
	for what, c := range map[string]string{
		"empty":           "",
		"not base64":      "not a cursor!",
		"padded base64":   good + "==",
		"short":           good[:10],
		"flipped value":   edit(func(b []byte) []byte { b[len(b)-5] ^= 1; return b }),
		"flipped tag":     edit(func(b []byte) []byte { b[3] ^= 1; return b }),
		"other version":   edit(func(b []byte) []byte { b[0] = 2; return b }),
		"truncated json":  edit(func(b []byte) []byte { return b[:len(b)-1] }),
		"other key count": encodeCursor(hash, &position{Page: 2, Key: []*string{sp("x")}}),
		"page 1":          encodeCursor(hash, &position{Page: 1, Key: []*string{sp("x"), sp("y")}}),
		"other filters":   nextCursor(&catalogv1.ListAttributesRequest{Codes: &catalogv1.StringsFilter{Eq: []string{"a"}}}, 2, 5, sp("x"), sp("y")),
		"other order": nextCursor(&catalogv1.ListAttributesRequest{OrderBy: []*catalogv1.OrderBy{{Field: "code"}}}, 2, 5,
			sp("x"), sp("y")),
		"other tenant":     encodeCursor(queryHash(req.ProtoReflect(), "t2"), &position{Page: 2, Total: 5, Key: []*string{sp("x"), sp("y")}}),
		"last int32 page":  encodeCursor(hash, &position{Page: math.MaxInt32, Total: 5, Key: []*string{sp("x"), sp("y")}}),
		"count past int32": encodeCursor(hash, &position{Page: 2, Total: math.MaxInt32 + 1, Key: []*string{sp("x"), sp("y")}}),
	} {
		if p, msg := decodeCursor(c, hash, 2); msg == "" {
			t.Errorf("%s: cursor accepted as %+v", what, p)
		}
	}
	// What does not change the rows or their order may change between pages.
	same := &catalogv1.ListAttributesRequest{Page: new(int32(1)), Size: new(int32(7)), Cursor: sp("c"),
		Include: &catalogv1.AttributeInclude{}, Expand: &catalogv1.AttributeInclude{}}
	if _, msg := decodeCursor(good, queryHash(same.ProtoReflect(), "t1"), 2); msg != "" {
		t.Errorf("a cursor with another size, include or expand: %s", msg)
	}
}

func TestBuildPages(t *testing.T) {
	q, err := testSpec.Build("t1", &catalogv1.ListAttributesRequest{Page: new(int32(3)), Size: new(int32(5))})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(q.SQL, " ORDER BY created_at ASC, uuid ASC LIMIT 6 OFFSET 10") || q.CountSQL == "" || q.Page != 3 {
		t.Errorf("offset page: %s / %s", q.SQL, q.CountSQL)
	}
	if !strings.HasPrefix(q.SQL, "SELECT *, ARRAY[(created_at)::text, (uuid)::text] AS "+KeyColumn+" FROM keyset_unit WHERE ") {
		t.Errorf("offset page does not read its keys: %s", q.SQL)
	}

	req := &catalogv1.ListAttributesRequest{Size: new(int32(5))}
	req.Cursor = sp(nextCursor(req, 4, 42, sp("2026-01-02 03:04:05+00"), sp("0b5e5b1c-7f3a-4e6d-9c1b-2a4f6d8e0c13")))
	q, err = testSpec.Build("t1", req)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(q.SQL, "OFFSET") || q.CountSQL != "" || q.Page != 4 || q.Total != 42 || !strings.HasSuffix(q.SQL, " LIMIT 6") {
		t.Errorf("cursor page: %s / %q, page %d total %d", q.SQL, q.CountSQL, q.Page, q.Total)
	}
	if want := []any{"t1", "2026-01-02 03:04:05+00", "0b5e5b1c-7f3a-4e6d-9c1b-2a4f6d8e0c13"}; !slices.Equal(q.Args, want) {
		t.Errorf("cursor page args %v, want %v", q.Args, want)
	}

	req.Page = new(int32(2))
	if _, err := testSpec.Build("t1", req); !slices.Equal(errFields(err), []string{"page"}) {
		t.Errorf("cursor with page: %v", err)
	}
	req.Page = nil
	req.Codes = &catalogv1.StringsFilter{Eq: []string{"a"}}
	if _, err := testSpec.Build("t1", req); !slices.Equal(errFields(err), []string{"cursor"}) {
		t.Errorf("cursor of other filters: %v", err)
	}
	req.Cursor = sp("garbage")
	if _, err := testSpec.Build("t1", req); !slices.Equal(errFields(err), []string{"cursor"}) {
		t.Errorf("garbage cursor: %v", err)
	}
}

func TestAfter(t *testing.T) {
	notNull.Store("keyset_after", map[string]bool{"uuid": true, "code": true, "created_at": true})
	s := &Spec{Table: "keyset_after"}
	asc := func(c string) orderKey { return orderKey{col: c} }
	desc := func(c string) orderKey { return orderKey{col: c, desc: true} }
	for _, c := range []struct {
		what string
		keys []orderKey
		key  []*string
		want string
	}{
		{"ascending, not null", []orderKey{asc("created_at"), asc("uuid")}, []*string{sp("t"), sp("u")},
			"(created_at, uuid) > ($1, $2)"},
		{"descending, not null", []orderKey{desc("code"), desc("created_at"), desc("uuid")}, []*string{sp("c"), sp("t"), sp("u")},
			"(code, created_at, uuid) < ($1, $2, $3)"},
		{"mixed directions", []orderKey{asc("code"), desc("created_at"), desc("uuid")}, []*string{sp("c"), sp("t"), sp("u")},
			"(code > $1 OR (code = $1 AND (created_at < $2 OR (created_at = $2 AND uuid < $3))))"},
		{"nullable column ascending: NULLs come last", []orderKey{asc("display_name"), asc("uuid")}, []*string{sp("d"), sp("u")},
			"((display_name > $1 OR display_name IS NULL) OR (display_name = $1 AND uuid > $2))"},
		{"nullable column descending: NULLs came first", []orderKey{desc("display_name"), desc("uuid")}, []*string{sp("d"), sp("u")},
			"(display_name < $1 OR (display_name = $1 AND uuid < $2))"},
		{"NULL key ascending: only NULLs follow", []orderKey{asc("display_name"), asc("uuid")}, []*string{nil, sp("u")},
			"(display_name IS NULL AND uuid > $1)"},
		{"NULL key descending: every value follows", []orderKey{desc("display_name"), desc("uuid")}, []*string{nil, sp("u")},
			"(display_name IS NOT NULL OR (display_name IS NULL AND uuid < $1))"},
	} {
		if got := s.after(&builder{}, c.keys, c.key); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.what, got, c.want)
		}
	}
}

// Every list request of the API has page, size and cursor; one without is refused at start-up.
func TestCheckPageFields(t *testing.T) {
	if err := testSpec.Check(&catalogv1.ListAttributesRequest{}); err != nil {
		t.Errorf("attributes: %v", err)
	}
	if err := (&Spec{}).Check(&catalogv1.OrderBy{}); err == nil || !strings.Contains(err.Error(), "page") {
		t.Errorf("a request without page fields: %v", err)
	}
}
