package history

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	. "github.com/catalogd/catalogd/server/apptest"
	"github.com/catalogd/catalogd/server/catalog"
)

// TestImportLinesNameTheImport: an import's lines record entries whose actor is the import's
// creator with the import's uuid; the trail stays whole.
func TestImportLinesNameTheImport(t *testing.T) {
	c, tenant := env.TenantClient(t)
	file := `{"type":"category","code":"shoes"}
{"type":"brand","code":"acme","displayName":"ACME"}
{"type":"product","code":"BOOT-1","kind":"simple","brand":"acme","categories":["shoes"]}
{"type":"brand","code":"acme","displayName":"Acme"}
`
	req, _ := http.NewRequest("POST", env.BaseURL+"/v1/imports", bytes.NewReader([]byte(file)))
	req.Header.Set("Authorization", "Bearer "+c.Token)
	req.Header.Set("Content-Type", "application/x-ndjson")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var imp map[string]any
	_ = json.NewDecoder(res.Body).Decode(&imp)
	res.Body.Close()
	if res.StatusCode != 201 {
		t.Fatalf("import: %d %v", res.StatusCode, imp)
	}
	id := Str(imp, "uuid")
	WaitFor(t, 60*time.Second, "the import", func() bool {
		return Str(Want(t, c.Get("/v1/imports/"+id), 200).Obj(), "status") == "completed"
	})
	all := checkTrail(t, c, tenant)
	if len(all) < 5 { // category, brand, product, its category link, the brand's update
		t.Fatalf("%d entries after the import", len(all))
	}
	for _, e := range all {
		if e.Actor.Subject != "tester" || e.Actor.ImportUUID == nil || *e.Actor.ImportUUID != id {
			t.Errorf("%s %s: actor %+v, want tester with import %s", e.ResourceType, e.Action, e.Actor, id)
		}
	}
	var brand entry
	for _, e := range all {
		if e.ResourceType == "brand" && e.Action == "updated" {
			brand = e
		}
	}
	if b, a, _ := brand.change("displayName"); !same(b, "ACME") || !same(a, "Acme") {
		t.Errorf("brand's second line: displayName %v → %v", b, a)
	}
}

// TestSchedulerIsSystem: a schedule's run records the publication's move and the schedule's
// execution as {"subject": "system"}, without a request id.
func TestSchedulerIsSystem(t *testing.T) {
	c, tenant := env.TenantClient(t)
	p := uuidOf(t, Want(t, c.Post("/v1/products", Body("code", "P-1", "kind", "simple")), 201))
	Want(t, c.Patch("/v1/products/"+p+"/actions/lifecycle", Body("transition", "activate")), 200)
	web := uuidOf(t, Want(t, c.Post("/v1/channels", Body("code", "web")), 201))
	pub := uuidOf(t, Want(t, c.Post("/v1/products/"+p+"/publications", Body("channelUuid", web)), 201))
	at := time.Now().UTC().Add(24 * time.Hour).Truncate(time.Second)
	s := uuidOf(t, Want(t, c.Post("/v1/products/"+p+"/publications/"+pub+"/schedules", Body("transition", "publish", "scheduledAt", at.Format(time.RFC3339))), 201))
	if _, err := catalog.RunDueSchedules(context.Background(), env.Server.DB, at.Add(time.Minute), 100); err != nil {
		t.Fatal(err)
	}
	all := checkTrail(t, c, tenant)
	for _, w := range []struct{ typ, action, id string }{{"product.publication", "published", pub}, {"product.publication.schedule", "executed", s}} {
		e := find(all, w.typ, w.action, w.id)
		if e.Actor.Subject != "system" || e.Actor.ClientID != nil || e.RequestID != nil {
			t.Errorf("%s %s: actor %+v, requestId %v", w.typ, w.action, e.Actor, e.RequestID)
		}
	}
	if b, a, _ := find(all, "product.publication", "published", pub).change("status"); !same(b, "unpublished") && !same(b, "draft") || !same(a, "published") {
		t.Errorf("publication status %v → %v", b, a)
	}
	// The product's history holds its publication's schedule (two levels down).
	if es := history(t, c, "/v1/products/"+p+"/history", "resourceTypes[eq]", "product.publication.schedule"); len(es) != 2 {
		t.Errorf("product history: %d schedule entries, want created and executed", len(es))
	}
}

// TestWebhookSubscriptions: their writes record entries too; a rotated secret is named without
// its value, and a no-op update records nothing and keeps updatedAt.
func TestWebhookSubscriptions(t *testing.T) {
	c, _ := env.TenantClient(t)
	sub := Want(t, c.Post("/v1/webhook-subscriptions", Body("displayName", "erp", "targetUrl", "https://erp.example.com/hooks")), 201).Obj()
	id, secret := Str(sub, "uuid"), Str(sub, "secret")
	same1 := Want(t, c.Patch("/v1/webhook-subscriptions/"+id, Body("displayName", "erp")), 200).Obj()
	if Str(same1, "updatedAt") != Str(sub, "updatedAt") {
		t.Errorf("a no-op update changed updatedAt")
	}
	Want(t, c.Patch("/v1/webhook-subscriptions/"+id, Body("displayName", "ERP")), 200)
	rotated := Want(t, c.Patch("/v1/webhook-subscriptions/"+id+"/actions/rotate-secret", Body()), 200).Obj()
	Want(t, c.Patch("/v1/webhook-subscriptions/"+id+"/actions/lifecycle", Body("transition", "deactivate")), 200)
	Want(t, c.Delete("/v1/webhook-subscriptions/"+id), 204)
	es := history(t, c, "/v1/history", "resourceUuids[eq]", id, "createdAt[order]", "asc")
	var actions []string
	for _, e := range es {
		actions = append(actions, e.Action)
	}
	if got := strings.Join(actions, ","); got != "created,updated,updated,deactivated,deleted" {
		t.Fatalf("subscription entries %s", got)
	}
	if b, a, _ := es[1].change("displayName"); !same(b, "erp") || !same(a, "ERP") || len(es[1].Changes) != 1 {
		t.Errorf("update: %+v", es[1].Changes)
	}
	if len(es[2].Changes) != 1 || es[2].Changes[0].Field != "secret" || es[2].Changes[0].Before != nil || es[2].Changes[0].After != nil {
		t.Errorf("rotation: %+v", es[2].Changes)
	}
	raw := Want(t, c.Get("/v1/history"), 200).Raw
	for _, s := range []string{secret, Str(rotated, "secret")} {
		if s == "" || bytes.Contains(raw, []byte(s)) {
			t.Errorf("a secret (%q) shows in the history", s)
		}
	}
}
