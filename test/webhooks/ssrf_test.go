package webhooks

import (
	"fmt"
	"net"
	"strings"
	"testing"

	"github.com/catalogd/catalogd/server/app"
	. "github.com/catalogd/catalogd/server/apptest"
)

// Targets refused by the SSRF guard of a production configuration (no private targets).
var refusedTargets = []string{
	"http://127.0.0.1/",
	"http://127.0.0.1:8080/hook",
	"http://[::1]/",
	"http://[::ffff:127.0.0.1]/",
	"http://169.254.169.254/latest/meta-data",
	"http://10.0.0.1/",
	"http://192.168.1.1/",
	"http://172.16.0.1/",
	"http://100.64.0.1/",
	"http://0.0.0.0/",
	"http://2130706433/",
	"http://0x7f000001/",
	"http://0177.0.0.1/",
	"http://127.1/",
	"http://[fe80::1]/",
	"http://[fd00:ec2::254]/",
	"ftp://example.com/",
	"file:///etc/passwd",
	"gopher://example.com/",
	"http://user:pass@example.com/",
	"https://user@example.com/",
	"http:///nohost",
	"example.com/hook",
	" http://example.com/",
}

func TestSSRFGuardWithoutPrivateTargets(t *testing.T) {
	t.Parallel()
	st := startSite(t, func(c *app.Config) { c.WebhookAllowPrivate = false })
	c, _ := st.tenantClient(t)
	for _, u := range refusedTargets {
		r := c.Post(subs, map[string]any{"displayName": "x", "targetUrl": u})
		if r.Status != 400 {
			t.Errorf("targetUrl %q: status %d, want 400: %s", u, r.Status, r.Raw)
			continue
		}
		WantProblem(t, r, 400, "VALIDATION_FAILED", "targetUrl")
	}
	// A loopback or private target names the setting that opens it (local development).
	for _, u := range []string{"http://127.0.0.1:8080/hook", "http://192.168.1.1/"} {
		m := WantProblem(t, c.Post(subs, map[string]any{"displayName": "x", "targetUrl": u}), 400, "VALIDATION_FAILED", "targetUrl")
		if !strings.Contains(fmt.Sprint(m["errors"]), "CATALOG_WEBHOOK_ALLOW_PRIVATE_TARGETS=true") {
			t.Errorf("targetUrl %s: the refusal does not name CATALOG_WEBHOOK_ALLOW_PRIVATE_TARGETS=true: %v", u, m["errors"])
		}
	}
	// The same checks apply on update.
	public := createSub(t, c, "https://example.com/hook", nil)
	for _, u := range []string{"http://127.0.0.1/", "http://169.254.169.254/", "http://[::1]/", "file:///etc/passwd"} {
		WantProblem(t, c.Patch(subs+"/"+Str(public, "uuid"), map[string]any{"targetUrl": u}), 400, "VALIDATION_FAILED", "targetUrl")
	}
	if g := getSub(t, c, Str(public, "uuid")); Str(g, "targetUrl") != "https://example.com/hook" {
		t.Errorf("refused update changed the target: %v", g)
	}
	if p := Want(t, c.Get(subs), 200).Obj()["pagination"].(map[string]any); num(p, "totalItems") != 1 {
		t.Errorf("refused creates made subscriptions: %v", p)
	}

	// A host name that resolves to loopback passes the URL check, but the dialer refuses it.
	rc := newReceiver(t, nil)
	_, port, _ := net.SplitHostPort(rc.srv.Listener.Addr().String())
	id, _ := newSub(t, c, "http://localhost:"+port+"/hook", "attribute.created")
	mkAttr(t, c, "a")
	did := onlyDelivery(t, c, id)
	d := waitDelivery(t, c, id, did, "failed", isStatus("failed"))
	if num(d, "attempts") != 1+len(schedule) || d["lastStatusCode"] != nil {
		t.Errorf("delivery %v", d)
	}
	for i, at := range attempts(t, c, id, did) {
		if at["statusCode"] != nil || Str(at, "error") != "ssrf_blocked" {
			t.Errorf("attempt %d: %v, want statusCode null, error ssrf_blocked", i+1, at)
		}
	}
	if n := rc.count(); n != 0 {
		t.Errorf("the loopback receiver got %d requests through the SSRF guard", n)
	}
}

// AllowPrivate opens loopback and private ranges, never link-local or metadata addresses.
func TestSSRFGuardWithPrivateTargets(t *testing.T) {
	t.Parallel()
	c, _ := mainSite().tenantClient(t)
	for _, u := range []string{
		"http://169.254.169.254/latest/meta-data",
		"http://169.254.169.254/",
		"http://[::ffff:169.254.169.254]/",
		"http://[fe80::1]/",
		"http://[fd00:ec2::254]/",
		"http://0.0.0.0/",
		"http://100.64.0.1/",
		"http://2130706433/",
		"file:///etc/passwd",
		"http://user:pass@127.0.0.1/",
	} {
		r := c.Post(subs, map[string]any{"displayName": "x", "targetUrl": u})
		if r.Status != 400 {
			t.Errorf("targetUrl %q with private targets allowed: status %d, want 400: %s", u, r.Status, r.Raw)
			continue
		}
		WantProblem(t, r, 400, "VALIDATION_FAILED", "targetUrl")
	}
	for _, u := range []string{"http://127.0.0.1:9/", "http://10.0.0.1/", "http://[::1]:9/", "http://localhost:9/"} {
		Want(t, c.Post(subs, map[string]any{"displayName": "x", "targetUrl": u}), 201)
	}
}
