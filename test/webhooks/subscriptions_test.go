package webhooks

import (
	"bytes"
	"context"
	"encoding/base64"
	"strings"
	"testing"
	"time"

	. "github.com/catalogd/catalogd/server/apptest"
)

// wantSecret checks the shape of a whsec_ secret and returns its key bytes.
func wantSecret(t *testing.T, what string, v any) []byte {
	t.Helper()
	s, _ := v.(string)
	if !secretRe.MatchString(s) {
		t.Fatalf("%s: secret %v is not whsec_<base64>", what, v)
	}
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(s, "whsec_"))
	if err != nil || len(key) != 32 {
		t.Fatalf("%s: secret is not whsec_ + base64 of 32 bytes (%d bytes, %v)", what, len(key), err)
	}
	return key
}

// wantSubscription checks the shape of a subscription response (secret null unless withSecret).
func wantSubscription(t *testing.T, what string, s map[string]any, withSecret bool) {
	t.Helper()
	WantKeys(t, what, s, subscriptionKeys...)
	if !UUIDRe.MatchString(Str(s, "uuid")) {
		t.Errorf("%s: uuid %v", what, s["uuid"])
	}
	wantTimestamp(t, what+" createdAt", s["createdAt"])
	wantTimestamp(t, what+" updatedAt", s["updatedAt"])
	if withSecret {
		wantSecret(t, what, s["secret"])
	} else if s["secret"] != nil {
		t.Errorf("%s: secret %v, want null (only create and rotate-secret return it)", what, s["secret"])
	}
}

