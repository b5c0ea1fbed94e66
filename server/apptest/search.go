package apptest

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
)

// WantSearchFresh checks that every product of the tenant stores the search arrays of migration
// 0023 (search_categories, search_terms, ready_channels) and the search document of migration 0033
// as they are computed now from the links and texts,
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
	wantSearchTextFresh(t, pool, tenant)
}

// wantSearchTextFresh checks that every product's search_document (migration 0033) holds the
// lexemes its text gives now, computed here from the definition: its code (also whole) and
// displayName; its text and rich-text values without markup (a variant's inherited ones too); the
// codes and names of its effective terms, its categories and its brand, and their contents' names
// and descriptions; text with a locale parsed in that locale's language and tagged with it. It
// compares the sets of lexemes (positions and weights are the ranking's).
func wantSearchTextFresh(t *testing.T, pool *pgxpool.Pool, tenant string) {
	t.Helper()
	rows, err := pool.Query(context.Background(), `
		WITH things (product_uuid, kind, thing) AS (
			SELECT p.uuid, 'attribute_term', u FROM products p, unnest(p.search_terms) u WHERE p.tenant_id = $1
			UNION ALL
			SELECT l.product_uuid, 'category', l.category_uuid FROM product_links l WHERE l.tenant_id = $1 AND l.kind = 'category'
			UNION ALL
			SELECT p.uuid, 'brand', p.brand_uuid FROM products p WHERE p.tenant_id = $1 AND p.brand_uuid IS NOT NULL
		), texts (product_uuid, txt, locale_uuid) AS (
			SELECT p.uuid, p.code || ' ' || p.display_name, NULL::uuid FROM products p WHERE p.tenant_id = $1
			UNION ALL
			SELECT p.uuid, CASE WHEN it.data_type = 'rich_text'
			                    THEN regexp_replace(regexp_replace(v.value #>> '{}', '<[^>]*>', ' ', 'g'), '&#?[a-zA-Z0-9]+;', ' ', 'g')
			                    ELSE v.value #>> '{}' END, v.locale_uuid
			FROM products p
			JOIN product_input_values v ON v.tenant_id = p.tenant_id AND (v.product_uuid = p.uuid OR (v.product_uuid = p.parent_uuid
			     AND NOT EXISTS (SELECT 1 FROM product_input_values o WHERE o.tenant_id = p.tenant_id AND o.product_uuid = p.uuid
			                     AND o.input_type_uuid = v.input_type_uuid AND o.channel_uuid IS NOT DISTINCT FROM v.channel_uuid
			                     AND o.locale_uuid IS NOT DISTINCT FROM v.locale_uuid)))
			JOIN input_types it ON it.tenant_id = v.tenant_id AND it.uuid = v.input_type_uuid
			WHERE p.tenant_id = $1 AND it.data_type IN ('text', 'rich_text') AND jsonb_typeof(v.value) = 'string'
			UNION ALL
			SELECT x.product_uuid, n.code || ' ' || n.display_name, NULL FROM things x
			JOIN (SELECT 'attribute_term' AS kind, uuid, code, display_name FROM attribute_terms WHERE tenant_id = $1
			      UNION ALL SELECT 'category', uuid, code, display_name FROM categories WHERE tenant_id = $1
			      UNION ALL SELECT 'brand', uuid, code, display_name FROM brands WHERE tenant_id = $1) n
			  ON n.kind = x.kind AND n.uuid = x.thing
			UNION ALL
			SELECT x.product_uuid, c.display_name || ' ' || coalesce(c.description, ''), c.locale_uuid FROM things x
			JOIN contents c ON c.tenant_id = $1 AND c.parent_kind = x.kind AND c.parent_uuid = x.thing
		), lexemes (product_uuid, lexeme) AS (
			SELECT t.product_uuid, CASE WHEN t.locale_uuid IS NULL THEN lx ELSE '~' || l.search_tag || '~' || lx END
			FROM texts t LEFT JOIN locales l ON l.tenant_id = $1 AND l.uuid = t.locale_uuid,
			     unnest(tsvector_to_array(to_tsvector(CASE WHEN t.locale_uuid IS NULL THEN 'simple'::regconfig ELSE search_config(l.code) END, t.txt))) lx
			UNION ALL
			SELECT p.uuid, lower(p.code) FROM products p WHERE p.tenant_id = $1
		)
		SELECT p.code, s.stored::text, f.fresh::text FROM products p,
		LATERAL (SELECT ARRAY(SELECT u FROM unnest(tsvector_to_array(p.search_document)) u ORDER BY u COLLATE "C")) s (stored),
		LATERAL (SELECT ARRAY(SELECT DISTINCT x.lexeme COLLATE "C" FROM lexemes x WHERE x.product_uuid = p.uuid ORDER BY 1)) f (fresh)
		WHERE p.tenant_id = $1 AND s.stored IS DISTINCT FROM f.fresh`, tenant)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var code, stored, fresh string
		if err := rows.Scan(&code, &stored, &fresh); err != nil {
			t.Fatal(err)
		}
		t.Errorf("product %s stores the search lexemes %s; they are %s", code, stored, fresh)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
}
