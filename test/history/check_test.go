package history

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"testing"

	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	. "github.com/catalogd/catalogd/server/apptest"
)

// decode is JSON with numbers kept as their literals (a decimal compares exactly).
func decode(t testing.TB, raw []byte, v any) {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if err := d.Decode(v); err != nil {
		t.Fatalf("decode %.300s: %v", raw, err)
	}
}

func same(a, b any) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}

// entry is a history entry as the API answers it.
type entry struct {
	UUID         string   `json:"uuid"`
	CreatedAt    string   `json:"createdAt"`
	ResourceType string   `json:"resourceType"`
	ResourceUUID string   `json:"resourceUuid"`
	ParentUUIDs  []string `json:"parentUuids"`
	Action       string   `json:"action"`
	Actor        struct {
		Subject    string  `json:"subject"`
		ClientID   *string `json:"clientId"`
		ImportUUID *string `json:"importUuid"`
	} `json:"actor"`
	Changes []struct {
		Field  string `json:"field"`
		Before any    `json:"before"`
		After  any    `json:"after"`
	} `json:"changes"`
	RequestID *string `json:"requestId"`
}

func (e entry) change(field string) (before, after any, ok bool) {
	for _, c := range e.Changes {
		if c.Field == field {
			return c.Before, c.After, true
		}
	}
	return nil, nil, false
}

// history lists the entries of path (GET /v1/history or a product's) with the query's parameters,
// every page by cursor.
func history(t testing.TB, c *Client, path string, kv ...string) []entry {
	t.Helper()
	var out []entry
	q := append([]string{"size", "100"}, kv...)
	for {
		r := Want(t, c.Get(path+Q(q...)), 200)
		var page struct {
			Items      []entry `json:"items"`
			Pagination struct {
				NextCursor string `json:"nextCursor"`
			} `json:"pagination"`
		}
		decode(t, r.Raw, &page)
		out = append(out, page.Items...)
		if page.Pagination.NextCursor == "" {
			return out
		}
		q = append(append([]string{"size", "100"}, kv...), "cursor", page.Pagination.NextCursor)
	}
}

// getRoutes maps the path parameters of every GET of one resource (camelCase, sorted, joined by
// ",") onto its path template, from the registered services.
func getRoutes() map[string]string {
	out := map[string]string{}
	protoregistry.GlobalFiles.RangeFilesByPackage("catalog.v1", func(fd protoreflect.FileDescriptor) bool {
		for i := 0; i < fd.Services().Len(); i++ {
			sd := fd.Services().Get(i)
			for j := 0; j < sd.Methods().Len(); j++ {
				rule, _ := proto.GetExtension(sd.Methods().Get(j).Options(), annotations.E_Http).(*annotations.HttpRule)
				p := rule.GetGet()
				if p == "" || !strings.HasSuffix(p, "}") {
					continue
				}
				var params []string
				for _, s := range strings.Split(p, "/") {
					if strings.HasPrefix(s, "{") {
						params = append(params, camel(strings.Trim(s, "{}")))
					}
				}
				sort.Strings(params)
				out[strings.Join(params, ",")] = p
			}
		}
		return true
	})
	return out
}

func camel(s string) string {
	parts := strings.Split(s, "_")
	for i := 1; i < len(parts); i++ {
		parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
	}
	return strings.Join(parts, "")
}

