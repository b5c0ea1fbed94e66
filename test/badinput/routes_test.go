package badinput

import (
	"fmt"
	"sort"
	"strings"

	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	catalogv1 "github.com/catalogd/catalogd/gen/catalog/v1"
)

// route is one RPC of the API with its HTTP mapping.
type route struct {
	full   string // /catalog.v1.AttributeService/CreateAttribute
	method protoreflect.MethodDescriptor
	verb   string // GET, POST, PATCH, DELETE
	path   string // with every path parameter replaced by a well-formed uuid
	body   string // "", "*" or a field name
}

const pathUUID = "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"

// routes lists every RPC of package catalog.v1 that has an HTTP mapping, in a stable order.
func routes() []route {
	var out []route
	protoregistry.GlobalFiles.RangeFilesByPackage("catalog.v1", func(fd protoreflect.FileDescriptor) bool {
		for i := 0; i < fd.Services().Len(); i++ {
			sd := fd.Services().Get(i)
			for j := 0; j < sd.Methods().Len(); j++ {
				md := sd.Methods().Get(j)
				rule, _ := proto.GetExtension(md.Options(), annotations.E_Http).(*annotations.HttpRule)
				if rule == nil {
					continue
				}
				r := route{full: fmt.Sprintf("/%s/%s", sd.FullName(), md.Name()), method: md, body: rule.GetBody()}
				switch {
				case rule.GetGet() != "":
					r.verb, r.path = "GET", rule.GetGet()
				case rule.GetPost() != "":
					r.verb, r.path = "POST", rule.GetPost()
				case rule.GetPatch() != "":
					r.verb, r.path = "PATCH", rule.GetPatch()
				case rule.GetDelete() != "":
					r.verb, r.path = "DELETE", rule.GetDelete()
				case rule.GetPut() != "":
					r.verb, r.path = "PUT", rule.GetPut()
				}
				segs := strings.Split(r.path, "/")
				for k, s := range segs {
					if strings.HasPrefix(s, "{") {
						segs[k] = pathUUID
					}
				}
				r.path = strings.Join(segs, "/")
				out = append(out, r)
			}
		}
		return true
	})
	sort.Slice(out, func(i, j int) bool { return out[i].full < out[j].full })
	return out
}

// bodyMessage is the message the REST body holds and whether the body is an array of it (nil for
// no body).
func (r route) bodyMessage() (protoreflect.MessageDescriptor, bool) {
	in := r.method.Input()
	switch r.body {
	case "":
		return nil, false
	case "*":
		return in, false
	}
	fd := in.Fields().ByName(protoreflect.Name(r.body))
	return fd.Message(), fd.IsList()
}

// pathParams are the request fields the path sets.
func (r route) pathParams() map[string]bool {
	rule, _ := proto.GetExtension(r.method.Options(), annotations.E_Http).(*annotations.HttpRule)
	out := map[string]bool{}
	p := rule.GetGet() + rule.GetPost() + rule.GetPatch() + rule.GetDelete() + rule.GetPut()
	for _, s := range strings.Split(p, "/") {
		if strings.HasPrefix(s, "{") {
			name, _, _ := strings.Cut(strings.Trim(s, "{}"), "=")
			out[name] = true
		}
	}
	return out
}

// badString is one place a string can go in a body: the JSON to send (a fragment holding
// placeholder where the bad string goes) and the field the answer must name.
type badString struct {
	body  map[string]any
	field string
}

const placeholder = "\uE000BAD\uE000" // replaced in the encoded JSON by the bad text

// stringsOf lists the places of md where a string can be sent, two message levels deep: string
// fields (and their lists), JSON values and structs, nested messages (constraints.pattern).
func stringsOf(md protoreflect.MessageDescriptor, skip map[string]bool, depth int) []badString {
	var out []badString
	fs := md.Fields()
	for i := 0; i < fs.Len(); i++ {
		fd := fs.Get(i)
		name := fd.JSONName()
		if skip[string(fd.Name())] || fd.IsMap() {
			continue
		}
		switch {
		case fd.Kind() == protoreflect.StringKind && fd.IsList():
			out = append(out, badString{map[string]any{name: []any{placeholder}}, name + "[0]"})
		case fd.Kind() == protoreflect.StringKind:
			out = append(out, badString{map[string]any{name: placeholder}, name})
		case fd.Message() == nil || fd.IsList():
		case fd.Message().FullName() == "google.protobuf.Value":
			out = append(out, badString{map[string]any{name: map[string]any{"a": []any{"x", placeholder}}}, name + ".a[1]"})
		case fd.Message().FullName() == "google.protobuf.Struct":
			out = append(out, badString{map[string]any{name: map[string]any{"k": placeholder}}, name + ".k"})
		case strings.HasPrefix(string(fd.Message().FullName()), "google.protobuf."):
		case isJSONArrayOfStrings(fd.Message()):
			out = append(out, badString{map[string]any{name: []any{placeholder}}, name + "[0]"})
		case depth < 2:
			for _, inner := range stringsOf(fd.Message(), nil, depth+1) {
				out = append(out, badString{map[string]any{name: inner.body}, name + "." + inner.field})
			}
		}
	}
	return out
}

func isJSONArrayOfStrings(md protoreflect.MessageDescriptor) bool {
	return md.Fields().Len() == 1 && md.Fields().Get(0).IsList() && md.Fields().Get(0).Kind() == protoreflect.StringKind &&
		proto.GetExtension(md.Options(), catalogv1.E_JsonArray).(bool)
}

// filtersOf lists the string filters of a list request: name[contains] of a StringFilter,
// names[eq] of a StringsFilter.
func filtersOf(md protoreflect.MessageDescriptor) []string {
	var out []string
	fs := md.Fields()
	for i := 0; i < fs.Len(); i++ {
		fd := fs.Get(i)
		if fd.Message() == nil || fd.IsList() {
			continue
		}
		switch fd.Message().Name() {
		case "StringFilter":
			out = append(out, fd.JSONName()+"[contains]", fd.JSONName()+"[starts]", fd.JSONName()+"[ends]")
		case "StringsFilter":
			out = append(out, fd.JSONName()+"[eq]")
		}
	}
	return out
}
