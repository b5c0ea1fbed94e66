package assetfiles_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/catalogd/catalogd/server/assetfiles"
	"github.com/catalogd/catalogd/server/store"
)

// pending inserts a pending file of asset whose upload URL expires at exp.
func (e *env) pending(tenant string, asset uuid.UUID, exp time.Time) (uuid.UUID, string) {
	e.t.Helper()
	id := uuid.New()
	key := e.keyFor(tenant, asset, id)
	e.exec(`INSERT INTO asset_files (tenant_id, uuid, asset_uuid, kind, status, file_name, content_type, size_bytes,
		storage_key, upload_expires_at, created_at, updated_at)
		VALUES ($1, $2, $3, 'original', 'pending', 'f.bin', 'application/octet-stream', 10, $4, $5, $5::timestamptz - interval '1 hour', $5::timestamptz - interval '1 hour')`,
		tenant, id, asset, key, exp)
	return id, key
}

func TestExpiry(t *testing.T) {
	e := newEnv(t)
	now := store.Now()
	ctx := store.WithNow(bg, now)
	old, oldKey := e.pending(e.tenant, e.asset, now.Add(-time.Hour))
	recent, recentKey := e.pending(e.tenant, e.asset, now.Add(-10*time.Second))
	live, _ := e.pending(e.tenant, e.asset, now.Add(time.Minute))
	done, _ := e.pending(e.tenant, e.asset, now.Add(-time.Hour))
	e.exec(`UPDATE asset_files SET status = 'uploaded' WHERE uuid = $1`, done)
	other := "t-" + uuid.NewString()[:8]
	otherAsset := e.newAsset(other)
	otherFile, _ := e.pending(other, otherAsset, now.Add(-time.Minute))
	// A bulk of expired uploads in a third tenant: more than one batch.
	bulk := "t-" + uuid.NewString()[:8]
	bulkAsset := e.newAsset(bulk)
	e.exec(`INSERT INTO asset_files (tenant_id, uuid, asset_uuid, kind, status, file_name, content_type, size_bytes,
		storage_key, upload_expires_at, created_at, updated_at)
		SELECT $1, gen_random_uuid(), $2, 'original', 'pending', 'f.bin', 'application/octet-stream', 1,
		       'bulk/' || i, $3::timestamptz - interval '1 day', $3::timestamptz - interval '2 days', $3::timestamptz - interval '2 days'
		FROM generate_series(1, $4::integer) i`, bulk, bulkAsset, now, 2*assetfiles.ExpiryBatch+200)
	// One expired file is being completed (locked by complete-upload's transaction): skipped now.
	locked, _ := e.pending(e.tenant, e.asset, now.Add(-time.Hour))
	tx, err := e.db.Pool.Begin(bg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tx.Rollback(bg) }) // before the pool closes, whatever fails
	if _, err := tx.Exec(bg, `SELECT 1 FROM asset_files WHERE uuid = $1 FOR UPDATE`, locked); err != nil {
		t.Fatal(err)
	}

	w := e.worker()
	n, err := w.Expire(ctx)
	if want := 2 + 1 + 2*assetfiles.ExpiryBatch + 200; err != nil || n != want {
		t.Fatalf("expired %d (want %d), %v", n, want, err)
	}
	status := func(id uuid.UUID) (s, reason string, updated time.Time) {
		if err := e.db.Pool.QueryRow(bg, `SELECT status, coalesce(failure_reason, ''), updated_at FROM asset_files WHERE uuid = $1`, id).
			Scan(&s, &reason, &updated); err != nil {
			t.Fatal(err)
		}
		return
	}
	for _, id := range []uuid.UUID{old, recent, otherFile} {
		if s, r, u := status(id); s != "failed" || r != "upload expired" || !u.Equal(now) {
			t.Fatalf("%s: %s %q %v", id, s, r, u)
		}
	}
	for id, want := range map[uuid.UUID]string{live: "pending", done: "uploaded", locked: "pending"} {
		if s, _, _ := status(id); s != want {
			t.Fatalf("%s: %s, want %s", id, s, want)
		}
	}
	if n := e.count(`SELECT count(*) FROM asset_files WHERE tenant_id = $1 AND status = 'failed'`, bulk); n != 2*assetfiles.ExpiryBatch+200 {
		t.Fatalf("bulk: %d failed", n)
	}
	// One asset.file.failed event per file, in its tenant, stamped now.
	evs := e.eventsOf(e.tenant, "asset.file.failed")
	if len(evs) != 2 {
		t.Fatalf("events %v", evs)
	}
	for _, ev := range evs {
		if ev["assetUuid"] != e.asset.String() || (ev["fileUuid"] != old.String() && ev["fileUuid"] != recent.String()) {
			t.Fatalf("event %v", ev)
		}
	}
	if evs := e.eventsOf(other, "asset.file.failed"); len(evs) != 1 || evs[0]["fileUuid"] != otherFile.String() || evs[0]["assetUuid"] != otherAsset.String() {
		t.Fatalf("other tenant's events %v", evs)
	}
	if n := len(e.eventsOf(bulk, "asset.file.failed")); n != 2*assetfiles.ExpiryBatch+200 {
		t.Fatalf("bulk: %d events", n)
	}
	if n := e.count(`SELECT count(*) FROM events WHERE type = 'asset.file.failed' AND created_at <> $1`, now); n != 0 {
		t.Fatalf("%d events not stamped now", n)
	}
	// Their objects (the key and the upload's staging key) are queued by the trigger, each once
	// the signed URL cannot write it any more (on the database's clock).
	queued := func(key string) (nb, dbNow time.Time) {
		// The first deletion of the key (a staging key has a second one a day later, for a slow
		// PUT to S3 that lands after its URL's expiry).
		if err := e.db.Pool.QueryRow(bg, `SELECT min(not_before), now() FROM blob_deletions WHERE storage_key = $1`, key).Scan(&nb, &dbNow); err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		return
	}
	for _, k := range []string{oldKey, oldKey + ".upload"} {
		if nb, dbNow := queued(k); nb.After(dbNow) || nb.Before(now) {
			t.Fatalf("%s: not_before %v, want the expiry sweep's time (after %v)", k, nb, now)
		}
	}
	for _, k := range []string{recentKey, recentKey + ".upload"} {
		if nb, _ := queued(k); !nb.Equal(now.Add(50 * time.Second)) {
			t.Fatalf("%s: not_before %v, want %v", k, nb, now.Add(50*time.Second))
		}
	}
	// Per file: its key, and its staging key twice (a minute and a day after the expiry).
	if n := e.count(`SELECT count(*) FROM blob_deletions`); n != 3*(3+2*assetfiles.ExpiryBatch+200) {
		t.Fatalf("%d blob deletions", n)
	}
	if m := e.metric("catalogd_uploads_expired_total", ""); m != float64(3+2*assetfiles.ExpiryBatch+200) {
		t.Fatalf("expired metric %v", m)
	}

	// Once complete-upload's transaction ends (without completing), the next sweep fails the file.
	if err := tx.Rollback(bg); err != nil {
		t.Fatal(err)
	}
	if n, err := w.Expire(ctx); err != nil || n != 1 {
		t.Fatalf("second sweep: %d, %v", n, err)
	}
	if n, err := w.Expire(ctx); err != nil || n != 0 {
		t.Fatalf("third sweep: %d, %v", n, err)
	}
}

