// Package fields holds the input checks every family shares: the request rules declared in proto
// (rules.go: required fields, lengths, formats, item counts, bounds, uuids), path parameter uuids
// and update masks.
package fields

import (
	"strings"

	"github.com/google/uuid"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/fieldmaskpb"

	"github.com/catalogd/catalogd/server/apierr"
)

// UUID parses a uuid given in field (a path parameter or body field); a bad one is a 400 naming it.
func UUID(field, s string) (uuid.UUID, error) {
	id, err := ParseUUID(s)
	if err != nil {
		return uuid.Nil, apierr.Field(field, "must be a uuid")
	}
	return id, nil
}

// ParseUUID accepts only the canonical 36-character form.
func ParseUUID(s string) (uuid.UUID, error) {
	if len(s) != 36 {
		return uuid.Nil, errBadUUID
	}
	return uuid.Parse(s)
}

var errBadUUID = apierr.New(apierr.ValidationFailed, "not a uuid")

// Mask tells which fields of an update are given. Over REST the codec fills update_mask from the
// keys present in the body (including keys set to null); over gRPC a client may set it, or leave it
// empty and rely on field presence.
type Mask struct{ paths map[string]bool }

// NewMask reads an update's mask.
func NewMask(m *fieldmaskpb.FieldMask) Mask {
	if m == nil || len(m.Paths) == 0 {
		return Mask{}
	}
	p := make(map[string]bool, len(m.Paths))
	for _, s := range m.Paths {
		p[s] = true
		p[Snake(s)] = true
	}
	return Mask{paths: p}
}

// Clears reports that a nullable field was named with no value: set it to null.
func (m Mask) Clears(field string, hasValue bool) bool {
	return !hasValue && m.paths != nil && m.paths[field]
}

// Snake is the proto (snake_case) name of a JSON (lowerCamel) name: minLength → min_length.
func Snake(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'A' && r <= 'Z' {
			b.WriteByte('_')
			b.WriteRune(r + ('a' - 'A'))
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// ApplyMask makes an update's update_mask authoritative (AIP-134): when the mask is set, the fields
// it does not name are cleared, so only the named ones change; a path naming no field is a
// violation of updateMask. Over REST the mask is exactly the body's keys, so this changes nothing
// there. The uuid field is never cleared.
func ApplyMask(v apierr.Validator, m proto.Message) {
	r := m.ProtoReflect()
	if !r.IsValid() {
		return
	}
	md := r.Descriptor()
	mf := md.Fields().ByName("update_mask")
	if mf == nil || !r.Has(mf) {
		return
	}
	mask, _ := r.Get(mf).Message().Interface().(*fieldmaskpb.FieldMask)
	if mask == nil || len(mask.Paths) == 0 {
		return
	}
	named := map[protoreflect.Name]bool{}
	for _, p := range mask.Paths {
		f := md.Fields().ByName(protoreflect.Name(p))
		if f == nil {
			f = md.Fields().ByJSONName(p)
		}
		if f == nil || f.Name() == "update_mask" {
			v.Add("updateMask", "%q is not a field of %s", p, md.Name())
			continue
		}
		named[f.Name()] = true
	}
	fs := md.Fields()
	for i := 0; i < fs.Len(); i++ {
		f := fs.Get(i)
		if f.Name() == "uuid" || f.Name() == "update_mask" || named[f.Name()] {
			continue
		}
		r.Clear(f)
	}
}
