package store

import (
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgtype"
)

func BenchmarkEncodeUUIDs(b *testing.B) {
	ids := make([]uuid.UUID, 100)
	for i := range ids {
		ids[i] = uuid.New()
	}
	for _, wrap := range []bool{false, true} {
		m := pgtype.NewMap()
		if wrap {
			registerUUID(m)
		}
		name := map[bool]string{false: "default", true: "wrapped"}[wrap]
		b.Run(name, func(b *testing.B) {
			var buf []byte
			for i := 0; i < b.N; i++ {
				var err error
				buf, err = m.Encode(pgtype.UUIDArrayOID, pgtype.BinaryFormatCode, ids, buf[:0])
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkDecodeUUID(b *testing.B) {
	src := uuid.New()
	for _, wrap := range []bool{false, true} {
		m := pgtype.NewMap()
		if wrap {
			registerUUID(m)
		}
		raw, _ := m.Encode(pgtype.UUIDOID, pgtype.BinaryFormatCode, [16]byte(src), nil)
		b.Run(map[bool]string{false: "default", true: "wrapped"}[wrap], func(b *testing.B) {
			var dst uuid.UUID
			for i := 0; i < b.N; i++ {
				if err := m.Scan(pgtype.UUIDOID, pgtype.BinaryFormatCode, raw, &dst); err != nil {
					b.Fatal(err)
				}
			}
			if dst != src {
				b.Fatal("decoded a different uuid")
			}
		})
	}
}

// The wrapped encoding is the same bytes as PostgreSQL's binary uuid, element by element.
func TestUUIDEncodingMatchesBinaryUUID(t *testing.T) {
	ids := []uuid.UUID{uuid.New(), uuid.New()}
	plain := pgtype.NewMap()
	wrapped := pgtype.NewMap()
	registerUUID(wrapped)
	want, err := plain.Encode(pgtype.UUIDArrayOID, pgtype.BinaryFormatCode, [][16]byte{ids[0], ids[1]}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := wrapped.Encode(pgtype.UUIDArrayOID, pgtype.BinaryFormatCode, ids, nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Fatalf("wrapped uuid[] encoding differs:\n got %x\nwant %x", got, want)
	}
	one, err := wrapped.Encode(pgtype.UUIDOID, pgtype.BinaryFormatCode, ids[0], nil)
	if err != nil || string(one) != string(ids[0][:]) {
		t.Fatalf("single uuid: %x, %v", one, err)
	}
}
