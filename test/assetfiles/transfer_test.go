package assetfiles

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	. "github.com/catalogd/catalogd/server/apptest"
)

// The signed upload URL takes exactly what it was signed for: the method, the key, the content
// type, the size, before its expiry; anything else is refused and stores nothing.
func TestTransfer(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	a := mkAsset(t, c)
	data := []byte("hello, asset files")
	up := initiate(t, c, a, decl("hello.txt", "text/plain", data))
	u, h := Str(up, "uploadUrl"), uploadHeaders(t, up)
	key := keyOf(t, u)
	n := int64(len(data))
	headers := func(ct string) map[string]string { return map[string]string{"Content-Type": ct} }

	refusals := []struct {
		name        string
		method, url string
		headers     map[string]string
		body        io.Reader
		size        int64
		status      int
		code        string
	}{
		{"wrong Content-Type", "PUT", u, headers("text/html"), bytes.NewReader(data), n, 415, "UNSUPPORTED_MEDIA_TYPE"},
		{"no Content-Type", "PUT", u, nil, bytes.NewReader(data), n, 415, "UNSUPPORTED_MEDIA_TYPE"},
		{"a shorter body", "PUT", u, h, bytes.NewReader(data[1:]), n - 1, 400, "MALFORMED_REQUEST"},
		{"a longer body", "PUT", u, h, bytes.NewReader(append(data, '!')), n + 1, 413, "PAYLOAD_TOO_LARGE"},
		{"a shorter chunked body", "PUT", u, h, io.MultiReader(bytes.NewReader(data[1:])), -1, 400, "MALFORMED_REQUEST"},
		{"a longer chunked body", "PUT", u, h, io.MultiReader(bytes.NewReader(data), strings.NewReader("!")), -1, 413, "PAYLOAD_TOO_LARGE"},
		{"a tampered signature", "PUT", withQuery(t, u, "signature", strings.Repeat("A", 43)), h, bytes.NewReader(data), n, 403, "FORBIDDEN"},
		{"no signature", "PUT", withQuery(t, u, "signature", ""), h, bytes.NewReader(data), n, 403, "FORBIDDEN"},
		{"a changed size", "PUT", withQuery(t, u, "size", strconv.Itoa(len(data)+1)), h, bytes.NewReader(append(data, '!')), n + 1, 403, "FORBIDDEN"},
		{"a changed content type", "PUT", withQuery(t, u, "contentType", "text/html"), headers("text/html"), bytes.NewReader(data), n, 403, "FORBIDDEN"},
		{"a later expiry", "PUT", withQuery(t, u, "expires", strconv.FormatInt(time.Now().Add(48*time.Hour).Unix(), 10)), h, bytes.NewReader(data), n, 403, "FORBIDDEN"},
		{"another key", "PUT", strings.Replace(u, idOf(up), RandomUUID(), 1), h, bytes.NewReader(data), n, 403, "FORBIDDEN"},
		{"POST", "POST", u, h, bytes.NewReader(data), n, 403, "FORBIDDEN"},
		{"GET", "GET", u, nil, nil, 0, 403, "FORBIDDEN"},
	}
	for _, tc := range refusals {
		wantBlobProblem(t, tc.name, send(t, tc.method, tc.url, tc.headers, tc.body, tc.size), tc.status, tc.code)
		if mainSite.blobExists(t, key) {
			t.Fatalf("%s: the refused transfer stored the object", tc.name)
		}
	}
	// The upload as the answer describes it, without any token: stored.
	wantStatus(t, "transfer", put(t, up, data), 200)
	if !mainSite.blobExists(t, key) {
		t.Errorf("the transfer stored no object under %s", key)
	}
	WantFields(t, "complete", Want(t, complete(c, a, idOf(up)), 200).Obj(), "status", "uploaded", "checksumSha256", sha(data))

	// A declared checksum is part of the signature: a body with another digest is refused.
	sum := sha(data)
	up2 := initiate(t, c, a, decl("hello2.txt", "text/plain", data, "checksumSha256", sum))
	wrong := bytes.ToUpper(data)
	wantBlobProblem(t, "a body with another digest", put(t, up2, wrong), 400, "MALFORMED_REQUEST")
	wantBlobProblem(t, "the checksum dropped from the URL", send(t, "PUT", withQuery(t, Str(up2, "uploadUrl"), "sha256", ""), uploadHeaders(t, up2), bytes.NewReader(wrong), n), 403, "FORBIDDEN")
	if mainSite.blobExists(t, keyOf(t, Str(up2, "uploadUrl"))) {
		t.Errorf("a refused transfer stored the object")
	}
	wantStatus(t, "the right digest", put(t, up2, data), 200)
}

// An expired upload URL is refused with 403 and stores nothing.
func TestUploadURLExpired(t *testing.T) {
	t.Parallel()
	s := shortSite
	c := s.env.Client(t)
	a := mkAsset(t, c)
	data := []byte("too late")
	up := initiate(t, c, a, decl("late.txt", "text/plain", data))
	exp := TS(t, up["expiresAt"])
	if d := time.Until(exp); d > shortTTL || d < 0 {
		t.Fatalf("expiresAt %v is not within the configured %s", exp, shortTTL)
	}
	time.Sleep(time.Until(exp) + 200*time.Millisecond)
	wantBlobProblem(t, "expired URL", put(t, up, data), 403, "FORBIDDEN")
	if s.blobExists(t, keyOf(t, Str(up, "uploadUrl"))) {
		t.Errorf("an expired URL stored the object")
	}
}

