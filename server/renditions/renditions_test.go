package renditions

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/color/palette"
	"image/draw"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"runtime"
	"sync"
	"testing"

	"golang.org/x/image/webp"

	"github.com/catalogd/catalogd/server/renditions/renditionstest"
)

var (
	red  = color.NRGBA{255, 0, 0, 255}
	blue = color.NRGBA{0, 0, 255, 255}
)

// halves is w×h, left half a, right half b.
func halves(w, h int, a, b color.NRGBA) *image.NRGBA {
	m := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if x < w/2 {
				m.SetNRGBA(x, y, a)
			} else {
				m.SetNRGBA(x, y, b)
			}
		}
	}
	return m
}

func encode(t testing.TB, format string, m image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	var err error
	switch format {
	case "jpeg":
		err = jpeg.Encode(&buf, m, &jpeg.Options{Quality: 95})
	case "png":
		err = png.Encode(&buf, m)
	case "gif":
		err = gif.Encode(&buf, m, nil)
	case "webp":
		var b []byte
		b, err = encodeTinyWebP(m.(*image.NRGBA))
		buf.Write(b)
	}
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func decodeOut(t *testing.T, out Output) image.Image {
	t.Helper()
	var m image.Image
	var err error
	switch out.ContentType {
	case "image/jpeg":
		m, err = jpeg.Decode(bytes.NewReader(out.Data))
	case "image/png":
		m, err = png.Decode(bytes.NewReader(out.Data))
	default:
		t.Fatalf("content type %q", out.ContentType)
	}
	if err != nil {
		t.Fatal(err)
	}
	if m.Bounds().Dx() != out.Width || m.Bounds().Dy() != out.Height {
		t.Fatalf("encoded %v, Output says %d×%d", m.Bounds(), out.Width, out.Height)
	}
	return m
}

func near(c color.Color, want color.NRGBA, tol int) bool {
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	d := func(a, b uint8) bool { return int(a)-int(b) <= tol && int(b)-int(a) <= tol }
	return d(n.R, want.R) && d(n.G, want.G) && d(n.B, want.B) && d(n.A, want.A)
}

func TestEachFormat(t *testing.T) {
	for _, format := range []string{"jpeg", "png", "gif", "webp"} {
		t.Run(format, func(t *testing.T) {
			src := encode(t, format, halves(600, 300, red, blue))
			info, err := Probe(bytes.NewReader(src), Limits{})
			if err != nil || info.Format != format || info.Width != 600 || info.Height != 300 {
				t.Fatalf("Probe = %+v, %v", info, err)
			}
			out, err := Make(context.Background(), bytes.NewReader(src), Thumbnail, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if out.Width != 256 || out.Height != 128 || out.ContentType != "image/jpeg" || out.Source.Format != format {
				t.Fatalf("got %d×%d %s from %s", out.Width, out.Height, out.ContentType, out.Source.Format)
			}
			m := decodeOut(t, out)
			if !near(m.At(20, 64), red, 24) || !near(m.At(235, 64), blue, 24) {
				t.Fatalf("colours: left %v right %v", m.At(20, 64), m.At(235, 64))
			}
		})
	}
}

func TestGIFFirstFrame(t *testing.T) {
	frame := func(c color.Color) *image.Paletted {
		p := image.NewPaletted(image.Rect(0, 0, 300, 300), palette.Plan9)
		draw.Draw(p, p.Rect, image.NewUniform(c), image.Point{}, draw.Src)
		return p
	}
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, &gif.GIF{Image: []*image.Paletted{frame(red), frame(blue)}, Delay: []int{10, 10}}); err != nil {
		t.Fatal(err)
	}
	out, err := Make(context.Background(), &buf, Thumbnail, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if m := decodeOut(t, out); !near(m.At(128, 128), red, 24) {
		t.Fatalf("want the first (red) frame, got %v", m.At(128, 128))
	}
}

func TestFit(t *testing.T) {
	for _, c := range []struct{ w, h, longest, dw, dh int }{
		{4000, 3000, 2048, 2048, 1536},
		{4000, 3000, 256, 256, 192},
		{3000, 4000, 256, 192, 256},
		{5000, 10, 256, 256, 1}, // never 0
		{10, 5000, 256, 1, 256},
		{256, 100, 256, 256, 100},
		{100, 50, 2048, 100, 50}, // no upscale
		{257, 257, 256, 256, 256},
	} {
		if dw, dh := fit(c.w, c.h, c.longest); dw != c.dw || dh != c.dh {
			t.Errorf("fit(%d, %d, %d) = %d×%d, want %d×%d", c.w, c.h, c.longest, dw, dh, c.dw, c.dh)
		}
	}
}

func TestAspectRatios(t *testing.T) {
	for _, c := range []struct{ w, h, longest, dw, dh int }{
		{2400, 600, Thumbnail, 256, 64},
		{500, 1000, Thumbnail, 128, 256},
		{3000, 2000, WebOptimized, 2048, 1365},
	} {
		src := encode(t, "png", halves(c.w, c.h, red, blue))
		out, err := Make(context.Background(), bytes.NewReader(src), c.longest, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		decodeOut(t, out)
		if out.Width != c.dw || out.Height != c.dh {
			t.Errorf("%d×%d → %d: got %d×%d, want %d×%d", c.w, c.h, c.longest, out.Width, out.Height, c.dw, c.dh)
		}
	}
}

// A picture already small enough keeps its size, and with PNG output (it
// has transparency) every pixel must come through unchanged: the filter at
// scale 1 must be the identity.
func TestNoUpscaleIsIdentity(t *testing.T) {
	m := image.NewNRGBA(image.Rect(0, 0, 37, 23))
	for y := 0; y < 23; y++ {
		for x := 0; x < 37; x++ {
			m.SetNRGBA(x, y, color.NRGBA{uint8(x * 7), uint8(y * 11), uint8(x * y), 255})
		}
	}
	m.SetNRGBA(0, 0, color.NRGBA{}) // one transparent pixel forces PNG
	out, err := Make(context.Background(), bytes.NewReader(encode(t, "png", m)), WebOptimized, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if out.Width != 37 || out.Height != 23 || out.ContentType != "image/png" {
		t.Fatalf("got %d×%d %s", out.Width, out.Height, out.ContentType)
	}
	got := decodeOut(t, out)
	for y := 0; y < 23; y++ {
		for x := 0; x < 37; x++ {
			if !near(got.At(x, y), m.NRGBAAt(x, y), 0) {
				t.Fatalf("pixel %d,%d = %v, want %v", x, y, got.At(x, y), m.NRGBAAt(x, y))
			}
		}
	}
}

func TestTransparencyGivesPNG(t *testing.T) {
	transparent := color.NRGBA{0, 0, 0, 0}
	for _, format := range []string{"png", "webp", "gif"} {
		t.Run(format, func(t *testing.T) {
			var src []byte
			if format == "gif" {
				p := image.NewPaletted(image.Rect(0, 0, 600, 300), color.Palette{color.Transparent, red})
				for y := 0; y < 300; y++ {
					for x := 0; x < 300; x++ {
						p.SetColorIndex(x, y, 1)
					}
				}
				src = encode(t, "gif", p)
			} else {
				src = encode(t, format, halves(600, 300, red, transparent))
			}
			out, err := Make(context.Background(), bytes.NewReader(src), Thumbnail, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if out.ContentType != "image/png" {
				t.Fatalf("content type %s", out.ContentType)
			}
			m := decodeOut(t, out)
			if !near(m.At(20, 64), red, 2) || !near(m.At(235, 64), transparent, 0) {
				t.Fatalf("left %v right %v", m.At(20, 64), m.At(235, 64))
			}
		})
	}
	// And an opaque PNG (NRGBA, alpha all 255) is a JPEG.
	out, err := Make(context.Background(), bytes.NewReader(encode(t, "png", halves(600, 300, red, blue))), Thumbnail, Limits{})
	if err != nil || out.ContentType != "image/jpeg" {
		t.Fatalf("opaque PNG: %s, %v", out.ContentType, err)
	}
}

// pngHeader is a PNG signature and IHDR claiming w×h 8-bit RGBA, with no
// pixel data at all.
func pngHeader(w, h uint32) []byte { return renditionstest.PNGHeader(w, h) }

func TestBombRefusedBeforeDecoding(t *testing.T) {
	bomb := pngHeader(100_000, 100_000) // 10 gigapixels, 40 GB decoded
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, errProbe := Probe(bytes.NewReader(bomb), Limits{})
	_, errMake := Make(context.Background(), bytes.NewReader(bomb), Thumbnail, Limits{})
	runtime.ReadMemStats(&after)
	if !errors.Is(errProbe, ErrTooLarge) || !errors.Is(errMake, ErrTooLarge) {
		t.Fatalf("Probe: %v; Make: %v", errProbe, errMake)
	}
	// Allocation is cumulative (GC does not lower TotalAlloc): both calls
	// together must stay at header-buffer size, not image size.
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Fatalf("allocated %d bytes refusing a bomb", n)
	}
	// Just over the limit and a long strip are refused too; just under is
	// accepted by Probe (the data is missing, but Probe reads no data).
	if _, err := Probe(bytes.NewReader(pngHeader(10_001, 10_000)), Limits{}); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("100.01 MP: %v", err)
	}
	if _, err := Probe(bytes.NewReader(pngHeader(10_000, 10_000)), Limits{}); err != nil {
		t.Fatalf("100 MP: %v", err)
	}
	if _, err := Probe(bytes.NewReader(pngHeader(100_000, 1)), Limits{}); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("100000×1 strip: %v", err)
	}
	if _, err := Probe(bytes.NewReader(pngHeader(300, 300)), Limits{MaxPixels: 256 * 256}); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("custom limit: %v", err)
	}
}

func TestGarbageAndCorrupt(t *testing.T) {
	for name, data := range map[string][]byte{
		"empty":  nil,
		"text":   []byte("hello, this is not an image at all"),
		"bmp":    append([]byte("BM"), make([]byte, 100)...),
		"riff":   []byte("RIFF\x00\x00\x00\x00WAVEfmt "),
		"random": bytes.Repeat([]byte{0x13, 0x37, 0xC0, 0xDE}, 1000),
	} {
		if _, err := Make(context.Background(), bytes.NewReader(data), Thumbnail, Limits{}); !errors.Is(err, ErrUnsupported) {
			t.Errorf("%s: %v, want ErrUnsupported", name, err)
		}
	}
	good := encode(t, "png", halves(300, 300, red, blue))
	for name, data := range map[string][]byte{
		"png header only": pngHeader(300, 300),
		"truncated png":   good[:len(good)/2],
		"truncated jpeg":  encode(t, "jpeg", halves(300, 300, red, blue))[:200],
		// JPEG whose frame header never comes within the 1 MiB budget.
		"endless jpeg header": append([]byte{0xFF, 0xD8}, bytes.Repeat(append([]byte{0xFF, 0xE1, 0xFF, 0xFF}, make([]byte, 65533)...), 20)...),
	} {
		if _, err := Make(context.Background(), bytes.NewReader(data), Thumbnail, Limits{}); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: %v, want ErrCorrupt", name, err)
		}
	}
	if _, err := Make(context.Background(), bytes.NewReader(good), 0, Limits{}); err == nil {
		t.Error("longest 0 accepted")
	}
}

