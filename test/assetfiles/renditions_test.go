package assetfiles

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	_ "image/gif" // image.DecodeConfig of what the tests upload
	"image/png"
	"strings"
	"testing"
	"time"

	. "github.com/catalogd/catalogd/server/apptest"
)

// renditionWait bounds how long the rendition workers may take for one original (a 12-megapixel
// JPEG decodes and scales in well under a second; the rest is polling and a loaded machine).
const renditionWait = 30 * time.Second

// renditionsOf polls the list of asset until the original has n renditions and returns them by
// kind.
func renditionsOf(t *testing.T, c *Client, asset, original string, n int) map[string]map[string]any {
	t.Helper()
	var items []map[string]any
	WaitFor(t, renditionWait, "the renditions of "+original, func() bool {
		items = Want(t, c.Get(filesPath(asset)+Q("sourceFileUuids[eq]", original)), 200).Items()
		return len(items) >= n
	})
	if len(items) != n {
		t.Fatalf("%d renditions of %s, want %d: %v", len(items), original, n, items)
	}
	out := map[string]map[string]any{}
	for _, it := range items {
		out[Str(it, "kind")] = it
	}
	return out
}

// wantRendition checks one rendition of original (a file of kind, uploaded, format ct, w×h) as
// listed and as downloaded, and its asset.file.uploaded event; it returns the downloaded bytes.
func wantRendition(t *testing.T, c *Client, tenant string, original map[string]any, r map[string]any, kind, ct, ext string, w, h int) []byte {
	t.Helper()
	what := kind + " of " + Str(original, "fileName")
	if r == nil {
		t.Errorf("no %s", what)
		return nil
	}
	asset := Str(original, "assetUuid")
	wantFile(t, what, r, "assetUuid", asset, "kind", kind, "status", "uploaded", "contentType", ct, "width", w, "height", h,
		"sourceFileUuid", Str(original, "uuid"), "uploadExpiresAt", nil, "failureReason", nil, "downloadUrl", nil)
	if name := Str(r, "fileName"); !strings.Contains(name, kind) || !strings.HasSuffix(name, ext) {
		t.Errorf("%s: fileName %q, want the original's name with the kind and %s", what, name, ext)
	}
	g := getFile(t, c, asset, Str(r, "uuid"))
	d := fetch(t, Str(g, "downloadUrl"))
	if d.Status != 200 {
		t.Fatalf("%s: download %d %.300s", what, d.Status, d.Body)
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(d.Body))
	if err != nil || "image/"+format != ct || cfg.Width != w || cfg.Height != h {
		t.Errorf("%s: downloaded %s %d×%d (%v), want %s %d×%d", what, format, cfg.Width, cfg.Height, err, ct, w, h)
	}
	if len(d.Body) != int(r["sizeBytes"].(float64)) || sha(d.Body) != Str(r, "checksumSha256") {
		t.Errorf("%s: downloaded %d bytes with sha256 %s, the file says %v and %v", what, len(d.Body), sha(d.Body), r["sizeBytes"], r["checksumSha256"])
	}
	wantFileEvents(t, what, pool, tenant, Str(r, "uuid"), "asset.file.uploaded")
	return d.Body
}

// A 12-megapixel JPEG gets a 256 px thumbnail and a 2048 px web_optimized JPEG; deleting the
// original deletes them (one asset.file.deleted each) and their objects.
func TestRenditionsJPEG(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	a := mkAsset(t, c)
	photo := jpegOf(t, 4000, 3000)
	o := upload(t, c, a, "beach.jpg", "image/jpeg", photo)
	wantFile(t, "original", o, "status", "uploaded", "width", 4000, "height", 3000, "sourceFileUuid", nil)
	id := Str(o, "uuid")

	rs := renditionsOf(t, c, a, id, 2)
	wantRendition(t, c, tenant, o, rs["thumbnail"], "thumbnail", "image/jpeg", ".jpg", 256, 192)
	wantRendition(t, c, tenant, o, rs["web_optimized"], "web_optimized", "image/jpeg", ".jpg", 2048, 1536)
	wantFileEvents(t, "original", pool, tenant, id, "asset.file.created", "asset.file.uploaded")
	WantUUIDs(t, c, filesPath(a)+Q("kinds[eq]", "original"), false, id)
	// The job is done; completing the original again queues no second one.
	Want(t, complete(c, a, id), 200)
	if n := count(t, pool, `SELECT count(*) FROM rendition_jobs WHERE tenant_id = $1`, tenant); n != 0 {
		t.Errorf("%d rendition jobs left after the renditions were made and the original completed again", n)
	}

	var urls []string
	for _, r := range rs {
		urls = append(urls, Str(getFile(t, c, a, Str(r, "uuid")), "downloadUrl"))
	}
	log := NewEventLog(pool, tenant).Skip(t)
	Want(t, c.Delete(filePath(a, id)), 204)
	log.Expect(t, "delete of the original", fileEv("deleted", a, id), fileEv("deleted", a, Str(rs["thumbnail"], "uuid")),
		fileEv("deleted", a, Str(rs["web_optimized"], "uuid")))
	WantTotal(t, c, filesPath(a), 0)
	for _, r := range rs {
		Problem(t, "get a rendition of a deleted original", c.Get(filePath(a, Str(r, "uuid"))), 404, "NOT_FOUND")
	}
	for _, u := range urls {
		waitGone(t, "rendition of the deleted original", u)
	}
}

