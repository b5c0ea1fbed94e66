package topology

// Read replicas (DATABASE_READ_URL): a streaming standby of the tests' cluster (pgembed.StartStandby,
// pg_basebackup -R), started by the tests themselves (apptest.Standby).

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"

	"github.com/catalogd/catalogd/server/app"
	"github.com/catalogd/catalogd/server/apptest"
	"github.com/catalogd/catalogd/server/pgembed"
	"github.com/catalogd/catalogd/server/store"

	catalogv1 "github.com/catalogd/catalogd/gen/catalog/v1"
)

// withStandby starts a catalogd on a fresh database with the process's standby as its read
// replica (and opts), and returns it with the standby and the replica's metrics label.
func withStandby(t *testing.T, opts ...func(*app.Config)) (*apptest.Env, *pgembed.Cluster, string) {
	t.Helper()
	sb, err := apptest.Standby()
	if err != nil {
		t.Fatalf("standby of the test cluster: %v", err)
	}
	dbURL, drop, err := apptest.CreateDatabase(ctx, "catalogd_replica")
	if err != nil {
		t.Fatal(err)
	}
	e, err := apptest.StartOn(dbURL, drop, append([]func(*app.Config){apptest.ReadsOn(sb)}, opts...)...)
	if err != nil {
		t.Fatalf("catalogd with a read replica: %v", err)
	}
	t.Cleanup(e.Stop)
	return e, sb, "127.0.0.1:" + strconv.Itoa(sb.Port()) + "/" + dbName(t, dbURL)
}

// reads is catalogd_db_reads_total of target.
func reads(t *testing.T, e *apptest.Env, target string) float64 {
	t.Helper()
	return e.Metrics(t)[`catalogd_db_reads_total{target="`+target+`"}`]
}

