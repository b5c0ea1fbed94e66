package assetfiles_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"image"
	"image/color"
	"image/color/palette"
	"image/draw"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"log/slog"
	"os"
	"sort"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/prometheus/client_golang/prometheus"

	catalogdb "github.com/catalogd/catalogd/db"
	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/apptest"
	"github.com/catalogd/catalogd/server/assetfiles"
	"github.com/catalogd/catalogd/server/blobstore"
	"github.com/catalogd/catalogd/server/events"
	"github.com/catalogd/catalogd/server/renditions/renditionstest"
	"github.com/catalogd/catalogd/server/store"
)

var bg = context.Background()

// env is a migrated database of its own (the worker works across tenants, so tests must not
// share one), a local blob store, a tenant with one asset, and the worker metrics.
type env struct {
	t       testing.TB
	url     string
	db      *store.DB
	store   *blobstore.Store
	dataDir string
	tenant  string
	asset   uuid.UUID
	metrics *assetfiles.Metrics
	reg     *prometheus.Registry
}

func newEnv(t testing.TB) *env {
	t.Helper()
	url, drop, err := apptest.CreateDatabase(bg, "catalogd_assetfiles")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(drop)
	d, err := store.Open(bg, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.Close)
	if _, err := catalogdb.Migrate(bg, d.Pool); err != nil {
		t.Fatal(err)
	}
	if err := events.SeedCatalog(bg, d); err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, url: url, db: d, dataDir: t.TempDir(), tenant: "t-" + apptest.RandomHex(4), reg: prometheus.NewRegistry()}
	e.store = e.openStore()
	t.Cleanup(func() { e.store.Close() })
	e.asset = e.newAsset(e.tenant)
	e.metrics = assetfiles.NewMetrics(e.reg)
	return e
}

func (e *env) openStore() *blobstore.Store {
	s, err := blobstore.Open(bg, blobstore.Config{DataDir: e.dataDir, Key: bytes.Repeat([]byte("k"), blobstore.MinKeyBytes),
		BaseURL: "http://127.0.0.1:1/blobs"})
	if err != nil {
		e.t.Fatal(err)
	}
	return s
}

