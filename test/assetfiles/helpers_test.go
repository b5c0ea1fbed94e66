package assetfiles

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	. "github.com/catalogd/catalogd/server/apptest"
)

// Keys of the resources as the API returns them (asset_files.proto): every field is present, null
// when it has no value.
var (
	fileKeys = []string{"uuid", "createdAt", "updatedAt", "assetUuid", "kind", "status", "fileName", "contentType",
		"sizeBytes", "checksumSha256", "width", "height", "downloadUrl", "uploadExpiresAt", "sourceFileUuid", "failureReason"}
	uploadKeys = []string{"file", "uploadUrl", "uploadMethod", "uploadHeaders", "expiresAt"}
)

const (
	bulkInitiate = "/v1/assets/files/bulk/actions/initiate-upload"
	bulkComplete = "/v1/assets/files/bulk/actions/complete-upload"
)

func filesPath(asset string) string      { return "/v1/assets/" + asset + "/files" }
func filePath(asset, file string) string { return filesPath(asset) + "/" + file }
func initiatePath(asset string) string   { return filesPath(asset) + "/actions/initiate-upload" }
func completePath(asset, file string) string {
	return filePath(asset, file) + "/actions/complete-upload"
}

// fileEv is the event of a file (payload assetUuid, fileUuid).
func fileEv(verb, asset, file string) Event {
	return Ev("asset.file."+verb, "assetUuid", asset, "fileUuid", file)
}

// mkAsset creates an asset and returns its uuid.
func mkAsset(t *testing.T, c *Client) string {
	t.Helper()
	return Str(Want(t, c.Post("/v1/assets", Body("code", "a_"+RandomHex(4), "category", "image")), 201).Obj(), "uuid")
}

// decl is an initiate body for data: kind original unless extra sets it, the exact size.
func decl(name, contentType string, data []byte, extra ...any) map[string]any {
	b := Body("kind", "original", "fileName", name, "contentType", contentType, "sizeBytes", len(data))
	for k, v := range Body(extra...) {
		b[k] = v
	}
	return b
}

// initiate starts one upload on asset and returns the answer (upload object).
func initiate(t *testing.T, c *Client, asset string, body map[string]any) map[string]any {
	t.Helper()
	return Want(t, c.Post(initiatePath(asset), body), 201).Obj()
}

// fileOf is the file of an upload answer.
func fileOf(up map[string]any) map[string]any { m, _ := up["file"].(map[string]any); return m }

// idOf is the uuid of the file of an upload answer.
func idOf(up map[string]any) string { return Str(fileOf(up), "uuid") }

// complete completes one upload.
func complete(c *Client, asset, file string) Resp { return c.Patch(completePath(asset, file), nil) }

// upload initiates, transfers and completes data as one file of asset (extra: more initiate fields)
// and returns the completed file.
func upload(t *testing.T, c *Client, asset, name, contentType string, data []byte, extra ...any) map[string]any {
	t.Helper()
	up := initiate(t, c, asset, decl(name, contentType, data, extra...))
	wantStatus(t, "transfer of "+name, put(t, up, data), 200)
	return Want(t, complete(c, asset, idOf(up)), 200).Obj()
}

// getFile is a file as GET returns it.
func getFile(t *testing.T, c *Client, asset, file string) map[string]any {
	t.Helper()
	return Want(t, c.Get(filePath(asset, file)), 200).Obj()
}

// wantFile checks the shape of a file (every key, uuid, timestamps) and the given fields.
func wantFile(t *testing.T, what string, f map[string]any, kv ...any) {
	t.Helper()
	WantKeys(t, what, f, fileKeys...)
	WantCommon(t, what, f)
	WantFields(t, what, f, kv...)
}

// ---- the transfer: raw HTTP to the signed URLs (no token, not the /v1 API) ----

// blobClient talks to the signed URLs; the 50 MB transfer needs more than the API client's 30 s
// on a loaded machine.
var blobClient = &http.Client{Timeout: 2 * time.Minute}

// hres is an answer of a signed URL.
type hres struct {
	Status int
	Header http.Header
	Body   []byte
}

// send sends method to u with headers and body (size bytes; -1 sends it chunked, without a
// Content-Length).
func send(t *testing.T, method, u string, headers map[string]string, body io.Reader, size int64) hres {
	t.Helper()
	req, err := http.NewRequest(method, u, body)
	if err != nil {
		t.Fatalf("%s %s: %v", method, u, err)
	}
	if body != nil {
		req.ContentLength = size
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := blobClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, u, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the answer: %v", method, u, err)
	}
	return hres{Status: res.StatusCode, Header: res.Header, Body: b}
}

// uploadHeaders is the uploadHeaders of an upload answer.
func uploadHeaders(t *testing.T, up map[string]any) map[string]string {
	t.Helper()
	raw, ok := up["uploadHeaders"].(map[string]any)
	if !ok {
		t.Fatalf("uploadHeaders %v is not an object", up["uploadHeaders"])
	}
	h := map[string]string{}
	for k, v := range raw {
		s, ok := v.(string)
		if !ok {
			t.Fatalf("uploadHeaders.%s = %v is not a string", k, v)
		}
		h[k] = s
	}
	return h
}

