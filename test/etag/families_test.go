package etag

import (
	"bytes"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	"github.com/catalogd/catalogd/server/app"
	. "github.com/catalogd/catalogd/server/apptest"
	"github.com/catalogd/catalogd/server/jsonpb"
)

// route is one RPC's method and path template in the document's form (`{x}` for every variable).
type route struct {
	verb, path string
	method     protoreflect.MethodDescriptor
}

var templateVar = regexp.MustCompile(`\{[^}]*\}`)

// routes lists the REST routes of every catalog.v1 RPC.
func routes() []route {
	var out []route
	protoregistry.GlobalFiles.RangeFilesByPackage("catalog.v1", func(fd protoreflect.FileDescriptor) bool {
		for i := 0; i < fd.Services().Len(); i++ {
			sd := fd.Services().Get(i)
			for j := 0; j < sd.Methods().Len(); j++ {
				m := sd.Methods().Get(j)
				rule, _ := proto.GetExtension(m.Options(), annotations.E_Http).(*annotations.HttpRule)
				verb, tmpl := "GET", rule.GetGet()
				switch {
				case rule.GetPatch() != "":
					verb, tmpl = "PATCH", rule.GetPatch()
				case rule.GetDelete() != "":
					verb, tmpl = "DELETE", rule.GetDelete()
				case rule.GetPost() != "":
					verb, tmpl = "POST", rule.GetPost()
				}
				out = append(out, route{verb, templateVar.ReplaceAllString(tmpl, "{x}"), m})
			}
		}
		return true
	})
	return out
}

// Every family over REST, on the demo catalog of a mock replica: each Get of one resource answers a
// strong ETag and 304 to it; a stale If-Match on its update, delete and lifecycle move is 412
// naming the tag the GET gave (the engine's tag of the row is the GET's); an update with the
// current tag succeeds and changes the tag.
func TestEveryFamily(t *testing.T) {
	mock, err := StartOn(env.DBURL, nil, func(c *app.Config) { c.Mock, c.DisableDispatcher = true, true })
	if err != nil {
		t.Fatal(err)
	}
	defer mock.Stop()
	c := mock.ClientFor(t, "t-"+RandomHex(6))
	all := routes()
	byRoute := map[string]route{}
	for _, r := range all {
		byRoute[r.verb+" "+r.path] = r
	}
	// ids lists the uuids of a collection, newest first where the list orders by createdAt (the
	// fixtures first).
	lists := map[string][]string{}
	ids := func(coll string) []string {
		if v, ok := lists[coll]; ok {
			return v
		}
		r := c.Get(coll + Q("createdAt[order]", "desc"))
		if r.Status == 400 {
			r = c.Get(coll)
		}
		var out []string
		if r.Status == 200 {
			items, _ := r.Obj()["items"].([]any)
			for _, it := range items {
				if id := Str(it.(map[string]any), "uuid"); id != "" {
					out = append(out, id)
				}
			}
		}
		lists[coll] = out
		return out
	}
	// find walks the concrete paths of a template ending in a variable, depth first, from the
	// lists of its collections, until visit is satisfied.
	var find func(tmpl string, visit func(path string) bool) bool
	find = func(tmpl string, visit func(path string) bool) bool {
		i := strings.LastIndex(tmpl, "/{x}")
		if i < 0 || i+4 != len(tmpl) {
			return false
		}
		coll := tmpl[:i]
		inColl := func(c string) bool {
			for _, id := range ids(c) {
				if visit(c + "/" + id) {
					return true
				}
			}
			return false
		}
		j := strings.LastIndex(coll, "{x}")
		if j < 0 {
			return inColl(coll)
		}
		return find(coll[:j+3], func(parent string) bool { return inColl(parent + coll[j+3:]) })
	}
	fixtures(t, c)
	covered, missing := 0, []string{}
	for _, r := range all {
		name := string(r.method.Name())
		if r.verb != "GET" || !strings.HasPrefix(name, "Get") || name == "GetProductPublicationReadiness" {
			continue
		}
		var path string
		if !find(r.path, func(p string) bool { path = p; return true }) {
			missing = append(missing, name)
			continue
		}
		covered++
		tag := tagOf(t, name, Want(t, c.Get(path), 200))
		if res := do(t, c, "GET", path, nil, "If-None-Match", tag); res.Status != 304 {
			t.Errorf("%s: If-None-Match: %d", name, res.Status)
		}
		if u, ok := byRoute["PATCH "+r.path]; ok && strings.HasPrefix(string(u.method.Name()), "Update") {
			precondition(t, string(u.method.Name()), do(t, c, "PATCH", path, map[string]any{}, "If-Match", `"stale"`), tag)
			res := do(t, c, "PATCH", path, map[string]any{}, "If-Match", tag)
			if res.Status != 200 {
				t.Errorf("%s with the GET's tag: %d %s", u.method.Name(), res.Status, res.Raw)
			} else if got := tagOf(t, string(u.method.Name()), res); got != tag {
				// An update that changes nothing writes nothing (DESIGN.md "HTTP conventions").
				t.Errorf("%s: an empty update changed the tag from %s to %s", u.method.Name(), tag, got)
			}
			tag = tagOf(t, name, Want(t, c.Get(path), 200))
		}
		if d, ok := byRoute["DELETE "+r.path]; ok {
			precondition(t, string(d.method.Name()), do(t, c, "DELETE", path, nil, "If-Match", `"stale"`), tag)
		}
		if m, ok := byRoute["PATCH "+r.path+"/actions/lifecycle"]; ok {
			fd := m.method.Input().Fields().ByName("transition")
			move, _ := jsonpb.EnumString(fd.Enum(), 1)
			precondition(t, string(m.method.Name()), do(t, c, "PATCH", path+"/actions/lifecycle", map[string]any{"transition": move}, "If-Match", `"stale"`), tag)
		}
	}
	if len(missing) > 0 || covered < 39 {
		t.Errorf("%d Get RPCs walked; without an instance: %v", covered, missing)
	}
}