// getPath is the GET of the resource an event's payload names.
func getPath(t testing.TB, routes map[string]string, payload map[string]string) string {
	keys := make([]string, 0, len(payload))
	for k := range payload {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	p, ok := routes[strings.Join(keys, ",")]
	if !ok {
		t.Fatalf("no GET route with path parameters %v", keys)
	}
	for k, v := range payload {
		p = strings.Replace(p, "{"+snake(k)+"}", url.PathEscape(v), 1)
	}
	return p
}

func snake(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'A' && r <= 'Z' {
			b.WriteByte('_')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// stamped are the fields a history entry leaves out of its changes.
var stamped = map[string]bool{"uuid": true, "createdAt": true, "updatedAt": true, "etag": true}

// checkTrail checks the tenant's whole trail against its events and its resources' current state
// (see the package comment). It returns the entries, oldest first.
func checkTrail(t *testing.T, c *Client, tenant string) []entry {
	t.Helper()
	type event struct {
		typ     string
		payload map[string]string
	}
	rows, err := pool.Query(context.Background(), `SELECT type, payload FROM events WHERE tenant_id = $1 ORDER BY tx, uuid`, tenant)
	if err != nil {
		t.Fatal(err)
	}
	var evs []event
	for rows.Next() {
		var e event
		if err := rows.Scan(&e.typ, &e.payload); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(e.typ, "import.") && !strings.HasPrefix(e.typ, "export.") {
			evs = append(evs, e)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	all := history(t, c, "/v1/history", "createdAt[order]", "asc")

	// One entry per event: same action, same resource and parents.
	key := func(verb string, ids []string) string {
		ids = append([]string(nil), ids...)
		sort.Strings(ids)
		return verb + " " + strings.Join(ids, ",")
	}
	want := map[string]int{}
	last := map[string]map[string]string{} // resource uuid → the payload of its events
	byIDs := map[string]map[string]string{}
	for _, e := range evs {
		verb := e.typ[strings.LastIndexByte(e.typ, '.')+1:]
		var ids []string
		for _, v := range e.payload {
			ids = append(ids, v)
		}
		want[key(verb, ids)]++
	}
	for _, h := range all {
		k := key(h.Action, append(append([]string(nil), h.ParentUUIDs...), h.ResourceUUID))
		if want[k] == 0 {
			t.Errorf("history entry %s %s %s has no event", h.ResourceType, h.Action, h.ResourceUUID)
			continue
		}
		want[k]--
	}
	for k, n := range want {
		if n > 0 {
			t.Errorf("%d event(s) %s without a history entry", n, k)
		}
	}
	for _, e := range evs {
		var ids []string
		for _, v := range e.payload {
			ids = append(ids, v)
		}
		byIDs[key("", ids)] = e.payload
	}
	for _, h := range all {
		last[h.ResourceUUID] = byIDs[key("", append(append([]string(nil), h.ParentUUIDs...), h.ResourceUUID))]
	}

	// Each resource's chain: every before is the previous after.
	states := map[string]map[string]any{}
	gone := map[string]bool{}
	for _, h := range all {
		st := states[h.ResourceUUID]
		if st == nil {
			st = map[string]any{}
			states[h.ResourceUUID] = st
		}
		for _, ch := range h.Changes {
			if stamped[ch.Field] {
				t.Errorf("%s %s %s: stamped field %s recorded", h.ResourceType, h.Action, h.ResourceUUID, ch.Field)
			}
			if v, seen := st[ch.Field]; seen && h.Action != "created" && h.Action != "linked" && !same(v, ch.Before) {
				t.Errorf("%s %s %s: %s before %v, but the previous entry left %v", h.ResourceType, h.Action, h.ResourceUUID, ch.Field, ch.Before, v)
			}
			st[ch.Field] = ch.After
		}
		gone[h.ResourceUUID] = h.Action == "deleted" || h.Action == "unlinked"
		if !gone[h.ResourceUUID] && len(h.Changes) == 0 {
			t.Errorf("%s %s %s: an entry without changes", h.ResourceType, h.Action, h.ResourceUUID)
		}
	}

	// The replayed state is what GET answers now.
	routes := getRoutes()
	for id, st := range states {
		if gone[id] {
			continue
		}
		p := last[id]
		if p == nil {
			continue // reported above
		}
		var cur map[string]any
		decode(t, Want(t, c.Get(getPath(t, routes, p)), 200).Raw, &cur)
		for f, v := range cur {
			if stamped[f] || v == nil {
				continue
			}
			if got, ok := st[f]; !ok {
				t.Errorf("resource %s: field %s = %v never recorded", id, f, v)
			} else if !same(got, v) {
				t.Errorf("resource %s: history says %s = %v, GET answers %v", id, f, got, v)
			}
		}
	}
	return all
}

func find(es []entry, typ, action, id string) entry {
	for _, e := range es {
		if e.ResourceType == typ && e.Action == action && e.ResourceUUID == id {
			return e
		}
	}
	panic(fmt.Sprintf("no %s %s of %s", typ, action, id))
}
