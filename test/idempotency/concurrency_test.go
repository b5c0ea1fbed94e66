package idempotency

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	. "github.com/catalogd/catalogd/server/apptest"
)

// A retry while the first request with its key runs is 409 IDEMPOTENCY_IN_PROGRESS (gRPC
// ABORTED); once the first has finished, the retry gets its answer.
func TestRetryWhileInProgressIs409(t *testing.T) {
	tn := tenant()
	release := holdKey(t, tn, "slow")
	first := make(chan Resp, 1)
	go func() {
		r, err := send(call{method: "POST", path: "/v1/attributes", tenant: tn, key: k("slow"), body: `{"code":"slow"}`})
		if err != nil {
			t.Error(err)
		}
		first <- r
	}()
	waitStoring(t, 1) // the first has written its attribute and waits to store its answer
	WantProblem(t, do(t, call{method: "POST", path: "/v1/attributes", tenant: tn, key: k("slow"), body: `{"code":"slow"}`}),
		409, "IDEMPOTENCY_IN_PROGRESS")
	ctx := metadata.AppendToOutgoingContext(GRPCContext(t, tn), "idempotency-key", "slow")
	_, err := pb.NewAttributeServiceClient(env.GRPC).CreateAttribute(ctx, &pb.CreateAttributeRequest{Attribute: &pb.AttributeCreate{Code: "slow"}})
	WantGRPC(t, "in progress", err, codes.Aborted, "IDEMPOTENCY_IN_PROGRESS")
	release()
	r := Want(t, <-first, 201)
	wantReplayed(t, r, false)
	again := Want(t, do(t, call{method: "POST", path: "/v1/attributes", tenant: tn, key: k("slow"), body: `{"code":"slow"}`}), 201)
	wantReplayed(t, again, true)
	if string(again.Raw) != string(r.Raw) || attributes(t, tn, "slow") != 1 {
		t.Fatalf("after the first: %s / %s, %d attributes", r.Raw, again.Raw, attributes(t, tn, "slow"))
	}
}

// A request that did not see a key's answer when it began (another request stored it after the
// look-up's snapshot) does not overwrite it: its own answer's INSERT fails on the primary key, its
// transaction (and write) rolls back, and the attempt runs again against the stored answer. Here
// the test's own row plays the other request's answer (of another request: 422 on the retry).
func TestAnswerStoredMeanwhileWins(t *testing.T) {
	tn := tenant()
	_, commit := holdKeyTx(t, tn, "meanwhile")
	first := make(chan Resp, 1)
	go func() {
		r, err := send(call{method: "POST", path: "/v1/attributes", tenant: tn, key: k("meanwhile"), body: `{"code":"mw"}`})
		if err != nil {
			t.Error(err)
		}
		first <- r
	}()
	waitStoring(t, 1)
	commit()
	WantProblem(t, <-first, 422, "IDEMPOTENCY_KEY_REUSED")
	if attributes(t, tn, "mw") != 0 || events(t, tn) != 0 || keys(t, tn) != 1 {
		t.Fatalf("%d attributes, %d events, %d keys", attributes(t, tn, "mw"), events(t, tn), keys(t, tn))
	}
}

// Two replicas on one database share the keys: the same key sent to both at once creates one
// resource; the other answer is 409 IDEMPOTENCY_IN_PROGRESS or the replay.
func TestTwoReplicasReceivingTheSameKey(t *testing.T) {
	second, err := StartOn(env.DBURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(second.Stop)

	// Deterministic: the first holds the key on replica 1 while replica 2 gets the retry.
	tn := tenant()
	release := holdKey(t, tn, "both")
	first := make(chan Resp, 1)
	go func() {
		r, err := send(call{method: "POST", path: "/v1/attributes", tenant: tn, key: k("both"), body: `{"code":"both"}`})
		if err != nil {
			t.Error(err)
		}
		first <- r
	}()
	waitStoring(t, 1)
	WantProblem(t, do(t, call{base: second.BaseURL, method: "POST", path: "/v1/attributes", tenant: tn, key: k("both"), body: `{"code":"both"}`}),
		409, "IDEMPOTENCY_IN_PROGRESS")
	release()
	r1 := Want(t, <-first, 201)
	r2 := Want(t, do(t, call{base: second.BaseURL, method: "POST", path: "/v1/attributes", tenant: tn, key: k("both"), body: `{"code":"both"}`}), 201)
	wantReplayed(t, r2, true)
	if string(r1.Raw) != string(r2.Raw) || attributes(t, tn, "both") != 1 {
		t.Fatalf("replicas: %s / %s, %d attributes", r1.Raw, r2.Raw, attributes(t, tn, "both"))
	}

	// Racing: 20 keys, each sent to both replicas at the same moment.
	tn = tenant()
	const n = 20
	var wg sync.WaitGroup
	answers := make([][2]Resp, n)
	for i := 0; i < n; i++ {
		start := make(chan struct{})
		for j, base := range []string{env.BaseURL, second.BaseURL} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				r, err := send(call{base: base, method: "POST", path: "/v1/attributes", tenant: tn, key: k(fmt.Sprint("race-", i)),
					body: fmt.Sprintf(`{"code":"r%d"}`, i)})
				if err != nil {
					t.Error(err)
				}
				answers[i][j] = r
			}()
		}
		close(start)
	}
	wg.Wait()
	for i, pair := range answers {
		fresh := 0
		for _, r := range pair {
			switch {
			case r.Status == 201 && r.Header.Get("Idempotency-Replayed") == "":
				fresh++
			case r.Status == 201, r.Status == 409 && r.Obj()["code"] == "IDEMPOTENCY_IN_PROGRESS":
			default:
				t.Errorf("key %d: %d %s", i, r.Status, r.Raw)
			}
		}
		if fresh != 1 || attributes(t, tn, fmt.Sprintf("r%d", i)) != 1 {
			t.Errorf("key %d: %d first answers, %d attributes", i, fresh, attributes(t, tn, fmt.Sprintf("r%d", i)))
		}
	}
	if keys(t, tn) != n {
		t.Errorf("%d keys stored, want %d", keys(t, tn), n)
	}
}