// queue adds key to blob_deletions, due after delay (negative: already due).
func (e *env) queue(key string, delay time.Duration) {
	e.t.Helper()
	e.exec(`INSERT INTO blob_deletions (storage_key, not_before) VALUES ($1, now() + make_interval(secs => $2))`, key, delay.Seconds())
}

func (e *env) put(key string) {
	e.t.Helper()
	if _, _, err := e.store.Put(bg, key, "application/octet-stream", bytes.NewReader([]byte(key))); err != nil {
		e.t.Fatal(err)
	}
}

func TestCollector(t *testing.T) {
	e := newEnv(t)
	for _, k := range []string{"a/1", "a/2", "b/3", "later/4", "inuse/5"} {
		e.put(k)
	}
	e.queue("a/1", -time.Second)
	e.queue("a/2", -time.Second)
	e.queue("b/3", 0)
	e.queue("b/3", 0) // queued twice (two deletions let go of it): both rows go
	e.queue("missing/6", 0)
	e.queue("later/4", time.Hour)
	e.queue("../bad", 0)
	// An uploaded file still uses inuse/5: never deleted, whatever the queue says.
	e.exec(`INSERT INTO asset_files (tenant_id, uuid, asset_uuid, kind, status, file_name, content_type, size_bytes, storage_key, created_at, updated_at)
		VALUES ($1, $2, $3, 'original', 'uploaded', 'x', 'application/octet-stream', 7, 'inuse/5', now(), now())`, e.tenant, uuid.New(), e.asset)
	e.queue("inuse/5", 0)

	w := e.worker()
	if n, err := w.Collect(bg); err != nil || n != 7 {
		t.Fatalf("collected %d, %v", n, err)
	}
	if objs := e.objects(); len(objs) != 2 || objs[0] != "inuse/5" || objs[1] != "later/4" {
		t.Fatalf("objects %v", objs)
	}
	if n := e.count(`SELECT count(*) FROM blob_deletions WHERE storage_key <> 'later/4'`); n != 0 {
		t.Fatalf("%d rows left besides later/4", n)
	}
	if d, k := e.metric("catalogd_blob_deletions_total", "deleted"), e.metric("catalogd_blob_deletions_total", "kept"); d != 5 || k != 2 {
		t.Fatalf("deleted %v kept %v", d, k)
	}

	// A store that refuses (here: closed) keeps the rows, with a backoff.
	broken := e.openStore()
	broken.Close()
	w.Store = broken
	e.exec(`UPDATE blob_deletions SET not_before = now()`)
	if n, err := w.Collect(bg); err != nil || n != 0 {
		t.Fatalf("collected %d with a broken store, %v", n, err)
	}
	var attempts int
	var delay float64
	if err := e.db.Pool.QueryRow(bg, `SELECT attempts, extract(epoch FROM not_before - now()) FROM blob_deletions WHERE storage_key = 'later/4'`).
		Scan(&attempts, &delay); err != nil {
		t.Fatal(err)
	}
	if attempts != 1 || delay < 8 || delay > 11 {
		t.Fatalf("after a failed deletion: attempts %d, due in %.1fs", attempts, delay)
	}
	if objs := e.objects(); len(objs) != 2 {
		t.Fatalf("objects %v", objs)
	}
	if m := e.metric("catalogd_blob_deletions_total", "error"); m != 1 {
		t.Fatalf("error = %v", m)
	}
	// Not due yet: nothing claimed. Due again with a working store: deleted.
	if n, err := w.Collect(bg); err != nil || n != 0 {
		t.Fatalf("collected %d before the backoff, %v", n, err)
	}
	w.Store = e.store
	e.exec(`UPDATE blob_deletions SET not_before = now()`)
	if n, err := w.Collect(bg); err != nil || n != 1 {
		t.Fatalf("collected %d, %v", n, err)
	}
	if objs := e.objects(); len(objs) != 1 || objs[0] != "inuse/5" {
		t.Fatalf("objects %v", objs)
	}
}