// waitUp waits until e's probe sees the replica up and caught up (a standby that has just
// replayed the database's creation, or was started again).
func waitUp(t *testing.T, e *apptest.Env, name string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		m := e.Metrics(t)
		if m[`catalogd_db_replica_up{replica="`+name+`"}`] == 1 && m[`catalogd_db_replica_paused{replica="`+name+`"}`] == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("replica %s not up after 30s: %v", name, m)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// A read right after a write sees it, and is served by the standby: the list after each create
// holds the new attribute, and every GET is counted as the standby's read, none as the primary's.
// Writes are never counted as reads.
func TestReadYourWritesThroughTheStandby(t *testing.T) {
	e, _, name := withStandby(t)
	waitUp(t, e, name)
	c := e.Client(t)
	before, beforePrimary := reads(t, e, name), reads(t, e, store.PrimaryTarget)
	const n = 20
	for i := range n {
		a := apptest.Want(t, c.Post("/v1/attributes", map[string]any{"code": "c" + strconv.Itoa(i), "displayName": "C"}), 201).Obj()
		got := apptest.Want(t, c.Get("/v1/attributes/"+apptest.Str(a, "uuid")), 200).Obj()
		if apptest.Str(got, "code") != "c"+strconv.Itoa(i) {
			t.Fatalf("GET right after the create: %v", got)
		}
		if items := apptest.Want(t, c.Get("/v1/attributes?size=100"), 200).Items(); len(items) != i+1 {
			t.Fatalf("list right after create %d holds %d attributes, want %d", i+1, len(items), i+1)
		}
	}
	replica, primary := reads(t, e, name)-before, reads(t, e, store.PrimaryTarget)-beforePrimary
	if replica+primary != 2*n {
		t.Errorf("%v reads on the standby and %v on the primary, want %d in all (the GETs; writes are no reads)", replica, primary, 2*n)
	}
	// The standby streams as fast as the primary commits: a read may rarely wait longer than
	// CATALOG_READ_MAX_WAIT on a loaded machine, but most must be the standby's.
	if replica < n {
		t.Errorf("only %v of %d reads were served by the standby", replica, 2*n)
	}
}

// The proof that the standby serves reads: with its replay paused after a write, a read that
// accepts lag (Catalog-Consistency: eventual) does not see a later write (the standby has not
// replayed it), while a default read does (the primary answers it: a paused replica is skipped,
// without waiting). Once the standby is further behind than CATALOG_READ_MAX_LAG, eventual reads
// go to the primary too. Resumed, the standby serves reads again.
func TestLaggingStandbyIsSkipped(t *testing.T) {
	const maxLag = 3 * time.Second
	e, sb, name := withStandby(t, func(c *app.Config) { c.ReadMaxLag = maxLag })
	waitUp(t, e, name)
	c := e.Client(t)
	ev := *c
	ev.Header = http.Header{"Catalog-Consistency": {"eventual"}}
	// A replica's lag, once it is behind, is the time since the last transaction it replayed
	// committed: the first request (which loads the OpenAPI contract the client checks, seconds)
	// comes before that transaction, so that the lag starts small.
	apptest.Want(t, c.Get("/v1/attributes"), 200)
	apptest.Want(t, c.Post("/v1/attributes", map[string]any{"code": "first", "displayName": "First"}), 201)
	if err := sb.WaitReplayed(ctx, e.DBURL); err != nil {
		t.Fatal(err)
	}
	standbySQL := direct(t, mustHostPort(t, sb, e.DBURL))
	if _, err := standbySQL.Exec(ctx, "SELECT pg_wal_replay_pause()"); err != nil {
		t.Fatal(err)
	}
	for state := ""; state != "paused"; { // a pause is requested, and takes effect at the next record
		if err := standbySQL.QueryRow(ctx, "SELECT pg_get_wal_replay_pause_state()").Scan(&state); err != nil {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond)
	}
	paused := time.Now()
	t.Cleanup(func() { _, _ = standbySQL.Exec(ctx, "SELECT pg_wal_replay_resume()") })
	apptest.Want(t, c.Post("/v1/attributes", map[string]any{"code": "second", "displayName": "Second"}), 201)
	waitPaused(t, e, name)

	onReplica := reads(t, e, name)
	if items := apptest.Want(t, ev.Get("/v1/attributes"), 200).Items(); len(items) != 1 && time.Since(paused) < maxLag {
		t.Fatalf("an eventual read while the standby is paused (%s behind at most) holds %d attributes, want the standby's 1", time.Since(paused), len(items))
	}
	if got := reads(t, e, name) - onReplica; got != 1 && time.Since(paused) < maxLag {
		t.Errorf("the eventual read counted %v standby reads, want 1", got)
	}
	onPrimary := reads(t, e, store.PrimaryTarget)
	if items := apptest.Want(t, c.Get("/v1/attributes"), 200).Items(); len(items) != 2 {
		t.Fatalf("a default read holds %d attributes, want 2: it must see the write made before it", len(items))
	}
	if got := reads(t, e, store.PrimaryTarget) - onPrimary; got != 1 {
		t.Errorf("the default read counted %v primary reads, want 1 (the paused standby is skipped)", got)
	}
	// Beyond the lag bound, eventual reads go to the primary as well.
	// The lag is read by the probe (every 250 ms; later on a busy machine): wait until it reports
	// the bound passed, which it must within a few probes.
	time.Sleep(time.Until(paused.Add(maxLag)))
	apptest.WaitFor(t, 10*time.Second, "the probe to report the paused standby "+maxLag.String()+" behind", func() bool {
		return e.Metrics(t)[`catalogd_db_replica_lag_seconds{replica="`+name+`"}`] >= maxLag.Seconds()
	})
	if items := apptest.Want(t, ev.Get("/v1/attributes"), 200).Items(); len(items) != 2 {
		t.Fatalf("an eventual read with the standby %s behind holds %d attributes, want the primary's 2", maxLag, len(items))
	}
	if _, err := standbySQL.Exec(ctx, "SELECT pg_wal_replay_resume()"); err != nil {
		t.Fatal(err)
	}
	waitUp(t, e, name)
	apptest.Want(t, c.Post("/v1/attributes", map[string]any{"code": "third", "displayName": "Third"}), 201)
	onReplica = reads(t, e, name)
	for range 5 {
		if items := apptest.Want(t, c.Get("/v1/attributes"), 200).Items(); len(items) != 3 {
			t.Fatalf("after resume a read holds %d attributes, want 3", len(items))
		}
	}
	if reads(t, e, name) == onReplica {
		t.Error("the resumed standby serves no read")
	}
}

func waitPaused(t *testing.T, e *apptest.Env, name string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for e.Metrics(t)[`catalogd_db_replica_paused{replica="`+name+`"}`] != 1 {
		if time.Now().After(deadline) {
			t.Fatal("the probe does not see the paused standby behind the primary")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func mustHostPort(t *testing.T, sb *pgembed.Cluster, u string) string {
	t.Helper()
	s, err := sb.HostPort(u)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A standby that is killed changes nothing for clients: every read and write keeps answering
// (the primary serves the reads, the standby is shown down), and once it runs again it serves
// reads again.
func TestKilledStandbyCostsNoError(t *testing.T) {
	e, sb, name := withStandby(t)
	waitUp(t, e, name)
	c := e.Client(t)
	ev := *c
	ev.Header = http.Header{"Catalog-Consistency": {"eventual"}}
	a := apptest.Want(t, c.Post("/v1/attributes", map[string]any{"code": "kept", "displayName": "Kept"}), 201).Obj()
	apptest.Want(t, c.Get("/v1/attributes/"+apptest.Str(a, "uuid")), 200) // a pooled connection to the standby
	apptest.Want(t, ev.Get("/v1/attributes"), 200)
	if err := sb.Halt("immediate"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sb.Resume(ctx) })
	onPrimary := reads(t, e, store.PrimaryTarget)
	for i := range 10 {
		apptest.Want(t, c.Get("/v1/attributes/"+apptest.Str(a, "uuid")), 200)
		apptest.Want(t, ev.Get("/v1/attributes"), 200)
		apptest.Want(t, c.Post("/v1/attributes", map[string]any{"code": "down" + strconv.Itoa(i), "displayName": "D"}), 201)
		if n := len(apptest.Want(t, c.Get("/v1/attributes?size=100"), 200).Items()); n != i+2 {
			t.Fatalf("with the standby down a list holds %d attributes, want %d", n, i+2)
		}
	}
	if got := reads(t, e, store.PrimaryTarget) - onPrimary; got != 30 {
		t.Errorf("%v reads on the primary with the standby down, want all 30", got)
	}
	if up := e.Metrics(t)[`catalogd_db_replica_up{replica="`+name+`"}`]; up != 0 {
		t.Errorf("catalogd_db_replica_up %v with the standby killed, want 0", up)
	}
	if err := sb.Resume(ctx); err != nil {
		t.Fatal(err)
	}
	waitUp(t, e, name)
	// Started again after a crash, the standby recovers and reconnects to the primary (its WAL
	// receiver retries every 5 s): reads go to it once it has caught up.
	if err := sb.WaitReplayed(ctx, e.DBURL); err != nil {
		t.Fatal(err)
	}
	// A read waits at most CATALOG_READ_MAX_WAIT for the standby to replay its position, then goes
	// to the primary: on a busy machine the first few may; within 10 s one must reach the standby.
	onReplica := reads(t, e, name)
	for deadline := time.Now().Add(10 * time.Second); reads(t, e, name) == onReplica; {
		if time.Now().After(deadline) {
			t.Fatal("the standby, running again, serves no read")
		}
		apptest.Want(t, c.Get("/v1/attributes/"+apptest.Str(a, "uuid")), 200)
	}
}

// gRPC reads route like REST ones (the chain, for every transport), with the consistency in the
// catalog-consistency metadata; a value other than "eventual" is refused on REST and gRPC alike.
func TestConsistencyOverGRPCAndRefusals(t *testing.T) {
	e, _, name := withStandby(t)
	waitUp(t, e, name)
	c := e.Client(t)
	a := apptest.Want(t, c.Post("/v1/attributes", map[string]any{"code": "g", "displayName": "G"}), 201).Obj()
	cl := catalogv1.NewAttributeServiceClient(e.GRPC)
	onReplica := reads(t, e, name)
	gctx := metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+c.Token, "catalog-consistency", "eventual")
	if _, err := cl.GetAttribute(gctx, &catalogv1.GetAttributeRequest{AttributeUuid: apptest.Str(a, "uuid")}); err != nil {
		t.Fatalf("GetAttribute with catalog-consistency eventual: %v", err)
	}
	if reads(t, e, name) == onReplica {
		t.Error("the gRPC eventual read was not the standby's")
	}
	bad := *c
	bad.Header = http.Header{"Catalog-Consistency": {"strong"}}
	apptest.WantProblem(t, bad.Get("/v1/attributes"), 400, "VALIDATION_FAILED", "Catalog-Consistency")
	gctx = metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+c.Token, "catalog-consistency", "whatever")
	_, err := cl.GetAttribute(gctx, &catalogv1.GetAttributeRequest{AttributeUuid: apptest.Str(a, "uuid")})
	apptest.WantGRPC(t, "GetAttribute with catalog-consistency whatever", err, codes.InvalidArgument, "VALIDATION_FAILED", "Catalog-Consistency")
	// A write ignores the header: it runs on the primary.
	apptest.Want(t, bad.Post("/v1/attributes", map[string]any{"code": "w", "displayName": "W"}), 201)
}

// Migrations and workers use the primary only: a catalogd whose only read URL is a standby
// migrates a fresh database, and its webhook dispatcher and scheduler run (a write or a worker
// statement on the standby would fail: it is read-only). The standby's catalogd sessions are the
// read pool's alone.
func TestNoWriteOrWorkerOnTheStandby(t *testing.T) {
	e, sb, name := withStandby(t)
	waitUp(t, e, name)
	var migrated int
	if err := direct(t, e.DBURL).QueryRow(ctx, "SELECT count(*) FROM schema_migrations").Scan(&migrated); err != nil {
		t.Fatalf("the migrations' table on the primary: %v", err)
	}
	if migrated == 0 {
		t.Fatal("no migration recorded on the primary")
	}
	c := e.Client(t)
	for i := range 5 {
		apptest.Want(t, c.Post("/v1/attributes", map[string]any{"code": "w" + strconv.Itoa(i), "displayName": "W"}), 201)
		apptest.Want(t, c.Get("/v1/attributes"), 200)
	}
	standbySQL := direct(t, mustHostPort(t, sb, e.DBURL))
	var apps []string
	rows, err := standbySQL.Query(ctx, `SELECT DISTINCT application_name FROM pg_stat_activity
		WHERE datname = current_database() AND application_name LIKE 'catalogd%'`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var a string
		if err := rows.Scan(&a); err != nil {
			t.Fatal(err)
		}
		apps = append(apps, a)
	}
	if rows.Err() != nil {
		t.Fatal(rows.Err())
	}
	if len(apps) != 1 || apps[0] != "catalogd-read" {
		t.Errorf("catalogd sessions on the standby: %v, want only the read pool's (catalogd-read)", apps)
	}
}

// A read URL that reaches a primary (not in recovery) serves no read: its WAL positions say
// nothing of the primary's. It is shown down, and the primary answers, without errors.
func TestReadURLOfAPrimaryServesNoRead(t *testing.T) {
	dbURL, drop, err := apptest.CreateDatabase(ctx, "catalogd_replica")
	if err != nil {
		t.Fatal(err)
	}
	e, err := apptest.StartOn(dbURL, drop, func(c *app.Config) { c.DatabaseReadURLs = []string{dbURL} })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Stop)
	c := e.Client(t)
	apptest.Want(t, c.Post("/v1/attributes", map[string]any{"code": "p", "displayName": "P"}), 201)
	for range 3 {
		apptest.Want(t, c.Get("/v1/attributes"), 200)
	}
	name := "127.0.0.1:" + mustPort(t, dbURL) + "/" + dbName(t, dbURL)
	m := e.Metrics(t)
	if m[`catalogd_db_reads_total{target="`+name+`"}`] != 0 || m[`catalogd_db_reads_total{target="primary"}`] != 3 {
		t.Errorf("reads by target: %v, want the primary's 3", m)
	}
}

func mustPort(t *testing.T, u string) string {
	t.Helper()
	i := strings.LastIndex(u, ":")
	j := strings.Index(u[i:], "/")
	return u[i+1 : i+j]
}

// Configuration refusals: the embedded database has no replicas, a read URL given twice, a URL
// that pgx cannot read.
func TestReadURLRefusals(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  func(c *app.Config)
		want string
	}{
		{"embedded", func(c *app.Config) { c.DatabaseURL, c.DatabaseReadURLs = "", []string{"postgres://u@127.0.0.1:1/x"} }, "embedded"},
		{"twice", func(c *app.Config) {
			c.DatabaseReadURLs = []string{"postgres://u@127.0.0.1:1/x", "postgres://v@127.0.0.1:1/x?sslmode=disable"}
		}, "given twice"},
		{"unreadable", func(c *app.Config) { c.DatabaseReadURLs = []string{"postgres://u@127.0.0.1:1/x?pool_max_conns=nope"} }, "DATABASE_READ_URL 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dbURL, drop, err := apptest.CreateDatabase(ctx, "catalogd_replica")
			if err != nil {
				t.Fatal(err)
			}
			e, err := apptest.StartOn(dbURL, drop, tc.cfg)
			if err == nil {
				e.Stop()
				t.Fatal("catalogd started")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want one naming %q", err, tc.want)
			}
		})
	}
	for _, bad := range []string{"", "nope", "mysql://h/db", "postgres://", "postgres://h/db,,postgres://h2/db", "host=h dbname=x"} {
		if _, err := store.ParseReadURLs(bad); err == nil {
			t.Errorf("DATABASE_READ_URL %q accepted", bad)
		}
	}
	got, err := store.ParseReadURLs("postgres://u:p@a:5432/db, postgresql://u:p@b/db?sslmode=disable")
	if err != nil || len(got) != 2 {
		t.Errorf("two URLs: %v %v", got, err)
	}
}
