package idempotency

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	. "github.com/catalogd/catalogd/server/apptest"
	"github.com/catalogd/catalogd/server/retention"
	"github.com/catalogd/catalogd/server/store"
)

func TestReplayReturnsTheFirstAnswerAndWritesNothing(t *testing.T) {
	tn := tenant()
	first := Want(t, do(t, call{method: "POST", path: "/v1/attributes", tenant: tn, key: k("create-color"), body: `{"code":"color","displayName":"Color"}`}), 201)
	wantReplayed(t, first, false)
	if first.Header.Get("Location") == "" {
		t.Fatal("no Location")
	}
	if attributes(t, tn, "color") != 1 || events(t, tn) != 1 || keys(t, tn) != 1 {
		t.Fatalf("after the first request: %d attributes, %d events, %d keys", attributes(t, tn, "color"), events(t, tn), keys(t, tn))
	}
	// The same request in other JSON (spacing, key order) is the same request.
	again := Want(t, do(t, call{method: "POST", path: "/v1/attributes", tenant: tn, key: k("create-color"),
		body: "{ \"displayName\" : \"Color\",\n \"code\": \"color\" }"}), 201)
	wantReplayed(t, again, true)
	if string(again.Raw) != string(first.Raw) || again.Header.Get("Location") != first.Header.Get("Location") {
		t.Fatalf("replay differs:\n%s %s\n%s %s", first.Header.Get("Location"), first.Raw, again.Header.Get("Location"), again.Raw)
	}
	if again.Header.Get("X-Request-Id") == first.Header.Get("X-Request-Id") {
		t.Error("the replay carries the first request's X-Request-Id")
	}
	if attributes(t, tn, "color") != 1 || events(t, tn) != 1 || keys(t, tn) != 1 {
		t.Fatalf("after the replay: %d attributes, %d events, %d keys", attributes(t, tn, "color"), events(t, tn), keys(t, tn))
	}
	// A request without a key is not a replay: it runs (and here is refused, the code is taken).
	r := do(t, call{method: "POST", path: "/v1/attributes", tenant: tn, body: `{"code":"color"}`})
	WantProblem(t, r, 409, "ALREADY_EXISTS")
	wantReplayed(t, r, false)
}

func TestPatchIsReplayedWithItsFirstAnswer(t *testing.T) {
	tn := tenant()
	a := Want(t, do(t, call{method: "POST", path: "/v1/attributes", tenant: tn, body: `{"code":"size"}`}), 201).Obj()
	path := "/v1/attributes/" + Str(a, "uuid")
	first := Want(t, do(t, call{method: "PATCH", path: path, tenant: tn, key: k("rename-1"), body: `{"displayName":"Size"}`}), 200)
	Want(t, do(t, call{method: "PATCH", path: path, tenant: tn, body: `{"displayName":"Size (EU)"}`}), 200)
	before := events(t, tn)
	again := Want(t, do(t, call{method: "PATCH", path: path, tenant: tn, key: k("rename-1"), body: `{"displayName":"Size"}`}), 200)
	wantReplayed(t, again, true)
	if string(again.Raw) != string(first.Raw) {
		t.Fatalf("replay differs:\n%s\n%s", first.Raw, again.Raw)
	}
	if got := Str(Want(t, do(t, call{method: "GET", path: path, tenant: tn}), 200).Obj(), "displayName"); got != "Size (EU)" {
		t.Fatalf("the replay changed the attribute: displayName %q", got)
	}
	if events(t, tn) != before {
		t.Fatal("the replay wrote an event")
	}
}

