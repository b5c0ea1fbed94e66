package assetfiles

import (
	"bytes"
	"context"
	"crypto/rand"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	. "github.com/catalogd/catalogd/server/apptest"
	"github.com/catalogd/catalogd/server/blobstore"
)

// Complete: the file becomes uploaded with the checksum of its bytes (asset.file.created, then
// asset.file.uploaded); completing again answers the same file and writes nothing.
func TestComplete(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	a := mkAsset(t, c)
	log := NewEventLog(pool, tenant).Skip(t)
	data := []byte("name,price\nshoe,42\n")
	up := initiate(t, c, a, decl("prices.csv", "text/csv", data))
	id := idOf(up)
	log.Expect(t, "initiate", fileEv("created", a, id))
	wantStatus(t, "transfer", put(t, up, data), 200)
	log.Expect(t, "a transfer is no API write")

	f := Want(t, complete(c, a, id), 200).Obj()
	wantFile(t, "completed", f, "uuid", id, "assetUuid", a, "kind", "original", "status", "uploaded", "fileName", "prices.csv",
		"contentType", "text/csv", "sizeBytes", len(data), "checksumSha256", sha(data), "width", nil, "height", nil,
		"downloadUrl", nil, "sourceFileUuid", nil, "failureReason", nil, "createdAt", fileOf(up)["createdAt"],
		"uploadExpiresAt", fileOf(up)["uploadExpiresAt"])
	if TS(t, f["updatedAt"]).Before(TS(t, f["createdAt"])) {
		t.Errorf("updatedAt %v before createdAt %v", f["updatedAt"], f["createdAt"])
	}
	log.Expect(t, "complete", fileEv("uploaded", a, id))
	wantFileEvents(t, "complete", pool, tenant, id, "asset.file.created", "asset.file.uploaded")

	again := Want(t, complete(c, a, id), 200).Obj()
	if !reflect.DeepEqual(again, f) {
		t.Errorf("second complete = %v, want the file unchanged %v", again, f)
	}
	log.Expect(t, "a second complete writes nothing")
	g := getFile(t, c, a, id)
	if Str(g, "downloadUrl") == "" {
		t.Errorf("get of an uploaded file has no downloadUrl: %v", g)
	}
	g["downloadUrl"] = nil
	if !reflect.DeepEqual(g, f) {
		t.Errorf("get = %v, want the completed file %v", g, f)
	}

	// An empty file: zero bytes transferred, the empty input's checksum.
	e := upload(t, c, a, "empty.txt", "text/plain", nil)
	wantFile(t, "empty", e, "status", "uploaded", "sizeBytes", 0, "checksumSha256", sha(nil))
	if r := fetch(t, Str(getFile(t, c, a, Str(e, "uuid")), "downloadUrl")); r.Status != 200 || len(r.Body) != 0 {
		t.Errorf("download of the empty file: %d %q", r.Status, r.Body)
	}
}

// Complete of an image records its pixel size (from the bytes, whatever the declared type).
func TestCompleteImageSize(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	a := mkAsset(t, c)
	for _, tc := range []struct {
		name, ct string
		data     []byte
		w, h     int
	}{
		{"tiny.png", "image/png", pngOf(t, 3, 2, false), 3, 2},
		{"photo.jpg", "image/jpeg", jpegOf(t, 40, 30), 40, 30},
		{"anim.gif", "image/gif", gifOf(t, 17, 5), 17, 5},
		{"mislabelled.bin", "application/octet-stream", pngOf(t, 9, 11, false), 9, 11},
	} {
		f := upload(t, c, a, tc.name, tc.ct, tc.data)
		wantFile(t, tc.name, f, "status", "uploaded", "width", tc.w, "height", tc.h, "checksumSha256", sha(tc.data), "sizeBytes", len(tc.data))
		wantFileEvents(t, tc.name, pool, tenant, Str(f, "uuid"), "asset.file.created", "asset.file.uploaded")
	}
	// Bytes that merely claim to be an image have no size, and complete anyway.
	f := upload(t, c, a, "fake.png", "image/png", []byte("\x89PNG\r\n\x1a\nnot really"))
	wantFile(t, "fake png", f, "status", "uploaded", "width", nil, "height", nil)
}