// fixtures adds, to the demo catalog, one resource of the families it has none of.
func fixtures(t *testing.T, c *Client) {
	first := func(path string) string {
		t.Helper()
		items := Want(t, c.Get(path), 200).Items()
		if len(items) == 0 {
			t.Fatalf("%s: no item in the demo catalog", path)
		}
		return Str(items[0], "uuid")
	}
	// A subscription to attribute.created, before the attribute below: it gets a delivery.
	sub := Str(Want(t, c.Post("/v1/webhook-subscriptions", Body("displayName", "fx", "targetUrl", "http://127.0.0.1:9/hook")), 201).Obj(), "uuid")
	et := Str(Want(t, c.Get("/v1/webhook-event-types"+Q("names[eq]", "attribute.created")), 200).Items()[0], "uuid")
	Want(t, c.Post("/v1/webhook-subscriptions/"+sub+"/event-types", Body("webhookEventTypeUuid", et)), 201)
	asset, coll := first("/v1/assets"), first("/v1/collections")
	Want(t, c.Post("/v1/assets/"+asset+"/collections", Body("collectionUuid", coll)), 201)
	attr := Str(Want(t, c.Post("/v1/attributes", Body("code", "fx_"+RandomHex(3))), 201).Obj(), "uuid")
	term := Str(Want(t, c.Post("/v1/attributes/"+attr+"/terms", Body("code", "t1")), 201).Obj(), "uuid")
	Want(t, c.Post("/v1/attributes/"+attr+"/terms/"+term+"/contents", Body("localeUuid", first("/v1/locales"), "displayName", "T")), 201)
	p := Str(Want(t, c.Post("/v1/products", Body("code", "FX"+RandomHex(3), "kind", "simple")), 201).Obj(), "uuid")
	pa := Str(Want(t, c.Post("/v1/products/"+p+"/attributes", Body("attributeUuid", attr)), 201).Obj(), "uuid")
	Want(t, c.Post("/v1/products/"+p+"/attributes/"+pa+"/terms", Body("termUuid", term)), 201)
	ch := Str(Want(t, c.Post("/v1/channels", Body("code", "fx_"+RandomHex(3), "localeUuids", []string{})), 201).Obj(), "uuid")
	pub := Str(Want(t, c.Post("/v1/products/"+p+"/publications", Body("channelUuid", ch)), 201).Obj(), "uuid")
	Want(t, c.Post("/v1/products/"+p+"/publications/"+pub+"/schedules", Body("transition", "publish", "scheduledAt", "2099-01-01T00:00:00Z")), 201)
	// An uploaded file: its GET carries a signed download URL, new at every read, which is no part
	// of its tag.
	data := []byte("%PDF-1.4\n% etag\n")
	files := "/v1/assets/" + asset + "/files"
	up := Want(t, c.Post(files+"/actions/initiate-upload", Body("kind", "original", "fileName", "doc.pdf",
		"contentType", "application/pdf", "sizeBytes", len(data))), 201).Obj()
	req, err := http.NewRequest(Str(up, "uploadMethod"), Str(up, "uploadUrl"), bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range up["uploadHeaders"].(map[string]any) {
		req.Header.Set(k, v.(string))
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("upload: %v %v", res, err)
	}
	res.Body.Close()
	Want(t, c.Patch(files+"/"+Str(up["file"].(map[string]any), "uuid")+"/actions/complete-upload", nil), 200)
	// A finished import with a failed line, and a finished export (its GET's signed download URL
	// is no part of its tag either).
	imp := Want(t, c.Post("/v1/imports", Body("format", "ndjson", "content", []byte(`{"type":"planet","code":"mars"}`+"\n"))), 201).Obj()
	exp := Want(t, c.Post("/v1/exports", Body("format", "ndjson", "types", []string{"locale"})), 201).Obj()
	for _, job := range []string{"/v1/imports/" + Str(imp["import"].(map[string]any), "uuid"), "/v1/exports/" + Str(exp, "uuid")} {
		WaitFor(t, 60*time.Second, job+" to finish", func() bool {
			st := Want(t, c.Get(job), 200).Obj()["status"]
			return st == "completed" || st == "failed"
		})
	}
}
