package main

// The seed's derived state at a million products (issue 31): the search arrays and documents and
// the readiness are computed by the functions the triggers call (search_refresh,
// readiness_refresh, ready_channels_refresh), a chunk of products per call, set-based, on two
// connections; the secondary indexes of products are dropped before the inserts and built again
// after the refresh (each update of a product otherwise inserts into every one of them, the GIN
// indexes of its document and trigrams included), and a sample of the products is checked
// against a fresh computation.

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// refreshChunk is the products of one refresh call.
const refreshChunk = 10_000

// refreshWorkers is the connections the refresh runs on at once.
const refreshWorkers = 2

// sessionSettings are the seed's settings of a connection (see seedProducts).
var sessionSettings = []string{`SET session_replication_role = replica`, `SET jit = off`, `SET plan_cache_mode = force_custom_plan`}

// refreshTimes is the time spent in each function, summed over the connections.
type refreshTimes struct {
	search, readiness, channels time.Duration
}

// inChunks runs fn for the chunks [lo, hi) of size products of 0..n on refreshWorkers
// connections at once (conn and new ones, with the seed's session settings), and returns the
// first error (the chunks not started then are skipped).
func inChunks(ctx context.Context, conn *pgx.Conn, n, size int, fn func(c *pgx.Conn, lo, hi int) error) error {
	conns := []*pgx.Conn{conn}
	for range refreshWorkers - 1 {
		c, err := pgx.Connect(ctx, *dbURL)
		if err != nil {
			return err
		}
		defer c.Close(ctx)
		for _, q := range sessionSettings {
			if _, err := c.Exec(ctx, q); err != nil {
				return err
			}
		}
		conns = append(conns, c)
	}
	chunks := make(chan int)
	var (
		mu    sync.Mutex
		first error
		wg    sync.WaitGroup
	)
	for _, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for a := range chunks {
				mu.Lock()
				failed := first != nil
				mu.Unlock()
				if failed {
					continue
				}
				if err := fn(c, a, min(n, a+size)); err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
				}
			}
		}()
	}
	for a := 0; a < n; a += size {
		chunks <- a
	}
	close(chunks)
	wg.Wait()
	return first
}

// refreshAll refreshes the products 0 <= i < n of bench_search_seed, refreshChunk a call, on
// refreshWorkers connections; each call is its own transaction.
func refreshAll(ctx context.Context, conn *pgx.Conn, n int) (refreshTimes, error) {
	var (
		mu    sync.Mutex
		total refreshTimes
		done  int
	)
	t0 := time.Now()
	err := inChunks(ctx, conn, n, refreshChunk, func(c *pgx.Conn, a, b int) error {
		var took [3]time.Duration
		// ready_channels follows readiness by a trigger, which does not fire in this session.
		for k, f := range []string{"search_refresh(@tenant, s.ids, false)", "readiness_refresh(@tenant, s.ids)", "ready_channels_refresh(@tenant, s.ids)"} {
			t := time.Now()
			if _, err := c.Exec(ctx, `SELECT `+f+` FROM (SELECT ARRAY(SELECT uuid FROM bench_search_seed WHERE i >= @lo AND i < @hi) AS ids) s`,
				pgx.NamedArgs{"tenant": *tenant, "lo": a, "hi": b}); err != nil {
				return fmt.Errorf("%s: %w", f, err)
			}
			took[k] = time.Since(t)
		}
		mu.Lock()
		defer mu.Unlock()
		total.search += took[0]
		total.readiness += took[1]
		total.channels += took[2]
		done += b - a
		if (done/refreshChunk)%10 == 0 || done >= n {
			fmt.Printf("  search arrays, documents and readiness of %d/%d products (%s)\n", done, n, time.Since(t0).Round(time.Second))
		}
		return nil
	})
	return total, err
}

// index is a secondary index of a table, dropped for the seed and built again after it.
type index struct{ name, def string }

// dropIndexes drops the indexes of table that no constraint uses (its primary key and unique
// constraints stay: the refresh finds the products by uuid) and returns their definitions.
func dropIndexes(ctx context.Context, conn *pgx.Conn, table string) ([]index, error) {
	rows, err := conn.Query(ctx, `SELECT i.indexrelid::regclass::text, pg_get_indexdef(i.indexrelid) FROM pg_index i
		WHERE i.indrelid = $1::regclass AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)
		ORDER BY 1`, table)
	if err != nil {
		return nil, err
	}
	idx, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (index, error) {
		var x index
		return x, r.Scan(&x.name, &x.def)
	})
	if err != nil {
		return nil, err
	}
	for _, x := range idx {
		if _, err := conn.Exec(ctx, "DROP INDEX "+x.name); err != nil {
			return nil, err
		}
	}
	return idx, nil
}

// buildIndexes creates the indexes again, as they were defined.
func buildIndexes(ctx context.Context, conn *pgx.Conn, idx []index) error {
	if _, err := conn.Exec(ctx, "SET maintenance_work_mem = '256MB'"); err != nil {
		return err
	}
	for _, x := range idx {
		if _, err := conn.Exec(ctx, x.def); err != nil {
			return fmt.Errorf("%s: %w", x.name, err)
		}
	}
	_, err := conn.Exec(ctx, "RESET maintenance_work_mem")
	return err
}

// checkSample compares the search arrays and document of every step-th product with what
// search_arrays and search_documents (the functions of search_refresh) compute now: the
// document's lexemes, each with the weights of its occurrences (search_documents concatenates a
// product's values in the order its plan reads them, which moves positions, not lexemes or
// weights, as apptest.WantSearchFresh compares).
func checkSample(ctx context.Context, conn *pgx.Conn, step int) (int64, error) {
	var checked, differ int64
	// lexemes(doc) as a correlated subquery each side: no function is created in the database.
	lexemes := func(doc string) string {
		return `ARRAY(SELECT x.lexeme || ':' || array_to_string(ARRAY(SELECT w FROM unnest(x.weights) w ORDER BY w), '') FROM unnest(` + doc + `) x ORDER BY x.lexeme)`
	}
	sql := strings.NewReplacer("lexemes(p.search_document)", lexemes("p.search_document"), "lexemes(d.document)", lexemes("d.document")).Replace(`WITH ids AS (SELECT ARRAY(SELECT uuid FROM bench_search_seed WHERE i % $2 = 0) AS ids),
		a AS MATERIALIZED (SELECT x.* FROM ids, search_arrays($1, ids.ids) x),
		d AS (SELECT x.* FROM ids, search_documents($1, ids.ids, (SELECT jsonb_object_agg(a.product_uuid, a.terms) FROM a)) x)
		SELECT count(*), count(*) FILTER (WHERE (p.search_categories, p.search_terms, lexemes(p.search_document)) IS DISTINCT FROM (a.categories, a.terms, lexemes(d.document)))
		FROM products p JOIN a ON a.product_uuid = p.uuid JOIN d ON d.product_uuid = p.uuid WHERE p.tenant_id = $1`)
	err := conn.QueryRow(ctx, sql, *tenant, step).Scan(&checked, &differ)
	if err != nil {
		return 0, err
	}
	if differ > 0 || checked == 0 {
		return checked, fmt.Errorf("%d of %d sampled products have search arrays or a document other than a fresh computation's", differ, checked)
	}
	return checked, nil
}