func TestKeyReusedWithAnotherRequestIs422(t *testing.T) {
	tn := tenant()
	Want(t, do(t, call{method: "POST", path: "/v1/attributes", tenant: tn, key: k("K1"), body: `{"code":"a1"}`}), 201)
	r := do(t, call{method: "POST", path: "/v1/attributes", tenant: tn, key: k("K1"), body: `{"code":"a2"}`})
	WantProblem(t, r, 422, "IDEMPOTENCY_KEY_REUSED")
	// Another operation with the key is another request too.
	r = do(t, call{method: "POST", path: "/v1/tags", tenant: tn, key: k("K1"), body: `{"code":"a1"}`})
	WantProblem(t, r, 422, "IDEMPOTENCY_KEY_REUSED")
	if attributes(t, tn, "a2") != 0 || count(t, `SELECT count(*) FROM tags WHERE tenant_id = $1`, tn) != 0 {
		t.Fatal("a reused key wrote")
	}
	// gRPC: FAILED_PRECONDITION with the reason.
	ctx := metadata.AppendToOutgoingContext(GRPCContext(t, tn), "idempotency-key", "K1")
	_, err := pb.NewAttributeServiceClient(env.GRPC).CreateAttribute(ctx, &pb.CreateAttributeRequest{Attribute: &pb.AttributeCreate{Code: "a3"}})
	WantGRPC(t, "reused key", err, codes.FailedPrecondition, "IDEMPOTENCY_KEY_REUSED")
}

// If-Match is part of the request a key names: a retry with the same body under another
// condition is another request (422), under the same condition a replay.
func TestKeyReusedWithAnotherIfMatchIs422(t *testing.T) {
	tn := tenant()
	cr := Want(t, do(t, call{method: "POST", path: "/v1/attributes", tenant: tn, body: `{"code":"im"}`}), 201)
	path, tag := "/v1/attributes/"+Str(cr.Obj(), "uuid"), cr.Header.Get("ETag")
	first := Want(t, do(t, call{method: "PATCH", path: path, tenant: tn, key: k("IM1"), ifMatch: tag, body: `{"displayName":"X"}`}), 200)
	wantReplayed(t, first, false)
	wantReplayed(t, Want(t, do(t, call{method: "PATCH", path: path, tenant: tn, key: k("IM1"), ifMatch: tag, body: `{"displayName":"X"}`}), 200), true)
	for _, other := range []string{"", "*", first.Header.Get("ETag")} {
		WantProblem(t, do(t, call{method: "PATCH", path: path, tenant: tn, key: k("IM1"), ifMatch: other, body: `{"displayName":"X"}`}), 422, "IDEMPOTENCY_KEY_REUSED")
	}
	// Without If-Match the fingerprint is the body's alone, as before (keys stored earlier still replay).
	Want(t, do(t, call{method: "PATCH", path: path, tenant: tn, key: k("IM2"), body: `{"displayName":"Y"}`}), 200)
	WantProblem(t, do(t, call{method: "PATCH", path: path, tenant: tn, key: k("IM2"), ifMatch: "*", body: `{"displayName":"Y"}`}), 422, "IDEMPOTENCY_KEY_REUSED")
}

func TestGRPCMetadataKeyAndRESTShareTheAnswer(t *testing.T) {
	tn := tenant()
	attrs := pb.NewAttributeServiceClient(env.GRPC)
	req := &pb.CreateAttributeRequest{Attribute: &pb.AttributeCreate{Code: "weight"}}
	var h1, h2 metadata.MD
	ctx := metadata.AppendToOutgoingContext(GRPCContext(t, tn), "idempotency-key", "g-1")
	first, err := attrs.CreateAttribute(ctx, req, grpc.Header(&h1))
	if err != nil {
		t.Fatal(err)
	}
	if len(h1.Get("idempotency-replayed")) != 0 {
		t.Fatal("a first answer is marked replayed")
	}
	again, err := attrs.CreateAttribute(ctx, req, grpc.Header(&h2))
	if err != nil {
		t.Fatal(err)
	}
	if got := h2.Get("idempotency-replayed"); len(got) != 1 || got[0] != "true" {
		t.Fatalf("idempotency-replayed %v", got)
	}
	if !proto.Equal(first, again) {
		t.Fatalf("replay differs: %v / %v", first, again)
	}
	// The same request over REST with the key is the same request: replayed.
	r := Want(t, do(t, call{method: "POST", path: "/v1/attributes", tenant: tn, key: k("g-1"), body: `{"code":"weight"}`}), 201)
	wantReplayed(t, r, true)
	if Str(r.Obj(), "uuid") != first.GetAttribute().GetUuid() {
		t.Fatalf("REST replay %s, gRPC answer %s", r.Raw, first)
	}
	if attributes(t, tn, "weight") != 1 {
		t.Fatal("more than one attribute")
	}
}

