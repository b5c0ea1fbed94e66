package renditions

import (
	"bytes"
	"context"
	"image"
	"image/jpeg"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	xdraw "golang.org/x/image/draw"
)

var (
	photoOnce sync.Once
	photo     []byte
)

// photo12MP is a 4000×3000 JPEG with smooth gradients plus noise, close to
// a camera photo in decode cost.
func photo12MP(b *testing.B) []byte {
	photoOnce.Do(func() {
		m := image.NewRGBA(image.Rect(0, 0, 4000, 3000))
		s := uint32(7)
		for y := 0; y < 3000; y++ {
			for x := 0; x < 4000; x++ {
				s = s*1664525 + 1013904223
				n := uint8(s >> 28)
				i := m.PixOffset(x, y)
				m.Pix[i], m.Pix[i+1], m.Pix[i+2], m.Pix[i+3] = uint8(x/16)+n, uint8(y/12)+n, uint8((x+y)/28), 255
			}
		}
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, m, &jpeg.Options{Quality: 90}); err != nil {
			panic(err)
		}
		photo = buf.Bytes()
	})
	return photo
}

// peakHeap samples live heap objects every 200µs while f runs and reports
// the peak above the level before it (so the cached source bytes do not
// count).
func peakHeap(b *testing.B, f func()) {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	base := read()
	var peak uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(200 * time.Microsecond)
		defer t.Stop()
		for {
			if v := read(); v > peak {
				peak = v
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	b.ResetTimer()
	f()
	b.StopTimer()
	close(stop)
	<-done
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N)/12.0, "ms/MP")
	b.ReportMetric(float64(peak-base)/(1<<20), "peakMB")
}

func benchMake(b *testing.B, longest int) {
	src := photo12MP(b)
	peakHeap(b, func() {
		for i := 0; i < b.N; i++ {
			if _, err := Make(context.Background(), bytes.NewReader(src), longest, Limits{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkMake12MPTo2048(b *testing.B) { benchMake(b, WebOptimized) }
func BenchmarkMake12MPTo256(b *testing.B)  { benchMake(b, Thumbnail) }

// BenchmarkXDrawCatmullRom12MPTo2048 is the baseline this package's scaler
// replaces: same decode, x/image/draw CatmullRom, same encode.
func BenchmarkXDrawCatmullRom12MPTo2048(b *testing.B) {
	src := photo12MP(b)
	peakHeap(b, func() {
		for i := 0; i < b.N; i++ {
			m, err := jpeg.Decode(bytes.NewReader(src))
			if err != nil {
				b.Fatal(err)
			}
			dst := image.NewRGBA(image.Rect(0, 0, 2048, 1536))
			xdraw.CatmullRom.Scale(dst, dst.Rect, m, m.Bounds(), xdraw.Src, nil)
			if err := jpeg.Encode(new(bytes.Buffer), dst, &jpeg.Options{Quality: jpegQuality}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkMakeSizes12MP makes both renditions from one decode (the worker's path): compare with
// BenchmarkMake12MPTo2048 + BenchmarkMake12MPTo256, two decodes.
func BenchmarkMakeSizes12MP(b *testing.B) {
	src := photo12MP(b)
	peakHeap(b, func() {
		for i := 0; i < b.N; i++ {
			if _, err := MakeSizes(context.Background(), bytes.NewReader(src), []int{Thumbnail, WebOptimized}, Limits{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
