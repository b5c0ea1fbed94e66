package store

import (
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgtype"
)

// registerUUID teaches a connection's type map to encode github.com/google/uuid values as the
// 16 bytes they are. Without it pgx takes uuid.UUID's driver.Valuer path (format as a string, then
// parse it back) for every element of every uuid array: a fifth of a bulk write's CPU.
func registerUUID(m *pgtype.Map) {
	m.TryWrapEncodePlanFuncs = append([]pgtype.TryWrapEncodePlanFunc{tryWrapUUID}, m.TryWrapEncodePlanFuncs...)
}

func tryWrapUUID(value any) (pgtype.WrappedEncodePlanNextSetter, any, bool) {
	if u, ok := value.(uuid.UUID); ok {
		return &uuidPlan{}, [16]byte(u), true
	}
	return nil, nil, false
}

type uuidPlan struct{ next pgtype.EncodePlan }

func (p *uuidPlan) SetNext(next pgtype.EncodePlan) { p.next = next }

func (p *uuidPlan) Encode(value any, buf []byte) ([]byte, error) {
	return p.next.Encode([16]byte(value.(uuid.UUID)), buf)
}
