package renditions

import (
	"bytes"
	"compress/zlib"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"

	"runtime"
	"sync"
	"testing"
)

// rgbaPNG writes a w×h 8-bit RGBA PNG of transparent black (small however large the picture:
// the audit's 10 000 × 10 000 one was 389 KB), Adam7-interlaced when asked.
func rgbaPNG(t testing.TB, w, h int, interlaced bool) []byte {
	t.Helper()
	var out bytes.Buffer
	out.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(typ string, data []byte) {
		_ = binary.Write(&out, binary.BigEndian, uint32(len(data)))
		c := crc32.NewIEEE()
		c.Write([]byte(typ))
		c.Write(data)
		out.WriteString(typ)
		out.Write(data)
		_ = binary.Write(&out, binary.BigEndian, c.Sum32())
	}
	ihdr := binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32(nil, uint32(w)), uint32(h))
	ilace := byte(0)
	if interlaced {
		ilace = 1
	}
	chunk("IHDR", append(ihdr, 8, 6, 0, 0, ilace))
	var idat bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&idat, zlib.BestSpeed)
	passes := [][4]int{{0, 0, 1, 1}}
	if interlaced {
		passes = [][4]int{{0, 0, 8, 8}, {4, 0, 8, 8}, {0, 4, 4, 8}, {2, 0, 4, 4}, {0, 2, 2, 4}, {1, 0, 2, 2}, {0, 1, 1, 2}}
	}
	for _, p := range passes {
		pw, ph := (w-p[0]+p[2]-1)/p[2], (h-p[1]+p[3]-1)/p[3]
		if pw <= 0 || ph <= 0 {
			continue
		}
		row := make([]byte, 1+4*pw)
		for range ph {
			_, _ = zw.Write(row)
		}
	}
	_ = zw.Close()
	chunk("IDAT", idat.Bytes())
	chunk("IEND", nil)
	return out.Bytes()
}

// The weight a pool admits a rendition by is its real peak: more than everything the rendition
// allocates (TotalAlloc counts every allocation, so it bounds the peak of what is live), for each
// format and shape, interlaced PNGs included, making both sizes of a worker's job.
func TestWeightCoversAllocations(t *testing.T) {
	sizes := []int{WebOptimized, Thumbnail}
	for name, src := range map[string][]byte{
		"noise PNG 1500×1000":         encode(t, "png", noise(1500, 1000)),
		"JPEG 1500×1000":              encode(t, "jpeg", noise(1500, 1000)),
		"GIF 800×600":                 encode(t, "gif", noise(800, 600)),
		"transparent PNG 4000×3000":   rgbaPNG(t, 4000, 3000, false),
		"interlaced PNG 2500×1500":    rgbaPNG(t, 2500, 1500, true),
		"a strip 60000×40":            rgbaPNG(t, 60000, 40, false),
		"smaller than both 200×100":   encode(t, "png", noise(200, 100)),
		"between the sizes 1000×1000": encode(t, "jpeg", noise(1000, 1000)),
	} {
		info, err := Probe(bytes.NewReader(src), Limits{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		outs, err := MakeSizes(context.Background(), bytes.NewReader(src), sizes, Limits{})
		runtime.ReadMemStats(&after)
		if err != nil || len(outs) != 2 {
			t.Fatalf("%s: %v", name, err)
		}
		alloc, w := int64(after.TotalAlloc-before.TotalAlloc), Weight(info, sizes)
		if alloc > w {
			t.Errorf("%s: a rendition allocated %d bytes, over its weight %d", name, alloc, w)
		}
		t.Logf("%s: allocated %d MB, weight %d MB", name, alloc>>20, w>>20)
	}
}

// The audit's picture: a 10 000 × 10 000 RGBA PNG (400 MB decoded). With the default budget
// (512 MiB) it is admitted alone: two at once wait for each other, the pool never holds more than
// its budget, and each is weighed by its real peak (decode and scaled copies, above 400 MB). A
// budget below that peak refuses it before a pixel is decoded. When a large rendition ends, its
// memory is collected before the next is admitted, so the process holds the budget, not twice it.
func TestPoolHoldsThePeakUnderTheBudget(t *testing.T) {
	src := rgbaPNG(t, 10000, 10000, false)
	info, err := Probe(bytes.NewReader(src), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	sizes := []int{WebOptimized, Thumbnail}
	w := Weight(info, sizes)
	if w < 10000*10000*4+2048*2048*4 {
		t.Fatalf("weight %d: less than the decoded image and the 2048 px copy", w)
	}
	p := NewPool(4, 0, Limits{})
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = p.MakeSizes(context.Background(), bytes.NewReader(src), sizes)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	// The last rendition's 400 MB went back before MakeSizes returned (debug.FreeOSMemory on
	// release): the next one would not decode beside its garbage.
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if ms.HeapInuse > uint64(w)/4 {
		t.Errorf("%d MB of heap in use after the renditions, want their images collected", ms.HeapInuse>>20)
	}
	if peak := p.Peak(); peak != w || peak > 512<<20 {
		t.Errorf("the pool held %d bytes at most, want one rendition's weight %d (budget %d)", peak, w, 512<<20)
	}
	small := NewPool(4, w-1, Limits{})
	if _, err := small.MakeSizes(context.Background(), bytes.NewReader(src), sizes); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("over a smaller budget: %v, want ErrTooLarge", err)
	}
	if small.Peak() != 0 {
		t.Errorf("a refused rendition was admitted: peak %d", small.Peak())
	}

}

// jpegHeader is a JPEG's start, JFIF segment and frame header (SOF marker sof), 3 components
// sampled 2×2, 1×1, 1×1 (4:2:0): all the probe reads.
func jpegHeader(sof byte, w, h int) []byte {
	return []byte{0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 'J', 'F', 'I', 'F', 0, 1, 1, 0, 0, 1, 0, 1, 0, 0,
		0xFF, sof, 0, 17, 8, byte(h >> 8), byte(h), byte(w >> 8), byte(w), 3,
		1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1}
}

// A progressive JPEG is weighed with the DCT coefficients its decoder keeps (4 bytes per sample of
// each component: 1.5 samples a pixel in 4:2:0); a baseline one by its decoded image alone.
func TestProgressiveJPEGWeighsItsCoefficients(t *testing.T) {
	const w, h = 4000, 3000
	base, err := Probe(bytes.NewReader(jpegHeader(0xC0, w, h)), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	prog, err := Probe(bytes.NewReader(jpegHeader(0xC2, w, h)), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if base.DecodedBytes != w*h*4 {
		t.Errorf("baseline: %d, want %d", base.DecodedBytes, w*h*4)
	}
	if coeff := prog.DecodedBytes - base.DecodedBytes; coeff < w*h*3/2*4 || coeff > w*h*3/2*4*12/10 {
		t.Errorf("progressive: %d bytes of coefficients, want about %d", coeff, w*h*3/2*4)
	}
}
