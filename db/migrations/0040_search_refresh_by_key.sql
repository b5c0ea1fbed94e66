-- An import batch's search refresh costs what its products cost, not what the tenant's catalog
-- does (issue 26, import speed).
--
-- pg_stat_statements and auto_explain over the import bench (bench/transfer, 20 000 variant lines,
-- batches of 64 lines applied together; each product's search data is computed once per batch,
-- at refresh_flush): refresh_flush was more than half of the database's time, 45 ms a batch at the
-- end of the run and growing with the catalog. Its plans (generic: search_refresh_generic_max)
-- read the whole tenant where they meant to read the batch's products:
--
-- * search_refresh's UPDATE joined the computed rows (search_arrays' and search_documents' result,
--   which the planner takes for 1 000 rows, a set-returning function's default) to products by a
--   hash of every product of the tenant (a sequential scan of 18 700 rows, most of the
--   statement's time, for 64 products). It now also says p.uuid = ANY(ids), so the products are
--   reached through their primary key.
-- * search_documents' products (p) and their category links were read by "tenant_id = $1 AND uuid
--   = ANY($2)", which a plan made on empty statistics (a first import into an empty tenant: its
--   plans are made before autovacuum has analyzed anything, and kept for the connection until it
--   does) answered by reading every product of the tenant through another index and filtering
--   (products_display_name; product_links_category for the links): each batch cost more than the
--   one before until the next analyze. They are now read one product at a time by the primary key
--   and the links' product index, which is the only plan for an equality on every key column.
-- * search_tagged (migration 0033) concatenated its bigint tag with ||, an operator that is only
--   STABLE (anynonarray || text), so the IMMUTABLE function was never inlined and ran through the
--   SQL-function executor for every localized value of every refreshed product; the tag is now
--   cast to text first (the same text), so it is inlined.
--
-- Measured on a tenant of 20 000 products of the bench's shape (30 batches of 64 products, CPU of
-- the backend from /proc): search_refresh of a batch 41 ms -> 23 ms, the same arrays and the same
-- documents (lexemes and weights) as before.

-- search_tagged: migration 0033's, inlinable.
CREATE OR REPLACE FUNCTION search_tagged(p_doc tsvector, p_tag bigint) RETURNS tsvector
LANGUAGE sql IMMUTABLE AS $$
    SELECT replace(' ' || p_doc::text, ' ''', ' ''~' || p_tag::text || '~')::tsvector
$$;

