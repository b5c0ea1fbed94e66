package store_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// The inherited half of the effective views tests "the variant has no value (attribute) of its own
// for this key" with a subplan that probes the variant's own rows by product, never an anti join
// (migration 0035): as an anti join PostgreSQL read, through the index of the key's input type
// (attribute) alone, every row of that input type in the tenant for each inherited row. The
// subplan is the query's shape (OFFSET 0), in both plan modes.
func TestEffectiveViewsProbeTheVariantsOwnRows(t *testing.T) {
	ctx := context.Background()
	pool := migratedPool(t, func(*pgxpool.Config) {})
	// A tenant of 1 000 simple products with 4 values and 4 attributes each, analysed, so that the
	// subplan's index is chosen on statistics like a real catalog's (on empty tables any index
	// looks as cheap). Rows only: foreign keys and triggers are off for the load.
	tx, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"SET LOCAL session_replication_role = replica",
		`INSERT INTO products (tenant_id, uuid, code, display_name, kind, status, created_at, updated_at)
		 SELECT 't1', gen_random_uuid(), 'P' || g, 'P', 'simple', 'draft', now(), now() FROM generate_series(1, 1000) g`,
		`INSERT INTO product_input_values (tenant_id, uuid, product_uuid, input_type_uuid, value, created_at, updated_at)
		 SELECT 't1', gen_random_uuid(), p.uuid, ('00000000-0000-7000-8000-00000000000' || k)::uuid, '"x"', now(), now()
		 FROM products p, generate_series(1, 4) k`,
		`INSERT INTO product_attributes (tenant_id, uuid, product_uuid, attribute_uuid, created_at, updated_at)
		 SELECT 't1', gen_random_uuid(), p.uuid, ('00000000-0000-7000-8000-00000000000' || k)::uuid, now(), now()
		 FROM products p, generate_series(1, 4) k`,
	} {
		if _, err := tx.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, "ANALYZE products, product_input_values, product_attributes"); err != nil {
		t.Fatal(err)
	}
	for _, view := range []string{"product_effective_input_values", "product_effective_attributes"} {
		for _, mode := range []string{"force_generic_plan", "force_custom_plan"} {
			plan, err := explain(ctx, pool, mode, "(text, uuid[]) AS SELECT * FROM "+view+" WHERE tenant_id = $1 AND owner_uuid = ANY($2)",
				"'t1', '{"+uuid.NewString()+"}'")
			if err != nil {
				t.Fatal(err)
			}
			probe := false // an index condition on the variant's own uuid: its rows, not the tenant's
			for _, l := range strings.Split(plan, "\n") {
				probe = probe || strings.Contains(l, "Index Cond:") && strings.Contains(l, "product_uuid = p.uuid")
			}
			if strings.Contains(plan, "Anti Join") || !strings.Contains(plan, "SubPlan") || !probe {
				t.Errorf("%s under %s: want the variant's own rows probed by a subplan through an index on its uuid; got\n%s", view, mode, plan)
			}
		}
	}
}

// explain is the plan (EXPLAIN, COSTS OFF) of the statement prepared as "q" + params, executed
// with args (SQL literals) under plan_cache_mode mode, in a transaction rolled back.
func explain(ctx context.Context, pool *pgxpool.Pool, mode, params, args string) (string, error) {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return "", err
	}
	defer conn.Release()
	tx, err := conn.Begin(ctx)
	if err != nil {
		return "", err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	if _, err := tx.Exec(ctx, "SELECT set_config('plan_cache_mode', $1, true)", mode); err != nil {
		return "", err
	}
	if _, err := tx.Exec(ctx, "PREPARE q"+params); err != nil {
		return "", err
	}
	defer tx.Exec(ctx, "DEALLOCATE q") //nolint:errcheck
	rows, err := tx.Query(ctx, "EXPLAIN (COSTS OFF) EXECUTE q("+args+")", pgx.QueryExecModeSimpleProtocol)
	if err != nil {
		return "", err
	}
	lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
	return strings.Join(lines, "\n"), err
}
