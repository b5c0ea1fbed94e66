package apptest

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
)

// WantSearchFresh checks that every product of the tenant stores the search arrays of migration
// 0023 (search_categories, search_terms, ready_channels) as they are computed now from the links,
// written out here from their definitions rather than through the migration's functions (the
// search tests, and the imports that refresh them once per batch: migration 0029).
func WantSearchFresh(t *testing.T, pool *pgxpool.Pool, tenant string) {
	t.Helper()
	rows, err := pool.Query(context.Background(), `
		WITH RECURSIVE up (product_uuid, category) AS (
			SELECT l.product_uuid, l.category_uuid FROM product_links l WHERE l.tenant_id = $1 AND l.kind = 'category'
			UNION
			SELECT up.product_uuid, c.parent_uuid FROM up
			JOIN categories c ON c.tenant_id = $1 AND c.uuid = up.category WHERE c.parent_uuid IS NOT NULL
		), fresh AS (
			SELECT p.uuid,
			       ARRAY(SELECT DISTINCT up.category FROM up WHERE up.product_uuid = p.uuid ORDER BY 1) AS categories,
			       ARRAY(SELECT DISTINCT x.term FROM (
			           SELECT pt.term_uuid AS term FROM product_terms pt WHERE pt.tenant_id = $1 AND pt.product_uuid = p.uuid
			           UNION ALL
			           SELECT pt.term_uuid FROM product_terms pt
			           JOIN product_attributes pa ON pa.tenant_id = $1 AND pa.uuid = pt.product_attribute_uuid
			           WHERE pt.tenant_id = $1 AND pt.product_uuid = p.parent_uuid
			             AND NOT EXISTS (SELECT 1 FROM product_attributes o
			                             WHERE o.tenant_id = $1 AND o.product_uuid = p.uuid AND o.attribute_uuid = pa.attribute_uuid)
			       ) x ORDER BY 1) AS terms,
			       ARRAY(SELECT pp.channel_uuid FROM product_publications pp
			             WHERE pp.tenant_id = $1 AND pp.product_uuid = p.uuid AND pp.ready ORDER BY 1) AS ready
			FROM products p WHERE p.tenant_id = $1
		)
		SELECT p.code, p.search_categories::text, f.categories::text, p.search_terms::text, f.terms::text,
		       p.ready_channels::text, f.ready::text
		FROM products p JOIN fresh f ON f.uuid = p.uuid
		WHERE p.tenant_id = $1
		  AND (p.search_categories, p.search_terms, p.ready_channels) IS DISTINCT FROM (f.categories, f.terms, f.ready)`, tenant)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var code, sc, fc, st, ft, sr, fr string
		if err := rows.Scan(&code, &sc, &fc, &st, &ft, &sr, &fr); err != nil {
			t.Fatal(err)
		}
		t.Errorf("product %s stores categories %s terms %s ready %s; they are %s, %s, %s", code, sc, st, sr, fc, ft, fr)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
}