// A PNG with transparency gets PNG renditions that keep it; a small picture is never enlarged.
func TestRenditionsPNG(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	a := mkAsset(t, c)
	o := upload(t, c, a, "logo.png", "image/png", pngOf(t, 1200, 900, true))
	wantFile(t, "original", o, "width", 1200, "height", 900)
	rs := renditionsOf(t, c, a, Str(o, "uuid"), 2)
	thumb := wantRendition(t, c, tenant, o, rs["thumbnail"], "thumbnail", "image/png", ".png", 256, 192)
	wantRendition(t, c, tenant, o, rs["web_optimized"], "web_optimized", "image/png", ".png", 1200, 900)
	if thumb == nil {
		return
	}
	m, err := png.Decode(bytes.NewReader(thumb))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, _, alpha := m.At(10, 96).RGBA(); alpha != 0 {
		t.Errorf("thumbnail pixel in the transparent half has alpha %d, want 0", alpha)
	}
	if _, _, _, alpha := m.At(245, 96).RGBA(); alpha != 0xffff {
		t.Errorf("thumbnail pixel in the opaque half has alpha %d, want opaque", alpha)
	}
}

// A GIF gets JPEG renditions; a PDF (not an image) gets none, and no rendition job is queued for
// it.
func TestRenditionsGIFAndPDF(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	a := mkAsset(t, c)
	pdf := upload(t, c, a, "manual.pdf", "application/pdf", []byte("%PDF-1.7\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n"))
	wantFile(t, "pdf", pdf, "status", "uploaded", "width", nil, "height", nil)
	if n := count(t, pool, `SELECT count(*) FROM rendition_jobs WHERE tenant_id = $1`, tenant); n != 0 {
		t.Errorf("%d rendition jobs queued for a PDF", n)
	}
	o := upload(t, c, a, "anim.gif", "image/gif", gifOf(t, 600, 450))
	rs := renditionsOf(t, c, a, Str(o, "uuid"), 2)
	wantRendition(t, c, tenant, o, rs["thumbnail"], "thumbnail", "image/jpeg", ".jpg", 256, 192)
	wantRendition(t, c, tenant, o, rs["web_optimized"], "web_optimized", "image/jpeg", ".jpg", 600, 450)
	// The workers have run (the GIF's renditions exist): the PDF, completed first, has none.
	WantTotal(t, c, filesPath(a)+Q("sourceFileUuids[eq]", Str(pdf, "uuid")), 0)
	WantTotal(t, c, filesPath(a), 4)
	wantFileEvents(t, "pdf", pool, tenant, Str(pdf, "uuid"), "asset.file.created", "asset.file.uploaded")
}

// Images over 100 megapixels keep their size but get no renditions (no job is queued), nor do
// images a client uploads as a rendition kind itself.
func TestNoRenditions(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	a := mkAsset(t, c)
	huge := pngHeader(t, 20000, 10000) // 200 megapixels; the header is all complete reads
	f := upload(t, c, a, "huge.png", "image/png", huge)
	wantFile(t, "over 100 MP", f, "status", "uploaded", "width", 20000, "height", 10000)
	own := upload(t, c, a, "own-thumb.jpg", "image/jpeg", jpegOf(t, 64, 48), "kind", "thumbnail")
	wantFile(t, "client thumbnail", own, "status", "uploaded", "kind", "thumbnail", "width", 64, "height", 48, "sourceFileUuid", nil)
	if n := count(t, pool, `SELECT count(*) FROM rendition_jobs WHERE tenant_id = $1`, tenant); n != 0 {
		t.Errorf("%d rendition jobs queued for an image over 100 megapixels or a client's thumbnail", n)
	}
}

// pngHeader is the first bytes of a w×h RGBA PNG: signature and IHDR, enough for any reader of the
// dimensions (the pixels never come).
func pngHeader(t *testing.T, w, h int) []byte {
	t.Helper()
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 8, 6 // 8-bit RGBA
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	_ = binary.Write(&b, binary.BigEndian, uint32(len(ihdr)))
	chunk := append([]byte("IHDR"), ihdr...)
	b.Write(chunk)
	_ = binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	return b.Bytes()
}
