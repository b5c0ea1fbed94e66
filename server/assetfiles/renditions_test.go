package assetfiles_test

import (
	"context"
	"path"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/assetfiles"
	"github.com/catalogd/catalogd/server/renditions"
	"github.com/catalogd/catalogd/server/renditions/renditionstest"
	"github.com/catalogd/catalogd/server/store"
)

type want struct {
	name        string
	contentType string
	w, h        int32
}

// checkRenditions verifies both renditions of original against wants (thumbnail, web_optimized):
// rows, stored bytes (size, checksum, decoded format and size), keys.
func (e *env) checkRenditions(original uuid.UUID, thumb, web want) map[string]db.AssetFile {
	e.t.Helper()
	got := e.renditionsOf(original)
	if len(got) != 2 {
		e.t.Fatalf("%s: %d renditions, want 2", original, len(got))
	}
	origKey := e.keyFor(e.tenant, e.asset, original)
	for kind, w := range map[string]want{"thumbnail": thumb, "web_optimized": web} {
		f, ok := got[kind]
		if !ok {
			e.t.Fatalf("%s: no %s", original, kind)
		}
		if f.Status != "uploaded" || f.AssetUuid != e.asset || f.TenantID != e.tenant || f.UploadExpiresAt != nil ||
			f.FailureReason != nil || f.SourceFileUuid == nil || *f.SourceFileUuid != original || !f.CreatedAt.Equal(f.UpdatedAt) {
			e.t.Fatalf("%s %s: row %+v", original, kind, f)
		}
		if f.FileName != w.name || f.ContentType != w.contentType || f.Width == nil || f.Height == nil || *f.Width != w.w || *f.Height != w.h {
			e.t.Fatalf("%s %s: %s %s %v×%v, want %+v", original, kind, f.FileName, f.ContentType, *f.Width, *f.Height, w)
		}
		if path.Dir(f.StorageKey) != path.Dir(origKey) || path.Base(f.StorageKey) != f.Uuid.String() {
			e.t.Fatalf("%s %s: key %s beside %s", original, kind, f.StorageKey, origKey)
		}
		data := e.read(f.StorageKey)
		if int64(len(data)) != f.SizeBytes || f.ChecksumSha256 == nil || *f.ChecksumSha256 != sha(data) {
			e.t.Fatalf("%s %s: %d bytes stored, row says %d, checksum %v", original, kind, len(data), f.SizeBytes, f.ChecksumSha256)
		}
		m := decodeAs(e.t, f.ContentType, data)
		if int32(m.Bounds().Dx()) != w.w || int32(m.Bounds().Dy()) != w.h {
			e.t.Fatalf("%s %s: stored image is %v", original, kind, m.Bounds())
		}
	}
	return got
}