func TestSubscriptionCreateGetListUpdate(t *testing.T) {
	t.Parallel()
	s := mainSite()
	c, _ := s.tenantClient(t)
	rc := newReceiver(t, nil)

	Want(t, c.Get(subs), 200)
	if p := c.Get(subs).Obj()["pagination"].(map[string]any); num(p, "totalItems") != 0 {
		t.Errorf("fresh tenant lists %v subscriptions", p)
	}
	r := Want(t, c.Post(subs, map[string]any{"displayName": "Orders", "targetUrl": rc.URL}), 201)
	sub := r.Obj()
	id := Str(sub, "uuid")
	wantSubscription(t, "create", sub, true)
	if Str(sub, "status") != "active" || num(sub, "requestTimeoutMs") != 15000 || Str(sub, "displayName") != "Orders" ||
		Str(sub, "targetUrl") != rc.URL || num(sub, "consecutiveFailures") != 0 || sub["suspendedAt"] != nil {
		t.Errorf("create response %v: want active, requestTimeoutMs 15000, consecutiveFailures 0, suspendedAt null", sub)
	}
	if loc := r.Header.Get("Location"); !strings.HasSuffix(loc, subs+"/"+id) {
		t.Errorf("Location %q", loc)
	}
	secret := Str(sub, "secret")

	// Secret at rest: sealed, never the plaintext, the base64 part or the key bytes.
	var sealed []byte
	if err := s.pool.QueryRow(context.Background(), `SELECT secret_sealed FROM webhook_subscriptions WHERE uuid = $1`, id).Scan(&sealed); err != nil {
		t.Fatal(err)
	}
	key := wantSecret(t, "create", secret)
	for _, leak := range [][]byte{[]byte(secret), []byte(strings.TrimPrefix(secret, "whsec_")), key, key[:16], key[16:]} {
		if bytes.Contains(sealed, leak) {
			t.Errorf("webhook_subscriptions.secret_sealed contains the secret in plaintext")
		}
	}
	if len(sealed) < 12+16+len(secret) {
		t.Errorf("secret_sealed has %d bytes: too short for nonce + ciphertext + tag", len(sealed))
	}

	got := getSub(t, c, id)
	wantSubscription(t, "get", got, false)
	items := Want(t, c.Get(subs), 200).Items()
	if len(items) != 1 || Str(items[0], "uuid") != id {
		t.Fatalf("list: %v", items)
	}
	wantSubscription(t, "list item", items[0], false)

	// Explicit request time-outs: bounds 1000 and 30000 are accepted, outside is 400.
	for _, ms := range []int{1000, 30000} {
		x := Want(t, c.Post(subs, map[string]any{"displayName": "t", "targetUrl": rc.URL, "requestTimeoutMs": ms}), 201).Obj()
		if num(x, "requestTimeoutMs") != ms {
			t.Errorf("requestTimeoutMs %d created as %v", ms, x["requestTimeoutMs"])
		}
	}
	for _, ms := range []int{999, 30001, 0, -1} {
		WantProblem(t, c.Post(subs, map[string]any{"displayName": "t", "targetUrl": rc.URL, "requestTimeoutMs": ms}), 400, "VALIDATION_FAILED", "requestTimeoutMs")
		WantProblem(t, c.Patch(subs+"/"+id, map[string]any{"requestTimeoutMs": ms}), 400, "VALIDATION_FAILED", "requestTimeoutMs")
	}
	// Create validation.
	WantProblem(t, c.Post(subs, map[string]any{"targetUrl": rc.URL}), 400, "VALIDATION_FAILED", "displayName")
	WantProblem(t, c.Post(subs, map[string]any{"displayName": strings.Repeat("x", 101), "targetUrl": rc.URL}), 400, "VALIDATION_FAILED", "displayName")
	WantProblem(t, c.Post(subs, map[string]any{"displayName": "x"}), 400, "VALIDATION_FAILED", "targetUrl")
	WantProblem(t, c.Post(subs, map[string]any{"displayName": "x", "targetUrl": rc.URL, "secret": "whsec_AAAA"}), 400, "MALFORMED_REQUEST")

	// Update: displayName, targetUrl, requestTimeoutMs; only the fields present change.
	time.Sleep(2 * time.Millisecond) // updatedAt has microseconds: make sure it can move
	rc2 := newReceiver(t, nil)
	up := Want(t, c.Patch(subs+"/"+id, map[string]any{"displayName": "Orders v2"}), 200).Obj()
	wantSubscription(t, "update", up, false)
	if Str(up, "displayName") != "Orders v2" || Str(up, "targetUrl") != rc.URL || num(up, "requestTimeoutMs") != 15000 {
		t.Errorf("update displayName: %v", up)
	}
	if !TS(t, up["updatedAt"]).After(TS(t, sub["updatedAt"])) || up["createdAt"] != sub["createdAt"] {
		t.Errorf("update: updatedAt %v (was %v), createdAt %v (was %v)", up["updatedAt"], sub["updatedAt"], up["createdAt"], sub["createdAt"])
	}
	up = Want(t, c.Patch(subs+"/"+id, map[string]any{"targetUrl": rc2.URL, "requestTimeoutMs": 2500}), 200).Obj()
	if Str(up, "displayName") != "Orders v2" || Str(up, "targetUrl") != rc2.URL || num(up, "requestTimeoutMs") != 2500 {
		t.Errorf("update targetUrl+requestTimeoutMs: %v", up)
	}
	if g := getSub(t, c, id); Str(g, "targetUrl") != rc2.URL || num(g, "requestTimeoutMs") != 2500 || Str(g, "displayName") != "Orders v2" {
		t.Errorf("get after update: %v", g)
	}
	WantProblem(t, c.Patch(subs+"/"+id, map[string]any{"displayName": ""}), 400, "VALIDATION_FAILED", "displayName")
	WantProblem(t, c.Patch(subs+"/"+id, map[string]any{"targetUrl": "ftp://example.com/"}), 400, "VALIDATION_FAILED", "targetUrl")
	WantProblem(t, c.Patch(subs+"/"+id, map[string]any{"status": "inactive"}), 400, "MALFORMED_REQUEST")
	WantProblem(t, c.Patch(subs+"/"+RandomUUID(), map[string]any{"displayName": "x"}), 404, "NOT_FOUND")
	WantProblem(t, c.Get(subs+"/"+RandomUUID()), 404, "NOT_FOUND")
	WantProblem(t, c.Get(subs+"/not-a-uuid"), 400, "VALIDATION_FAILED")

	// List filters.
	if items := Want(t, c.Get(subs+Q("displayName[contains]", "ORDERS")), 200).Items(); len(items) != 1 || Str(items[0], "uuid") != id {
		t.Errorf("displayName[contains]=ORDERS: %v", items)
	}
	if p := Want(t, c.Get(subs), 200).Obj()["pagination"].(map[string]any); num(p, "totalItems") != 3 {
		t.Errorf("list pagination %v, want 3 subscriptions", p)
	}
}

