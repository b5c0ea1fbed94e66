package schedules

import (
	"reflect"
	"testing"
	"time"

	. "github.com/catalogd/catalogd/server/apptest"
)

var schedKeys = []string{"uuid", "createdAt", "updatedAt", "productUuid", "publicationUuid", "transition", "scheduledAt",
	"status", "executedAt", "failureCode", "failureReason"}

func pubBase(product string) string { return "/v1/products/" + product + "/publications" }

func base(product, pub string) string { return pubBase(product) + "/" + pub + "/schedules" }

// ev is a schedule event.
func ev(verb, product, pub, id string) Event {
	return Ev("product.publication.schedule."+verb, "productUuid", product, "publicationUuid", pub, "scheduleUuid", id)
}

// moveEv is a publication move event (product.published / product.unpublished).
func moveEv(verb, product, pub string) Event {
	return Ev("product."+verb, "productUuid", product, "publicationUuid", pub)
}

// far is a time ten years and h hours ahead, out of reach of every scheduler run of the tests.
func far(h int) time.Time {
	return time.Now().UTC().Add(10*365*24*time.Hour + time.Duration(h)*time.Hour).Truncate(time.Microsecond)
}

// ts writes t as the API does (six fractional digits).
func ts(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000000Z") }

// wantSched checks a schedule response: every key, formats and the values kv.
func wantSched(t *testing.T, what string, v map[string]any, kv ...any) {
	t.Helper()
	WantKeys(t, what, v, schedKeys...)
	WantCommon(t, what, v)
	for i := 0; i+1 < len(kv); i += 2 {
		if got := v[kv[i].(string)]; !reflect.DeepEqual(got, kv[i+1]) {
			t.Errorf("%s: %s = %#v, want %#v", what, kv[i], got, kv[i+1])
		}
	}
}

func mkProduct(t *testing.T, c *Client) string {
	t.Helper()
	return Str(Want(t, c.Post("/v1/products", Body("code", "P"+RandomHex(4), "kind", "simple")), 201).Obj(), "uuid")
}

func activate(t *testing.T, c *Client, product string) {
	t.Helper()
	Want(t, c.Patch("/v1/products/"+product+"/actions/lifecycle", Body("transition", "activate")), 200)
}

func mkChannel(t *testing.T, c *Client) string {
	t.Helper()
	return Str(Want(t, c.Post("/v1/channels", Body("code", "ch_"+RandomHex(4), "localeUuids", []string{})), 201).Obj(), "uuid")
}

func mkPub(t *testing.T, c *Client, product string) string {
	t.Helper()
	return Str(Want(t, c.Post(pubBase(product), Body("channelUuid", mkChannel(t, c))), 201).Obj(), "uuid")
}

// mkSched creates a schedule and returns its uuid.
func mkSched(t *testing.T, c *Client, product, pub, transition string, at time.Time) string {
	t.Helper()
	return Str(Want(t, c.Post(base(product, pub), Body("transition", transition, "scheduledAt", ts(at))), 201).Obj(), "uuid")
}

func getSched(t *testing.T, c *Client, product, pub, id string) map[string]any {
	t.Helper()
	return Want(t, c.Get(base(product, pub)+"/"+id), 200).Obj()
}

func getPub(t *testing.T, c *Client, product, pub string) map[string]any {
	t.Helper()
	return Want(t, c.Get(pubBase(product)+"/"+pub), 200).Obj()
}

func cancel(c *Client, product, pub, id string) Resp {
	return c.Patch(base(product, pub)+"/"+id+"/actions/lifecycle", Body("transition", "cancel"))
}
