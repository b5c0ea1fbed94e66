// Package idempotency tests Idempotency-Key (issue 16 item 2, API.md "Safe writes") end to end on a
// real PostgreSQL: replays over REST and gRPC, reuse with another body, a key still in progress,
// stored refusals, unstored failures, malformed keys, tenants, expiry and pruning, two replicas on
// one database and a replica killed between its write and its stored answer.
package idempotency

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/catalogd/catalogd/server/apptest"
)

var (
	env  *apptest.Env
	pool *pgxpool.Pool
)

func TestMain(m *testing.M) { apptest.Main(m, &env, &pool) }

// call is one REST request: the token's tenant, an Idempotency-Key (none when key is nil) and a raw
// JSON body ("" for none).
type call struct {
	base    string // "" is env's
	method  string
	path    string
	tenant  string
	key     *string
	body    string
	ifMatch string // If-Match, when not ""
}

func k(s string) *string { return &s }

// do sends c; exchanges with env (not another replica's) are checked against the OpenAPI document.
func do(t *testing.T, c call) apptest.Resp {
	t.Helper()
	r, err := send(c)
	if err != nil {
		t.Fatalf("%s %s: %v", c.method, c.path, err)
	}
	if c.base == "" || c.base == env.BaseURL {
		req, _ := request(c)
		env.Contract(t).Check(t, req, []byte(c.body), r)
	}
	return r
}

func request(c call) (*http.Request, error) {
	base := c.base
	if base == "" {
		base = env.BaseURL
	}
	var rd io.Reader
	if c.body != "" {
		rd = strings.NewReader(c.body)
	}
	req, err := http.NewRequest(c.method, base+c.path, rd)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+apptest.Token(c.tenant))
	if c.body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.key != nil {
		req.Header["Idempotency-Key"] = []string{*c.key}
	}
	if c.ifMatch != "" {
		req.Header.Set("If-Match", c.ifMatch)
	}
	return req, nil
}

// send sends c; a transport error is returned (a killed replica).
func send(c call) (apptest.Resp, error) {
	req, err := request(c)
	if err != nil {
		return apptest.Resp{}, err
	}
	res, err := (&http.Client{Timeout: 60 * time.Second}).Do(req)
	if err != nil {
		return apptest.Resp{}, err
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	r := apptest.Resp{Status: res.StatusCode, Header: res.Header, Raw: raw}
	if len(bytes.TrimSpace(raw)) > 0 {
		_ = json.Unmarshal(raw, &r.Body)
	}
	return r, nil
}

func tenant() string { return "t-" + apptest.RandomHex(6) }

// count is a count(*) of the test database.
func count(t *testing.T, sql string, args ...any) int {
	t.Helper()
	var n int
	if err := pool.QueryRow(context.Background(), sql, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return n
}

func attributes(t *testing.T, tenant, code string) int {
	t.Helper()
	return count(t, `SELECT count(*) FROM attributes WHERE tenant_id = $1 AND code = $2`, tenant, code)
}

func events(t *testing.T, tenant string) int {
	t.Helper()
	return count(t, `SELECT count(*) FROM events WHERE tenant_id = $1`, tenant)
}

func keys(t *testing.T, tenant string) int {
	t.Helper()
	return count(t, `SELECT count(*) FROM idempotency_keys WHERE tenant_id = $1`, tenant)
}

func wantReplayed(t *testing.T, r apptest.Resp, replayed bool) {
	t.Helper()
	got := r.Header.Get("Idempotency-Replayed")
	if replayed && got != "true" {
		t.Fatalf("Idempotency-Replayed %q, want true; status %d body %s", got, r.Status, r.Raw)
	}
	if !replayed && got != "" {
		t.Fatalf("Idempotency-Replayed %q on a first answer; status %d body %s", got, r.Status, r.Raw)
	}
}

// holdKey inserts, in a transaction of the test's own that stays open, the row a request with
// (tenant, key) would store its answer in: that request then waits in its INSERT, after its
// handler wrote and with the key's lock held, until release (which rolls the row back).
func holdKey(t *testing.T, tenant, key string) (release func()) {
	t.Helper()
	release, _ = holdKeyTx(t, tenant, key)
	return release
}

// holdKeyTx is holdKey that can also commit the row.
func holdKeyTx(t *testing.T, tenant, key string) (release, commit func()) {
	t.Helper()
	ctx := context.Background()
	tx, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO idempotency_keys (tenant_id, key, method, fingerprint, code, response)
		VALUES ($1, $2, 'held', '\x00', 0, '\x00')`, tenant, key); err != nil {
		t.Fatal(err)
	}
	done := false
	release = func() {
		if !done {
			done = true
			_ = tx.Rollback(ctx)
		}
	}
	commit = func() {
		if !done {
			done = true
			if err := tx.Commit(ctx); err != nil {
				t.Error(err)
			}
		}
	}
	t.Cleanup(release)
	return release, commit
}

// waitStoring waits until n requests wait in the INSERT of their answer (behind holdKey), having
// written: each holds a RowExclusiveLock on attributes.
func waitStoring(t *testing.T, n int) {
	t.Helper()
	for i := 0; ; i++ {
		got := count(t, `SELECT count(DISTINCT a.pid) FROM pg_stat_activity a JOIN pg_locks l ON l.pid = a.pid
			WHERE a.datname = current_database() AND a.wait_event_type = 'Lock' AND a.query LIKE 'INSERT INTO idempotency_keys%'
			AND l.relation = 'attributes'::regclass AND l.mode = 'RowExclusiveLock'`)
		if got >= n {
			return
		}
		if i > 3000 {
			t.Fatalf("%d requests wait to store their answer, want %d", got, n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// retryInProgress sends c until its answer is not 409 IDEMPOTENCY_IN_PROGRESS (the first request
// with its key, abandoned, has not finished rolling back yet).
func retryInProgress(t *testing.T, c call) apptest.Resp {
	t.Helper()
	for i := 0; ; i++ {
		r, err := send(c)
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != http.StatusConflict || r.Obj()["code"] != "IDEMPOTENCY_IN_PROGRESS" || i > 500 {
			return r
		}
		time.Sleep(20 * time.Millisecond)
	}
}