func logger() *slog.Logger {
	if os.Getenv("TEST_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.DiscardHandler)
}

// worker is a Worker on the env with test timings, defaults applied.
func (e *env) worker() *assetfiles.Worker {
	w := &assetfiles.Worker{DB: e.db, Store: e.store, Log: logger(), Lease: 5 * time.Second, Interval: 20 * time.Millisecond, Metrics: e.metrics}
	w.Prepare()
	return w
}

func (e *env) exec(sql string, args ...any) {
	e.t.Helper()
	if _, err := e.db.Pool.Exec(bg, sql, args...); err != nil {
		e.t.Fatalf("%s: %v", sql, err)
	}
}

func (e *env) count(sql string, args ...any) int {
	e.t.Helper()
	var n int
	if err := e.db.Pool.QueryRow(bg, sql, args...).Scan(&n); err != nil {
		e.t.Fatalf("%s: %v", sql, err)
	}
	return n
}

func (e *env) newAsset(tenant string) uuid.UUID {
	id := uuid.New()
	e.exec(`INSERT INTO assets (tenant_id, uuid, code, display_name, category, storage_location, created_at, updated_at)
		VALUES ($1, $2, $3, 'An asset', 'image', $4, now(), now())`, tenant, id, "a-"+id.String(), "assets/"+id.String()+"/")
	return id
}

// keyFor is where a file of the env's asset lives (the layout of server/catalog).
func (e *env) keyFor(tenant string, asset, file uuid.UUID) string {
	h := sha256.Sum256([]byte(tenant))
	return "tenants/" + hex.EncodeToString(h[:16]) + "/assets/" + asset.String() + "/" + file.String()
}

// original stores data as an uploaded original of the env's asset and enqueues its rendition job,
// as complete-upload does. With data nil the object is not stored at all.
func (e *env) original(name string, data []byte) uuid.UUID {
	e.t.Helper()
	id := uuid.New()
	key := e.keyFor(e.tenant, e.asset, id)
	size, sum := int64(0), sha(nil)
	if data != nil {
		var err error
		if size, sum, err = e.store.Put(bg, key, "application/octet-stream", bytes.NewReader(data)); err != nil {
			e.t.Fatal(err)
		}
	}
	e.exec(`INSERT INTO asset_files (tenant_id, uuid, asset_uuid, kind, status, file_name, content_type, size_bytes,
		checksum_sha256, storage_key, created_at, updated_at)
		VALUES ($1, $2, $3, 'original', 'uploaded', $4, 'application/octet-stream', $5, $6, $7, now(), now())`,
		e.tenant, id, e.asset, name, size, sum, key)
	if err := e.db.Q.EnqueueRenditionJobs(bg, db.EnqueueRenditionJobsParams{TenantID: e.tenant, FileUuids: []uuid.UUID{id}, Now: store.Now()}); err != nil {
		e.t.Fatal(err)
	}
	return id
}

// renditionsOf are the files made from original, by kind.
func (e *env) renditionsOf(original uuid.UUID) map[string]db.AssetFile {
	e.t.Helper()
	rows, err := e.db.Pool.Query(bg, `SELECT * FROM asset_files WHERE tenant_id = $1 AND source_file_uuid = $2`, e.tenant, original)
	if err != nil {
		e.t.Fatal(err)
	}
	files, err := pgx.CollectRows(rows, pgx.RowToStructByName[db.AssetFile])
	if err != nil {
		e.t.Fatal(err)
	}
	out := map[string]db.AssetFile{}
	for _, f := range files {
		if _, dup := out[f.Kind]; dup {
			e.t.Fatalf("two %s renditions of %s", f.Kind, original)
		}
		out[f.Kind] = f
	}
	return out
}

// objects lists every key in the blob store.
func (e *env) objects() []string {
	e.t.Helper()
	var keys []string
	it := e.store.Bucket().List(nil)
	for {
		o, err := it.Next(bg)
		if err == io.EOF {
			break
		}
		if err != nil {
			e.t.Fatal(err)
		}
		keys = append(keys, o.Key)
	}
	sort.Strings(keys)
	return keys
}

func (e *env) read(key string) []byte {
	e.t.Helper()
	r, err := e.store.NewReader(bg, key)
	if err != nil {
		e.t.Fatal(err)
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	if err != nil {
		e.t.Fatal(err)
	}
	return b
}

// eventsOf are the payloads of tenant's events of type typ.
func (e *env) eventsOf(tenant, typ string) []map[string]string {
	e.t.Helper()
	rows, err := e.db.Pool.Query(bg, `SELECT payload FROM events WHERE tenant_id = $1 AND type = $2`, tenant, typ)
	if err != nil {
		e.t.Fatal(err)
	}
	raws, err := pgx.CollectRows(rows, pgx.RowTo[[]byte])
	if err != nil {
		e.t.Fatal(err)
	}
	var out []map[string]string
	for _, r := range raws {
		var m map[string]string
		if err := json.Unmarshal(r, &m); err != nil {
			e.t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

func (e *env) metric(name, outcome string) float64 {
	e.t.Helper()
	mfs, err := e.reg.Gather()
	if err != nil {
		e.t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			if outcome == "" && len(m.GetLabel()) == 0 {
				return m.GetCounter().GetValue()
			}
			for _, l := range m.GetLabel() {
				if l.GetName() == "outcome" && l.GetValue() == outcome {
					return m.GetCounter().GetValue()
				}
			}
		}
	}
	e.t.Fatalf("no metric %s{outcome=%q}", name, outcome)
	return 0
}

// eventually polls cond every 20 ms for up to 15 s.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func sha(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

// --- images ---

// photo is an opaque w×h picture with gradients and noise (a camera photo's decode cost).
func photo(w, h int) *image.RGBA {
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	s := uint32(7)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			s = s*1664525 + 1013904223
			n := uint8(s >> 28)
			i := m.PixOffset(x, y)
			m.Pix[i], m.Pix[i+1], m.Pix[i+2], m.Pix[i+3] = uint8(x*255/w)+n, uint8(y*255/h)+n, uint8((x+y)/28), 255
		}
	}
	return m
}

func jpegOf(t testing.TB, m image.Image) []byte {
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, m, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// transparentPNG is a w×h gradient whose top-left tenth is transparent.
func transparentPNG(t testing.TB, w, h int) []byte {
	m := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := color.NRGBA{uint8(x * 255 / w), uint8(y * 255 / h), 90, 255}
			if x < w/10 && y < h/10 {
				c.A = 0
			}
			m.SetNRGBA(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, m); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func gifOf(t testing.TB, w, h int) []byte {
	p := image.NewPaletted(image.Rect(0, 0, w, h), palette.Plan9)
	draw.Draw(p, image.Rect(0, 0, w/2, h), image.NewUniform(color.RGBA{255, 0, 0, 255}), image.Point{}, draw.Src)
	draw.Draw(p, image.Rect(w/2, 0, w, h), image.NewUniform(color.RGBA{0, 0, 255, 255}), image.Point{}, draw.Src)
	var buf bytes.Buffer
	if err := gif.Encode(&buf, p, nil); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// webpOf is a lossless WebP, left half red, right half blue (renditionstest's tiny encoder).
func webpOf(t testing.TB, w, h int) []byte {
	m := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := color.NRGBA{255, 0, 0, 255}
			if x >= w/2 {
				c = color.NRGBA{0, 0, 255, 255}
			}
			m.SetNRGBA(x, y, c)
		}
	}
	b, err := renditionstest.EncodeTinyWebP(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// decodeAs decodes b as the content type says, failing on any other format.
func decodeAs(t testing.TB, contentType string, b []byte) image.Image {
	t.Helper()
	var m image.Image
	var err error
	switch contentType {
	case "image/jpeg":
		m, err = jpeg.Decode(bytes.NewReader(b))
	case "image/png":
		m, err = png.Decode(bytes.NewReader(b))
	default:
		t.Fatalf("content type %q", contentType)
	}
	if err != nil {
		t.Fatalf("%s: %v", contentType, err)
	}
	return m
}

// gate yields the first n bytes of data, then blocks until open is closed: a rendition held
// in the middle of its decode.
type gate struct {
	data []byte
	n    int
	open chan struct{}
}

func (g *gate) Read(p []byte) (int, error) {
	if len(g.data) == 0 {
		return 0, io.EOF
	}
	if g.n <= 0 {
		<-g.open
	}
	k := copy(p, g.data)
	if g.n > 0 {
		k = min(k, g.n)
		g.n -= k
	}
	g.data = g.data[k:]
	return k, nil
}
