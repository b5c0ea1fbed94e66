package assetfiles

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	. "github.com/catalogd/catalogd/server/apptest"
)

// A single initiate: 201, Location of the file, the upload answer with every field, the file
// pending with every field present (nulls included), one asset.file.created.
func TestInitiate(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	a := mkAsset(t, c)
	log := NewEventLog(pool, tenant).Skip(t)
	sum := sha([]byte("not transferred here"))

	before := time.Now()
	r := Want(t, c.Post(initiatePath(a), Body("kind", "original", "fileName", "Spec sheet (v2).pdf", "contentType", "application/pdf",
		"sizeBytes", 1234, "checksumSha256", sum)), 201)
	up := r.Obj()
	WantKeys(t, "upload", up, uploadKeys...)
	f := fileOf(up)
	id := Str(f, "uuid")
	wantFile(t, "initiated file", f, "assetUuid", a, "kind", "original", "status", "pending", "fileName", "Spec sheet (v2).pdf",
		"contentType", "application/pdf", "sizeBytes", 1234, "checksumSha256", sum, "width", nil, "height", nil,
		"downloadUrl", nil, "sourceFileUuid", nil, "failureReason", nil, "uploadExpiresAt", up["expiresAt"])
	if loc := r.Header.Get("Location"); loc != filePath(a, id) {
		t.Errorf("Location %q, want %q", loc, filePath(a, id))
	}
	if Str(up, "uploadMethod") != "PUT" {
		t.Errorf("uploadMethod %v, want PUT", up["uploadMethod"])
	}
	if u := Str(up, "uploadUrl"); !strings.HasPrefix(u, env.BaseURL+"/blobs/") || strings.Contains(u, c.Token) {
		t.Errorf("uploadUrl %q: want catalogd's own signed URL (%s/blobs/…) carrying no token", u, env.BaseURL)
	}
	h := uploadHeaders(t, up)
	if h["Content-Type"] != "application/pdf" {
		t.Errorf("uploadHeaders %v: want Content-Type application/pdf", h)
	}
	for k := range h {
		if strings.EqualFold(k, "Authorization") {
			t.Errorf("uploadHeaders %v carry an Authorization header: a pre-signed URL needs none", h)
		}
	}
	// The default upload TTL is an hour; the expiry is signed in whole seconds.
	if exp := TS(t, up["expiresAt"]); exp.Before(before.Add(time.Hour-2*time.Second)) || exp.After(time.Now().Add(time.Hour+time.Second)) {
		t.Errorf("expiresAt %v, want about an hour from now", exp)
	}
	log.Expect(t, "initiate", fileEv("created", a, id))
	if got := getFile(t, c, a, id); !reflect.DeepEqual(got, f) {
		t.Errorf("get = %v, want the initiated file %v", got, f)
	}
	WantUUIDs(t, c, filesPath(a), false, id)

	// Without a checksum it is null; an upper-case one is stored lower-case; every kind may be
	// initiated (a client may upload its own renditions); zero bytes and exactly the limit are fine;
	// assetUuid may repeat the path's.
	for i, tc := range []struct {
		body map[string]any
		kv   []any
	}{
		{Body("kind", "original", "fileName", "a.txt", "contentType", "text/plain", "sizeBytes", 5),
			[]any{"checksumSha256", nil, "sizeBytes", 5}},
		{Body("kind", "thumbnail", "fileName", "t.jpg", "contentType", "image/jpeg", "sizeBytes", 10, "checksumSha256", strings.ToUpper(sum)),
			[]any{"kind", "thumbnail", "checksumSha256", sum}},
		{Body("kind", "web_optimized", "fileName", "w.png", "contentType", "image/png", "sizeBytes", 0),
			[]any{"kind", "web_optimized", "sizeBytes", 0}},
		{Body("kind", "original", "fileName", "big.bin", "contentType", "application/octet-stream", "sizeBytes", maxUpload),
			[]any{"sizeBytes", maxUpload}},
		{Body("assetUuid", a, "kind", "original", "fileName", "x.txt", "contentType", "text/plain", "sizeBytes", 1),
			[]any{"assetUuid", a}},
		{Body("kind", "original", "fileName", strings.Repeat("é", 255), "contentType", "text/plain", "sizeBytes", 1),
			[]any{"fileName", strings.Repeat("é", 255)}},
	} {
		up := initiate(t, c, a, tc.body)
		wantFile(t, "initiate "+strconv.Itoa(i), fileOf(up), append([]any{"status", "pending", "assetUuid", a}, tc.kv...)...)
		log.Expect(t, "initiate "+strconv.Itoa(i), fileEv("created", a, idOf(up)))
	}
	Problem(t, "unknown asset", c.Post(initiatePath(UnknownUUID), decl("a.txt", "text/plain", []byte("x"))), 404, "NOT_FOUND")
	Problem(t, "malformed asset", c.Post(initiatePath("nope"), decl("a.txt", "text/plain", []byte("x"))), 400, "VALIDATION_FAILED", "assetUuid")
	log.Expect(t, "refused initiates write nothing")
}