func TestRenditionsOfEachFormat(t *testing.T) {
	e := newEnv(t)
	jpg := e.original("photo.jpeg", jpegOf(t, photo(600, 400)))
	pngID := e.original("logo.png", transparentPNG(t, 3000, 1000))
	gifID := e.original("anim.gif", gifOf(t, 300, 300))
	webp := e.original("pic.webp", webpOf(t, 512, 256))
	tiny := e.original("tiny", jpegOf(t, photo(100, 80))) // smaller than both sizes; no extension

	w := e.worker()
	if n, err := w.RenderDue(bg); err != nil || n != 5 {
		t.Fatalf("rendered %d, %v", n, err)
	}
	all := map[uuid.UUID]bool{}
	for _, set := range []map[string]db.AssetFile{
		e.checkRenditions(jpg, want{"photo-thumbnail.jpg", "image/jpeg", 256, 171}, want{"photo-web_optimized.jpg", "image/jpeg", 600, 400}),
		e.checkRenditions(pngID, want{"logo-thumbnail.png", "image/png", 256, 85}, want{"logo-web_optimized.png", "image/png", 2048, 683}),
		e.checkRenditions(gifID, want{"anim-thumbnail.jpg", "image/jpeg", 256, 256}, want{"anim-web_optimized.jpg", "image/jpeg", 300, 300}),
		e.checkRenditions(webp, want{"pic-thumbnail.jpg", "image/jpeg", 256, 128}, want{"pic-web_optimized.jpg", "image/jpeg", 512, 256}),
		// Never upscaled: both renditions keep the original's size.
		e.checkRenditions(tiny, want{"tiny-thumbnail.jpg", "image/jpeg", 100, 80}, want{"tiny-web_optimized.jpg", "image/jpeg", 100, 80}),
	} {
		for _, f := range set {
			all[f.Uuid] = true
		}
	}
	// One asset.file.uploaded event per rendition, with the API's payload keys.
	evs := e.eventsOf(e.tenant, "asset.file.uploaded")
	if len(evs) != 10 {
		t.Fatalf("%d events", len(evs))
	}
	for _, ev := range evs {
		if len(ev) != 2 || ev["assetUuid"] != e.asset.String() || !all[uuid.MustParse(ev["fileUuid"])] {
			t.Fatalf("event payload %v", ev)
		}
	}
	if n := e.count(`SELECT count(*) FROM rendition_jobs`); n != 0 {
		t.Fatalf("%d jobs left", n)
	}
	// The keys journalled before the writes were withdrawn by the commit.
	if n := e.count(`SELECT count(*) FROM blob_deletions`); n != 0 {
		t.Fatalf("%d blob deletions queued", n)
	}
	if n := len(e.objects()); n != 5+10 {
		t.Fatalf("%d objects", n)
	}
	if m := e.metric("catalogd_renditions_total", "made"); m != 5 {
		t.Fatalf("made = %v", m)
	}
}

func TestTwelveMegapixelJPEG(t *testing.T) {
	e := newEnv(t)
	id := e.original("camera.JPG", jpegOf(t, photo(4000, 3000)))
	if n, err := e.worker().RenderDue(bg); err != nil || n != 1 {
		t.Fatalf("rendered %d, %v", n, err)
	}
	e.checkRenditions(id, want{"camera-thumbnail.jpg", "image/jpeg", 256, 192}, want{"camera-web_optimized.jpg", "image/jpeg", 2048, 1536})
}

// Images over 100 megapixels (refused from the header alone: the stored object is nothing but a
// PNG header announcing 20000×20000), files that are not images and broken images get no
// renditions: the job goes, nothing is written.
func TestRefusals(t *testing.T) {
	e := newEnv(t)
	good := jpegOf(t, photo(300, 200))
	e.original("bomb.png", renditionstest.PNGHeader(20000, 20000))
	e.original("notes.txt", []byte("hello, I am not an image\n"))
	e.original("broken.jpg", good[:len(good)/2])
	before := e.objects()
	if n, err := e.worker().RenderDue(bg); err != nil || n != 3 {
		t.Fatalf("rendered %d, %v", n, err)
	}
	if n := e.count(`SELECT count(*) FROM asset_files WHERE kind <> 'original'`); n != 0 {
		t.Fatalf("%d renditions", n)
	}
	if n := e.count(`SELECT count(*) FROM rendition_jobs`); n != 0 {
		t.Fatalf("%d jobs left", n)
	}
	if n := e.count(`SELECT count(*) FROM blob_deletions`); n != 0 {
		t.Fatalf("%d blob deletions", n)
	}
	if after := e.objects(); len(after) != len(before) {
		t.Fatalf("objects %v, before %v", after, before)
	}
	if evs := e.eventsOf(e.tenant, "asset.file.uploaded"); len(evs) != 0 {
		t.Fatalf("events %v", evs)
	}
	for _, o := range []string{"too_large", "unsupported", "corrupt"} {
		if m := e.metric("catalogd_renditions_total", o); m != 1 {
			t.Errorf("%s = %v", o, m)
		}
	}
}

