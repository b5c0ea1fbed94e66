package store

import (
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgtype"
)

// registerUUID teaches a connection's type map to encode github.com/google/uuid values as the
// 16 bytes they are, and to scan them from those bytes. Without it pgx takes uuid.UUID's
// driver.Valuer path (format as a string, then parse it back) for every element of every uuid
// array: a fifth of a bulk write's CPU; and its sql.Scanner path on every uuid column read (the
// codec formats the 16 bytes as text, Scan parses them back): 5 % of a hydrated product GET's CPU.
// The scan needs a codec of its own: pgx asks a target's sql.Scanner before its scan wrappers.
func registerUUID(m *pgtype.Map) {
	m.TryWrapEncodePlanFuncs = append([]pgtype.TryWrapEncodePlanFunc{tryWrapUUID}, m.TryWrapEncodePlanFuncs...)
	t := &pgtype.Type{Name: "uuid", OID: pgtype.UUIDOID, Codec: uuidCodec{}}
	m.RegisterType(t)
	m.RegisterType(&pgtype.Type{Name: "_uuid", OID: pgtype.UUIDArrayOID, Codec: &pgtype.ArrayCodec{ElementType: t}})
}

// uuidCodec is pgx's uuid codec, except that a binary uuid scans straight into a *uuid.UUID.
type uuidCodec struct{ pgtype.UUIDCodec }

func (c uuidCodec) PlanScan(m *pgtype.Map, oid uint32, format int16, target any) pgtype.ScanPlan {
	if _, ok := target.(*uuid.UUID); ok && format == pgtype.BinaryFormatCode {
		return scanUUID{}
	}
	return c.UUIDCodec.PlanScan(m, oid, format, target)
}

type scanUUID struct{}

// Scan reads NULL as the zero uuid, as uuid.UUID's Scan does: sqlc types a column it cannot prove
// NOT NULL (a view's, a function's, an outer join's) as uuid.UUID too, and callers rely on it.
func (scanUUID) Scan(src []byte, target any) error {
	if src == nil {
		*target.(*uuid.UUID) = uuid.Nil
		return nil
	}
	if len(src) != 16 {
		return fmt.Errorf("invalid length for uuid: %d", len(src))
	}
	copy(target.(*uuid.UUID)[:], src)
	return nil
}

func tryWrapUUID(value any) (pgtype.WrappedEncodePlanNextSetter, any, bool) {
	switch v := value.(type) {
	case uuid.UUID:
		return &uuidPlan{}, [16]byte(v), true
	case []uuid.UUID: // an array of them, without pgx's reflection over a slice of an unknown type
		return &uuidsPlan{}, uuidArray(v), true
	}
	return nil, nil, false
}

type uuidsPlan struct{ next pgtype.EncodePlan }

func (p *uuidsPlan) SetNext(next pgtype.EncodePlan) { p.next = next }

func (p *uuidsPlan) Encode(value any, buf []byte) ([]byte, error) {
	return p.next.Encode(uuidArray(value.([]uuid.UUID)), buf)
}

// uuidArray is a []uuid.UUID as pgx's array codec reads it (pgtype.ArrayGetter): each element the
// 16 bytes it is; nil is NULL, as pgx makes of a nil slice.
type uuidArray []uuid.UUID

func (a uuidArray) Dimensions() []pgtype.ArrayDimension {
	if a == nil {
		return nil
	}
	return []pgtype.ArrayDimension{{Length: int32(len(a)), LowerBound: 1}}
}

func (a uuidArray) Index(i int) any { return [16]byte(a[i]) }

func (a uuidArray) IndexType() any { return [16]byte{} }

type uuidPlan struct{ next pgtype.EncodePlan }

func (p *uuidPlan) SetNext(next pgtype.EncodePlan) { p.next = next }

func (p *uuidPlan) Encode(value any, buf []byte) ([]byte, error) {
	return p.next.Encode([16]byte(value.(uuid.UUID)), buf)
}