// Every invalid field of an initiate is refused naming it, and nothing is written.
func TestInitiateValidation(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	a := mkAsset(t, c)
	other := mkAsset(t, c)
	log := NewEventLog(pool, tenant).Skip(t)
	ok := func(kv ...any) map[string]any {
		b := Body("kind", "original", "fileName", "a.txt", "contentType", "text/plain", "sizeBytes", 5)
		for k, v := range Body(kv...) {
			if v == nil {
				delete(b, k)
			} else {
				b[k] = v
			}
		}
		return b
	}
	for _, tc := range []struct {
		name        string
		body        map[string]any
		status      int
		code, field string
	}{
		{"kind missing", ok("kind", nil), 400, "VALIDATION_FAILED", "kind"},
		{"kind unknown", ok("kind", "preview"), 400, "MALFORMED_REQUEST", "kind"},
		{"fileName missing", ok("fileName", nil), 400, "VALIDATION_FAILED", "fileName"},
		{"fileName empty", ok("fileName", ""), 400, "VALIDATION_FAILED", "fileName"},
		{"fileName with /", ok("fileName", "dir/a.txt"), 400, "VALIDATION_FAILED", "fileName"},
		{"fileName with \\", ok("fileName", `dir\a.txt`), 400, "VALIDATION_FAILED", "fileName"},
		{"fileName with a newline", ok("fileName", "a\nb.txt"), 400, "VALIDATION_FAILED", "fileName"},
		{"fileName with NUL", ok("fileName", "a\x00b.txt"), 400, "VALIDATION_FAILED", "fileName"},
		{"fileName with DEL", ok("fileName", "a\x7fb.txt"), 400, "VALIDATION_FAILED", "fileName"},
		{"fileName with a bidi override", ok("fileName", "a\u202egnp.exe"), 400, "VALIDATION_FAILED", "fileName"},
		{"fileName ..", ok("fileName", ".."), 400, "VALIDATION_FAILED", "fileName"},
		{"fileName too long", ok("fileName", strings.Repeat("é", 256)), 400, "VALIDATION_FAILED", "fileName"},
		{"contentType missing", ok("contentType", nil), 400, "VALIDATION_FAILED", "contentType"},
		{"contentType empty", ok("contentType", ""), 400, "VALIDATION_FAILED", "contentType"},
		{"contentType not a media type", ok("contentType", "pdf document"), 400, "VALIDATION_FAILED", "contentType"},
		{"contentType without subtype", ok("contentType", "image/"), 400, "VALIDATION_FAILED", "contentType"},
		{"contentType without a slash", ok("contentType", "pdf"), 400, "VALIDATION_FAILED", "contentType"},
		{"contentType with a broken parameter", ok("contentType", "text/plain; charset"), 400, "VALIDATION_FAILED", "contentType"},
		{"contentType too long", ok("contentType", "text/"+strings.Repeat("x", 251)), 400, "VALIDATION_FAILED", "contentType"},
		{"sizeBytes negative", ok("sizeBytes", -1), 400, "VALIDATION_FAILED", "sizeBytes"},
		{"sizeBytes null", ok("sizeBytes", nil), 400, "VALIDATION_FAILED", "sizeBytes"},
		{"sizeBytes not a number", ok("sizeBytes", "five"), 400, "MALFORMED_REQUEST", "sizeBytes"},
		// asset_files.proto: "larger is 400 VALIDATION_FAILED naming sizeBytes" (413 is for bodies).
		{"sizeBytes over the limit", ok("sizeBytes", maxUpload+1), 400, "VALIDATION_FAILED", "sizeBytes"},
		{"checksum too short", ok("checksumSha256", "abc123"), 400, "VALIDATION_FAILED", "checksumSha256"},
		{"checksum not hex", ok("checksumSha256", strings.Repeat("z", 64)), 400, "VALIDATION_FAILED", "checksumSha256"},
		{"checksum too long", ok("checksumSha256", strings.Repeat("a", 65)), 400, "VALIDATION_FAILED", "checksumSha256"},
		// A 0-byte file's only digest is the empty one (was a 500 before the audit).
		{"0 bytes with another checksum", ok("sizeBytes", 0, "checksumSha256", strings.Repeat("a", 64)), 400, "VALIDATION_FAILED", "checksumSha256"},
		{"contentType a wildcard", ok("contentType", "*/*"), 400, "VALIDATION_FAILED", "contentType"},
		{"assetUuid of another asset", ok("assetUuid", other), 400, "VALIDATION_FAILED", "assetUuid"},
		{"assetUuid unknown", ok("assetUuid", UnknownUUID), 400, "VALIDATION_FAILED", "assetUuid"},
		{"read-only status", ok("status", "uploaded"), 400, "MALFORMED_REQUEST", "status"},
		{"read-only sourceFileUuid", ok("sourceFileUuid", UnknownUUID), 400, "MALFORMED_REQUEST", "sourceFileUuid"},
		{"unknown field", ok("width", 10), 400, "MALFORMED_REQUEST", "width"},
	} {
		Problem(t, tc.name, c.Post(initiatePath(a), tc.body), tc.status, tc.code, tc.field)
	}
	log.Expect(t, "refused initiates write nothing")
	if n := CountRows(t, pool, "asset_files", tenant); n != 0 {
		t.Errorf("refused initiates wrote %d asset_files rows", n)
	}
}

