package crud

import (
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/fieldmaskpb"

	"github.com/catalogd/catalogd/server/etag"
)

// A write that changes nothing changes nothing (DESIGN.md "HTTP conventions"): no event, no new
// updatedAt, no new etag. Two comparisons decide it, both on the messages the API answers with.

// Fields of a resource message that a write stamps rather than the client sets: they never make
// two states of a resource differ.
var stamped = map[protoreflect.Name]bool{"updated_at": true, etag.FieldName: true}

// sameMessage reports whether before and after, two states of one resource as its message, are
// the same but for updatedAt and etag.
func sameMessage(before, after any) bool {
	b, ok1 := before.(proto.Message)
	a, ok2 := after.(proto.Message)
	if !ok1 || !ok2 {
		return false
	}
	b, a = proto.Clone(b), proto.Clone(a)
	for _, m := range []protoreflect.Message{b.ProtoReflect(), a.ProtoReflect()} {
		for name := range stamped {
			if fd := m.Descriptor().Fields().ByName(name); fd != nil {
				m.Clear(fd)
			}
		}
	}
	return proto.Equal(b, a)
}

// sameAsStored reports whether update body u gives, for every field it names, the value that the
// resource's message stored already holds under the same name, so that applying it cannot change
// anything: then nothing is written. A field the message does not have, a value of another type,
// or a message value that is not equal as a whole (a partial object an update merges) is not
// decided here: the write runs and its outcome is compared (sameMessage). A body that names no
// field is unchanged.
func sameAsStored(u, stored any) bool {
	um, ok1 := u.(proto.Message)
	sm, ok2 := stored.(proto.Message)
	if !ok1 || !ok2 {
		return false
	}
	ur, sr := um.ProtoReflect(), sm.ProtoReflect()
	if !ur.IsValid() {
		return true
	}
	masked := maskNames(ur)
	fs := ur.Descriptor().Fields()
	for i := 0; i < fs.Len(); i++ {
		fd := fs.Get(i)
		switch fd.Name() {
		case "uuid", "update_mask", etag.FieldName:
			continue
		}
		given := ur.Has(fd)
		if !given && !masked[fd.Name()] {
			continue
		}
		sd := sr.Descriptor().Fields().ByName(fd.Name())
		if sd == nil || !sameShape(fd, sd) {
			return false
		}
		if !given { // named without a value: null clears a nullable field
			if !sd.HasPresence() && !sd.IsList() && !sd.IsMap() {
				return false
			}
			if sr.Has(sd) {
				return false
			}
			continue
		}
		if !sr.Has(sd) && !(sd.IsList() || sd.IsMap()) {
			return false
		}
		if !sameValue(fd, ur.Get(fd), sr.Get(sd)) {
			return false
		}
	}
	return true
}

// maskNames are the fields an update's update_mask names (REST: the body's keys, nulls included).
func maskNames(r protoreflect.Message) map[protoreflect.Name]bool {
	fd := r.Descriptor().Fields().ByName("update_mask")
	if fd == nil || !r.Has(fd) {
		return nil
	}
	mask, _ := r.Get(fd).Message().Interface().(*fieldmaskpb.FieldMask)
	out := map[protoreflect.Name]bool{}
	for _, p := range mask.GetPaths() {
		if f := r.Descriptor().Fields().ByName(protoreflect.Name(p)); f != nil {
			out[f.Name()] = true
		} else if f := r.Descriptor().Fields().ByJSONName(p); f != nil {
			out[f.Name()] = true
		}
	}
	return out
}

// sameShape: two fields hold values of one type (kind, cardinality, message or enum type).
func sameShape(a, b protoreflect.FieldDescriptor) bool {
	if a.Kind() != b.Kind() || a.IsList() != b.IsList() || a.IsMap() != b.IsMap() {
		return false
	}
	switch a.Kind() {
	case protoreflect.MessageKind, protoreflect.GroupKind:
		return a.Message().FullName() == b.Message().FullName()
	case protoreflect.EnumKind:
		return a.Enum().FullName() == b.Enum().FullName()
	}
	return true
}

func sameValue(fd protoreflect.FieldDescriptor, a, b protoreflect.Value) bool {
	switch {
	case fd.IsList():
		la, lb := a.List(), b.List()
		if la.Len() != lb.Len() {
			return false
		}
		for i := 0; i < la.Len(); i++ {
			if !sameScalar(fd, la.Get(i), lb.Get(i)) {
				return false
			}
		}
		return true
	case fd.IsMap():
		ma, mb := a.Map(), b.Map()
		if ma.Len() != mb.Len() {
			return false
		}
		same := true
		ma.Range(func(k protoreflect.MapKey, v protoreflect.Value) bool {
			w := mb.Get(k)
			same = mb.Has(k) && sameScalar(fd.MapValue(), v, w)
			return same
		})
		return same
	}
	return sameScalar(fd, a, b)
}

func sameScalar(fd protoreflect.FieldDescriptor, a, b protoreflect.Value) bool {
	switch fd.Kind() {
	case protoreflect.MessageKind, protoreflect.GroupKind:
		return proto.Equal(a.Message().Interface(), b.Message().Interface())
	case protoreflect.BytesKind:
		return string(a.Bytes()) == string(b.Bytes())
	}
	return a.Interface() == b.Interface()
}