// A complete that finds no object, or not the declared one, fails the file for good: 409
// UPLOAD_VERIFICATION_FAILED naming the field, the file failed with its reason, asset.file.failed;
// a later complete is an INVALID_TRANSITION.
func TestCompleteFailures(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	a := mkAsset(t, c)
	other := mkAsset(t, c)
	log := NewEventLog(pool, tenant).Skip(t)
	data := []byte("0123456789")

	// Nothing transferred.
	up := initiate(t, c, a, decl("missing.txt", "text/plain", data))
	id := idOf(up)
	log.Skip(t)
	p := WantProblem(t, complete(c, a, id), 409, "UPLOAD_VERIFICATION_FAILED", "fileUuid")
	f := getFile(t, c, a, id)
	wantFile(t, "failed", f, "status", "failed", "downloadUrl", nil, "checksumSha256", nil)
	if Str(f, "failureReason") == "" {
		t.Errorf("failed file without failureReason: %v", f)
	}
	if Str(p, "detail") == "" {
		t.Errorf("problem without detail: %v", p)
	}
	log.Expect(t, "refused complete", fileEv("failed", a, id))
	p = WantProblem(t, complete(c, a, id), 409, "INVALID_TRANSITION")
	WantTransitionMeta(t, "complete of a failed file", Meta(p), "failed")
	log.Expect(t, "complete of a failed file writes nothing")
	if g := getFile(t, c, a, id); !reflect.DeepEqual(g, f) {
		t.Errorf("a refused complete changed the failed file: %v, was %v", g, f)
	}
	// Transferring after the failure changes nothing: the file stays failed.
	put(t, up, data)
	WantProblem(t, complete(c, a, id), 409, "INVALID_TRANSITION")

	// A declared checksum the bytes do not have: the local store refuses the transfer, and the
	// complete then finds no object.
	up = initiate(t, c, a, decl("checked.txt", "text/plain", data, "checksumSha256", sha([]byte("9876543210"))))
	id = idOf(up)
	wantBlobProblem(t, "transfer with another digest", put(t, up, data), 400, "MALFORMED_REQUEST")
	log.Skip(t)
	WantProblem(t, complete(c, a, id), 409, "UPLOAD_VERIFICATION_FAILED")
	wantFile(t, "failed on checksum", getFile(t, c, a, id), "status", "failed")
	log.Expect(t, "refused complete", fileEv("failed", a, id))

	// An object that is there but not as declared (written past the signed URL, as a store
	// that does not enforce the checksum or size would let a client do): complete compares it.
	oob := outOfBand(t)
	up = initiate(t, c, a, decl("swapped.txt", "text/plain", data, "checksumSha256", sha(data)))
	id = idOf(up)
	if _, _, err := oob.Put(context.Background(), keyOf(t, Str(up, "uploadUrl")), "text/plain", bytes.NewReader([]byte("ABCDEFGHIJ"))); err != nil {
		t.Fatal(err)
	}
	log.Skip(t)
	WantProblem(t, complete(c, a, id), 409, "UPLOAD_VERIFICATION_FAILED", "checksumSha256")
	f = getFile(t, c, a, id)
	wantFile(t, "failed on checksum", f, "status", "failed")
	if !strings.Contains(Str(f, "failureReason"), sha([]byte("ABCDEFGHIJ"))) {
		t.Errorf("failureReason %q does not say which checksum the object has", f["failureReason"])
	}
	log.Expect(t, "checksum mismatch", fileEv("failed", a, id))
	up = initiate(t, c, a, decl("longer.txt", "text/plain", data))
	id = idOf(up)
	if _, _, err := oob.Put(context.Background(), keyOf(t, Str(up, "uploadUrl")), "text/plain", bytes.NewReader(append(data, '!'))); err != nil {
		t.Fatal(err)
	}
	log.Skip(t)
	WantProblem(t, complete(c, a, id), 409, "UPLOAD_VERIFICATION_FAILED", "sizeBytes")
	wantFile(t, "failed on size", getFile(t, c, a, id), "status", "failed")
	log.Expect(t, "size mismatch", fileEv("failed", a, id))

	// Unknown files, files of another asset, malformed uuids.
	pending := idOf(initiate(t, c, a, decl("p.txt", "text/plain", data)))
	log.Skip(t)
	Problem(t, "unknown file", complete(c, a, UnknownUUID), 404, "NOT_FOUND")
	Problem(t, "file of another asset", complete(c, other, pending), 404, "NOT_FOUND")
	Problem(t, "unknown asset", complete(c, UnknownUUID, pending), 404, "NOT_FOUND")
	Problem(t, "malformed file uuid", complete(c, a, "nope"), 400, "VALIDATION_FAILED", "fileUuid")
	log.Expect(t, "404s write nothing")
	wantFile(t, "still pending", getFile(t, c, a, pending), "status", "pending")
}