func TestRefusalsAreStoredAndReplayed(t *testing.T) {
	tn := tenant()
	a := Want(t, do(t, call{method: "POST", path: "/v1/attributes", tenant: tn, body: `{"code":"dup"}`}), 201).Obj()
	first := do(t, call{method: "POST", path: "/v1/attributes", tenant: tn, key: k("dup-1"), body: `{"code":"dup"}`})
	WantProblem(t, first, 409, "ALREADY_EXISTS")
	wantReplayed(t, first, false)
	Want(t, do(t, call{method: "DELETE", path: "/v1/attributes/" + Str(a, "uuid"), tenant: tn}), 204)
	// The code is free now, but the key's answer is the stored refusal.
	again := do(t, call{method: "POST", path: "/v1/attributes", tenant: tn, key: k("dup-1"), body: `{"code":"dup"}`})
	WantProblem(t, again, 409, "ALREADY_EXISTS")
	wantReplayed(t, again, true)
	if Str(again.Obj(), "detail") != Str(first.Obj(), "detail") {
		t.Fatalf("replayed refusal differs: %s / %s", first.Raw, again.Raw)
	}
	if attributes(t, tn, "dup") != 0 {
		t.Fatal("the replay created the attribute")
	}
	// A 404 is stored too.
	missing := "/v1/attributes/" + RandomUUID()
	WantProblem(t, do(t, call{method: "PATCH", path: missing, tenant: tn, key: k("nf"), body: `{"displayName":"x"}`}), 404, "NOT_FOUND")
	r := do(t, call{method: "PATCH", path: missing, tenant: tn, key: k("nf"), body: `{"displayName":"x"}`})
	WantProblem(t, r, 404, "NOT_FOUND")
	wantReplayed(t, r, true)
}

// A request refused by the request rules (before its handler runs) stores nothing: the retry is
// checked again.
func TestRuleRefusalIsNotStored(t *testing.T) {
	tn := tenant()
	WantProblem(t, do(t, call{method: "POST", path: "/v1/attributes", tenant: tn, key: k("r"), body: `{"code":""}`}), 400, "VALIDATION_FAILED")
	if keys(t, tn) != 0 {
		t.Fatal("a rule refusal was stored")
	}
}

func TestServerErrorsAreNotStored(t *testing.T) {
	tn := tenant()
	ctx := context.Background()
	// A trigger that fails inserts of this tenant's attributes: the create is a 500.
	fn := "fail_" + RandomHex(4)
	if _, err := pool.Exec(ctx, `CREATE FUNCTION `+fn+`() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN RAISE EXCEPTION 'injected failure'; END $$`); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `CREATE TRIGGER `+fn+` BEFORE INSERT ON attributes FOR EACH ROW
		WHEN (NEW.tenant_id = '`+tn+`') EXECUTE FUNCTION `+fn+`()`); err != nil {
		t.Fatal(err)
	}
	dropped := false
	drop := func() {
		if !dropped {
			dropped = true
			_, _ = pool.Exec(ctx, `DROP TRIGGER `+fn+` ON attributes`)
			_, _ = pool.Exec(ctx, `DROP FUNCTION `+fn+`()`)
		}
	}
	t.Cleanup(drop)
	WantProblem(t, do(t, call{method: "POST", path: "/v1/attributes", tenant: tn, key: k("5xx"), body: `{"code":"c"}`}), 500, "INTERNAL")
	if keys(t, tn) != 0 {
		t.Fatal("a 500 was stored")
	}
	drop()
	r := Want(t, do(t, call{method: "POST", path: "/v1/attributes", tenant: tn, key: k("5xx"), body: `{"code":"c"}`}), 201)
	wantReplayed(t, r, false)

	// A call whose deadline passes while it runs stores nothing either.
	release := holdKey(t, tn, "late")
	dctx, cancel := context.WithTimeout(metadata.AppendToOutgoingContext(GRPCContext(t, tn), "idempotency-key", "late"), time.Second)
	defer cancel()
	_, err := pb.NewAttributeServiceClient(env.GRPC).CreateAttribute(dctx, &pb.CreateAttributeRequest{Attribute: &pb.AttributeCreate{Code: "late"}})
	if c := statusCode(err); c != codes.DeadlineExceeded {
		t.Fatalf("code %v, want DeadlineExceeded (%v)", c, err)
	}
	release()
	// Until the cancelled call's transaction has rolled back, the key is still in progress.
	r = retryInProgress(t, call{method: "POST", path: "/v1/attributes", tenant: tn, key: k("late"), body: `{"code":"late"}`})
	// Either the abandoned call rolled back (the retry creates) or its create and answer committed
	// together after the caller gave up (the retry replays the 201): never a stored DEADLINE_EXCEEDED.
	Want(t, r, 201)
	if attributes(t, tn, "late") != 1 || keys(t, tn) != 2 {
		t.Fatalf("%d attributes late, %d keys", attributes(t, tn, "late"), keys(t, tn))
	}
}

