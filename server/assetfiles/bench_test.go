package assetfiles_test

import (
	"runtime"
	"runtime/metrics"
	"testing"
	"time"

	"github.com/catalogd/catalogd/server/renditions"
)

// BenchmarkWorker12MP is the whole worker path for one 12-megapixel JPEG original per iteration,
// one job at a time: claim, read the original from the (local) blob store, one decode, both
// renditions, two Puts, the commit with its events. It reports the time per source megapixel and
// the peak of live heap above the level before the run (sampled every 200 µs).
//
//	go run ./cmd/testpg -- go test -run '^$' -bench Worker -benchtime 5x ./server/assetfiles
func BenchmarkWorker12MP(b *testing.B) {
	e := newEnv(b)
	src := jpegOf(b, photo(4000, 3000))
	for i := 0; i < b.N; i++ {
		e.original("photo.jpg", src)
	}
	w := e.worker()
	w.Pool = renditions.NewPool(1, 0, renditions.Limits{})
	src = nil

	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	base := read()
	var peak uint64
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(200 * time.Microsecond)
		defer t.Stop()
		for {
			peak = max(peak, read())
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	b.ResetTimer()
	n, err := w.RenderDue(bg)
	b.StopTimer()
	close(stop)
	<-stopped
	if err != nil || n != b.N || e.count(`SELECT count(*) FROM asset_files WHERE kind <> 'original'`) != 2*b.N {
		b.Fatalf("rendered %d of %d, %v", n, b.N, err)
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N)/12.0, "ms/MP")
	b.ReportMetric(float64(peak-base)/(1<<20), "peakMB")
}
