package webhook

import (
	"context"
	"sync"
	"time"
)

// DefaultDebounce is the specification's example debounce.
const DefaultDebounce = 2 * time.Second

// Coalescer coalesces bursts of events per entity, as the specification's "Consumer guidance"
// describes: each event for an entity (re)starts its debounce timer; when the timer expires, one
// fetch of the entity is made; events arriving during that fetch mark the entity pending, and one
// further fetch follows the current one (however many events arrived during it). An entity is
// never fetched twice at once. It is safe for concurrent use.
//
// Events are signals: the fetch reads the current state, so ordering and duplicates of events do
// not matter. Audit, notification and analytics consumers process each event instead.
type Coalescer struct {
	debounce time.Duration
	fetch    func(ctx context.Context, key string)
	ctx      context.Context
	cancel   context.CancelFunc

	mu       sync.Mutex
	entities map[string]*entity
	closed   bool
	wg       sync.WaitGroup
}

type entity struct {
	timer    *time.Timer
	gen      uint64 // which timer is current: a stopped timer's callback may already be waiting
	fetching bool
	pending  bool
}

// NewCoalescer returns a Coalescer that calls fetch(ctx, key) for an entity key (for a product,
// its uuid; fetch makes GET /v1/products/{productUuid} with include[] and expand[...]=true) once
// debounce (DefaultDebounce when 0) has passed without an event for it. fetch handles its own
// errors (a 404 is the current state of a deleted entity); ctx is cancelled by Close.
func NewCoalescer(debounce time.Duration, fetch func(ctx context.Context, key string)) *Coalescer {
	if debounce <= 0 {
		debounce = DefaultDebounce
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Coalescer{debounce: debounce, fetch: fetch, ctx: ctx, cancel: cancel, entities: map[string]*entity{}}
}

// Signal records an event for the entity key.
func (c *Coalescer) Signal(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	e := c.entities[key]
	if e == nil {
		e = &entity{}
		c.entities[key] = e
	}
	if e.fetching {
		e.pending = true
		return
	}
	if e.timer != nil {
		e.timer.Stop()
	}
	e.gen++
	gen := e.gen
	e.timer = time.AfterFunc(c.debounce, func() { c.expire(key, e, gen) })
}

// expire runs when an entity's debounce timer fires: it fetches, then again while events arrived
// during the fetch.
func (c *Coalescer) expire(key string, e *entity, gen uint64) {
	c.mu.Lock()
	if c.closed || e.gen != gen || e.fetching {
		c.mu.Unlock()
		return
	}
	e.timer, e.fetching = nil, true
	c.wg.Add(1)
	c.mu.Unlock()
	defer c.wg.Done()
	for {
		c.fetch(c.ctx, key)
		c.mu.Lock()
		if e.pending && !c.closed {
			e.pending = false
			c.mu.Unlock()
			continue
		}
		delete(c.entities, key)
		c.mu.Unlock()
		return
	}
}

// Close drops the entities still waiting for their timer, cancels the context of the fetches in
// progress and waits for them to return. Signals after Close are ignored.
func (c *Coalescer) Close() {
	c.mu.Lock()
	c.closed = true
	for key, e := range c.entities {
		if e.timer != nil {
			e.timer.Stop()
		}
		if !e.fetching {
			delete(c.entities, key)
		}
	}
	c.mu.Unlock()
	c.cancel()
	c.wg.Wait()
}
