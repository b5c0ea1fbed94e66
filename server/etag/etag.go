// Package etag is the one implementation of entity tags for every resource (API.md "Safe writes"):
// the tag of a resource message, the conditions a write may carry (If-Match, the requests' `etag`
// fields, AIP-154) and the 412 PRECONDITION_FAILED of a condition that does not hold.
//
// A resource message is a message with a `string etag` field (without presence). Its tag is
// `"` + base64url(first 16 bytes of sha256(deterministic protobuf encoding)) + `"` of the message
// with its etag and its include/expand fields (those whose type has (catalog.v1.json_array): views
// of other resources, which carry their own tags) left out. Every resource carries updatedAt,
// which every write of it changes, so the tag changes with every write; nothing else changes it.
// A request's `optional string etag` (update bodies, delete and transition requests) and the REST
// If-Match header are the same condition.
package etag

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"strings"
	"sync"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/catalogd/catalogd/server/apierr"
)

// FieldName is the name of the etag field of resources and requests.
const FieldName = "etag"

// MapFieldName is the per-item etags of a bulk transition request (uuid → etag).
const MapFieldName = "etags"

// tagField is m's resource etag field (a string without presence), or nil.
func tagField(md protoreflect.MessageDescriptor) protoreflect.FieldDescriptor {
	fd := md.Fields().ByName(FieldName)
	if fd == nil || fd.Kind() != protoreflect.StringKind || fd.HasPresence() || fd.IsList() {
		return nil
	}
	return fd
}

// IsResource reports whether messages of md carry a resource etag.
func IsResource(md protoreflect.MessageDescriptor) bool { return tagField(md) != nil }

// IsTagField reports whether fd is the resource etag field of its message (the field the REST
// JSON encoding leaves out: there the tag is the ETag header).
func IsTagField(fd protoreflect.FieldDescriptor) bool {
	return fd.Name() == FieldName && tagField(fd.ContainingMessage()) == fd
}

// Of is the strong tag of resource message m (`"…"`, quotes included).
func Of(m proto.Message) string { return of(m.ProtoReflect()) }

func of(m protoreflect.Message) string {
	skip := false
	m.Range(func(fd protoreflect.FieldDescriptor, _ protoreflect.Value) bool {
		skip = fd.Name() == FieldName || isView(fd)
		return !skip
	})
	src := m
	if skip {
		// A shallow copy without the fields the tag leaves out: fields are shared, never changed.
		c := m.Type().New()
		m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
			if fd.Name() != FieldName && !isView(fd) {
				c.Set(fd, v)
			}
			return true
		})
		src = c
	}
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(src.Interface())
	if err != nil { // a message that does not encode cannot be sent either
		b = []byte(err.Error())
	}
	sum := sha256.Sum256(b)
	return `"` + base64.RawURLEncoding.EncodeToString(sum[:16]) + `"`
}

// isView reports an include/expand field: its type has (catalog.v1.json_array) = true (cached
// per message type: reading options is slow).
func isView(fd protoreflect.FieldDescriptor) bool {
	if fd.Kind() != protoreflect.MessageKind || fd.IsList() || fd.IsMap() {
		return false
	}
	md := fd.Message()
	if v, ok := views.Load(md.FullName()); ok {
		return v.(bool)
	}
	found := false
	if opts, ok := md.Options().(*descriptorpb.MessageOptions); ok && opts != nil {
		proto.RangeExtensions(opts, func(xt protoreflect.ExtensionType, v any) bool {
			if xt.TypeDescriptor().Name() == "json_array" {
				found, _ = v.(bool)
				return false
			}
			return true
		})
	}
	views.Store(md.FullName(), found)
	return found
}

var views sync.Map // protoreflect.FullName → bool

// Fill sets the etag of every resource message in m (m itself, its fields, their items) that has
// none yet, each computed before its own fields are filled. A handler whose answer carries a
// one-time field (a webhook subscription's secret) sets the tag itself, without it.
func Fill(m proto.Message) {
	if m == nil {
		return
	}
	fill(m.ProtoReflect())
}

// FillTop sets the etag of the resources that are singular fields of m itself (the resource of a
// Get, Create or Update answer) and of nothing below them: what the REST facade shows of a read's
// answer, whose bodies leave every etag out and whose ETag header is that one resource's tag. A
// hydrated product GET holds about 80 resources (its attributes, values, assets …): their tags,
// each a deterministic encoding and a hash, were a quarter of the GET's CPU over REST, for nothing.
func FillTop(m proto.Message) {
	if m == nil || !m.ProtoReflect().IsValid() {
		return
	}
	m.ProtoReflect().Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		if fd.Kind() == protoreflect.MessageKind && !fd.IsList() && !fd.IsMap() {
			r := v.Message()
			if tf := tagField(r.Descriptor()); tf != nil && r.Get(tf).String() == "" {
				r.Set(tf, protoreflect.ValueOfString(of(r)))
			}
		}
		return true
	})
}

func fill(m protoreflect.Message) {
	if !m.IsValid() {
		return
	}
	md := m.Descriptor()
	if fd := tagField(md); fd != nil && m.Get(fd).String() == "" { // a handler may have set it (server/webhooks)
		m.Set(fd, protoreflect.ValueOfString(of(m)))
	}
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		if fd.Kind() != protoreflect.MessageKind {
			return true
		}
		switch {
		case fd.IsList():
			l := v.List()
			for i := 0; i < l.Len(); i++ {
				fill(l.Get(i).Message())
			}
		case fd.IsMap():
			if fd.MapValue().Kind() == protoreflect.MessageKind {
				v.Map().Range(func(_ protoreflect.MapKey, mv protoreflect.Value) bool {
					fill(mv.Message())
					return true
				})
			}
		default:
			fill(v.Message())
		}
		return true
	})
}