// A replica killed (SIGKILL) after its handler wrote and before its answer was stored has
// committed neither: the retry runs the request afresh and creates exactly one resource.
func TestReplicaKilledBetweenWriteAndStoredAnswer(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "catalogd")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/catalogd/catalogd/cmd/catalogd").CombinedOutput(); err != nil {
		t.Fatalf("build catalogd: %v\n%s", err, out)
	}
	cmd, base := startProcess(t, bin)
	tn := tenant()
	release := holdKey(t, tn, "crash")
	failed := make(chan error, 1)
	go func() {
		_, err := send(call{base: base, method: "POST", path: "/v1/attributes", tenant: tn, key: k("crash"), body: `{"code":"crash"}`})
		failed <- err
	}()
	waitStoring(t, 1) // the attribute and its event are written (in its transaction), the answer not yet
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if err := <-failed; err == nil {
		t.Fatal("the killed replica answered")
	}
	release()
	// The killed replica's backend ends its transaction (rolled back) once it finds its client gone;
	// until then the key is in progress.
	r := retryInProgress(t, call{method: "POST", path: "/v1/attributes", tenant: tn, key: k("crash"), body: `{"code":"crash"}`})
	Want(t, r, 201)
	// The stored answer and its COMMIT were sent in one round trip: once the row lock is released the
	// orphaned backend may still commit both (the retry is then a replay of that create) or neither
	// (the retry creates it). Never one without the other: exactly one attribute, event and key.
	if attributes(t, tn, "crash") != 1 || events(t, tn) != 1 || keys(t, tn) != 1 {
		t.Fatalf("after the retry: %d attributes, %d events, %d keys", attributes(t, tn, "crash"), events(t, tn), keys(t, tn))
	}
	if got := count(t, `SELECT count(*) FROM attributes WHERE tenant_id = $1 AND uuid = $2`, tn, Str(r.Obj(), "uuid")); got != 1 {
		t.Fatalf("the answer names attribute %s, which does not exist", Str(r.Obj(), "uuid"))
	}
	t.Logf("retry replayed: %q", r.Header.Get("Idempotency-Replayed"))
	again := Want(t, do(t, call{method: "POST", path: "/v1/attributes", tenant: tn, key: k("crash"), body: `{"code":"crash"}`}), 201)
	wantReplayed(t, again, true)
}

// startProcess runs `catalogd serve` as a child process on the test database and waits until it
// serves; it returns the command and its HTTP base URL.
func startProcess(t *testing.T, bin string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(bin, "serve")
	var envv []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CATALOG_") && !strings.HasPrefix(kv, "DATABASE_URL=") {
			envv = append(envv, kv)
		}
	}
	cmd.Env = append(envv, "DATABASE_URL="+env.DBURL, "CATALOG_HTTP_ADDR=127.0.0.1:0", "CATALOG_GRPC_ADDR=127.0.0.1:0",
		"CATALOG_DATA_DIR="+t.TempDir(), "CATALOG_JWT_HS256_SECRET="+Secret, "CATALOG_JWT_ISSUER="+Issuer,
		"CATALOG_JWT_AUDIENCE="+Audience, "CATALOG_RATE_LIMIT_RPS=0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	serving := make(chan string, 1)
	var logMu sync.Mutex
	var log strings.Builder
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			logMu.Lock()
			log.WriteString(sc.Text() + "\n")
			logMu.Unlock()
			var rec struct {
				Msg  string `json:"msg"`
				HTTP string `json:"http"`
			}
			if json.Unmarshal(sc.Bytes(), &rec) == nil && rec.Msg == "catalogd serving" {
				serving <- rec.HTTP
			}
		}
		close(serving)
	}()
	select {
	case addr, ok := <-serving:
		if !ok {
			logMu.Lock()
			defer logMu.Unlock()
			t.Fatalf("catalogd exited at start:\n%s", log.String())
		}
		return cmd, "http://" + addr
	case <-time.After(2 * time.Minute):
		t.Fatal("catalogd not serving after 2 minutes")
	}
	return nil, ""
}
