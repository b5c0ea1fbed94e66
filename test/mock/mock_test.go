// Package mock tests the spec's mock server (Config.Mock, `catalogd mock`): any well-formed bearer
// token is accepted (tenant from its tenant_id claim, else "mock"; scopes from its scope claim, else
// all), every tenant starts with the demo catalog, seeded once, and private webhook targets work.
// The demo catalog itself is tested in server/mock; the command (fresh database at each start,
// deleted at exit) in cmd/catalogd.
package mock

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"connectrpc.com/connect"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/app"
	. "github.com/catalogd/catalogd/server/apptest"
	seed "github.com/catalogd/catalogd/server/mock"
)

var env *Env

// The mock runs with a rate limit, as `catalogd mock` does (CATALOG_RATE_LIMIT_RPS/BURST): a small
// one here, which the demo seed does not spend (TestTheMockKeepsItsLimits).
func TestMain(m *testing.M) {
	Main(m, &env, nil, func(c *app.Config) { c.Mock, c.RateLimitRPS, c.RateLimitBurst = true, 0.5, mockBurst })
}

const mockBurst = 40

// token is an unsigned JWT with the given claims: the mock checks no signature.
func token(claims map[string]any) string {
	seg := func(v any) string {
		b, _ := json.Marshal(v)
		return base64.RawURLEncoding.EncodeToString(b)
	}
	return seg(map[string]string{"alg": "RS256", "kid": "whatever"}) + "." + seg(claims) + "." + seg("not a signature")
}

func client(t *testing.T, tok string) *Client {
	c := env.ClientFor(t, "unused")
	c.Token = tok
	return c
}

// codes is the set of the codes of a list's items.
func codes(items []map[string]any) map[string]bool {
	out := map[string]bool{}
	for _, it := range items {
		out[Str(it, "code")] = true
	}
	return out
}

func TestTheDefaultTenantHasTheDemoCatalogAtStart(t *testing.T) {
	// No tenant_id claim: the tenant "mock", seeded before Start returned.
	c := client(t, token(map[string]any{"sub": "someone"}))
	got := codes(Want(t, c.Get("/v1/products"+Q("size", "100")), 200).Items())
	for _, want := range []string{seed.VariantParent, seed.PublishedProduct, seed.DraftProduct} {
		if !got[want] {
			t.Errorf("product %s is not in the mock tenant's catalog: %v", want, got)
		}
	}
	// The same tenant as app.MockToken's, the token the banner prints.
	m := client(t, app.MockToken(app.MockTenant))
	if n := len(Want(t, m.Get("/v1/locales"), 200).Items()); n != 3 {
		t.Errorf("MockToken's tenant has %d locales, want the demo catalog's 3", n)
	}
}

func TestEachTenantGetsItsOwnCatalogOnce(t *testing.T) {
	tenant := "acme-" + RandomHex(4)
	tok := token(map[string]any{"tenant_id": tenant, "exp": time.Now().Add(-time.Hour).Unix(), "iss": "anyone"})
	// Eight first requests at once: each sees the whole catalog, and it is made once.
	var wg sync.WaitGroup
	counts := make([]int, 8)
	for i := range counts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			counts[i] = len(Want(t, client(t, tok).Get("/v1/locales"), 200).Items())
		}()
	}
	wg.Wait()
	for i, n := range counts {
		if n != 3 {
			t.Errorf("first request %d saw %d locales, want 3", i, n)
		}
	}
	c := client(t, tok)
	if got := codes(Want(t, c.Get("/v1/products"+Q("size", "100")), 200).Items()); !got[seed.PublishedProduct] {
		t.Errorf("tenant %s has no demo products: %v", tenant, got)
	}
	// Its catalog is its own: a write there is not seen by the default tenant.
	Want(t, c.Post("/v1/locales", Body("code", "it-IT")), 201)
	if n := len(Want(t, c.Get("/v1/locales"), 200).Items()); n != 4 {
		t.Errorf("%s has %d locales after adding one, want 4", tenant, n)
	}
	if n := len(Want(t, client(t, app.MockToken(app.MockTenant)).Get("/v1/locales"), 200).Items()); n != 3 {
		t.Errorf("the mock tenant has %d locales, want 3", n)
	}
}