// A transient failure (here: the original's object is missing) keeps the job with its error and
// a backoff; after maxAttempts attempts the job is given up. A job whose claims were all cut short
// (its worker died each time) is given up without another try; a job of a file that is not an
// uploaded original is dropped.
func TestRetryAndGiveUp(t *testing.T) {
	e := newEnv(t)
	w := e.worker()
	missing := e.original("gone.jpg", nil)
	if n, err := w.RenderDue(bg); err != nil || n != 1 {
		t.Fatalf("rendered %d, %v", n, err)
	}
	var attempts int
	var lastError string
	var leased bool
	var delay float64
	if err := e.db.Pool.QueryRow(bg, `SELECT attempts, coalesce(last_error, ''), lease_until IS NOT NULL,
		extract(epoch FROM not_before - now()) FROM rendition_jobs WHERE file_uuid = $1`, missing).Scan(&attempts, &lastError, &leased, &delay); err != nil {
		t.Fatal(err)
	}
	if attempts != 1 || !strings.Contains(lastError, "open the original") || leased || delay < 8 || delay > 11 {
		t.Fatalf("after a transient failure: attempts %d, error %q, leased %v, due in %.1fs", attempts, lastError, leased, delay)
	}
	if m := e.metric("catalogd_renditions_total", "retry"); m != 1 {
		t.Fatalf("retry = %v", m)
	}
	// The last allowed attempt fails too: given up.
	e.exec(`UPDATE rendition_jobs SET attempts = $1, not_before = now()`, assetfiles.MaxAttempts-1)
	if n, err := w.RenderDue(bg); err != nil || n != 1 {
		t.Fatalf("rendered %d, %v", n, err)
	}
	if n := e.count(`SELECT count(*) FROM rendition_jobs`); n != 0 {
		t.Fatal("job kept after its last attempt")
	}

	// Claimed maxAttempts times already, each claim cut short: not tried again.
	dead := e.original("crashes.jpg", jpegOf(t, photo(300, 200)))
	e.exec(`UPDATE rendition_jobs SET attempts = $1`, assetfiles.MaxAttempts)
	// Not an uploaded original (a failed upload whose job somehow exists): dropped.
	failed := e.original("failed.jpg", jpegOf(t, photo(300, 200)))
	e.exec(`UPDATE asset_files SET status = 'failed' WHERE uuid = $1`, failed)
	if n, err := w.RenderDue(bg); err != nil || n != 2 {
		t.Fatalf("rendered %d, %v", n, err)
	}
	if n := e.count(`SELECT count(*) FROM rendition_jobs`); n != 0 {
		t.Fatalf("%d jobs left", n)
	}
	if len(e.renditionsOf(dead)) != 0 || len(e.renditionsOf(failed)) != 0 {
		t.Fatal("renditions made")
	}
	if g, s := e.metric("catalogd_renditions_total", "gave_up"), e.metric("catalogd_renditions_total", "skipped"); g != 2 || s != 1 {
		t.Fatalf("gave_up %v skipped %v", g, s)
	}
}

// Two workers running side by side on many jobs make each rendition exactly once.
func TestRacingWorkersRun(t *testing.T) {
	e := newEnv(t)
	var ids []uuid.UUID
	for i := 0; i < 12; i++ {
		ids = append(ids, e.original("p.jpg", jpegOf(t, photo(400+i, 300))))
	}
	ctx, cancel := context.WithCancel(bg)
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		w := e.worker()
		w.Pool = renditions.NewPool(2, 0, renditions.Limits{})
		wg.Go(func() { w.Run(ctx) })
	}
	eventually(t, "all renditions", func() bool {
		return e.count(`SELECT count(*) FROM asset_files WHERE kind <> 'original'`) == 24 && e.count(`SELECT count(*) FROM rendition_jobs`) == 0
	})
	cancel()
	wg.Wait()
	for _, id := range ids {
		if got := e.renditionsOf(id); len(got) != 2 {
			t.Fatalf("%s: %d renditions", id, len(got))
		}
	}
	if n := len(e.objects()); n != 12+24 {
		t.Fatalf("%d objects", n)
	}
	if n := len(e.eventsOf(e.tenant, "asset.file.uploaded")); n != 24 {
		t.Fatalf("%d events", n)
	}
	if n := e.count(`SELECT count(*) FROM blob_deletions`); n != 0 {
		t.Fatalf("%d blob deletions", n)
	}
}

