package assetfiles

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	. "github.com/catalogd/catalogd/server/apptest"
)

// hook is one request a receiver got.
type hook struct {
	Header http.Header
	Body   []byte
}

// receiver is a webhook target recording every request and answering 200.
type receiver struct {
	mu  sync.Mutex
	got []hook
	URL string
}

func newReceiver(t *testing.T) *receiver {
	t.Helper()
	rc := &receiver{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		rc.got = append(rc.got, hook{Header: r.Header.Clone(), Body: b})
		rc.mu.Unlock()
		_, _ = io.WriteString(w, "ok")
	}))
	t.Cleanup(srv.Close)
	rc.URL = srv.URL + "/hook"
	return rc
}

func (rc *receiver) hooks() []hook {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]hook(nil), rc.got...)
}

// A subscription to the asset.file.* events receives each of them, signed, with the thin payload
// {assetUuid, fileUuid}.
func TestWebhooks(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	rc := newReceiver(t)
	sub := Want(t, c.Post("/v1/webhook-subscriptions", Body("displayName", "asset files", "targetUrl", rc.URL)), 201).Obj()
	types := []string{"asset.file.created", "asset.file.uploaded", "asset.file.failed", "asset.file.deleted"}
	for _, name := range types {
		ets := Want(t, c.Get("/v1/webhook-event-types"+Q("names[eq]", name)), 200).Items()
		if len(ets) != 1 {
			t.Fatalf("event type %s: %v", name, ets)
		}
		Want(t, c.Post("/v1/webhook-subscriptions/"+Str(sub, "uuid")+"/event-types", Body("webhookEventTypeUuid", Str(ets[0], "uuid"))), 201)
	}

	// asset.file.updated left the catalog (no operation changes a file).
	WantTotal(t, c, "/v1/webhook-event-types"+Q("names[eq]", "asset.file.updated"), 0)

	a := mkAsset(t, c)
	ok := Str(upload(t, c, a, "ok.txt", "text/plain", []byte("fine")), "uuid")
	bad := idOf(initiate(t, c, a, decl("bad.txt", "text/plain", []byte("never"))))
	WantProblem(t, complete(c, a, bad), 409, "UPLOAD_VERIFICATION_FAILED")
	Want(t, c.Delete(filePath(a, ok)), 204)
	want := []string{
		"asset.file.created " + ok, "asset.file.uploaded " + ok, "asset.file.deleted " + ok,
		"asset.file.created " + bad, "asset.file.failed " + bad,
	}
	sort.Strings(want)

	var hs []hook
	WaitFor(t, 20*time.Second, "5 webhook deliveries", func() bool { hs = rc.hooks(); return len(hs) >= len(want) })
	time.Sleep(300 * time.Millisecond) // a sixth (wrong) delivery would arrive about now
	hs = rc.hooks()
	wh, err := standardwebhooks.NewWebhook(Str(sub, "secret"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range hs {
		var body map[string]any
		if err := json.Unmarshal(h.Body, &body); err != nil {
			t.Fatalf("delivery body %q: %v", h.Body, err)
		}
		WantKeys(t, "delivery payload", body, "assetUuid", "fileUuid")
		if body["assetUuid"] != a {
			t.Errorf("delivery payload %s: assetUuid, want %s", h.Body, a)
		}
		if err := wh.Verify(h.Body, h.Header); err != nil {
			t.Errorf("delivery %s is not signed with the subscription's secret: %v", h.Body, err)
		}
		got = append(got, h.Header.Get("X-Webhook-Event-Type")+" "+Str(body, "fileUuid"))
	}
	sort.Strings(got)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("deliveries\n  got  %v\n  want %v", got, want)
	}
}
