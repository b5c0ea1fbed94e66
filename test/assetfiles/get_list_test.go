package assetfiles

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	. "github.com/catalogd/catalogd/server/apptest"
)

// Get signs a downloadUrl for an uploaded file only; the URL serves exactly the bytes (GET and
// HEAD) and nothing else.
func TestGetAndDownload(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	a, other := mkAsset(t, c), mkAsset(t, c)
	data := []byte("%PDF-1.4\n% a tiny document\n")
	f := upload(t, c, a, "doc.pdf", "application/pdf", data)
	id := Str(f, "uuid")

	g := getFile(t, c, a, id)
	wantFile(t, "get", g, "status", "uploaded", "sizeBytes", len(data), "checksumSha256", sha(data))
	d := Str(g, "downloadUrl")
	if !strings.HasPrefix(d, env.BaseURL+"/blobs/") {
		t.Fatalf("downloadUrl %q is not a signed URL of catalogd (%s/blobs/…)", d, env.BaseURL)
	}
	r := fetch(t, d)
	if r.Status != 200 || !bytes.Equal(r.Body, data) {
		t.Errorf("download: %d %q, want 200 and the uploaded bytes", r.Status, r.Body)
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/pdf" {
		t.Errorf("download Content-Type %q, want application/pdf", ct)
	}
	// Saved under the file's name (the disposition is signed: see blobstore's tests).
	if cd := r.Header.Get("Content-Disposition"); cd != `attachment; filename=doc.pdf` {
		t.Errorf("download Content-Disposition %q, want attachment with the file name", cd)
	}
	// Uploaded bytes come from catalogd's own origin: a browser must neither sniff nor run them.
	if r.Header.Get("X-Content-Type-Options") != "nosniff" || !strings.Contains(r.Header.Get("Content-Security-Policy"), "sandbox") {
		t.Errorf("download headers %v: want X-Content-Type-Options nosniff and a sandboxing Content-Security-Policy", r.Header)
	}
	h := send(t, http.MethodHead, d, nil, nil, 0)
	if h.Status != 200 || len(h.Body) != 0 || h.Header.Get("Content-Length") != strconv.Itoa(len(data)) {
		t.Errorf("HEAD: %d, Content-Length %q, %d body bytes; want 200, %d, none", h.Status, h.Header.Get("Content-Length"), len(h.Body), len(data))
	}
	wantBlobProblem(t, "tampered download signature", fetch(t, withQuery(t, d, "signature", strings.Repeat("B", 43))), 403, "FORBIDDEN")
	wantBlobProblem(t, "download URL of another key", fetch(t, strings.Replace(d, id, RandomUUID(), 1)), 403, "FORBIDDEN")
	wantBlobProblem(t, "PUT to a download URL", send(t, "PUT", d, map[string]string{"Content-Type": "application/pdf"}, bytes.NewReader(data), int64(len(data))), 403, "FORBIDDEN")
	if again := fetch(t, d); !bytes.Equal(again.Body, data) {
		t.Errorf("the object changed after a refused PUT: %q", again.Body)
	}

	// No downloadUrl while pending, when failed, nor in lists.
	pending := idOf(initiate(t, c, a, decl("p.txt", "text/plain", data)))
	failed := idOf(initiate(t, c, a, decl("f.txt", "text/plain", data)))
	WantProblem(t, complete(c, a, failed), 409, "UPLOAD_VERIFICATION_FAILED")
	wantFile(t, "pending", getFile(t, c, a, pending), "status", "pending", "downloadUrl", nil)
	wantFile(t, "failed", getFile(t, c, a, failed), "status", "failed", "downloadUrl", nil)
	items := Want(t, c.Get(filesPath(a)), 200).Items()
	if len(items) != 3 {
		t.Fatalf("list: %d items, want 3", len(items))
	}
	for _, it := range items {
		wantFile(t, "list item", it, "downloadUrl", nil)
	}

	Problem(t, "unknown file", c.Get(filePath(a, UnknownUUID)), 404, "NOT_FOUND")
	Problem(t, "via another asset", c.Get(filePath(other, id)), 404, "NOT_FOUND")
	Problem(t, "via an unknown asset", c.Get(filePath(UnknownUUID, id)), 404, "NOT_FOUND")
	Problem(t, "malformed file uuid", c.Get(filePath(a, "nope")), 400, "VALIDATION_FAILED", "fileUuid")
	Problem(t, "list of an unknown asset", c.Get(filesPath(UnknownUUID)), 404, "NOT_FOUND")
}

