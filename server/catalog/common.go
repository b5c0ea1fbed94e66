// Package catalog holds the gRPC services of the catalog families. Each family is its proto, its
// queries and a file here; lists, bulk, lifecycle, events and errors come from the shared packages.
package catalog

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/fieldmaskpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/fields"
	"github.com/catalogd/catalogd/server/lifecycle"
	"github.com/catalogd/catalogd/server/store"
)

// Service implements every catalog gRPC service on one database handle.
type Service struct {
	DB *store.DB
}

// New makes the catalog services.
func New(d *store.DB) *Service { return &Service{DB: d} }

// item is the index of a bulk item in error field names, or -1 for a single operation.
func item(i int, single bool) int {
	if single {
		return -1
	}
	return i
}

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

// enumName is the lower-case short name of an enum value (publish ← ATTRIBUTE_TRANSITION_PUBLISH).
func enumName(e protoreflect.Enum) string {
	d := e.Descriptor()
	v := d.Values().ByNumber(e.Number())
	if v == nil || e.Number() == 0 {
		return ""
	}
	return strings.ToLower(strings.TrimPrefix(string(v.Name()), upperSnake(string(d.Name()))+"_"))
}

func upperSnake(s string) string {
	var b strings.Builder
	for i, r := range s {
		if r >= 'A' && r <= 'Z' && i > 0 {
			b.WriteByte('_')
		}
		b.WriteRune(r)
	}
	return strings.ToUpper(b.String())
}

// conflicts reports the items a bulk insert skipped (ON CONFLICT DO NOTHING) as ALREADY_EXISTS,
// naming each item's unique field.
func conflicts(want []uuid.UUID, gotIDs map[uuid.UUID]bool, single bool, field string, values []string, kind string) error {
	v := apierr.NewValidator()
	n := 0
	for i, id := range want {
		if !gotIDs[id] {
			v.Item(item(i, single)).Add(field, "%s %q already exists", kind, values[i])
			n++
		}
	}
	if n == 0 {
		return nil
	}
	e := apierr.From(v.Err())
	e.Code = apierr.AlreadyExists
	return e
}

// notFoundField is a 404 naming the field that referenced the missing resource.
func notFoundField(field, kind, id string) error {
	return apierr.NotFoundf(kind, id).WithField(field, "not found")
}

// mapWriteErr turns a unique or foreign-key violation met while writing item i into an API error.
func mapWriteErr(err error, field string, i int, single bool) error {
	code, _ := store.PgCode(err)
	name := field
	if !single {
		name = fmt.Sprintf("[%d].%s", i, field)
	}
	switch code {
	case store.UniqueViolation:
		return apierr.New(apierr.AlreadyExists, "%s already exists", name).WithField(name, "already exists")
	case store.ForeignKeyViolation:
		return apierr.New(apierr.NotFound, "%s not found", name).WithField(name, "not found")
	}
	return err
}

// fieldName is a field's name in a single or bulk request.
func fieldName(field string, i int, single bool) string {
	if single {
		return field
	}
	return fmt.Sprintf("[%d].%s", i, field)
}

// idSet is the set of ids of rows.
func idSet[T any](rows []T, id func(T) uuid.UUID) map[uuid.UUID]bool {
	m := make(map[uuid.UUID]bool, len(rows))
	for _, r := range rows {
		m[id(r)] = true
	}
	return m
}

// inOrder converts rows into the order of ids (the request's order); the first row of an id wins.
func inOrder[T any, P any](ids []uuid.UUID, rows []T, id func(T) uuid.UUID, conv func(T) P) []P {
	by := make(map[uuid.UUID]T, len(rows))
	for _, r := range rows {
		if _, seen := by[id(r)]; !seen {
			by[id(r)] = r
		}
	}
	out := make([]P, 0, len(ids))
	for _, i := range ids {
		if r, ok := by[i]; ok {
			out = append(out, conv(r))
		}
	}
	return out
}

// mapSlice converts every element.
func mapSlice[T any, P any](xs []T, conv func(T) P) []P {
	out := make([]P, len(xs))
	for i, x := range xs {
		out[i] = conv(x)
	}
	return out
}

// inUse maps a foreign-key violation on delete onto 409 IN_USE.
func inUse(err error, kind, id string) error {
	if code, constraint := store.PgCode(err); code == store.ForeignKeyViolation {
		return apierr.New(apierr.InUse, "%s %s is still referenced and cannot be deleted", kind, id).WithMeta("constraint", constraint)
	}
	return err
}

// transitionInput checks the body of a lifecycle request and parses its uuids.
func transitionInput(m lifecycle.Machine, transition string, raw []string, single bool) ([]uuid.UUID, error) {
	v := apierr.NewValidator()
	if transition == "" {
		v.Add("transition", "is required: one of %s", strings.Join(m.Transitions(), ", "))
	}
	if !single && (len(raw) < 1 || len(raw) > fields.MaxBulk) {
		v.Add("uuids", "must hold 1 to %d uuids", fields.MaxBulk)
	}
	ids := make([]uuid.UUID, len(raw))
	for i, r := range raw {
		name := "uuids[" + strconv.Itoa(i) + "]"
		if single {
			name = m.Kind + "Uuid"
		}
		ids[i] = fields.CheckUUID(v, name, r)
	}
	return ids, v.Err()
}

// transitionPlan is what a lifecycle request changes.
type transitionPlan struct {
	to, event string
	changed   []uuid.UUID
}

// planTransition checks a transition for every locked row: an unknown uuid is 404, a disallowed
// move 409; same-state moves change nothing.
func planTransition[T any](m lifecycle.Machine, transition string, ids []uuid.UUID, raw []string, single bool,
	rows []T, id func(T) uuid.UUID, status func(T) string) (transitionPlan, error) {
	by := make(map[uuid.UUID]T, len(rows))
	for _, r := range rows {
		by[id(r)] = r
	}
	var plan transitionPlan
	seen := map[uuid.UUID]bool{}
	for i, x := range ids {
		r, ok := by[x]
		if !ok {
			if single {
				return plan, apierr.NotFoundf(m.Kind, raw[i])
			}
			return plan, notFoundField("uuids["+strconv.Itoa(i)+"]", m.Kind, raw[i])
		}
		res, err := m.Apply(status(r), transition)
		if err != nil {
			if e, ok := err.(*apierr.Error); ok && !single {
				e.Detail = m.Kind + " " + raw[i] + ": " + e.Detail
				e.WithField("uuids["+strconv.Itoa(i)+"]", e.Detail)
			}
			return plan, err
		}
		plan.to = res.To
		if res.Changed && !seen[x] {
			seen[x] = true
			plan.changed = append(plan.changed, x)
			plan.event = res.Event
		}
	}
	return plan, nil
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