func TestSubscriptionDeleteRemovesDeliveries(t *testing.T) {
	t.Parallel()
	s := mainSite()
	c, _ := s.tenantClient(t)
	rc := newReceiver(t, nil)
	id, _ := newSub(t, c, rc.URL, "attribute.created")
	mkAttr(t, c, "a")
	d := onlyDelivery(t, c, id)
	waitDelivery(t, c, id, d, "delivered", isStatus("delivered"))
	if n := s.count(t, `SELECT count(*) FROM webhook_delivery_attempts WHERE delivery_uuid = $1`, d); n != 1 {
		t.Fatalf("%d attempt rows before delete", n)
	}

	r := Want(t, c.Delete(subs+"/"+id), 204)
	if len(r.Raw) != 0 {
		t.Errorf("DELETE body %q, want none", r.Raw)
	}
	WantProblem(t, c.Get(subs+"/"+id), 404, "NOT_FOUND")
	WantProblem(t, c.Get(subs+"/"+id+"/deliveries"), 404, "NOT_FOUND")
	WantProblem(t, c.Delete(subs+"/"+id), 404, "NOT_FOUND")
	if n := s.deliveryRows(t, id); n != 0 {
		t.Errorf("%d delivery rows left after deleting the subscription", n)
	}
	if n := s.count(t, `SELECT count(*) FROM webhook_delivery_attempts WHERE delivery_uuid = $1`, d); n != 0 {
		t.Errorf("%d attempt rows left after deleting the subscription", n)
	}
	if n := s.count(t, `SELECT count(*) FROM webhook_subscription_event_types WHERE subscription_uuid = $1`, id); n != 0 {
		t.Errorf("%d event type rows left after deleting the subscription", n)
	}
}

func TestSubscriptionLifecycle(t *testing.T) {
	t.Parallel()
	c, _ := mainSite().tenantClient(t)
	rc := newReceiver(t, nil)
	id, _ := newSub(t, c, rc.URL)

	// Same state: a no-op success.
	before := getSub(t, c, id)
	same := Want(t, lifecycle(c, id, "activate"), 200).Obj()
	wantSubscription(t, "activate on active", same, false)
	if Str(same, "status") != "active" || same["updatedAt"] != before["updatedAt"] {
		t.Errorf("activate on an active subscription: %v (before %v)", same, before)
	}
	off := Want(t, lifecycle(c, id, "deactivate"), 200).Obj()
	wantSubscription(t, "deactivate", off, false)
	if Str(off, "status") != "inactive" || off["suspendedAt"] != nil {
		t.Errorf("deactivate: %v", off)
	}
	if g := getSub(t, c, id); Str(g, "status") != "inactive" {
		t.Errorf("get after deactivate: %v", g)
	}
	again := Want(t, lifecycle(c, id, "deactivate"), 200).Obj()
	if Str(again, "status") != "inactive" || again["updatedAt"] != off["updatedAt"] {
		t.Errorf("deactivate on an inactive subscription: %v (before %v)", again, off)
	}
	on := Want(t, lifecycle(c, id, "activate"), 200).Obj()
	if Str(on, "status") != "active" || num(on, "consecutiveFailures") != 0 {
		t.Errorf("activate: %v", on)
	}
	// Missing or unknown transitions.
	WantProblem(t, c.Patch(subs+"/"+id+"/actions/lifecycle", map[string]any{}), 400, "VALIDATION_FAILED", "transition")
	if r := lifecycle(c, id, "publish"); r.Status != 400 {
		t.Errorf("transition publish: status %d, want 400: %s", r.Status, r.Raw)
	}
	if r := lifecycle(c, id, "suspend"); r.Status != 400 {
		t.Errorf("transition suspend (system only): status %d, want 400: %s", r.Status, r.Raw)
	}
	WantProblem(t, lifecycle(c, RandomUUID(), "deactivate"), 404, "NOT_FOUND")
	if g := getSub(t, c, id); Str(g, "status") != "active" {
		t.Errorf("refused transitions changed the status: %v", g)
	}
}