// Get is the etag field's value of resource message m ("" when m carries none).
func Get(m proto.Message) string {
	if m == nil {
		return ""
	}
	r := m.ProtoReflect()
	if !r.IsValid() {
		return ""
	}
	if fd := tagField(r.Descriptor()); fd != nil {
		return r.Get(fd).String()
	}
	return ""
}

// Condition is an If-Match: the tags a resource must have (Any: `*`, any existing resource). The
// zero Condition is no condition.
type Condition struct {
	Any  bool
	Tags []string
}

// Given reports a condition to check.
func (c Condition) Given() bool { return c.Any || len(c.Tags) > 0 }

// Match compares tag with the condition, strongly (RFC 9110 §8.8.3.2): a weak tag never matches.
func (c Condition) Match(tag string) bool {
	if c.Any {
		return true
	}
	for _, t := range c.Tags {
		if t == tag && !strings.HasPrefix(t, "W/") {
			return true
		}
	}
	return false
}

// String is the condition as an If-Match value.
func (c Condition) String() string {
	if c.Any {
		return "*"
	}
	return strings.Join(c.Tags, ", ")
}

// ParseList parses an If-Match or If-None-Match value: `*` or a comma-separated list of entity
// tags (`"x"`, `W/"x"`). ok is false for a malformed value.
func ParseList(h string) (c Condition, ok bool) {
	h = strings.TrimSpace(h)
	if h == "" {
		return c, false
	}
	if h == "*" {
		return Condition{Any: true}, true
	}
	for h != "" {
		t := h
		weak := strings.HasPrefix(t, "W/")
		if weak {
			t = t[2:]
		}
		if len(t) < 2 || t[0] != '"' {
			return Condition{}, false
		}
		end := strings.IndexByte(t[1:], '"')
		if end < 0 {
			return Condition{}, false
		}
		tag := t[:end+2]
		for _, r := range tag[1 : len(tag)-1] {
			if r < 0x21 || r == 0x7f { // etagc: no controls, no spaces
				return Condition{}, false
			}
		}
		if weak {
			tag = "W/" + tag
		}
		c.Tags = append(c.Tags, tag)
		h = strings.TrimSpace(t[end+2:])
		if h == "" {
			break
		}
		if h[0] != ',' {
			return Condition{}, false
		}
		h = strings.TrimSpace(h[1:])
		if h == "" {
			return Condition{}, false
		}
	}
	return c, true
}

// ParseField parses a request's etag field: an entity tag as the ETag header gives it, or its
// opaque part without the quotes; `*` is any existing resource.
func ParseField(v string) (Condition, bool) {
	v = strings.TrimSpace(v)
	if v != "" && v != "*" && !strings.HasPrefix(v, `"`) && !strings.HasPrefix(v, `W/"`) {
		v = `"` + v + `"`
	}
	c, ok := ParseList(v)
	return c, ok && (c.Any || len(c.Tags) == 1)
}

// NoneMatch reports whether an If-None-Match value matches tag, by the weak comparison (RFC 9110
// §13.1.2): `*` matches any tag, W/"x" matches "x".
func NoneMatch(header, tag string) bool {
	c, ok := ParseList(header)
	if !ok || tag == "" {
		return false
	}
	if c.Any {
		return true
	}
	opaque := strings.TrimPrefix(tag, "W/")
	for _, t := range c.Tags {
		if strings.TrimPrefix(t, "W/") == opaque {
			return true
		}
	}
	return false
}

type condKey struct{}
type itemsKey struct{}

// WithCondition is ctx carrying the condition of a single write.
func WithCondition(ctx context.Context, c Condition) context.Context {
	return context.WithValue(ctx, condKey{}, c)
}

// FromContext is the condition of a single write (zero: none).
func FromContext(ctx context.Context) Condition {
	c, _ := ctx.Value(condKey{}).(Condition)
	return c
}

// WithItems is ctx carrying per-item conditions of a bulk transition, by lower-case uuid.
func WithItems(ctx context.Context, items map[string]Condition) context.Context {
	return context.WithValue(ctx, itemsKey{}, items)
}

// ItemFromContext is the condition of the bulk item id (a uuid, any case).
func ItemFromContext(ctx context.Context, id string) Condition {
	m, _ := ctx.Value(itemsKey{}).(map[string]Condition)
	return m[strings.ToLower(id)]
}

// Failed is the 412 of a condition that does not hold for kind id, whose current tag is current.
func Failed(kind, id, current string) *apierr.Error {
	return apierr.New(apierr.PreconditionFailed, "%s %s has changed since it was read: its etag is now %s", kind, id, current).
		WithMeta("etag", current)
}

// Check compares the condition of a single write in ctx with current, the resource as it is now
// (read and locked in the write's transaction): nil when there is no condition or it holds, else
// the 412 of kind id. It is what a write outside the engine (server/crud) calls.
func Check(ctx context.Context, kind, id string, current proto.Message) error {
	c := FromContext(ctx)
	if !c.Given() {
		return nil
	}
	if tag := Of(current); !c.Match(tag) {
		return Failed(kind, id, tag)
	}
	return nil
}