// A bulk initiate spans assets, keeps the order of its items and is all or nothing.
func TestBulkInitiate(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	a, b := mkAsset(t, c), mkAsset(t, c)
	c2, _ := env.TenantClient(t)
	foreign := mkAsset(t, c2)
	log := NewEventLog(pool, tenant).Skip(t)

	items := []any{
		Body("assetUuid", a, "kind", "original", "fileName", "one.pdf", "contentType", "application/pdf", "sizeBytes", 100),
		Body("assetUuid", b, "kind", "original", "fileName", "two.txt", "contentType", "text/plain", "sizeBytes", 3, "checksumSha256", sha([]byte("two"))),
		Body("assetUuid", a, "kind", "thumbnail", "fileName", "three.jpg", "contentType", "image/jpeg", "sizeBytes", 7),
	}
	r := Want(t, c.Post(bulkInitiate, items), 201)
	ups := r.Objs()
	if len(ups) != 3 {
		t.Fatalf("bulk initiate: %d answers, want 3: %s", len(ups), r.Raw)
	}
	urls := map[string]bool{}
	for i, up := range ups {
		it := items[i].(map[string]any)
		WantKeys(t, "bulk upload", up, uploadKeys...)
		wantFile(t, "bulk file "+strconv.Itoa(i), fileOf(up), "assetUuid", it["assetUuid"], "fileName", it["fileName"], "kind", it["kind"],
			"sizeBytes", it["sizeBytes"], "status", "pending", "uploadExpiresAt", up["expiresAt"])
		if Str(up, "uploadMethod") != "PUT" || uploadHeaders(t, up)["Content-Type"] != it["contentType"] {
			t.Errorf("bulk upload %d: method %v headers %v", i, up["uploadMethod"], up["uploadHeaders"])
		}
		urls[Str(up, "uploadUrl")] = true
	}
	if len(urls) != 3 {
		t.Errorf("bulk upload URLs are not distinct: %v", urls)
	}
	WantFields(t, "bulk [1]", fileOf(ups[1]), "checksumSha256", sha([]byte("two")))
	log.Expect(t, "bulk initiate", fileEv("created", a, idOf(ups[0])), fileEv("created", b, idOf(ups[1])), fileEv("created", a, idOf(ups[2])))
	WantUUIDs(t, c, filesPath(a), false, idOf(ups[0]), idOf(ups[2]))
	WantUUIDs(t, c, filesPath(b), false, idOf(ups[1]))
	// The files of a bulk can be transferred and completed like single ones.
	wantStatus(t, "transfer of a bulk item", put(t, ups[1], []byte("two")), 200)
	WantFields(t, "completed bulk item", Want(t, complete(c, b, idOf(ups[1])), 200).Obj(), "status", "uploaded")
	log.Skip(t)

	good := Body("assetUuid", a, "kind", "original", "fileName", "ok.txt", "contentType", "text/plain", "sizeBytes", 1)
	with := func(kv ...any) map[string]any {
		m := Body("kind", "original", "fileName", "x.txt", "contentType", "text/plain", "sizeBytes", 1)
		for k, v := range Body(kv...) {
			m[k] = v
		}
		return m
	}
	for _, tc := range []struct {
		name        string
		item        map[string]any
		status      int
		code, field string
	}{
		{"a bad file name", with("assetUuid", b, "fileName", "a/b"), 400, "VALIDATION_FAILED", "[1].fileName"},
		{"a bad content type", with("assetUuid", b, "contentType", "nope"), 400, "VALIDATION_FAILED", "[1].contentType"},
		{"a bad checksum", with("assetUuid", b, "checksumSha256", "x"), 400, "VALIDATION_FAILED", "[1].checksumSha256"},
		{"a missing kind", Body("assetUuid", b, "fileName", "x.txt", "contentType", "text/plain", "sizeBytes", 1), 400, "VALIDATION_FAILED", "[1].kind"},
		{"a missing assetUuid", with(), 400, "VALIDATION_FAILED", "[1].assetUuid"},
		{"a malformed assetUuid", with("assetUuid", "nope"), 400, "VALIDATION_FAILED", "[1].assetUuid"},
		{"an unknown asset", with("assetUuid", UnknownUUID), 404, "NOT_FOUND", "[1].assetUuid"},
		{"another tenant's asset", with("assetUuid", foreign), 404, "NOT_FOUND", "[1].assetUuid"},
		{"an item over the size limit", with("assetUuid", b, "sizeBytes", maxUpload+1), 400, "VALIDATION_FAILED", "[1].sizeBytes"},
	} {
		Problem(t, "bulk with "+tc.name, c.Post(bulkInitiate, []any{good, tc.item}), tc.status, tc.code, tc.field)
	}
	Problem(t, "empty bulk", c.Post(bulkInitiate, []any{}), 400, "VALIDATION_FAILED")
	big := make([]any, 101)
	for i := range big {
		big[i] = good
	}
	Problem(t, "bulk of 101", c.Post(bulkInitiate, big), 400, "VALIDATION_FAILED")
	log.Expect(t, "refused bulks write nothing")
	if n := CountRows(t, pool, "asset_files", tenant); n != 3 {
		t.Errorf("asset_files rows %d after refused bulks, want the 3 of the first bulk", n)
	}
	// 100 is the most a bulk takes.
	if n := len(Want(t, c.Post(bulkInitiate, big[:100]), 201).Objs()); n != 100 {
		t.Errorf("bulk of 100: %d answers", n)
	}
}
