// Package catalog holds the gRPC services of the catalog families. Each family is its proto, its
// queries and a file here that declares a crud.Family (checks, conversions, sqlc calls) and the RPCs
// over it; lists, bulk, lifecycle, events and errors come from the shared packages.
package catalog

import (
	"context"
	"strings"
	"time"

	"github.com/google/uuid"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/fieldmaskpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/list"
	"github.com/catalogd/catalogd/server/reqctx"
	"github.com/catalogd/catalogd/server/store"
)

// Service holds what every catalog service uses.
type Service struct {
	DB *store.DB
	// Files is the blob storage of asset files (asset_files.go); the zero value answers their
	// operations with 503.
	Files FileStorage
}

// New makes the catalog services' shared state.
func New(d *store.DB) *Service { return &Service{DB: d} }

// tsp converts an optional stored time (null stays null).
func tsp(t *time.Time) *timestamppb.Timestamp {
	if t == nil {
		return nil
	}
	return timestamppb.New(*t)
}

// enumValue maps a stored lower-case state onto its proto enum number (ATTRIBUTE_STATUS_DRAFT ← draft).
func enumValue(values map[string]int32, prefix, s string) int32 {
	return values[prefix+strings.ToUpper(s)]
}

// mapSlice converts every element.
func mapSlice[T any, P any](xs []T, conv func(T) P) []P {
	out := make([]P, len(xs))
	for i, x := range xs {
		out[i] = conv(x)
	}
	return out
}

// optString reads an optional string field of a message by proto name (nil when unset or m is nil).
func optString(m proto.Message, name protoreflect.Name) *string {
	r := m.ProtoReflect()
	if !r.IsValid() {
		return nil
	}
	f := r.Descriptor().Fields().ByName(name)
	if f == nil || !r.Has(f) {
		return nil
	}
	s := r.Get(f).String()
	return &s
}

// updateMask reads the update_mask field of an update body.
func updateMask(m proto.Message) *fieldmaskpb.FieldMask {
	r := m.ProtoReflect()
	if !r.IsValid() {
		return nil
	}
	f := r.Descriptor().Fields().ByName("update_mask")
	if f == nil || !r.Has(f) {
		return nil
	}
	fm, _ := r.Get(f).Message().Interface().(*fieldmaskpb.FieldMask)
	return fm
}

// orNew returns m, or a new empty message when the request carried none (an empty body).
func orNew[T any, P interface {
	*T
	proto.Message
}](m P) P {
	if m == nil {
		return P(new(T))
	}
	return m
}

// displayNameOrCode is a create body's displayName, defaulting to its code (API.md).
func displayNameOrCode[C interface {
	GetCode() string
	proto.Message
}](c C) string {
	if d := optString(c, "display_name"); d != nil {
		return *d
	}
	return c.GetCode()
}

// listAs runs a family's list and converts the rows to its messages.
func listAs[R any, M any](ctx context.Context, s *Service, spec *list.Spec, req proto.Message, conv func(R) M, scope ...list.Cond) ([]M, *pb.Pagination, error) {
	rows, page, err := list.Run[R](ctx, s.DB, spec, reqctx.Tenant(ctx), req, scope...)
	return mapSlice(rows, conv), page, err
}

// attach fills the include[x] (uuid list) and expand[x] (objects) fields of the messages out,
// whose parent ids are ids, with their child rows: load reads the children of all of them in one
// query, and only when wantIDs or wantObjects; owner names a row's parent, id the row. A parent
// without children gets [] (not null).
func attach[M, R any](out []M, ids []uuid.UUID, wantIDs, wantObjects bool, load func() ([]R, error),
	owner, id func(R) uuid.UUID, setIDs func(M, *pb.UuidList), setObjects func(M, []R)) error {
	if len(out) == 0 || (!wantIDs && !wantObjects) {
		return nil
	}
	rows, err := load()
	if err != nil {
		return err
	}
	attachRows(out, ids, wantIDs, wantObjects, rows, owner, id, setIDs, setObjects)
	return nil
}

// attachRows is attach with the child rows already read (a round's result, store.Round).
func attachRows[M, R any](out []M, ids []uuid.UUID, wantIDs, wantObjects bool, rows []R,
	owner, id func(R) uuid.UUID, setIDs func(M, *pb.UuidList), setObjects func(M, []R)) {
	by := groupBy(rows, owner)
	for i, m := range out {
		rs := by[ids[i]]
		if wantIDs {
			setIDs(m, &pb.UuidList{Values: mapSlice(rs, func(r R) string { return id(r).String() })})
		}
		if wantObjects {
			setObjects(m, rs)
		}
	}
}

// groupBy groups rows by the uuid key returns (the rows of several parents, for include/expand),
// keeping their order within each group.
func groupBy[T any](rows []T, key func(T) uuid.UUID) map[uuid.UUID][]T {
	by := make(map[uuid.UUID][]T)
	for _, r := range rows {
		k := key(r)
		by[k] = append(by[k], r)
	}
	return by
}