func TestMalformedKeyIs400(t *testing.T) {
	tn := tenant()
	for name, key := range map[string]string{
		"empty":     "",
		"too long":  strings.Repeat("k", 256),
		"tab":       "a\tb",
		"not ASCII": "clé",
	} {
		t.Run(name, func(t *testing.T) {
			r := do(t, call{method: "POST", path: "/v1/attributes", tenant: tn, key: k(key), body: `{"code":"m"}`})
			WantProblem(t, r, 400, "VALIDATION_FAILED", "Idempotency-Key")
		})
	}
	// 255 printable characters (spaces and punctuation included) are a key.
	long := strings.Repeat("~ a!", 63) + "xyz"
	Want(t, do(t, call{method: "POST", path: "/v1/attributes", tenant: tn, key: k(long), body: `{"code":"m"}`}), 201)
	if attributes(t, tn, "m") != 1 {
		t.Fatal("a malformed key wrote")
	}
	// gRPC: two values.
	ctx := metadata.AppendToOutgoingContext(GRPCContext(t, tn), "idempotency-key", "a", "idempotency-key", "b")
	_, err := pb.NewAttributeServiceClient(env.GRPC).CreateAttribute(ctx, &pb.CreateAttributeRequest{Attribute: &pb.AttributeCreate{Code: "m2"}})
	WantGRPC(t, "two keys", err, codes.InvalidArgument, "VALIDATION_FAILED", "Idempotency-Key")
}

// GET and DELETE ignore a key, like Stripe: no check, nothing stored, never replayed.
func TestGetAndDeleteIgnoreTheKey(t *testing.T) {
	tn := tenant()
	a := Want(t, do(t, call{method: "POST", path: "/v1/attributes", tenant: tn, body: `{"code":"g"}`}), 201).Obj()
	path := "/v1/attributes/" + Str(a, "uuid")
	r := Want(t, do(t, call{method: "GET", path: path, tenant: tn, key: k("")}), 200)
	wantReplayed(t, r, false)
	Want(t, do(t, call{method: "DELETE", path: path, tenant: tn, key: k("del")}), 204)
	r = do(t, call{method: "DELETE", path: path, tenant: tn, key: k("del")})
	WantProblem(t, r, 404, "NOT_FOUND")
	wantReplayed(t, r, false)
	if keys(t, tn) != 0 {
		t.Fatal("a GET or DELETE stored a key")
	}
}

func TestTenantsHaveTheirOwnKeys(t *testing.T) {
	t1, t2 := tenant(), tenant()
	a := Want(t, do(t, call{method: "POST", path: "/v1/attributes", tenant: t1, key: k("same"), body: `{"code":"x"}`}), 201)
	b := Want(t, do(t, call{method: "POST", path: "/v1/attributes", tenant: t2, key: k("same"), body: `{"code":"x"}`}), 201)
	wantReplayed(t, b, false)
	if Str(a.Obj(), "uuid") == Str(b.Obj(), "uuid") || attributes(t, t1, "x") != 1 || attributes(t, t2, "x") != 1 {
		t.Fatalf("tenants share a key: %s / %s", a.Raw, b.Raw)
	}
}