// Two workers render the same job at once (the first one's lease ran out while it worked): one
// commits, the other inserts nothing and deletes the objects it wrote.
func TestSameJobTwice(t *testing.T) {
	e := newEnv(t)
	id := e.original("twice.png", transparentPNG(t, 900, 600))
	a, b := e.worker(), e.worker()
	ja, err := a.ClaimJobs(bg, 1)
	if err != nil || len(ja) != 1 {
		t.Fatal(ja, err)
	}
	e.exec(`UPDATE rendition_jobs SET not_before = now()`) // a's lease has run out
	jb, err := b.ClaimJobs(bg, 1)
	if err != nil || len(jb) != 1 || jb[0].Attempts != 2 {
		t.Fatal(jb, err)
	}
	var wg sync.WaitGroup
	wg.Go(func() { a.Render(bg, ja[0]) })
	wg.Go(func() { b.Render(bg, jb[0]) })
	wg.Wait()
	e.checkRenditions(id, want{"twice-thumbnail.png", "image/png", 256, 171}, want{"twice-web_optimized.png", "image/png", 900, 600})
	if n := len(e.objects()); n != 3 {
		t.Fatalf("%d objects: %v", n, e.objects())
	}
	if n := e.count(`SELECT count(*) FROM blob_deletions`) + e.count(`SELECT count(*) FROM rendition_jobs`); n != 0 {
		t.Fatalf("%d rows left", n)
	}
	if n := len(e.eventsOf(e.tenant, "asset.file.uploaded")); n != 2 {
		t.Fatalf("%d events", n)
	}
	if m, g := e.metric("catalogd_renditions_total", "made"), e.metric("catalogd_renditions_total", "gone"); m != 1 || g != 1 {
		t.Fatalf("made %v gone %v", m, g)
	}
}

// blockPool returns a pool of one slot, taken by a rendition held mid-decode until the returned
// func is called.
func blockPool(t *testing.T) (*renditions.Pool, func()) {
	p := renditions.NewPool(1, 0, renditions.Limits{})
	g := &gate{data: transparentPNG(t, 400, 400), n: 100, open: make(chan struct{})}
	done := make(chan struct{})
	go func() { defer close(done); p.Make(bg, g, renditions.Thumbnail) }()
	eventually(t, "the blocker to run", func() bool { r, _, _ := p.Stats(); return r == 1 })
	var once sync.Once
	release := func() { once.Do(func() { close(g.open); <-done }) }
	t.Cleanup(release)
	return p, release
}

func waiting(p *renditions.Pool) bool { _, _, w := p.Stats(); return w == 1 }