func TestSubscriptionRotateSecret(t *testing.T) {
	t.Parallel()
	s := mainSite()
	c, _ := s.tenantClient(t)
	rc := newReceiver(t, nil)
	created := createSub(t, c, rc.URL, nil)
	id, old := Str(created, "uuid"), Str(created, "secret")
	var sealedBefore []byte
	if err := s.pool.QueryRow(context.Background(), `SELECT secret_sealed FROM webhook_subscriptions WHERE uuid = $1`, id).Scan(&sealedBefore); err != nil {
		t.Fatal(err)
	}
	r := Want(t, c.Patch(subs+"/"+id+"/actions/rotate-secret", nil), 200).Obj()
	wantSubscription(t, "rotate-secret", r, true)
	if Str(r, "secret") == old {
		t.Errorf("rotate-secret returned the old secret")
	}
	if Str(r, "uuid") != id || Str(r, "status") != "active" {
		t.Errorf("rotate-secret response: %v", r)
	}
	r2 := Want(t, c.Patch(subs+"/"+id+"/actions/rotate-secret", nil), 200).Obj()
	if Str(r2, "secret") == Str(r, "secret") || Str(r2, "secret") == old {
		t.Errorf("second rotation repeated a secret")
	}
	if g := getSub(t, c, id); g["secret"] != nil {
		t.Errorf("GET after rotation returns the secret")
	}
	var sealed []byte
	if err := s.pool.QueryRow(context.Background(), `SELECT secret_sealed FROM webhook_subscriptions WHERE uuid = $1`, id).Scan(&sealed); err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(sealed, sealedBefore) || bytes.Contains(sealed, []byte(Str(r2, "secret"))) {
		t.Errorf("secret_sealed unchanged by rotation, or holds the plaintext")
	}
	WantProblem(t, c.Patch(subs+"/"+RandomUUID()+"/actions/rotate-secret", nil), 404, "NOT_FOUND")
}

func TestSubscriptionEventTypes(t *testing.T) {
	t.Parallel()
	c, _ := mainSite().tenantClient(t)
	rc := newReceiver(t, nil)
	id, _ := newSub(t, c, rc.URL)
	path := subs + "/" + id + "/event-types"

	r := Want(t, c.Get(path), 200)
	if len(r.Items()) != 0 || num(r.Obj()["pagination"].(map[string]any), "totalItems") != 0 {
		t.Errorf("a new subscription lists event types: %s", r.Raw)
	}
	created := eventTypeUUID(t, c, "attribute.created")
	removed := eventTypeUUID(t, c, "attribute.removed")
	cr := Want(t, c.Post(path, map[string]any{"webhookEventTypeUuid": created}), 201)
	item := cr.Obj()
	WantKeys(t, "subscribe", item, subEventKeys...)
	if Str(item, "uuid") != created || Str(item, "webhookEventTypeUuid") != created || Str(item, "webhookSubscriptionUuid") != id ||
		Str(item, "name") != "attribute.created" {
		t.Errorf("subscribe response %v", item)
	}
	wantTimestamp(t, "subscribe createdAt", item["createdAt"])
	Want(t, c.Post(path, map[string]any{"webhookEventTypeUuid": removed}), 201)

	// A second time: 409; an unknown event type: 404; a malformed uuid: 400.
	WantProblem(t, c.Post(path, map[string]any{"webhookEventTypeUuid": created}), 409, "ALREADY_EXISTS", "webhookEventTypeUuid")
	WantProblem(t, c.Post(path, map[string]any{"webhookEventTypeUuid": RandomUUID()}), 404, "NOT_FOUND")
	WantProblem(t, c.Post(path, map[string]any{"webhookEventTypeUuid": "attribute.created"}), 400, "VALIDATION_FAILED", "webhookEventTypeUuid")
	WantProblem(t, c.Post(path, map[string]any{}), 400, "VALIDATION_FAILED", "webhookEventTypeUuid")
	WantProblem(t, c.Post(subs+"/"+RandomUUID()+"/event-types", map[string]any{"webhookEventTypeUuid": created}), 404, "NOT_FOUND")

	items := Want(t, c.Get(path+Q("name[order]", "asc")), 200).Items()
	if len(items) != 2 || Str(items[0], "name") != "attribute.created" || Str(items[1], "name") != "attribute.removed" {
		t.Fatalf("event types of the subscription: %v", items)
	}
	for _, it := range items {
		WantKeys(t, "listed event type", it, subEventKeys...)
	}
	if items := Want(t, c.Get(path+Q("names[eq]", "attribute.removed")), 200).Items(); len(items) != 1 || Str(items[0], "uuid") != removed {
		t.Errorf("names[eq]=attribute.removed: %v", items)
	}

	// Unsubscribe: 204, then 404; the other stays.
	d := Want(t, c.Delete(path+"/"+removed), 204)
	if len(d.Raw) != 0 {
		t.Errorf("DELETE body %q", d.Raw)
	}
	WantProblem(t, c.Delete(path+"/"+removed), 404, "NOT_FOUND")
	WantProblem(t, c.Delete(path+"/"+RandomUUID()), 404, "NOT_FOUND")
	WantProblem(t, c.Delete(path+"/nope"), 400, "VALIDATION_FAILED")
	if items := Want(t, c.Get(path), 200).Items(); len(items) != 1 || Str(items[0], "uuid") != created {
		t.Errorf("after unsubscribing: %v", items)
	}
	// Subscribing again after unsubscribing works.
	Want(t, c.Post(path, map[string]any{"webhookEventTypeUuid": removed}), 201)
}

