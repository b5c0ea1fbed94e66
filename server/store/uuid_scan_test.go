package store_test

import (
	"context"
	"testing"

	"github.com/google/uuid"
)

// uuid columns scan from their 16 binary bytes into uuid.UUID, *uuid.UUID (NULL: nil) and
// []uuid.UUID, the types of the sqlc structs, with the values PostgreSQL holds.
func TestUUIDScan(t *testing.T) {
	d, _ := testDB(t)
	ctx := context.Background()
	a, b := uuid.New(), uuid.New()
	var one uuid.UUID
	var some, none *uuid.UUID
	var list []uuid.UUID
	var text string
	err := d.Pool.QueryRow(ctx, `SELECT $1::uuid, $1::uuid, NULL::uuid, ARRAY[$1::uuid, $2::uuid, NULL], $2::uuid::text`, a, b).
		Scan(&one, &some, &none, &list, &text)
	if err == nil {
		t.Fatal("a NULL element scanned into a []uuid.UUID")
	}
	err = d.Pool.QueryRow(ctx, `SELECT $1::uuid, $1::uuid, NULL::uuid, ARRAY[$1::uuid, $2::uuid], $2::uuid::text`, a, b).
		Scan(&one, &some, &none, &list, &text)
	if err != nil {
		t.Fatal(err)
	}
	if one != a || some == nil || *some != a || none != nil || len(list) != 2 || list[0] != a || list[1] != b || text != b.String() {
		t.Fatalf("scanned %v %v %v %v %q; want %v %v <nil> [%v %v] %q", one, some, none, list, text, a, a, a, b, b.String())
	}
	if err := d.Pool.QueryRow(ctx, `SELECT NULL::uuid`).Scan(&one); err == nil {
		t.Fatal("NULL scanned into a uuid.UUID")
	}
}