func TestScopesAndMalformedTokens(t *testing.T) {
	ro := client(t, token(map[string]any{"tenant_id": "ro-" + RandomHex(4), "scope": "catalog:read"}))
	Want(t, ro.Get("/v1/attributes"), 200)
	WantProblem(t, ro.Post("/v1/locales", Body("code", "it-IT")), 403, "FORBIDDEN")
	for _, bad := range []string{"", "not-a-jwt", "a.b", token(map[string]any{"tenant_id": 42})} {
		WantProblem(t, client(t, bad).Get("/v1/attributes"), 401, "UNAUTHENTICATED")
	}
}

// Connect on the HTTP port and gRPC take mock tokens too.
func TestOtherProtocols(t *testing.T) {
	tok := token(map[string]any{"tenant_id": "rpc-" + RandomHex(4)})
	list := connect.NewClient[pb.ListProductsRequest, pb.ListProductsResponse](http.DefaultClient,
		env.BaseURL+"/catalog.v1.ProductService/ListProducts", connect.WithGRPCWeb())
	req := connect.NewRequest(&pb.ListProductsRequest{})
	req.Header().Set("Authorization", "Bearer "+tok)
	res, err := list.CallUnary(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Msg.GetItems()) == 0 {
		t.Fatal("gRPC-Web: the tenant's demo catalog has no products")
	}
}

// A webhook receiver on localhost: the mock allows private targets (serve does not by default).
func TestPrivateWebhookTargets(t *testing.T) {
	got := make(chan []byte, 10)
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b [4096]byte
		n, _ := r.Body.Read(b[:])
		got <- b[:n]
	}))
	defer rcv.Close()
	c := client(t, token(map[string]any{"tenant_id": "hooks-" + RandomHex(4)}))
	sub := Str(Want(t, c.Post("/v1/webhook-subscriptions", Body("displayName", "local", "targetUrl", rcv.URL)), 201).Obj(), "uuid")
	et := Str(Want(t, c.Get("/v1/webhook-event-types"+Q("names[eq]", "locale.created")), 200).Items()[0], "uuid")
	Want(t, c.Post("/v1/webhook-subscriptions/"+sub+"/event-types", Body("webhookEventTypeUuid", et)), 201)
	loc := Str(Want(t, c.Post("/v1/locales", Body("code", "nl-NL")), 201).Obj(), "uuid")
	select {
	case b := <-got:
		var ev map[string]any
		if err := json.Unmarshal(b, &ev); err != nil || ev["localeUuid"] != loc {
			t.Fatalf("received %s, want the thin payload of locale %s", b, loc)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("no delivery to the localhost receiver")
	}
}

// The mock is no open relay: a webhook target that is not loopback (a private address, a public
// address or name) is refused; the tenant's rate limit applies (the demo seed spends none of it);
// an upload may declare at most app.MockMaxUploadBytes.
func TestTheMockKeepsItsLimits(t *testing.T) {
	c := client(t, token(map[string]any{"tenant_id": "limits-" + RandomHex(4)}))
	for _, target := range []string{"http://10.0.0.1/hook", "http://192.168.1.20:8080/hook", "https://example.com/hook", "http://8.8.8.8/hook"} {
		WantProblem(t, c.Post("/v1/webhook-subscriptions", Body("displayName", "away", "targetUrl", target)), 400, "VALIDATION_FAILED", "targetUrl")
	}
	asset := Str(Want(t, c.Get("/v1/assets"), 200).Items()[0], "uuid")
	initiate := func(size int64) Resp {
		return c.Post("/v1/assets/"+asset+"/files/actions/initiate-upload", Body("kind", "original", "fileName", "big.bin",
			"contentType", "application/octet-stream", "sizeBytes", size))
	}
	WantProblem(t, initiate(app.MockMaxUploadBytes+1), 400, "VALIDATION_FAILED", "sizeBytes")
	Want(t, initiate(app.MockMaxUploadBytes), 201)
	// 7 calls so far (the seed made many more); the bucket of mockBurst runs out.
	limited := 0
	for range mockBurst {
		if c.Get("/v1/locales").Status == 429 {
			limited++
		}
	}
	if limited == 0 {
		t.Errorf("%d calls of one tenant past a burst of %d: none was 429", mockBurst+7, mockBurst)
	}
}