func TestDeliveriesAttemptsRedeliver(t *testing.T) {
	t.Parallel()
	s := mainSite()
	c, _ := s.tenantClient(t)
	rc := newReceiver(t, nil)
	id, secret := newSub(t, c, rc.URL, "attribute.created", "attribute.updated")
	a := mkAttr(t, c, "size")
	Want(t, c.Patch("/v1/attributes/"+a, map[string]any{"displayName": "Size"}), 200)

	var ds []map[string]any
	WaitFor(t, 15*time.Second, "two delivered deliveries", func() bool {
		ds = deliveries(t, c, id)
		return len(ds) == 2 && Str(ds[0], "status") == "delivered" && Str(ds[1], "status") == "delivered"
	})
	for _, d := range ds {
		WantKeys(t, "delivery", d, deliveryKeys...)
		if Str(d, "subscriptionUuid") != id || !UUIDRe.MatchString(Str(d, "eventUuid")) {
			t.Errorf("delivery %v", d)
		}
	}
	// Filters of the delivery list.
	upd := Want(t, c.Get(subs+"/"+id+"/deliveries"+Q("eventTypes[eq]", "attribute.updated")), 200).Items()
	if len(upd) != 1 || Str(upd[0], "eventType") != "attribute.updated" {
		t.Fatalf("eventTypes[eq]=attribute.updated: %v", upd)
	}
	if n := len(Want(t, c.Get(subs+"/"+id+"/deliveries"+Q("statuses[eq]", "pending")), 200).Items()); n != 0 {
		t.Errorf("statuses[eq]=pending lists %d", n)
	}
	if r := c.Get(subs + "/" + id + "/deliveries" + Q("statuses[eq]", "sent")); r.Status != 400 {
		t.Errorf("statuses[eq]=sent: status %d, want 400: %s", r.Status, r.Raw)
	}
	did := Str(upd[0], "uuid")
	got := getDelivery(t, c, id, did)
	if got["payload"].(map[string]any)["attributeUuid"] != a || num(got, "attempts") != 1 {
		t.Errorf("get delivery: %v", got)
	}
	WantProblem(t, c.Get(subs+"/"+id+"/deliveries/"+RandomUUID()), 404, "NOT_FOUND")
	WantProblem(t, c.Get(subs+"/"+id+"/deliveries/"+RandomUUID()+"/attempts"), 404, "NOT_FOUND")
	WantProblem(t, c.Get(subs+"/"+id+"/deliveries/xyz"), 400, "VALIDATION_FAILED")
	// A delivery of another subscription of the same tenant is not found under this one.
	other, _ := newSub(t, c, rc.URL)
	WantProblem(t, c.Get(subs+"/"+other+"/deliveries/"+did), 404, "NOT_FOUND")
	atts := attempts(t, c, id, did)
	if len(atts) != 1 {
		t.Fatalf("attempts: %v", atts)
	}
	WantKeys(t, "attempt", atts[0], attemptKeys...)

	// Redeliver: back to pending now, sent again with the same webhook-id, attempts keep growing.
	before := rc.count()
	red := Want(t, c.Post(subs+"/"+id+"/deliveries/"+did+"/actions/redeliver", nil), 200).Obj()
	WantKeys(t, "redeliver", red, deliveryKeys...)
	if Str(red, "uuid") != did || Str(red, "status") != "pending" || red["scheduledAt"] == nil || num(red, "attempts") != 1 {
		t.Errorf("redeliver response: %v", red)
	}
	final := waitDelivery(t, c, id, did, "delivered again", func(d map[string]any) bool {
		return Str(d, "status") == "delivered" && num(d, "attempts") == 2
	})
	if final["scheduledAt"] != nil || num(final, "lastStatusCode") != 200 {
		t.Errorf("after redelivery: %v", final)
	}
	if n := len(attempts(t, c, id, did)); n != 2 {
		t.Errorf("%d attempts after redelivery, want 2", n)
	}
	WaitFor(t, 10*time.Second, "the redelivery to arrive", func() bool { return rc.count() > before })
	hs := rc.hooks()
	var same []hook
	for _, h := range hs {
		if h.id() == did {
			same = append(same, h)
		}
	}
	if len(same) != 2 {
		t.Fatalf("receiver got %d requests with webhook-id %s, want 2 (original and redelivery)", len(same), did)
	}
	for i, h := range same {
		verify(t, "redelivery", h, secret)
		if !bytes.Equal(h.Body, same[0].Body) || h.Header.Get("X-Webhook-Event-Type") != "attribute.updated" {
			t.Errorf("request %d of the redelivered delivery: %s %v", i, h.Body, h.Header)
		}
	}

	// Redelivery needs an active subscription; an unknown delivery is 404.
	Want(t, lifecycle(c, id, "deactivate"), 200)
	prob := WantProblem(t, c.Post(subs+"/"+id+"/deliveries/"+did+"/actions/redeliver", nil), 409, "INVALID_TRANSITION")
	WantTransitionMeta(t, "redeliver on an inactive subscription", Meta(prob), "inactive", "activate")
	WantProblem(t, c.Post(subs+"/"+id+"/deliveries/"+RandomUUID()+"/actions/redeliver", nil), 404, "NOT_FOUND")
}