// cancelAfter cancels ctx once n bytes have been read: mid-decode.
type cancelAfter struct {
	r      io.Reader
	n      int
	cancel context.CancelFunc
}

func (c *cancelAfter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if c.n -= n; c.n <= 0 {
		c.cancel()
	}
	return n, err
}

func TestContextCancelled(t *testing.T) {
	src := encode(t, "png", noise(800, 600))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Make(ctx, bytes.NewReader(src), Thumbnail, Limits{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled before: %v", err)
	}
	// Cancelled after the header, while the decoder is reading pixel data.
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	r := &cancelAfter{r: bytes.NewReader(src), n: len(src) / 2, cancel: cancel}
	if _, err := Make(ctx, r, Thumbnail, Limits{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled mid-decode: %v", err)
	}
	if r.n > 0 {
		t.Fatal("the test did not reach the middle of the stream")
	}
}

func noise(w, h int) *image.NRGBA {
	m := image.NewNRGBA(image.Rect(0, 0, w, h))
	s := uint32(1)
	for i := range m.Pix {
		s = s*1664525 + 1013904223
		m.Pix[i] = uint8(s >> 24)
		if i%4 == 3 {
			m.Pix[i] = 255
		}
	}
	return m
}

// A uniform image must stay exactly that colour at any scale: the weights
// of every output sample sum to one, edges included.
func TestUniformStaysUniform(t *testing.T) {
	c := color.NRGBA{10, 200, 90, 255}
	m := image.NewNRGBA(image.Rect(0, 0, 1001, 333))
	draw.Draw(m, m.Rect, image.NewUniform(c), image.Point{}, draw.Src)
	for _, longest := range []int{1, 7, 256, 1000} {
		dw, dh := fit(1001, 333, longest)
		dst, alpha, err := resize(context.Background(), m, dw, dh)
		if err != nil || alpha {
			t.Fatalf("%d: alpha %v err %v", longest, alpha, err)
		}
		for i := 0; i < len(dst.Pix); i += 4 {
			if dst.Pix[i] != c.R || dst.Pix[i+1] != c.G || dst.Pix[i+2] != c.B || dst.Pix[i+3] != 255 {
				t.Fatalf("%d: pixel %d = %v", longest, i/4, dst.Pix[i:i+4])
			}
		}
	}
}

// blockingReader hands out the header, then blocks until released: a
// rendition stuck inside the pool.
type blockingReader struct {
	data    []byte
	header  int
	release chan struct{}
	reached chan struct{}
	once    sync.Once
}

func (b *blockingReader) Read(p []byte) (int, error) {
	if len(b.data) == 0 {
		return 0, io.EOF
	}
	if b.header <= 0 {
		b.once.Do(func() { close(b.reached) })
		<-b.release
	}
	n := copy(p, b.data)
	if b.header > 0 {
		n = min(n, b.header)
		b.header -= n
	}
	b.data = b.data[n:]
	return n, nil
}

func waitFor(t *testing.T, p *Pool, running, waiting int) {
	t.Helper()
	for {
		r, _, w := p.Stats()
		if r == running && w == waiting {
			return
		}
		runtime.Gosched()
	}
}

func TestPoolBoundsConcurrencyAndBytes(t *testing.T) {
	src := encode(t, "png", noise(300, 300)) // ~270 KB so it blocks past the header
	info, err := Probe(bytes.NewReader(src), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	weight := Weight(info, []int{Thumbnail})
	run := func(p *Pool, r io.Reader, ctx context.Context) chan error {
		done := make(chan error, 1)
		go func() { _, err := p.Make(ctx, r, Thumbnail); done <- err }()
		return done
	}
	for name, p := range map[string]*Pool{
		"slots": NewPool(1, 1<<30, Limits{}),
		"bytes": NewPool(8, weight*3/2, Limits{}), // one rendition fits, two do not
	} {
		t.Run(name, func(t *testing.T) {
			first := &blockingReader{data: src, header: 4096, release: make(chan struct{}), reached: make(chan struct{})}
			d1 := run(p, first, context.Background())
			<-first.reached // admitted, decoding, blocked
			if r, used, _ := p.Stats(); r != 1 || used != weight {
				t.Fatalf("running %d, bytes %d", r, used)
			}
			// A second one waits; cancelling it frees its place in line.
			ctx, cancel := context.WithCancel(context.Background())
			d2 := run(p, bytes.NewReader(src), ctx)
			waitFor(t, p, 1, 1)
			cancel()
			if err := <-d2; !errors.Is(err, context.Canceled) {
				t.Fatalf("cancelled waiter: %v", err)
			}
			waitFor(t, p, 1, 0)
			// A third waits and runs once the first finishes.
			d3 := run(p, bytes.NewReader(src), context.Background())
			waitFor(t, p, 1, 1)
			close(first.release)
			if err := <-d1; err != nil {
				t.Fatal(err)
			}
			if err := <-d3; err != nil {
				t.Fatal(err)
			}
			if r, used, w := p.Stats(); r != 0 || used != 0 || w != 0 {
				t.Fatalf("after: running %d bytes %d waiting %d", r, used, w)
			}
		})
	}
	// An image estimated above the whole budget is refused before any pixel is decoded, and
	// takes nothing from the pool.
	p := NewPool(2, weight-1, Limits{})
	if _, err := p.Make(context.Background(), bytes.NewReader(src), Thumbnail); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("image over the budget: %v, want ErrTooLarge", err)
	}
	if r, used, w := p.Stats(); r != 0 || used != 0 || w != 0 {
		t.Fatalf("after a refusal: running %d bytes %d waiting %d", r, used, w)
	}
	// Refusals happen before admission: a bomb never waits.
	if _, err := p.Make(context.Background(), bytes.NewReader(pngHeader(100_000, 100_000)), Thumbnail); !errors.Is(err, ErrTooLarge) {
		t.Fatal(err)
	}
}

// The hand-made WebP really is WebP as x/image reads it (guards the test
// helper itself).
func TestTinyWebPEncoder(t *testing.T) {
	src := halves(5, 3, red, color.NRGBA{0, 0, 255, 0})
	data, err := encodeTinyWebP(src)
	if err != nil {
		t.Fatal(err)
	}
	m, err := webp.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	for y := 0; y < 3; y++ {
		for x := 0; x < 5; x++ {
			if !near(m.At(x, y), src.NRGBAAt(x, y), 0) {
				t.Fatalf("%d,%d: %v want %v", x, y, m.At(x, y), src.NRGBAAt(x, y))
			}
		}
	}
}

// smooth is a w×h picture of gradients with a sharp diagonal edge and a
// transparent corner (so the renditions are lossless PNGs and can be
// compared pixel by pixel).
func smooth(w, h int) *image.NRGBA {
	m := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := color.NRGBA{uint8(x * 255 / w), uint8(y * 255 / h), 128, 255}
			if x*h > y*w {
				c.B = 30
			}
			if x < w/10 && y < h/10 {
				c.A = 0
			}
			m.SetNRGBA(x, y, c)
		}
	}
	return m
}