// put transfers data to the upload URL of up with its headers, as a client does.
func put(t *testing.T, up map[string]any, data []byte) hres {
	t.Helper()
	return send(t, Str(up, "uploadMethod"), Str(up, "uploadUrl"), uploadHeaders(t, up), bytes.NewReader(data), int64(len(data)))
}

// fetch GETs a signed download URL.
func fetch(t *testing.T, u string) hres {
	t.Helper()
	return send(t, http.MethodGet, u, nil, nil, 0)
}

func wantStatus(t *testing.T, what string, r hres, status int) {
	t.Helper()
	if r.Status != status {
		t.Errorf("%s: status %d, want %d; body: %.400s", what, r.Status, status, r.Body)
	}
}

// wantBlobProblem checks a refusal of the blob handler: status and problem code.
func wantBlobProblem(t *testing.T, what string, r hres, status int, code string) {
	t.Helper()
	if r.Status != status || !bytes.Contains(r.Body, []byte(`"code":"`+code+`"`)) {
		t.Errorf("%s: status %d, want %d %s; body: %.400s", what, r.Status, status, code, r.Body)
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/problem+json" {
		t.Errorf("%s: content-type %q, want application/problem+json", what, ct)
	}
}

// keyOf is the object key a signed URL names (its path after /blobs/).
func keyOf(t *testing.T, signed string) string {
	t.Helper()
	u, err := url.Parse(signed)
	if err != nil {
		t.Fatalf("signed URL %q: %v", signed, err)
	}
	key, ok := strings.CutPrefix(u.Path, "/blobs/")
	if !ok {
		t.Fatalf("signed URL %q is not under /blobs/", signed)
	}
	return key
}

// withQuery is u with query parameter k set to v.
func withQuery(t *testing.T, u, k, v string) string {
	t.Helper()
	p, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	q := p.Query()
	q.Set(k, v)
	p.RawQuery = q.Encode()
	return p.String()
}

// blobExists reports whether the local store of s holds key (the object file, not its .attrs).
func (s *site) blobExists(t *testing.T, key string) bool {
	t.Helper()
	_, err := os.Stat(filepath.Join(s.dir, "blobs", filepath.FromSlash(key)))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	return err == nil
}

// ---- content ----

func sha(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

// pattern is a deterministic stream of n bytes generated as it is read, so a large transfer never
// holds its body in memory.
type pattern struct{ off, n int64 }

func (p *pattern) Read(b []byte) (int, error) {
	if p.off >= p.n {
		return 0, io.EOF
	}
	b = b[:min(int64(len(b)), p.n-p.off)]
	for i := range b {
		x := p.off + int64(i)
		b[i] = byte(x*131 + x>>9 + x>>17)
	}
	p.off += int64(len(b))
	return len(b), nil
}

// gradient is a w×h opaque picture with some detail (an encoder cannot reduce it to nothing).
func gradient(w, h int) *image.RGBA {
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			i := m.PixOffset(x, y)
			m.Pix[i], m.Pix[i+1], m.Pix[i+2], m.Pix[i+3] = uint8(x), uint8(y), uint8((x+y)/4), 255
		}
	}
	return m
}

func jpegOf(t *testing.T, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, gradient(w, h), &jpeg.Options{Quality: 80}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// pngOf is a w×h PNG; with transparent, its left half is fully transparent.
func pngOf(t *testing.T, w, h int, transparent bool) []byte {
	t.Helper()
	m := gradient(w, h)
	if transparent {
		for y := 0; y < h; y++ {
			for x := 0; x < w/2; x++ {
				i := m.PixOffset(x, y)
				m.Pix[i], m.Pix[i+1], m.Pix[i+2], m.Pix[i+3] = 0, 0, 0, 0
			}
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// gifOf is an opaque w×h GIF (one frame, a grey palette).
func gifOf(t *testing.T, w, h int) []byte {
	t.Helper()
	pal := make(color.Palette, 256)
	for i := range pal {
		pal[i] = color.Gray{Y: uint8(i)}
	}
	m := image.NewPaletted(image.Rect(0, 0, w, h), pal)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			m.SetColorIndex(x, y, uint8(x+y))
		}
	}
	var b bytes.Buffer
	if err := gif.Encode(&b, m, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// ---- the database ----

// fileEvents is the types of the events naming file, oldest first (a test whose originals are
// images cannot expect the whole log: the renditions add their own events when they are ready).
func fileEvents(t *testing.T, db DB, tenant, file string) []string {
	t.Helper()
	rows, err := db.Query(context.Background(),
		`SELECT type FROM events WHERE tenant_id = $1 AND payload->>'fileUuid' = $2 ORDER BY created_at, uuid`, tenant, file)
	if err != nil {
		t.Fatalf("read events: %v", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var typ string
		if err := rows.Scan(&typ); err != nil {
			t.Fatal(err)
		}
		out = append(out, typ)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// wantFileEvents fails unless the events of file are exactly types, in that order.
func wantFileEvents(t *testing.T, what string, db DB, tenant, file string, types ...string) {
	t.Helper()
	got := fileEvents(t, db, tenant, file)
	if strings.Join(got, " ") != strings.Join(types, " ") {
		t.Errorf("%s: events of file %s %v, want %v", what, file, got, types)
	}
}

// count runs a count query.
func count(t *testing.T, db DB, query string, args ...any) int {
	t.Helper()
	var n int
	if err := db.QueryRow(context.Background(), query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}