// outOfBand opens the main env's local blob store directly, to write objects the signed URLs
// would refuse.
func outOfBand(t *testing.T) *blobstore.Store {
	t.Helper()
	oobOnce.Do(func() {
		key := make([]byte, 32)
		_, _ = rand.Read(key)
		oobStore, oobErr = blobstore.Open(context.Background(), blobstore.Config{DataDir: mainSite.dir, Key: key, BaseURL: "http://unused.invalid/blobs"})
	})
	if oobErr != nil {
		t.Fatal(oobErr)
	}
	return oobStore
}

var (
	oobOnce  sync.Once
	oobStore *blobstore.Store
	oobErr   error
)

// Complete after the upload URL expired fails the file (even with its bytes in place), and its
// object is queued for deletion.
func TestCompleteAfterExpiry(t *testing.T) {
	t.Parallel()
	s := shortSite
	c, tenant := s.env.TenantClient(t)
	a := mkAsset(t, c)
	data := []byte("just in time")
	up := initiate(t, c, a, decl("late.txt", "text/plain", data))
	id := idOf(up)
	wantStatus(t, "transfer before the expiry", put(t, up, data), 200)
	time.Sleep(time.Until(TS(t, up["expiresAt"])) + 100*time.Millisecond)

	// The expiry sweep may get there first (then complete finds the file failed already).
	r := complete(c, a, id)
	if r.Status != 409 || (Str(r.Obj(), "code") != "UPLOAD_VERIFICATION_FAILED" && Str(r.Obj(), "code") != "INVALID_TRANSITION") {
		t.Errorf("complete after the expiry: %d %s, want 409 UPLOAD_VERIFICATION_FAILED (or INVALID_TRANSITION after the sweep)", r.Status, r.Raw)
	}
	f := getFile(t, c, a, id)
	wantFile(t, "expired", f, "status", "failed", "downloadUrl", nil)
	if !strings.Contains(Str(f, "failureReason"), "expired") {
		t.Errorf("failureReason %q does not say the upload expired", f["failureReason"])
	}
	wantFileEvents(t, "expired", s.pool, tenant, id, "asset.file.created", "asset.file.failed")
	// The bytes (under the key the upload URL names, or the file's own key) are queued for deletion
	// or already gone.
	var stored string
	if err := s.pool.QueryRow(context.Background(), `SELECT storage_key FROM asset_files WHERE uuid = $1`, id).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{keyOf(t, Str(up, "uploadUrl")), stored} {
		if s.blobExists(t, key) && count(t, s.pool, `SELECT count(*) FROM blob_deletions WHERE storage_key = $1`, key) == 0 {
			t.Errorf("the expired file's object %s is neither queued for deletion nor deleted", key)
		}
	}
}