func TestExpiredKeyRunsAgain(t *testing.T) {
	tn := tenant()
	Want(t, do(t, call{method: "POST", path: "/v1/attributes", tenant: tn, key: k("old"), body: `{"code":"e1"}`}), 201)
	if _, err := pool.Exec(context.Background(), `UPDATE idempotency_keys SET created_at = now() - interval '24 hours 1 second'
		WHERE tenant_id = $1`, tn); err != nil {
		t.Fatal(err)
	}
	// The same request runs again (the code is taken now); another one is no reuse.
	r := do(t, call{method: "POST", path: "/v1/attributes", tenant: tn, key: k("old"), body: `{"code":"e1"}`})
	WantProblem(t, r, 409, "ALREADY_EXISTS")
	wantReplayed(t, r, false)
	if _, err := pool.Exec(context.Background(), `UPDATE idempotency_keys SET created_at = now() - interval '25 hours'
		WHERE tenant_id = $1`, tn); err != nil {
		t.Fatal(err)
	}
	r = Want(t, do(t, call{method: "POST", path: "/v1/attributes", tenant: tn, key: k("old"), body: `{"code":"e2"}`}), 201)
	wantReplayed(t, r, false)
	r = Want(t, do(t, call{method: "POST", path: "/v1/attributes", tenant: tn, key: k("old"), body: `{"code":"e2"}`}), 201)
	wantReplayed(t, r, true)
	if keys(t, tn) != 1 || attributes(t, tn, "e2") != 1 {
		t.Fatal("want one key and one attribute e2")
	}
}

func TestPruningDeletesKeysOlderThan24h(t *testing.T) {
	tn := tenant()
	for _, key := range []string{"p1", "p2", "p3"} {
		Want(t, do(t, call{method: "POST", path: "/v1/attributes", tenant: tn, key: k(key), body: `{"code":"` + key + `"}`}), 201)
	}
	if _, err := pool.Exec(context.Background(), `UPDATE idempotency_keys SET created_at = now() - interval '25 hours'
		WHERE tenant_id = $1 AND key IN ('p1', 'p2')`, tn); err != nil {
		t.Fatal(err)
	}
	d, err := store.Open(context.Background(), env.DBURL)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	// Retention 0 (events kept forever) still prunes keys; batches of 1 walk them all.
	p := &retention.Pruner{DB: d, IdempotencyTTL: 24 * time.Hour, Batch: 1, Pause: -1}
	res, err := p.RunOnce(context.Background())
	for i := 0; err == nil && res.Skipped && i < 100; i++ { // the test server's own pruner is running
		time.Sleep(50 * time.Millisecond)
		res, err = p.RunOnce(context.Background())
	}
	if err != nil || res.Skipped {
		t.Fatalf("run: %+v, %v", res, err)
	}
	if res.IdempotencyKeys < 2 || res.Events != 0 {
		t.Fatalf("run: %+v", res)
	}
	if got := count(t, `SELECT count(*) FROM idempotency_keys WHERE tenant_id = $1`, tn); got != 1 {
		t.Fatalf("%d keys left, want 1 (p3)", got)
	}
	r := Want(t, do(t, call{method: "POST", path: "/v1/attributes", tenant: tn, key: k("p3"), body: `{"code":"p3"}`}), 201)
	wantReplayed(t, r, true)
}

func statusCode(err error) codes.Code { return status.Code(err) }

// Connect (the HTTP port's RPC protocol) takes the key as the Idempotency-Key header and marks a
// replay with Idempotency-Replayed, like REST; a malformed key is refused by its door.
func TestConnectTakesTheKeyAsAHeader(t *testing.T) {
	tn := tenant()
	post := func(key string) (int, string, string) {
		t.Helper()
		req, err := http.NewRequest("POST", env.BaseURL+"/catalog.v1.AttributeService/CreateAttribute",
			strings.NewReader(`{"attribute":{"code":"conn"}}`))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+Token(tn))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Connect-Protocol-Version", "1")
		req.Header["Idempotency-Key"] = []string{key}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		raw, _ := io.ReadAll(res.Body)
		return res.StatusCode, res.Header.Get("Idempotency-Replayed"), string(raw)
	}
	st1, rep1, body1 := post("c-1")
	st2, rep2, body2 := post("c-1")
	if st1 != 200 || st2 != 200 || rep1 != "" || rep2 != "true" || body1 != body2 {
		t.Fatalf("first %d %q %s; retry %d %q %s", st1, rep1, body1, st2, rep2, body2)
	}
	if attributes(t, tn, "conn") != 1 {
		t.Fatal("want one attribute")
	}
	if st, _, body := post("a\tb"); st != 400 || !strings.Contains(body, "Idempotency-Key") {
		t.Fatalf("malformed key: %d %s", st, body)
	}
}
