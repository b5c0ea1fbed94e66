-- Search arrays refreshed once per import batch instead of once per statement (issue 26).
--
-- The triggers of migration 0023 refresh a product's search arrays after every statement that
-- can change them: a product line of an import (the product, its category links, its attribute,
-- its terms) refreshed them 3.7 times, and each refresh plans search_arrays anew (custom plans, on
-- purpose: migration 0025), 1.2 ms a time; that was 75 % of the database time of an import
-- (pg_stat_user_functions over 1 000 variant lines of bench/transfer: 7.3 s of 9.7 s).
--
-- A transaction that calls search_defer() has its refreshes queued instead, in a temporary table
-- that lives until its end, and calls search_flush() before it commits: every queued product is
-- refreshed then, all of a tenant's together, in one or two calls. Nothing else changes: the
-- API's own writes never call search_defer and refresh as before; a savepoint rolled back takes
-- its queued products with it; an import line that fails is rolled back to its savepoint. The
-- locks are the same ones, taken at the flush instead of at each statement: the products (FOR NO
-- KEY UPDATE, in uuid order) and, for category links, the tenant's category-tree lock (shared)
-- taken at the link's write as before, so a category moved meanwhile is either seen by the flush
-- or waits for the commit. Reads in the deferring transaction see stale arrays until the flush;
-- an import reads none.
--
-- search_refresh is the one of migration 0023 with the settings of migration 0025, plus the queue.
CREATE OR REPLACE FUNCTION search_refresh(p_tenant text, p_products uuid[], p_variants boolean) RETURNS void
LANGUAGE plpgsql SET jit = off SET plan_cache_mode = force_custom_plan AS $$
DECLARE ids uuid[] := p_products;
BEGIN
    IF ids IS NULL OR cardinality(ids) = 0 THEN
        RETURN;
    END IF;
    IF current_setting('catalogd.search_deferred', true) = 'on' THEN
        INSERT INTO pg_temp.search_pending (tenant_id, product_uuid, variants)
        SELECT p_tenant, u, p_variants FROM unnest(ids) u;
        RETURN;
    END IF;
    PERFORM 1 FROM products WHERE tenant_id = p_tenant AND uuid = ANY(ids) ORDER BY uuid FOR NO KEY UPDATE;
    IF p_variants THEN
        ids := ARRAY(SELECT u FROM unnest(ids) u
                     UNION
                     SELECT v.uuid FROM products v WHERE v.tenant_id = p_tenant AND v.parent_uuid = ANY(p_products));
        PERFORM 1 FROM products WHERE tenant_id = p_tenant AND uuid = ANY(ids) ORDER BY uuid FOR NO KEY UPDATE;
    END IF;
    UPDATE products p SET search_categories = s.categories, search_terms = s.terms
    FROM search_arrays(p_tenant, ids) s
    WHERE p.tenant_id = p_tenant AND p.uuid = s.product_uuid
      AND (p.search_categories, p.search_terms) IS DISTINCT FROM (s.categories, s.terms);
END
$$;

-- search_defer queues the transaction's search refreshes until search_flush (a transaction
-- setting: it ends with the transaction, or with the savepoint that called it).
CREATE FUNCTION search_defer() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    CREATE TEMPORARY TABLE IF NOT EXISTS search_pending (
        tenant_id text NOT NULL,
        product_uuid uuid NOT NULL,
        variants boolean NOT NULL
    ) ON COMMIT DROP;
    PERFORM set_config('catalogd.search_deferred', 'on', true);
END
$$;

-- search_flush refreshes the queued products (those queued with their variants first, with
-- them) and ends the deferral: writes after it refresh at once again.
CREATE FUNCTION search_flush() RETURNS void
LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
    IF current_setting('catalogd.search_deferred', true) IS DISTINCT FROM 'on' THEN
        RETURN;
    END IF;
    PERFORM set_config('catalogd.search_deferred', 'off', true);
    FOR r IN SELECT tenant_id,
                    array_agg(DISTINCT product_uuid) FILTER (WHERE variants) AS parents,
                    array_agg(DISTINCT product_uuid) FILTER (WHERE NOT variants) AS own
             FROM pg_temp.search_pending GROUP BY tenant_id ORDER BY tenant_id LOOP
        PERFORM search_refresh(r.tenant_id, r.parents, true);
        PERFORM search_refresh(r.tenant_id,
                               ARRAY(SELECT u FROM unnest(r.own) u EXCEPT SELECT p FROM unnest(r.parents) p), false);
    END LOOP;
    DELETE FROM pg_temp.search_pending;
END
$$;
