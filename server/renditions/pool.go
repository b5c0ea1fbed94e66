package renditions

import (
	"container/list"
	"context"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"sync"
)

// Pool bounds the renditions of one process: at most Slots at a time, and
// at most MaxBytes of rendition memory held together. The count alone would
// not bound memory — four 100 MP PNGs are 1.6 GB where four 12 MP JPEGs are
// 200 MB — so admission is weighed by each rendition's peak (Weight: the
// decoder's peak, the scaled copies and their encodings), which the header
// gives before anything is allocated.
//
// The budget is also what the process really holds: when a rendition of at
// least bigRendition bytes ends, its memory is collected and handed back to
// the system before anyone else is admitted (debug.FreeOSMemory). Otherwise
// Go's collector, which lets the heap grow to twice what was live, would
// let the next 400 MB decode land beside the garbage of the last one (an
// outside audit measured 1.0 GB of resident memory for one 10 000 × 10 000
// PNG, 1.41 GB for four).
//
// Cross-replica sharing (which worker takes which rendition) is the job
// queue's (rendition_jobs, server/assetfiles); a Pool is per process.
type Pool struct {
	lim      Limits
	slots    int
	maxBytes int64

	mu      sync.Mutex
	running int
	used    int64
	peak    int64     // the most used has been
	waiters list.List // of *waiter, FIFO so a big image is not starved by small ones
}

type waiter struct {
	n     int64
	ready chan struct{}
}

// NewPool returns a Pool. slots ≤ 0 means GOMAXPROCS (scaling is CPU bound);
// maxBytes ≤ 0 means 512 MiB. An image estimated above maxBytes is refused
// with ErrTooLarge (a 16-bit PNG or any image over 67 MP at 8 bytes a pixel
// with the default): the budget bounds the memory of renditions, not only
// their pacing.
func NewPool(slots int, maxBytes int64, lim Limits) *Pool {
	if slots <= 0 {
		slots = runtime.GOMAXPROCS(0)
	}
	if maxBytes <= 0 {
		maxBytes = 512 << 20
	}
	return &Pool{lim: lim.withDefaults(), slots: slots, maxBytes: maxBytes}
}

// Make is Make under the pool's bounds. The header is probed before
// waiting (it costs at most 1 MiB), so a refused image never waits.
func (p *Pool) Make(ctx context.Context, src io.Reader, longest int) (Output, error) {
	outs, info, err := makeRenditions(ctx, src, []int{longest}, p.lim, p.admit)
	if err != nil {
		return Output{Source: info}, err
	}
	return outs[0], nil
}

// MakeSizes is MakeSizes under the pool's bounds: one admission for all the
// sizes of one source, weighed by its decoded size as Make is.
func (p *Pool) MakeSizes(ctx context.Context, src io.Reader, longest []int) ([]Output, error) {
	outs, _, err := makeRenditions(ctx, src, longest, p.lim, p.admit)
	return outs, err
}

// Slots is how many renditions the pool runs at once; a worker claims no
// more jobs than that.
func (p *Pool) Slots() int { return p.slots }

// bigRendition is the weight from which a finished rendition's memory is handed back at once.
const bigRendition = 64 << 20

func (p *Pool) admit(ctx context.Context, info Info, n int64) (func(), error) {
	// An image whose rendition alone exceeds the budget is refused like one over the pixel
	// limit: running it alone would still take that memory (a 16-bit PNG of 100 MP decodes to
	// 800 MB; found by the audit at 1.27 GB of resident memory).
	if n > p.maxBytes {
		return nil, fmt.Errorf("%w: %d×%d takes about %d MB to render, over the rendition memory budget of %d MB",
			ErrTooLarge, info.Width, info.Height, n>>20, p.maxBytes>>20)
	}
	if err := p.acquire(ctx, n); err != nil {
		return nil, err
	}
	return func() {
		if n >= bigRendition {
			debug.FreeOSMemory() // the rendition's images are garbage now: collect them before the next admission
		}
		p.release(n)
	}, nil
}

func (p *Pool) fits(n int64) bool {
	return p.running < p.slots && p.used+n <= p.maxBytes
}

// take counts an admission (p.mu held).
func (p *Pool) take(n int64) {
	p.running++
	p.used += n
	p.peak = max(p.peak, p.used)
}

func (p *Pool) acquire(ctx context.Context, n int64) error {
	p.mu.Lock()
	if p.waiters.Len() == 0 && p.fits(n) {
		p.take(n)
		p.mu.Unlock()
		return nil
	}
	w := &waiter{n: n, ready: make(chan struct{})}
	e := p.waiters.PushBack(w)
	p.mu.Unlock()

	select {
	case <-w.ready:
		return nil
	case <-ctx.Done():
		p.mu.Lock()
		select {
		case <-w.ready: // admitted while we were cancelled: give it back
			p.mu.Unlock()
			p.release(n)
		default:
			p.waiters.Remove(e)
			p.wakeLocked() // we may have been blocking the ones behind us
			p.mu.Unlock()
		}
		return ctx.Err()
	}
}

func (p *Pool) release(n int64) {
	p.mu.Lock()
	p.running--
	p.used -= n
	p.wakeLocked()
	p.mu.Unlock()
}

// wakeLocked admits waiters in order while the head fits.
func (p *Pool) wakeLocked() {
	for e := p.waiters.Front(); e != nil; e = p.waiters.Front() {
		w := e.Value.(*waiter)
		if !p.fits(w.n) {
			return
		}
		p.take(w.n)
		p.waiters.Remove(e)
		close(w.ready)
	}
}

// Peak is the most rendition memory (by Weight) the pool has held at once: never above its budget.
func (p *Pool) Peak() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.peak
}

// Stats reports what runs now (for metrics and tests).
func (p *Pool) Stats() (running int, bytes int64, waiting int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.running, p.used, p.waiters.Len()
}