// The list's filters, orders and pages.
func TestList(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	a, other := mkAsset(t, c), mkAsset(t, c)
	upload(t, c, other, "notes.txt", "text/plain", []byte("elsewhere")) // never listed under a

	// Created one by one (distinct createdAt), in this order; none is an image original, so no
	// rendition joins the list.
	p := idOf(initiate(t, c, a, Body("kind", "original", "fileName", "report.pdf", "contentType", "application/pdf", "sizeBytes", 10)))
	u := Str(upload(t, c, a, "notes.txt", "text/plain", []byte("12345"), "kind", "thumbnail"), "uuid")
	x := idOf(initiate(t, c, a, Body("kind", "web_optimized", "fileName", "broken.bin", "contentType", "application/octet-stream", "sizeBytes", 7)))
	WantProblem(t, complete(c, a, x), 409, "UPLOAD_VERIFICATION_FAILED")
	b := Str(upload(t, c, a, "zeta notes.md", "text/markdown", []byte("# twenty bytes long!")), "uuid")
	all := Want(t, c.Get(filesPath(a)), 200).Items()
	if got := UUIDsOf(all); strings.Join(got, ",") != strings.Join([]string{p, u, x, b}, ",") {
		t.Fatalf("default order %v, want creation order %v", got, []string{p, u, x, b})
	}
	created := func(id string) string {
		for _, it := range all {
			if Str(it, "uuid") == id {
				return Str(it, "createdAt")
			}
		}
		return ""
	}

	base := filesPath(a)
	WantUUIDs(t, c, base+Q("kinds[eq]", "original"), false, p, b)
	WantUUIDs(t, c, base+Q("kinds[eq]", "thumbnail", "kinds[eq]", "web_optimized"), false, u, x)
	WantUUIDs(t, c, base+Q("statuses[eq]", "uploaded"), false, u, b)
	WantUUIDs(t, c, base+Q("statuses[eq]", "failed"), false, x)
	WantUUIDs(t, c, base+Q("statuses[eq]", "pending", "statuses[eq]", "failed"), false, p, x)
	WantUUIDs(t, c, base+Q("fileName[contains]", "NOTES"), false, u, b)
	WantUUIDs(t, c, base+Q("fileName[starts]", "rep"), false, p)
	WantUUIDs(t, c, base+Q("fileName[ends]", ".bin"), false, x)
	WantUUIDs(t, c, base+Q("fileName[contains]", "%"), false)
	WantUUIDs(t, c, base+Q("uuids[eq]", u, "uuids[eq]", x), false, u, x)
	WantUUIDs(t, c, base+Q("contentTypes[eq]", "text/plain"), false, u)
	WantUUIDs(t, c, base+Q("sourceFileUuids[eq]", p), false)
	WantUUIDs(t, c, base+Q("kinds[eq]", "original", "statuses[eq]", "uploaded"), false, b)
	WantUUIDs(t, c, base+Q("createdAt[min]", created(u), "createdAt[max]", created(x)), false, u, x)
	WantUUIDs(t, c, base+Q("createdAt[eq]", created(b)), false, b)

	WantUUIDs(t, c, base+Q("fileName[order]", "asc"), true, x, u, p, b)
	WantUUIDs(t, c, base+Q("fileName[order]", "desc"), true, b, p, u, x)
	WantUUIDs(t, c, base+Q("sizeBytes[order]", "desc"), true, b, p, x, u)
	WantUUIDs(t, c, base+Q("sizeBytes[order]", "asc"), true, u, x, p, b)
	WantUUIDs(t, c, base+Q("createdAt[order]", "desc"), true, b, x, u, p)
	WantUUIDs(t, c, base+Q("status[order]", "asc", "fileName[order]", "desc"), true, x, p, b, u)

	r := Want(t, c.Get(base+Q("size", "3", "page", "2")), 200)
	WantPagination(t, "page 2", r, 2, 3, 4, 2)
	if got := UUIDsOf(r.Items()); len(got) != 1 || got[0] != b {
		t.Errorf("page 2: %v, want [%s]", got, b)
	}
	WantPagination(t, "page 1", Want(t, c.Get(base+Q("size", "3")), 200), 1, 3, 4, 2)

	Problem(t, "unknown filter", c.Get(base+Q("width[eq]", "3")), 400, "MALFORMED_REQUEST", "width[eq]")
	Problem(t, "unknown kind", c.Get(base+Q("kinds[eq]", "preview")), 400, "VALIDATION_FAILED", "kinds[eq]")
	Problem(t, "unknown status", c.Get(base+Q("statuses[eq]", "done")), 400, "VALIDATION_FAILED", "statuses[eq]")
	Problem(t, "malformed uuid filter", c.Get(base+Q("uuids[eq]", "x")), 400, "VALIDATION_FAILED", "uuids[eq]")
	Problem(t, "malformed source filter", c.Get(base+Q("sourceFileUuids[eq]", "x")), 400, "VALIDATION_FAILED", "sourceFileUuids[eq]")
	Problem(t, "unordered field", c.Get(base+Q("checksumSha256[order]", "asc")), 400, "MALFORMED_REQUEST", "checksumSha256[order]")
	Problem(t, "page size over 100", c.Get(base+Q("size", "101")), 400, "VALIDATION_FAILED", "size")
}

// A download URL works for CATALOG_DOWNLOAD_URL_TTL, then answers 403; a new get signs a new one.
func TestDownloadURLExpires(t *testing.T) {
	t.Parallel()
	s := shortSite
	c := s.env.Client(t)
	a := mkAsset(t, c)
	data := []byte("short-lived link")
	f := upload(t, c, a, "link.txt", "text/plain", data)
	d := Str(getFile(t, c, a, Str(f, "uuid")), "downloadUrl")
	exp := time.Now()
	if r := fetch(t, d); r.Status != 200 || !bytes.Equal(r.Body, data) {
		t.Fatalf("download within its lifetime: %d %q", r.Status, r.Body)
	}
	time.Sleep(time.Until(exp.Add(shortDownloadTTL)) + 200*time.Millisecond)
	wantBlobProblem(t, "expired download URL", fetch(t, d), 403, "FORBIDDEN")
	if r := fetch(t, Str(getFile(t, c, a, Str(f, "uuid")), "downloadUrl")); r.Status != 200 || !bytes.Equal(r.Body, data) {
		t.Errorf("a freshly signed download URL: %d %q", r.Status, r.Body)
	}
}