// Another tenant reaches none of a tenant's files, through any operation, and writes nothing.
func TestTenantIsolation(t *testing.T) {
	t.Parallel()
	c, _ := env.TenantClient(t)
	c2, tenant2 := env.TenantClient(t)
	a := mkAsset(t, c)
	data := []byte("private")
	f := upload(t, c, a, "private.txt", "text/plain", data)
	id := Str(f, "uuid")
	pending := idOf(initiate(t, c, a, decl("pending.txt", "text/plain", data)))
	own := mkAsset(t, c2)
	log := NewEventLog(pool, tenant2).Skip(t)

	for i, r := range []Resp{
		c2.Get(filesPath(a)), c2.Get(filePath(a, id)), c2.Delete(filePath(a, id)),
		c2.Post(initiatePath(a), decl("x.txt", "text/plain", data)),
		c2.Patch(completePath(a, pending), nil), c2.Patch(completePath(own, pending), nil),
		c2.Get(filePath(own, id)), c2.Delete(filePath(own, pending)),
	} {
		Problem(t, "other tenant's request "+strconv.Itoa(i), r, 404, "NOT_FOUND")
	}
	Problem(t, "bulk initiate", c2.Post(bulkInitiate, []any{Body("assetUuid", a, "kind", "original", "fileName", "x.txt", "contentType", "text/plain", "sizeBytes", 1)}),
		404, "NOT_FOUND", "[0].assetUuid")
	Problem(t, "bulk complete", c2.Patch(bulkComplete, []any{Body("assetUuid", a, "fileUuid", pending)}), 404, "NOT_FOUND", "[0].fileUuid")
	Problem(t, "bulk complete via own asset", c2.Patch(bulkComplete, []any{Body("assetUuid", own, "fileUuid", pending)}), 404, "NOT_FOUND", "[0].fileUuid")
	WantTotal(t, c2, filesPath(own)+Q("uuids[eq]", id), 0)
	log.Expect(t, "nothing written")
	wantFile(t, "still there", getFile(t, c, a, id), "status", "uploaded")
	wantFile(t, "still pending", getFile(t, c, a, pending), "status", "pending")
}

// A 50 MB file streams through the upload and the download (the test generates and hashes the
// bytes as they go and never holds them).
func TestLargeUpload(t *testing.T) {
	t.Parallel()
	const size = 50_000_000
	c := env.Client(t)
	a := mkAsset(t, c)
	up := initiate(t, c, a, Body("kind", "original", "fileName", "big.bin", "contentType", "application/octet-stream", "sizeBytes", size))
	sent := sha256.New()
	wantStatus(t, "50 MB transfer", send(t, "PUT", Str(up, "uploadUrl"), uploadHeaders(t, up), io.TeeReader(&pattern{n: size}, sent), size), 200)
	sum := hex.EncodeToString(sent.Sum(nil))
	f := Want(t, complete(c, a, idOf(up)), 200).Obj()
	wantFile(t, "50 MB file", f, "status", "uploaded", "sizeBytes", size, "checksumSha256", sum, "width", nil)

	res, err := blobClient.Get(Str(getFile(t, c, a, idOf(up)), "downloadUrl"))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	got := sha256.New()
	n, err := io.Copy(got, res.Body)
	if err != nil || res.StatusCode != http.StatusOK || n != size || hex.EncodeToString(got.Sum(nil)) != sum {
		t.Errorf("download: status %d, %d bytes (%v), sha256 %x; want 200, %d bytes, %s", res.StatusCode, n, err, got.Sum(nil), size, sum)
	}
}

// Once a file is uploaded its bytes are what complete verified: its upload URL, still within its
// lifetime, cannot replace them (the PUT may be accepted into an object nothing reads, or refused),
// and the download always has the file's checksum.
func TestUploadURLAfterComplete(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	a := mkAsset(t, c)
	data := []byte("original!")
	up := initiate(t, c, a, decl("x.txt", "text/plain", data))
	wantStatus(t, "transfer", put(t, up, data), 200)
	f := Want(t, complete(c, a, idOf(up)), 200).Obj()
	log := NewEventLog(pool, tenant).Skip(t)

	put(t, up, []byte("replaced!"))
	g := getFile(t, c, a, Str(f, "uuid"))
	d := fetch(t, Str(g, "downloadUrl"))
	if !bytes.Equal(d.Body, data) || sha(d.Body) != Str(g, "checksumSha256") {
		t.Errorf("the uploaded file (checksumSha256 %s) now serves %q (sha256 %s): its bytes were replaced after complete",
			g["checksumSha256"], d.Body, sha(d.Body))
	}
	// A complete after it still answers the file unchanged.
	if again := Want(t, complete(c, a, idOf(up)), 200).Obj(); !reflect.DeepEqual(again, f) {
		t.Errorf("complete after a second transfer = %v, want the file unchanged %v", again, f)
	}
	log.Expect(t, "nothing recorded")
}