// A pending file nobody completes is failed by the service once its upload URL expired
// (asset.file.failed), without any request.
func TestExpirySweep(t *testing.T) {
	t.Parallel()
	s := shortSite
	c, tenant := s.env.TenantClient(t)
	a := mkAsset(t, c)
	up := initiate(t, c, a, decl("abandoned.txt", "text/plain", []byte("never sent")))
	id := idOf(up)
	var f map[string]any
	WaitFor(t, shortTTL+15*time.Second, "the expired upload to be failed", func() bool {
		f = getFile(t, c, a, id)
		return Str(f, "status") != "pending"
	})
	wantFile(t, "expired", f, "status", "failed")
	if Str(f, "failureReason") == "" {
		t.Errorf("expired file without failureReason: %v", f)
	}
	if TS(t, f["updatedAt"]).Before(TS(t, up["expiresAt"])) {
		t.Errorf("failed at %v, before the upload URL expired at %v", f["updatedAt"], up["expiresAt"])
	}
	wantFileEvents(t, "expired", s.pool, tenant, id, "asset.file.created", "asset.file.failed")
	WantProblem(t, complete(c, a, id), 409, "INVALID_TRANSITION")
}

// Bulk complete: every item or none; a bad object fails its file and names its item, the others
// stay pending and can be completed after.
func TestBulkComplete(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	a, b := mkAsset(t, c), mkAsset(t, c)
	log := NewEventLog(pool, tenant)
	contents := [][]byte{[]byte("first"), []byte("second!"), []byte("third..")}
	ups := Want(t, c.Post(bulkInitiate, []any{
		decl("1.txt", "text/plain", contents[0], "assetUuid", a),
		decl("2.txt", "text/plain", contents[1], "assetUuid", b),
		decl("3.txt", "text/plain", contents[2], "assetUuid", a),
	}), 201).Objs()
	for i, up := range ups {
		wantStatus(t, "transfer", put(t, up, contents[i]), 200)
	}
	log.Skip(t)
	// Completed in another order than initiated: the answer follows the request.
	order := []int{2, 0, 1}
	assets := []string{a, b, a}
	var items []any
	for _, i := range order {
		items = append(items, Body("assetUuid", assets[i], "fileUuid", idOf(ups[i])))
	}
	done := Want(t, c.Patch(bulkComplete, items), 200).Objs()
	if len(done) != 3 {
		t.Fatalf("bulk complete: %d files, want 3", len(done))
	}
	var want []Event
	for k, i := range order {
		wantFile(t, "bulk completed", done[k], "uuid", idOf(ups[i]), "assetUuid", assets[i], "status", "uploaded", "checksumSha256", sha(contents[i]))
		want = append(want, fileEv("uploaded", assets[i], idOf(ups[i])))
	}
	log.Expect(t, "bulk complete", want...)
	// Again, with a pending file among them: the uploaded ones are answered unchanged.
	extra := initiate(t, c, b, decl("4.txt", "text/plain", contents[0]))
	wantStatus(t, "transfer", put(t, extra, contents[0]), 200)
	log.Skip(t)
	again := Want(t, c.Patch(bulkComplete, append(items, Body("assetUuid", b, "fileUuid", idOf(extra)))), 200).Objs()
	if len(again) != 4 || !reflect.DeepEqual(again[:3], done) || Str(again[3], "status") != "uploaded" {
		t.Errorf("bulk complete again: %v, want the 3 unchanged and the 4th uploaded", again)
	}
	log.Expect(t, "only the pending one", fileEv("uploaded", b, idOf(extra)))

	// One item without its object: 409 naming it, that file failed, the others still pending.
	gs := Want(t, c.Post(bulkInitiate, []any{
		decl("g1.txt", "text/plain", contents[0], "assetUuid", a),
		decl("g2.txt", "text/plain", contents[1], "assetUuid", b),
		decl("g3.txt", "text/plain", contents[2], "assetUuid", a),
	}), 201).Objs()
	wantStatus(t, "transfer g1", put(t, gs[0], contents[0]), 200)
	wantStatus(t, "transfer g3", put(t, gs[2], contents[2]), 200)
	log.Skip(t)
	gItems := []any{Body("assetUuid", a, "fileUuid", idOf(gs[0])), Body("assetUuid", b, "fileUuid", idOf(gs[1])), Body("assetUuid", a, "fileUuid", idOf(gs[2]))}
	WantProblem(t, c.Patch(bulkComplete, gItems), 409, "UPLOAD_VERIFICATION_FAILED", "[1].fileUuid")
	log.Expect(t, "the failed item only", fileEv("failed", b, idOf(gs[1])))
	wantFile(t, "g2", getFile(t, c, b, idOf(gs[1])), "status", "failed")
	wantFile(t, "g1", getFile(t, c, a, idOf(gs[0])), "status", "pending")
	wantFile(t, "g3", getFile(t, c, a, idOf(gs[2])), "status", "pending")
	// The failed one makes the whole bulk refused again; without it the others complete.
	WantProblem(t, c.Patch(bulkComplete, gItems), 409, "INVALID_TRANSITION")
	log.Expect(t, "refused again")
	ok := Want(t, c.Patch(bulkComplete, []any{gItems[0], gItems[2]}), 200).Objs()
	if len(ok) != 2 || Str(ok[0], "status") != "uploaded" || Str(ok[1], "status") != "uploaded" {
		t.Errorf("completing the others: %v", ok)
	}
	log.Expect(t, "the others", fileEv("uploaded", a, idOf(gs[0])), fileEv("uploaded", a, idOf(gs[2])))

	// 404s and malformed bulks write nothing.
	pend := initiate(t, c, a, decl("p.txt", "text/plain", contents[0]))
	wantStatus(t, "transfer", put(t, pend, contents[0]), 200)
	pi := Body("assetUuid", a, "fileUuid", idOf(pend))
	log.Skip(t)
	Problem(t, "unknown file", c.Patch(bulkComplete, []any{pi, Body("assetUuid", a, "fileUuid", UnknownUUID)}), 404, "NOT_FOUND", "[1].fileUuid")
	Problem(t, "file of another asset", c.Patch(bulkComplete, []any{pi, Body("assetUuid", b, "fileUuid", idOf(gs[0]))}), 404, "NOT_FOUND", "[1].fileUuid")
	Problem(t, "a file twice", c.Patch(bulkComplete, []any{pi, pi}), 400, "VALIDATION_FAILED", "[1].fileUuid")
	Problem(t, "missing fileUuid", c.Patch(bulkComplete, []any{pi, Body("assetUuid", a)}), 400, "VALIDATION_FAILED", "[1].fileUuid")
	Problem(t, "malformed fileUuid", c.Patch(bulkComplete, []any{pi, Body("assetUuid", a, "fileUuid", "nope")}), 400, "VALIDATION_FAILED", "[1].fileUuid")
	Problem(t, "missing assetUuid", c.Patch(bulkComplete, []any{pi, Body("fileUuid", idOf(gs[0]))}), 400, "VALIDATION_FAILED", "[1].assetUuid")
	Problem(t, "empty bulk", c.Patch(bulkComplete, []any{}), 400, "VALIDATION_FAILED")
	log.Expect(t, "refused bulks write nothing")
	wantFile(t, "still pending", getFile(t, c, a, idOf(pend)), "status", "pending")
}

// Completes racing on one file all answer the uploaded file, and it is uploaded once (one event).
func TestConcurrentComplete(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	a := mkAsset(t, c)
	data := []byte("raced")
	up := initiate(t, c, a, decl("race.txt", "text/plain", data))
	wantStatus(t, "transfer", put(t, up, data), 200)
	const n = 8
	res := make([]Resp, n)
	var wg sync.WaitGroup
	for i := range res {
		wg.Go(func() { res[i] = complete(c, a, idOf(up)) })
	}
	wg.Wait()
	for i, r := range res {
		if r.Status != 200 || !reflect.DeepEqual(r.Obj(), res[0].Obj()) || Str(r.Obj(), "status") != "uploaded" {
			t.Errorf("complete %d: %d %s, want 200 and the same uploaded file as the others", i, r.Status, r.Raw)
		}
	}
	wantFileEvents(t, "raced completes", pool, tenant, idOf(up), "asset.file.created", "asset.file.uploaded")
}