func TestWebhookScopes(t *testing.T) {
	t.Parallel()
	s := mainSite()
	tenant := "t-" + RandomHex(8)
	full := s.client(t, tenant)
	rc := newReceiver(t, nil)
	id, _ := newSub(t, full, rc.URL, "attribute.created")
	mkAttr(t, full, "x")
	did := onlyDelivery(t, full, id)
	et := eventTypeUUID(t, full, "attribute.created")
	body := map[string]any{"displayName": "x", "targetUrl": rc.URL}

	reader := s.client(t, tenant, "webhooks:read")
	Want(t, reader.Get(subs), 200)
	Want(t, reader.Get(subs+"/"+id), 200)
	Want(t, reader.Get(subs+"/"+id+"/event-types"), 200)
	Want(t, reader.Get(subs+"/"+id+"/deliveries"), 200)
	Want(t, reader.Get(subs+"/"+id+"/deliveries/"+did), 200)
	Want(t, reader.Get(subs+"/"+id+"/deliveries/"+did+"/attempts"), 200)
	Want(t, reader.Get("/v1/webhook-event-types"), 200)
	WantProblem(t, reader.Post(subs, body), 403, "FORBIDDEN")
	WantProblem(t, reader.Patch(subs+"/"+id, map[string]any{"displayName": "y"}), 403, "FORBIDDEN")
	WantProblem(t, reader.Delete(subs+"/"+id), 403, "FORBIDDEN")
	WantProblem(t, lifecycle(reader, id, "deactivate"), 403, "FORBIDDEN")
	WantProblem(t, reader.Patch(subs+"/"+id+"/actions/rotate-secret", nil), 403, "FORBIDDEN")
	WantProblem(t, reader.Post(subs+"/"+id+"/event-types", map[string]any{"webhookEventTypeUuid": et}), 403, "FORBIDDEN")
	WantProblem(t, reader.Delete(subs+"/"+id+"/event-types/"+et), 403, "FORBIDDEN")
	WantProblem(t, reader.Post(subs+"/"+id+"/deliveries/"+did+"/actions/redeliver", nil), 403, "FORBIDDEN")

	// A writer without webhooks:read cannot read.
	writer := s.client(t, tenant, "webhooks:write")
	WantProblem(t, writer.Get(subs), 403, "FORBIDDEN")
	Want(t, writer.Post(subs, body), 201)

	for _, scope := range []string{"catalog:read", "catalog:write"} {
		cc := s.client(t, tenant, "catalog:read", scope)
		WantProblem(t, cc.Get(subs), 403, "FORBIDDEN")
		WantProblem(t, cc.Get(subs+"/"+id), 403, "FORBIDDEN")
		WantProblem(t, cc.Post(subs, body), 403, "FORBIDDEN")
		WantProblem(t, cc.Get(subs+"/"+id+"/deliveries"), 403, "FORBIDDEN")
		WantProblem(t, cc.Patch(subs+"/"+id+"/actions/rotate-secret", nil), 403, "FORBIDDEN")
		WantProblem(t, cc.Delete(subs+"/"+id), 403, "FORBIDDEN")
		Want(t, cc.Get("/v1/webhook-event-types"), 200)
	}
	anon := s.client(t, tenant)
	anon.Token = ""
	WantProblem(t, anon.Get(subs), 401, "UNAUTHENTICATED")
	WantProblem(t, anon.Post(subs, body), 401, "UNAUTHENTICATED")
	// Nothing the refused calls tried happened.
	if g := getSub(t, full, id); Str(g, "status") != "active" || Str(g, "displayName") == "y" {
		t.Errorf("refused calls changed the subscription: %v", g)
	}
	if n := len(Want(t, full.Get(subs+"/"+id+"/event-types"), 200).Items()); n != 1 {
		t.Errorf("refused calls changed the event types: %d", n)
	}
	if p := Want(t, full.Get(subs), 200).Obj()["pagination"].(map[string]any); num(p, "totalItems") != 2 {
		t.Errorf("subscriptions after refused creates: %v, want 2 (the full one and the writer's)", p)
	}
}