// Run drives all three jobs: an expired upload's object is deleted once its URL is dead, an
// orphan of a dead rendition worker (a journalled key past its hold) is collected, and a
// rendition is made, without any step called by hand.
func TestRunDoesEverything(t *testing.T) {
	e := newEnv(t)
	id := e.original("run.jpg", jpegOf(t, photo(640, 480)))
	_, key := e.pending(e.tenant, e.asset, time.Now().Add(-2*time.Minute))
	e.put(key)
	e.put("tenants/orphan/x")
	e.queue("tenants/orphan/x", -time.Second)
	ctx, cancel := context.WithCancel(bg)
	done := make(chan struct{})
	w := e.worker()
	go func() { defer close(done); w.Run(ctx) }()
	eventually(t, "renditions, expiry and collection", func() bool {
		var n int
		err := e.db.Pool.QueryRow(bg, `SELECT count(*) FROM asset_files WHERE source_file_uuid = $1`, id).Scan(&n)
		return err == nil && n == 2 && e.count(`SELECT count(*) FROM blob_deletions WHERE not_before <= now()`) == 0 &&
			e.count(`SELECT count(*) FROM asset_files WHERE status = 'failed'`) == 1
	})
	cancel()
	<-done
	if objs := e.objects(); len(objs) != 3 {
		t.Fatalf("objects %v (want the original and its two renditions)", objs)
	}
}
