package transfer

// The codes a run resolves again and again (every product line names the same locales,
// categories, tags and input types): remembered for the run, so that a line looks each up once
// per run instead of once per use. Only codes found are kept (a code not found yet may be
// defined by a later line), and only references to other resources go through it, never the
// line's own code. A line cannot delete a resource it refers to by code (lines upsert), except
// the children of its own resource (an attribute line's terms, which product lines name within
// their attribute), so what a run found stays right for the run unless a line or something else
// deletes it meanwhile: then the write naming the remembered uuid fails (the row is gone), and a
// line that used remembered codes and fails is applied once more looking every code up again
// (apply1), so a stale uuid can never change a line's outcome or its errors.

import (
	"context"
	"sync"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/catalogd/catalogd/server/reqctx"
	"github.com/catalogd/catalogd/server/store"
)

// codes is a run's memory of resolved codes: (tenant, table, code) → uuid.
type codes struct {
	mu   sync.Mutex
	ids  map[codeKey]uuid.UUID
	hits int64
}

type codeKey struct{ tenant, table, code string }

// maxCodes bounds the memory: past it the run starts again with none (a file with more
// distinct referenced codes than that resolves the rest as before).
const maxCodes = 100_000

type codesKey struct{}

// WithCodes gives ctx a memory of codes for one run of lines (Run and an import job call it);
// without one every reference is looked up.
func WithCodes(ctx context.Context) context.Context {
	return context.WithValue(ctx, codesKey{}, &codes{ids: map[codeKey]uuid.UUID{}})
}

func codesOf(ctx context.Context) *codes {
	c, _ := ctx.Value(codesKey{}).(*codes)
	return c
}

// hitCount is how many lookups the memory answered so far (0 without one).
func (c *codes) hitCount() int64 {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits
}

// forget empties the memory (lines rolled back may have remembered codes of rows the rollback
// removed).
func (c *codes) forget() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ids = map[codeKey]uuid.UUID{}
}

type refreshKey struct{}

// refreshing is ctx under which every reference is looked up again (and remembered anew, or
// forgotten when no longer found).
func refreshing(ctx context.Context) context.Context {
	return context.WithValue(ctx, refreshKey{}, true)
}

// refLookup is lookup for a reference to another resource: answered from the run's memory when
// it holds the code, else looked up and remembered when found.
func refLookup(ctx context.Context, tx pgx.Tx, table, code string) (uuid.UUID, bool, error) {
	return remembered(ctx, table, code, func() (uuid.UUID, bool, error) { return lookup(ctx, tx, table, code) })
}

// memberLookup is a set member's lookup by code among those of the set's key (a term among its
// attribute's, Set.Lookup), through the run's memory as refLookup. A member deleted meanwhile (an
// attribute line leaving a term out) fails the write that names its remembered uuid, and the
// line is applied again looking every code up (apply1), as for any other remembered code.
func memberLookup(ctx context.Context, tx pgx.Tx, st Set, within uuid.UUID, code string) (uuid.UUID, bool, error) {
	return remembered(ctx, st.Kind+" of "+within.String(), code, func() (uuid.UUID, bool, error) {
		var m uuid.UUID
		err := tx.QueryRow(ctx, st.Lookup, reqctx.Tenant(ctx), within, code).Scan(&m)
		if store.IsNoRows(err) {
			return uuid.Nil, false, nil
		}
		return m, err == nil, err
	})
}

// remembered answers look's uuid for code in table (a table, or any name of a set of codes) from
// the run's memory when it holds it, else calls look and remembers what it found.
func remembered(ctx context.Context, table, code string, look func() (uuid.UUID, bool, error)) (uuid.UUID, bool, error) {
	c := codesOf(ctx)
	if c == nil {
		return look()
	}
	k := codeKey{reqctx.Tenant(ctx), table, code}
	if ctx.Value(refreshKey{}) == nil {
		c.mu.Lock()
		id, ok := c.ids[k]
		if ok {
			c.hits++
		}
		c.mu.Unlock()
		if ok {
			return id, true, nil
		}
	}
	id, ok, err := look()
	if err == nil {
		c.mu.Lock()
		if !ok {
			delete(c.ids, k)
		} else {
			if len(c.ids) >= maxCodes {
				c.ids = map[codeKey]uuid.UUID{}
			}
			c.ids[k] = id
		}
		c.mu.Unlock()
	}
	return id, ok, err
}
