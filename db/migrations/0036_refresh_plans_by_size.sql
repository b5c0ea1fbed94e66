-- A search refresh of a few products plans its queries once per connection instead of at every
-- call, and an import batch no longer creates its queue table (issue 26, import speed).
--
-- pg_stat_statements and pg_stat_user_functions over an import of 3 000 variant lines
-- (bench/transfer): refresh_flush, once per batch, was 60 % of the database's time, 21 ms a call
-- on the loaded 2-core machine, for the one or two products a batch of 20 ms holds; nearly all of
-- it planning. search_documents (migration 0033) and search_arrays (migration 0025) were planned
-- at every call (force_custom_plan, on purpose: a plan made without the products' number chose
-- the tenant-wide index of category links, and a refresh of thousands of products wants other
-- joins than one of two), about 8 ms of search_documents' 11 and most of search_arrays' 4.7. With
-- plans made once and kept (generic plans: the array taken as a few elements), the same call takes
-- ~1 ms for one product and 1-6 ms for 30, on a tenant of 200 000 products and 800 000 values: its
-- plans reach every row through the product's own indexes (products_pkey, product_links by
-- product, product_terms_product, product_input_values by product).
--
-- So search_refresh picks the plans by the number of products it refreshes: up to
-- search_refresh_generic_max (the products of an import batch, a product's write, a parent with
-- its variants) the kept plans, above it a plan made for the call as before (a category moved or
-- renamed with thousands of products under it). The setting is local to the call (search_refresh
-- keeps its own SET clause, which restores the setting at its end), and search_arrays and
-- search_documents, which only search_refresh calls, follow it.
ALTER FUNCTION search_arrays(text, uuid[]) RESET plan_cache_mode;
ALTER FUNCTION search_documents(text, uuid[], jsonb) RESET plan_cache_mode;

CREATE FUNCTION search_refresh_generic_max() RETURNS integer
LANGUAGE sql IMMUTABLE AS $$ SELECT 100 $$;

-- search_refresh: migration 0033's, with the plans chosen by size.
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
    WITH s AS MATERIALIZED (SELECT * FROM search_arrays(p_tenant, ids)),
         d AS (SELECT * FROM search_documents(p_tenant, ids, (SELECT jsonb_object_agg(s.product_uuid, s.terms) FROM s)))
    UPDATE products p SET search_categories = s.categories, search_terms = s.terms, search_document = d.document
    FROM s JOIN d ON d.product_uuid = s.product_uuid
    WHERE p.tenant_id = p_tenant AND p.uuid = s.product_uuid
      AND (p.search_categories, p.search_terms, p.search_document) IS DISTINCT FROM (s.categories, s.terms, d.document);
END
$$;

-- refresh_defer (migration 0029) created its queue table in every transaction that deferred (ON
-- COMMIT DROP): a CREATE TABLE and a DROP of its catalog rows per import batch, 2.1 ms a batch.
-- The table now lives as long as the connection and is emptied at the end of every transaction
-- that used it (ON COMMIT DELETE ROWS; refresh_flush empties it too): created by the first
-- deferring transaction of a connection, found by the next ones. The deferral itself is still a
-- transaction setting, and a savepoint rolled back still takes its queued rows with it.
CREATE OR REPLACE FUNCTION refresh_defer() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    IF to_regclass('pg_temp.refresh_pending') IS NULL THEN
        CREATE TEMPORARY TABLE refresh_pending (
            what text NOT NULL, -- 'readiness' or 'search'
            tenant_id text NOT NULL,
            product_uuid uuid NOT NULL,
            variants boolean NOT NULL -- with the products' variants
        ) ON COMMIT DELETE ROWS;
    END IF;
    PERFORM set_config('catalogd.refresh_deferred', 'on', true);
END
$$;