// A replica killed mid-rendition (here: its database gone, then its context cancelled, so it can
// give nothing back) leaves the job claimed; another worker takes it once the lease has run out.
func TestKilledWorkerJobTakenOverAfterLease(t *testing.T) {
	e := newEnv(t)
	id := e.original("big.jpg", jpegOf(t, photo(800, 600)))
	dbA, err := store.Open(bg, e.url)
	if err != nil {
		t.Fatal(err)
	}
	pool, _ := blockPool(t)
	a := &assetfiles.Worker{DB: dbA, Store: e.store, Log: logger(), Pool: pool, Lease: 3 * time.Second, Interval: 20 * time.Millisecond}
	ctx, cancel := context.WithCancel(bg)
	done := make(chan struct{})
	go func() { defer close(done); a.Run(ctx) }()
	eventually(t, "the job to wait inside the pool", func() bool { return waiting(pool) })
	claimed := time.Now()
	dbA.Close()
	cancel()
	<-done

	var attempts int
	var leased bool
	if err := e.db.Pool.QueryRow(bg, `SELECT attempts, lease_until > now() FROM rendition_jobs WHERE file_uuid = $1`, id).Scan(&attempts, &leased); err != nil {
		t.Fatal(err)
	}
	if attempts != 1 || !leased || len(e.renditionsOf(id)) != 0 {
		t.Fatalf("after the kill: attempts %d leased %v", attempts, leased)
	}
	b := e.worker()
	if jobs, err := b.ClaimJobs(bg, 1); err != nil || len(jobs) != 0 {
		t.Fatalf("claimed under a live lease: %v %v", jobs, err)
	}
	var job db.ClaimRenditionJobsRow
	eventually(t, "the lease to run out", func() bool {
		jobs, err := b.ClaimJobs(bg, 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(jobs) == 1 {
			job = jobs[0]
		}
		return len(jobs) == 1
	})
	if time.Since(claimed) < 2*time.Second || job.Attempts != 2 {
		t.Fatalf("taken over after %v with attempts %d", time.Since(claimed), job.Attempts)
	}
	b.Render(bg, job)
	e.checkRenditions(id, want{"big-thumbnail.jpg", "image/jpeg", 256, 192}, want{"big-web_optimized.jpg", "image/jpeg", 800, 600})
}

// A worker shut down mid-rendition gives the job back at once, the attempt not counted.
func TestShutdownGivesJobBack(t *testing.T) {
	e := newEnv(t)
	id := e.original("p.jpg", jpegOf(t, photo(500, 300)))
	pool, _ := blockPool(t)
	a := e.worker()
	a.Pool = pool
	ctx, cancel := context.WithCancel(bg)
	done := make(chan struct{})
	go func() { defer close(done); a.Run(ctx) }()
	eventually(t, "the job to wait inside the pool", func() bool { return waiting(pool) })
	cancel()
	<-done
	var attempts int
	var leased, due bool
	if err := e.db.Pool.QueryRow(bg, `SELECT attempts, lease_until IS NOT NULL, not_before <= now() FROM rendition_jobs WHERE file_uuid = $1`, id).
		Scan(&attempts, &leased, &due); err != nil {
		t.Fatal(err)
	}
	if attempts != 0 || leased || !due {
		t.Fatalf("after shutdown: attempts %d leased %v due %v", attempts, leased, due)
	}
	if m := e.metric("catalogd_renditions_total", "canceled"); m != 1 {
		t.Fatalf("canceled = %v", m)
	}
	if n, err := e.worker().RenderDue(bg); err != nil || n != 1 || len(e.renditionsOf(id)) != 2 {
		t.Fatalf("rendered %d, %v", n, err)
	}
}

// The original (or its whole asset) deleted while its renditions are being made: the worker's
// commit finds it gone and deletes what it wrote; the collector deletes the original's object.
// Nothing is left.
func TestOriginalDeletedMidJob(t *testing.T) {
	for _, what := range []string{"original", "asset"} {
		t.Run(what, func(t *testing.T) {
			e := newEnv(t)
			id := e.original("doomed.jpg", jpegOf(t, photo(900, 700)))
			pool, release := blockPool(t)
			w := e.worker()
			w.Pool = pool
			jobs, err := w.ClaimJobs(bg, 1)
			if err != nil || len(jobs) != 1 {
				t.Fatal(jobs, err)
			}
			done := make(chan struct{})
			go func() { defer close(done); w.Render(bg, jobs[0]) }()
			eventually(t, "the job to wait inside the pool", func() bool { return waiting(pool) })
			if what == "original" {
				deleted, err := e.db.Q.DeleteAssetFile(bg, db.DeleteAssetFileParams{TenantID: e.tenant, AssetUuid: e.asset, Uuid: id})
				if err != nil || len(deleted) != 1 {
					t.Fatal(deleted, err)
				}
			} else {
				e.exec(`DELETE FROM assets WHERE tenant_id = $1 AND uuid = $2`, e.tenant, e.asset)
			}
			release()
			<-done
			if n, err := w.Collect(bg); err != nil || n != 1 {
				t.Fatalf("collected %d, %v", n, err)
			}
			if objs := e.objects(); len(objs) != 0 {
				t.Fatalf("objects left: %v", objs)
			}
			for _, table := range []string{"asset_files", "rendition_jobs", "blob_deletions"} {
				if n := e.count(`SELECT count(*) FROM ` + table); n != 0 {
					t.Fatalf("%d rows in %s", n, table)
				}
			}
			if evs := e.eventsOf(e.tenant, "asset.file.uploaded"); len(evs) != 0 {
				t.Fatalf("events %v", evs)
			}
			if m := e.metric("catalogd_renditions_total", "gone"); m != 1 {
				t.Fatalf("gone = %v", m)
			}
		})
	}
}

func TestRenditionName(t *testing.T) {
	long := strings.Repeat("é", 300)
	for _, c := range []struct{ in, kind, ct, out string }{
		{"beach.webp", "thumbnail", "image/jpeg", "beach-thumbnail.jpg"},
		{"logo.PNG", "web_optimized", "image/png", "logo-web_optimized.png"},
		{"archive.tar.gz", "thumbnail", "image/jpeg", "archive.tar-thumbnail.jpg"},
		{"v1.2 final", "thumbnail", "image/jpeg", "v1.2 final-thumbnail.jpg"},
		{".hidden", "thumbnail", "image/jpeg", ".hidden-thumbnail.jpg"},
		{"noext", "thumbnail", "image/png", "noext-thumbnail.png"},
		{long + ".jpg", "web_optimized", "image/jpeg", strings.Repeat("é", 255-len("-web_optimized.jpg")) + "-web_optimized.jpg"},
	} {
		if got := assetfiles.RenditionName(c.in, c.kind, c.ct); got != c.out {
			t.Errorf("%q → %q, want %q", c.in, got, c.out)
		}
	}
}

func TestBackoff(t *testing.T) {
	for attempts, want := range map[int32]time.Duration{1: 10 * time.Second, 2: 20 * time.Second, 4: 80 * time.Second, 7: 10 * time.Minute, 40: 10 * time.Minute} {
		if got := assetfiles.Backoff(attempts); got != want {
			t.Errorf("backoff(%d) = %v, want %v", attempts, got, want)
		}
	}
}

// The commit of renditions and the deletion of their asset take their locks in the same order
// (asset, original, job): the deletion waits for the commit, then deletes the renditions too,
// and neither is a deadlock victim.
func TestCommitLocksBeforeAssetDeletion(t *testing.T) {
	e := newEnv(t)
	id := e.original("p.jpg", jpegOf(t, photo(300, 200)))
	tx, err := e.db.Pool.Begin(bg)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(bg)
	q := e.db.Q.WithTx(tx)
	if _, err := q.LockRenditionSource(bg, db.LockRenditionSourceParams{TenantID: e.tenant, Uuid: id}); err != nil {
		t.Fatal(err)
	}
	deleted := make(chan error, 1)
	go func() {
		_, err := e.db.Pool.Exec(bg, `DELETE FROM assets WHERE tenant_id = $1 AND uuid = $2`, e.tenant, e.asset)
		deleted <- err
	}()
	eventually(t, "the deletion to wait for the lock", func() bool {
		return e.count(`SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'DELETE FROM assets%'`) == 1
	})
	if n, err := q.FinishRenditionJob(bg, db.FinishRenditionJobParams{TenantID: e.tenant, FileUuid: id}); err != nil || n != 1 {
		t.Fatal(n, err)
	}
	rows, err := q.InsertRenditions(bg, db.InsertRenditionsParams{TenantID: e.tenant, AssetUuid: e.asset, SourceFileUuid: &id, Now: store.Now(),
		Uuids: []uuid.UUID{uuid.New()}, Kinds: []string{"thumbnail"}, FileNames: []string{"p-thumbnail.jpg"}, ContentTypes: []string{"image/jpeg"},
		Sizes: []int64{1}, Checksums: []string{sha(nil)}, Widths: []int32{1}, Heights: []int32{1}, StorageKeys: []string{"r/1"}})
	if err != nil || len(rows) != 1 {
		t.Fatal(rows, err)
	}
	if err := tx.Commit(bg); err != nil {
		t.Fatal(err)
	}
	if err := <-deleted; err != nil {
		t.Fatal(err)
	}
	if n := e.count(`SELECT count(*) FROM asset_files`); n != 0 {
		t.Fatalf("%d files survive their asset", n)
	}
	// The rendition's object is queued for deletion with the original's.
	if n := e.count(`SELECT count(*) FROM blob_deletions WHERE storage_key = 'r/1'`); n != 1 {
		t.Fatal("rendition object not queued")
	}
}
