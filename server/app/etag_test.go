package app

import (
	"encoding/json"
	"strings"
	"testing"

	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	"github.com/catalogd/catalogd/server/etag"
)

// Every family takes part in the entity tags, through the shared rules only: every RPC answering
// one resource answers a message with an etag (the ETag header, declared in the OpenAPI document;
// GETs with If-None-Match and 304), every single update, delete and move takes an optional etag and
// declares If-Match and 412, every bulk update item an etag and every bulk move an etags map.
func TestEveryRPCTakesPartInETags(t *testing.T) {
	raw, err := BuildOpenAPI(Services(Deps{}))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	paths := doc["paths"].(map[string]any)
	op := func(rule *annotations.HttpRule) map[string]any {
		verb, tmpl := "", ""
		switch {
		case rule.GetGet() != "":
			verb, tmpl = "get", rule.GetGet()
		case rule.GetPost() != "":
			verb, tmpl = "post", rule.GetPost()
		case rule.GetPatch() != "":
			verb, tmpl = "patch", rule.GetPatch()
		case rule.GetDelete() != "":
			verb, tmpl = "delete", rule.GetDelete()
		}
		for p, v := range paths {
			if sameTemplate(p, tmpl) {
				o, _ := v.(map[string]any)[verb].(map[string]any)
				return o
			}
		}
		return nil
	}
	hasParam := func(o map[string]any, name string) bool {
		ps, _ := o["parameters"].([]any)
		for _, p := range ps {
			if r, _ := p.(map[string]any)["$ref"].(string); strings.HasSuffix(r, "/"+name) {
				return true
			}
		}
		return false
	}
	optionalTag := func(md protoreflect.MessageDescriptor) bool {
		fd := md.Fields().ByName(etag.FieldName)
		return fd != nil && fd.Kind() == protoreflect.StringKind && fd.HasPresence()
	}
	singles, conds := 0, 0
	protoregistry.GlobalFiles.RangeFilesByPackage("catalog.v1", func(fd protoreflect.FileDescriptor) bool {
		for i := 0; i < fd.Services().Len(); i++ {
			sd := fd.Services().Get(i)
			for j := 0; j < sd.Methods().Len(); j++ {
				m := sd.Methods().Get(j)
				name := string(m.Name())
				rule, _ := proto.GetExtension(m.Options(), annotations.E_Http).(*annotations.HttpRule)
				o := op(rule)
				if o == nil {
					t.Errorf("%s: no operation in the document", name)
					continue
				}
				success := map[string]any{}
				for _, st := range []string{"200", "201"} {
					if r, ok := o["responses"].(map[string]any)[st].(map[string]any); ok {
						success = r
					}
				}
				headers, _ := success["headers"].(map[string]any)
				body := m.Output().Fields().ByName(protoreflect.Name(rule.GetResponseBody()))
				single := body != nil && !body.IsList() && body.Message() != nil && etag.IsResource(body.Message())
				if strings.HasPrefix(name, "Get") && name != "GetProductPublicationReadiness" && !single {
					t.Errorf("%s answers no resource with an etag", name)
				}
				// CreateImport answers the import with the URL its file is uploaded to, as an asset
				// file's initiate does (both are upload answers, not the resource alone).
				if (strings.HasPrefix(name, "Create") || strings.HasPrefix(name, "Update") || strings.HasPrefix(name, "Transition")) && !single && name != "CreateImport" {
					t.Errorf("%s answers no resource with an etag", name)
				}
				if single {
					singles++
					if headers["ETag"] == nil {
						t.Errorf("%s: the document declares no ETag header", name)
					}
					if rule.GetGet() != "" && (!hasParam(o, "If-None-Match") || o["responses"].(map[string]any)["304"] == nil) {
						t.Errorf("%s: no If-None-Match / 304 in the document", name)
					}
				}
				in := m.Input()
				switch {
				case strings.HasPrefix(name, "BulkUpdate"):
					if !optionalTag(in.Fields().ByName("items").Message()) {
						t.Errorf("%s: its items take no etag", name)
					}
				case strings.HasPrefix(name, "BulkTransition"):
					if f := in.Fields().ByName(etag.MapFieldName); f == nil || !f.IsMap() {
						t.Errorf("%s: no etags map", name)
					}
				case strings.HasPrefix(name, "Update"):
					ok := false
					for k := 0; k < in.Fields().Len(); k++ {
						if f := in.Fields().Get(k); f.Message() != nil && !f.IsList() && optionalTag(f.Message()) {
							ok = true
						}
					}
					if !ok {
						t.Errorf("%s: its body takes no etag", name)
					}
				case strings.HasPrefix(name, "Delete"), strings.HasPrefix(name, "Transition"):
					if !optionalTag(in) {
						t.Errorf("%s: no etag field", name)
					}
				default:
					continue
				}
				conds++
				if o["responses"].(map[string]any)["412"] == nil {
					t.Errorf("%s: no 412 in the document", name)
				}
				if !strings.HasPrefix(name, "Bulk") && !hasParam(o, "If-Match") {
					t.Errorf("%s: no If-Match in the document", name)
				}
			}
		}
		return true
	})
	if singles < 100 || conds < 100 {
		t.Errorf("%d single-resource RPCs, %d conditional ones: the walk missed the services", singles, conds)
	}
	t.Logf("%d single-resource RPCs, %d conditional ones", singles, conds)
}

// sameTemplate compares a document path with a google.api.http template, variable names aside.
func sameTemplate(docPath, tmpl string) bool {
	a, b := strings.Split(docPath, "/"), strings.Split(tmpl, "/")
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		va, vb := strings.HasPrefix(a[i], "{"), strings.HasPrefix(b[i], "{")
		if va != vb || (!va && a[i] != b[i]) {
			return false
		}
	}
	return true
}