func TestWebhookTenantIsolation(t *testing.T) {
	t.Parallel()
	s := mainSite()
	owner, _ := s.tenantClient(t)
	other, _ := s.tenantClient(t)
	rc := newReceiver(t, nil)
	id, _ := newSub(t, owner, rc.URL, "attribute.created")
	mkAttr(t, owner, "x")
	did := onlyDelivery(t, owner, id)
	waitDelivery(t, owner, id, did, "delivered", isStatus("delivered"))
	et := eventTypeUUID(t, owner, "attribute.created")
	p := subs + "/" + id

	for _, r := range []struct {
		name string
		resp Resp
	}{
		{"get", other.Get(p)},
		{"update", other.Patch(p, map[string]any{"displayName": "mine"})},
		{"lifecycle", lifecycle(other, id, "deactivate")},
		{"rotate-secret", other.Patch(p+"/actions/rotate-secret", nil)},
		{"list event types", other.Get(p + "/event-types")},
		{"subscribe", other.Post(p+"/event-types", map[string]any{"webhookEventTypeUuid": eventTypeUUID(t, other, "attribute.updated")})},
		{"unsubscribe", other.Delete(p + "/event-types/" + et)},
		{"list deliveries", other.Get(p + "/deliveries")},
		{"get delivery", other.Get(p + "/deliveries/" + did)},
		{"list attempts", other.Get(p + "/deliveries/" + did + "/attempts")},
		{"redeliver", other.Post(p+"/deliveries/"+did+"/actions/redeliver", nil)},
		{"delete", other.Delete(p)},
	} {
		if r.resp.Status != 404 || r.resp.Obj()["code"] != "NOT_FOUND" {
			t.Errorf("%s by another tenant: %d %s, want 404 NOT_FOUND", r.name, r.resp.Status, r.resp.Raw)
		}
	}
	if items := Want(t, other.Get(subs), 200).Items(); len(items) != 0 {
		t.Errorf("another tenant lists %d subscriptions", len(items))
	}
	if items := Want(t, other.Get(subs+Q("uuids[eq]", id)), 200).Items(); len(items) != 0 {
		t.Errorf("another tenant finds the subscription by uuids[eq]")
	}
	// The owner's subscription is untouched, and another tenant's events do not reach it.
	g := getSub(t, owner, id)
	if Str(g, "status") != "active" || strings.Contains(Str(g, "displayName"), "mine") {
		t.Errorf("other tenant changed the subscription: %v", g)
	}
	if n := len(Want(t, owner.Get(p+"/event-types"), 200).Items()); n != 1 {
		t.Errorf("the subscription has %d event types, want 1", n)
	}
	if d := getDelivery(t, owner, id, did); num(d, "attempts") != 1 || Str(d, "status") != "delivered" {
		t.Errorf("other tenant's redeliver touched the delivery: %v", d)
	}
	mkAttr(t, other, "y")
	if n := s.deliveryRows(t, id); n != 1 {
		t.Errorf("another tenant's attribute.created made a delivery for this subscription (%d rows)", n)
	}
}