func TestMakeSizes(t *testing.T) {
	src := encode(t, "png", smooth(3000, 2000))
	outs, err := MakeSizes(context.Background(), bytes.NewReader(src), []int{Thumbnail, 1024}, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(outs) != 2 || outs[0].Width != 256 || outs[0].Height != 171 || outs[1].Width != 1024 || outs[1].Height != 683 {
		t.Fatalf("sizes in request order: %+v", []string{fmtSize(outs[0]), fmtSize(outs[1])})
	}
	for _, o := range outs {
		if o.ContentType != "image/png" || o.Source.Format != "png" || o.Source.Width != 3000 {
			t.Fatalf("output %s %+v", o.ContentType, o.Source)
		}
	}
	// The thumbnail is scaled from the 1024 px rendition; it must look like
	// the one scaled from the source directly.
	direct, err := Make(context.Background(), bytes.NewReader(src), Thumbnail, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	a, b := decodeOut(t, outs[0]).(*image.NRGBA), decodeOut(t, direct).(*image.NRGBA)
	var sum, worst int
	for i := range a.Pix {
		d := int(a.Pix[i]) - int(b.Pix[i])
		if d < 0 {
			d = -d
		}
		sum += d
		worst = max(worst, d)
	}
	if mean := float64(sum) / float64(len(a.Pix)); mean > 0.5 || worst > 48 {
		t.Fatalf("cascaded thumbnail differs from the direct one: mean %.2f, worst %d levels", mean, worst)
	}

	// An original smaller than both sizes: both renditions have its size
	// and share one encoding.
	small := encode(t, "jpeg", halves(100, 80, red, blue))
	outs, err = MakeSizes(context.Background(), bytes.NewReader(small), []int{Thumbnail, WebOptimized}, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range outs {
		if o.Width != 100 || o.Height != 80 || o.ContentType != "image/jpeg" || !bytes.Equal(o.Data, outs[0].Data) {
			t.Fatalf("small original: %s %s", fmtSize(o), o.ContentType)
		}
	}
	if _, err := MakeSizes(context.Background(), bytes.NewReader(small), nil, Limits{}); err == nil {
		t.Fatal("no sizes accepted")
	}
	if _, err := MakeSizes(context.Background(), bytes.NewReader(small), []int{256, 0}, Limits{}); err == nil {
		t.Fatal("size 0 accepted")
	}

	p := NewPool(1, 0, Limits{})
	if outs, err := p.MakeSizes(context.Background(), bytes.NewReader(small), []int{Thumbnail, WebOptimized}); err != nil || len(outs) != 2 {
		t.Fatal(outs, err)
	}
	if r, used, w := p.Stats(); r != 0 || used != 0 || w != 0 || p.Slots() != 1 {
		t.Fatalf("pool after: running %d bytes %d waiting %d slots %d", r, used, w, p.Slots())
	}
}

func fmtSize(o Output) string { return fmt.Sprintf("%d×%d", o.Width, o.Height) }

// failAfter returns its data, then err instead of EOF: a blob store that
// fails in the middle of a read.
type failAfter struct {
	data []byte
	err  error
}

func (f *failAfter) Read(p []byte) (int, error) {
	if len(f.data) == 0 {
		return 0, f.err
	}
	n := copy(p, f.data)
	f.data = f.data[n:]
	return n, nil
}

// A source that fails mid-read is reported as that failure (retryable), not
// as a corrupt image.
func TestSourceReadErrorIsNotCorrupt(t *testing.T) {
	src := encode(t, "png", noise(400, 300))
	boom := errors.New("connection reset by blob store")
	_, err := MakeSizes(context.Background(), &failAfter{data: src[:len(src)/2], err: boom}, []int{Thumbnail}, Limits{})
	if !errors.Is(err, boom) || errors.Is(err, ErrCorrupt) {
		t.Fatalf("got %v", err)
	}
	// A truncated file (clean EOF) is corrupt.
	_, err = MakeSizes(context.Background(), bytes.NewReader(src[:len(src)/2]), []int{Thumbnail}, Limits{})
	if !errors.Is(err, ErrCorrupt) {
		t.Fatalf("truncated: %v", err)
	}
}