-- search_documents: migration 0033's, its products and their links reached by key.
CREATE OR REPLACE FUNCTION search_documents(p_tenant text, p_products uuid[], p_terms jsonb)
RETURNS TABLE (product_uuid uuid, document tsvector)
LANGUAGE plpgsql STABLE SET jit = off AS $$
#variable_conflict use_column
BEGIN
RETURN QUERY
WITH p AS MATERIALIZED (
    -- The products one by one through the primary key (a plan of tenant_id = $1 AND uuid = ANY($2)
    -- made on empty statistics read the tenant's products by another index and filtered them).
    SELECT p.uuid, p.code, p.display_name, p.brand_uuid FROM (SELECT DISTINCT u FROM unnest(p_products) u) u
    JOIN products p ON p.tenant_id = p_tenant AND p.uuid = u.u
), vals AS MATERIALIZED (
    -- The products' values first, by the product index (joined to input_types first, the planner
    -- read every value of each text type).
    SELECT v.owner_uuid, v.input_type_uuid, v.locale_uuid, v.value FROM product_effective_input_values v
    WHERE v.tenant_id = p_tenant AND v.owner_uuid = ANY(p_products) AND jsonb_typeof(v.value) = 'string'
), things (product_uuid, kind, thing) AS (
    SELECT e.key::uuid, 'attribute_term', t::uuid FROM jsonb_each(coalesce(p_terms, '{}')) e, jsonb_array_elements_text(e.value) t
    UNION ALL
    SELECT l.product_uuid, 'category', l.category_uuid FROM p -- by each product's links (same reason)
    JOIN product_links l ON l.tenant_id = p_tenant AND l.product_uuid = p.uuid AND l.category_uuid IS NOT NULL
    UNION ALL
    SELECT p.uuid, 'brand', p.brand_uuid FROM p WHERE p.brand_uuid IS NOT NULL
), parts (product_uuid, ord, doc) AS (
    SELECT p.uuid, 1, setweight(to_tsvector('simple', p.code || ' ' || p.display_name)
                                || array_to_tsvector(ARRAY[lower(p.code)]), 'A')
    FROM p
    UNION ALL
    SELECT v.owner_uuid, 2, search_text(CASE WHEN it.data_type = 'rich_text' THEN search_plain(v.value #>> '{}') ELSE v.value #>> '{}' END,
                                        'B', lo.code, lo.search_tag)
    FROM vals v
    JOIN input_types it ON it.tenant_id = p_tenant AND it.uuid = v.input_type_uuid AND it.data_type IN ('text', 'rich_text')
    LEFT JOIN locales lo ON lo.tenant_id = p_tenant AND lo.uuid = v.locale_uuid
    UNION ALL
    SELECT th.product_uuid, 3, setweight(to_tsvector('simple', n.code || ' ' || n.display_name), 'C')
    FROM things th
    JOIN LATERAL (SELECT t.code, t.display_name FROM attribute_terms t
                  WHERE th.kind = 'attribute_term' AND t.tenant_id = p_tenant AND t.uuid = th.thing
                  UNION ALL
                  SELECT c.code, c.display_name FROM categories c
                  WHERE th.kind = 'category' AND c.tenant_id = p_tenant AND c.uuid = th.thing
                  UNION ALL
                  SELECT b.code, b.display_name FROM brands b
                  WHERE th.kind = 'brand' AND b.tenant_id = p_tenant AND b.uuid = th.thing) n ON true
    UNION ALL
    SELECT th.product_uuid, 4, search_text(c.display_name, 'C', lo.code, lo.search_tag)
                               || search_text(c.description, 'D', lo.code, lo.search_tag)
    FROM things th
    JOIN contents c ON c.tenant_id = p_tenant AND c.parent_kind = th.kind AND c.parent_uuid = th.thing
    JOIN locales lo ON lo.tenant_id = c.tenant_id AND lo.uuid = c.locale_uuid
)
SELECT p.uuid, coalesce(d.doc, '')
FROM p LEFT JOIN (SELECT parts.product_uuid, search_concat(parts.doc ORDER BY parts.ord) AS doc
                  FROM parts GROUP BY parts.product_uuid) d ON d.product_uuid = p.uuid;
END
$$;

-- search_refresh: migration 0036's, its UPDATE reaching the products by key.
CREATE OR REPLACE FUNCTION search_refresh(p_tenant text, p_products uuid[], p_variants boolean) RETURNS void
LANGUAGE plpgsql SET jit = off SET plan_cache_mode = force_custom_plan AS $$
DECLARE ids uuid[] := p_products;
BEGIN
    IF ids IS NULL OR cardinality(ids) = 0 THEN
        RETURN;
    END IF;
    IF refresh_queued('search', p_tenant, ids, p_variants) THEN
        RETURN;
    END IF;
    PERFORM 1 FROM products WHERE tenant_id = p_tenant AND uuid = ANY(ids) ORDER BY uuid FOR NO KEY UPDATE;
    IF p_variants THEN
        ids := ARRAY(SELECT u FROM unnest(ids) u
                     UNION
                     SELECT v.uuid FROM products v WHERE v.tenant_id = p_tenant AND v.parent_uuid = ANY(p_products));
        PERFORM 1 FROM products WHERE tenant_id = p_tenant AND uuid = ANY(ids) ORDER BY uuid FOR NO KEY UPDATE;
    END IF;
    IF cardinality(ids) <= search_refresh_generic_max() THEN
        PERFORM set_config('plan_cache_mode', 'force_generic_plan', true);
    END IF;
    -- One UPDATE of arrays and document: a second update of a row the transaction updated
    -- already re-checks the row's foreign keys (brand_uuid: FOR KEY SHARE on the brand), which
    -- would meet a brand rename's FOR UPDATE (search_refresh_having) in the opposite order.
    -- p.uuid = ANY(ids): the products by their key (see above).
    WITH s AS MATERIALIZED (SELECT * FROM search_arrays(p_tenant, ids)),
         d AS (SELECT * FROM search_documents(p_tenant, ids, (SELECT jsonb_object_agg(s.product_uuid, s.terms) FROM s)))
    UPDATE products p SET search_categories = s.categories, search_terms = s.terms, search_document = d.document
    FROM s JOIN d ON d.product_uuid = s.product_uuid
    WHERE p.tenant_id = p_tenant AND p.uuid = ANY(ids) AND p.uuid = s.product_uuid
      AND (p.search_categories, p.search_terms, p.search_document) IS DISTINCT FROM (s.categories, s.terms, d.document);
END
$$;
