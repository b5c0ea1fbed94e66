package assetfiles

import (
	"bytes"
	"testing"
	"time"

	. "github.com/catalogd/catalogd/server/apptest"
)

// collectWait bounds how long the blob collector may take to delete a released object.
const collectWait = 10 * time.Second

// waitGone polls a signed download URL until it answers 404 (the object was deleted).
func waitGone(t *testing.T, what, u string) {
	t.Helper()
	WaitFor(t, collectWait, what+": its object deleted (download URL 404)", func() bool { return fetch(t, u).Status == 404 })
}

// Delete: 204, asset.file.deleted, the file gone from the API and, once the blob collector ran,
// its object gone from the store.
func TestDelete(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	a, other := mkAsset(t, c), mkAsset(t, c)
	data := []byte("delete me")
	f := upload(t, c, a, "old.txt", "text/plain", data)
	id := Str(f, "uuid")
	keep := Str(upload(t, c, a, "keep.txt", "text/plain", data), "uuid")
	d := Str(getFile(t, c, a, id), "downloadUrl")
	kd := Str(getFile(t, c, a, keep), "downloadUrl")
	if r := fetch(t, d); r.Status != 200 || !bytes.Equal(r.Body, data) {
		t.Fatalf("download before the delete: %d %q", r.Status, r.Body)
	}
	log := NewEventLog(pool, tenant).Skip(t)

	Problem(t, "delete via another asset", c.Delete(filePath(other, id)), 404, "NOT_FOUND")
	Problem(t, "delete unknown", c.Delete(filePath(a, UnknownUUID)), 404, "NOT_FOUND")
	log.Expect(t, "refused deletes write nothing")
	r := Want(t, c.Delete(filePath(a, id)), 204)
	if len(r.Raw) != 0 {
		t.Errorf("delete body %q", r.Raw)
	}
	log.Expect(t, "delete", fileEv("deleted", a, id))
	Problem(t, "get deleted", c.Get(filePath(a, id)), 404, "NOT_FOUND")
	Problem(t, "delete again", c.Delete(filePath(a, id)), 404, "NOT_FOUND")
	Problem(t, "complete deleted", complete(c, a, id), 404, "NOT_FOUND")
	log.Expect(t, "requests on a deleted file write nothing")
	WantUUIDs(t, c, filesPath(a), false, keep)

	waitGone(t, "deleted file", d)
	if mainSite.blobExists(t, keyOf(t, d)) {
		t.Errorf("the deleted file's object is still in the store")
	}
	if r := fetch(t, kd); r.Status != 200 || !bytes.Equal(r.Body, data) {
		t.Errorf("the other file's download after the collection: %d %q", r.Status, r.Body)
	}

	// A pending file deletes too.
	p := idOf(initiate(t, c, a, decl("p.txt", "text/plain", data)))
	log.Skip(t)
	Want(t, c.Delete(filePath(a, p)), 204)
	log.Expect(t, "delete pending", fileEv("deleted", a, p))
	WantUUIDs(t, c, filesPath(a), false, keep)
}

// Deleting an asset deletes its files, and the collector their objects.
func TestDeleteAsset(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	a := mkAsset(t, c)
	data := []byte("goes with its asset")
	f1 := Str(upload(t, c, a, "one.txt", "text/plain", data), "uuid")
	f2 := Str(upload(t, c, a, "two.txt", "text/plain", data), "uuid")
	pending := idOf(initiate(t, c, a, decl("pending.txt", "text/plain", data)))
	d1, d2 := Str(getFile(t, c, a, f1), "downloadUrl"), Str(getFile(t, c, a, f2), "downloadUrl")

	log := NewEventLog(pool, tenant).Skip(t)
	Want(t, c.Delete("/v1/assets/"+a), 204)
	// Every file's deletion is told, beside the asset's.
	log.Expect(t, "delete the asset", Ev("asset.deleted", "assetUuid", a),
		fileEv("deleted", a, f1), fileEv("deleted", a, f2), fileEv("deleted", a, pending))
	Problem(t, "list of the deleted asset", c.Get(filesPath(a)), 404, "NOT_FOUND")
	Problem(t, "file of the deleted asset", c.Get(filePath(a, f1)), 404, "NOT_FOUND")
	if n := CountRows(t, pool, "asset_files", tenant); n != 0 {
		t.Errorf("%d asset_files rows left after the asset's delete", n)
	}
	waitGone(t, "first file of the deleted asset", d1)
	waitGone(t, "second file of the deleted asset", d2)
}
