package app

import (
	"strings"
	"testing"

	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// Every service of the catalog.v1 package is registered, and every RPC has a scope and an HTTP mapping.
func TestEveryRPCHasScopeAndHTTPMapping(t *testing.T) {
	services := Services(Deps{})
	registered := map[string]bool{}
	for _, s := range services {
		registered[s.Desc.ServiceName] = true
	}
	scopes, err := MethodScopes(services)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	protoregistry.GlobalFiles.RangeFilesByPackage("catalog.v1", func(fd protoreflect.FileDescriptor) bool {
		for i := 0; i < fd.Services().Len(); i++ {
			sd := fd.Services().Get(i)
			if !registered[string(sd.FullName())] {
				t.Errorf("service %s is defined but not registered in app.Services", sd.FullName())
			}
			for j := 0; j < sd.Methods().Len(); j++ {
				m := sd.Methods().Get(j)
				n++
				full := "/" + string(sd.FullName()) + "/" + string(m.Name())
				if scopes[full] == "" {
					t.Errorf("%s has no scope", full)
				}
				rule, _ := proto.GetExtension(m.Options(), annotations.E_Http).(*annotations.HttpRule)
				if rule == nil || rule.GetPattern() == nil {
					t.Errorf("%s has no HTTP mapping", full)
					continue
				}
				path := rule.GetGet() + rule.GetPost() + rule.GetPatch() + rule.GetDelete() + rule.GetPut()
				if !strings.HasPrefix(path, "/v1/") {
					t.Errorf("%s maps to %q, not under /v1", full, path)
				}
				// Reads need catalog:read (or webhooks:read); writes the write scopes.
				if rule.GetGet() != "" && strings.HasSuffix(scopes[full], ":write") {
					t.Errorf("%s is a GET but needs %s", full, scopes[full])
				}
				if rule.GetGet() == "" && strings.HasSuffix(scopes[full], ":read") {
					t.Errorf("%s is a write but needs only %s", full, scopes[full])
				}
			}
		}
		return true
	})
	if n == 0 || n != len(scopes) {
		t.Fatalf("%d RPCs defined, %d with scopes", n, len(scopes))
	}
}

func TestMethodScopesRefusesAMethodWithoutScope(t *testing.T) {
	// grpc.health has no scope option: declaring it as an API service must fail start-up.
	_, err := MethodScopes([]Service{{Desc: healthDesc()}})
	if err == nil || !strings.Contains(err.Error(), "declares no") {
		t.Fatalf("err = %v, want a missing-scope error", err)
	}
}

func TestListSpecsCoverEveryFilter(t *testing.T) {
	if err := CheckListSpecs(); err != nil {
		t.Fatal(err)
	}
}

// The gateway tries the pattern registered last first, and registers methods in declaration order:
// a later method whose pattern matches an earlier method's path would take its requests (PATCH
// /v1/attributes/bulk read as PATCH /v1/attributes/{attributeUuid}).
func TestNoHTTPRouteShadowsAnother(t *testing.T) {
	type route struct {
		method, verb string
		segs         []string
	}
	var routes []route
	for _, svc := range Services(Deps{}) { // registration order
		d, err := protoregistry.GlobalFiles.FindDescriptorByName(protoreflect.FullName(svc.Desc.ServiceName))
		if err != nil {
			t.Fatal(err)
		}
		sd := d.(protoreflect.ServiceDescriptor)
		for j := 0; j < sd.Methods().Len(); j++ {
			m := sd.Methods().Get(j)
			rule, _ := proto.GetExtension(m.Options(), annotations.E_Http).(*annotations.HttpRule)
			verb, path := "GET", rule.GetGet()
			for v, p := range map[string]string{"POST": rule.GetPost(), "PATCH": rule.GetPatch(), "DELETE": rule.GetDelete(), "PUT": rule.GetPut()} {
				if p != "" {
					verb, path = v, p
				}
			}
			routes = append(routes, route{string(m.FullName()), verb, strings.Split(path, "/")})
		}
	}
	isVar := func(s string) bool { return strings.HasPrefix(s, "{") }
	for i, early := range routes {
		for _, late := range routes[i+1:] {
			if early.verb != late.verb || len(early.segs) != len(late.segs) {
				continue
			}
			shadows := true
			for k := range early.segs {
				e, l := early.segs[k], late.segs[k]
				if !isVar(l) && (isVar(e) || e != l) {
					shadows = false
				}
			}
			if shadows {
				t.Errorf("%s %s is registered after %s and takes its requests", late.verb, late.method, early.method)
			}
		}
	}
}
