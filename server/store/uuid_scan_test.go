package store_test

import (
	"context"
	"testing"

	"github.com/google/uuid"
)

// uuid columns scan from their 16 binary bytes into uuid.UUID, *uuid.UUID (NULL: nil) and
// []uuid.UUID, the types of the sqlc structs, with the values PostgreSQL holds; NULL into a
// uuid.UUID is the zero uuid.
func TestUUIDScan(t *testing.T) {
	d, _ := testDB(t)
	ctx := context.Background()
	a, b := uuid.New(), uuid.New()
	var one uuid.UUID
	var some, none *uuid.UUID
	var list []uuid.UUID
	var text string
	err := d.Pool.QueryRow(ctx, `SELECT ARRAY[$1::uuid, NULL]`, a).Scan(&list)
	if err != nil || len(list) != 2 || list[0] != a || list[1] != uuid.Nil {
		t.Fatalf("uuid[] with a NULL: %v, %v; want [%v %v]", list, err, a, uuid.Nil)
	}
	err = d.Pool.QueryRow(ctx, `SELECT $1::uuid, $1::uuid, NULL::uuid, ARRAY[$1::uuid, $2::uuid], $2::uuid::text`, a, b).
		Scan(&one, &some, &none, &list, &text)
	if err != nil {
		t.Fatal(err)
	}
	if one != a || some == nil || *some != a || none != nil || len(list) != 2 || list[0] != a || list[1] != b || text != b.String() {
		t.Fatalf("scanned %v %v %v %v %q; want %v %v <nil> [%v %v] %q", one, some, none, list, text, a, a, a, b, b.String())
	}
	// NULL is the zero uuid, as uuid.UUID's own Scan has it (sqlc types columns it cannot prove
	// NOT NULL as uuid.UUID; GetProductPublicationReadiness reads such a column).
	if err := d.Pool.QueryRow(ctx, `SELECT NULL::uuid`).Scan(&one); err != nil || one != uuid.Nil {
		t.Fatalf("NULL scanned into a uuid.UUID: %v, %v; want the zero uuid", one, err)
	}
}
