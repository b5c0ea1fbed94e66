package topology

import (
	"log/slog"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/catalogd/catalogd/server/app"
	"github.com/catalogd/catalogd/server/store"
)

// Every table with a tenant_id keeps it in each of its unique keys (primary keys included) and in
// each foreign key to another such table (DESIGN.md "Production topology": what a tenant-sharded
// engine such as Citus needs to distribute the tables by tenant_id into one co-located group).
func TestTenantKeysForDistribution(t *testing.T) {
	t.Parallel()
	d, err := store.Open(ctx, database(t))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := app.Migrate(ctx, d, slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	tenantCol := func(rel string) string {
		return `(SELECT a.attnum FROM pg_attribute a WHERE a.attrelid = ` + rel + ` AND a.attname = 'tenant_id' AND NOT a.attisdropped)`
	}
	var tables int
	if err := d.Pool.QueryRow(ctx, `SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE n.nspname = 'public' AND c.relkind = 'r' AND `+tenantCol("c.oid")+` IS NOT NULL`).Scan(&tables); err != nil {
		t.Fatal(err)
	}
	if tables < 30 {
		t.Fatalf("%d tables with a tenant_id: the query does not see the schema", tables)
	}
	rows, err := d.Pool.Query(ctx, `
		SELECT c.relname || ': unique key ' || i.relname
		FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class c ON c.oid = x.indrelid
		JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE n.nspname = 'public' AND x.indisunique AND `+tenantCol("c.oid")+` IS NOT NULL
		  AND NOT `+tenantCol("c.oid")+` = ANY (x.indkey::int2[])
		UNION ALL
		SELECT c.relname || ': foreign key ' || k.conname
		FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE n.nspname = 'public' AND k.contype = 'f' AND `+tenantCol("k.conrelid")+` IS NOT NULL AND `+tenantCol("k.confrelid")+` IS NOT NULL
		  AND NOT EXISTS (SELECT 1 FROM unnest(k.conkey, k.confkey) AS p(l, r)
		                  WHERE p.l = `+tenantCol("k.conrelid")+` AND p.r = `+tenantCol("k.confrelid")+`)
		ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	bad, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bad {
		t.Errorf("%s does not include tenant_id (of %d tenant tables)", b, tables)
	}
}
