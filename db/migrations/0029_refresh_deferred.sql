-- Search arrays and readiness refreshed once per import batch instead of once per statement
-- (issue 26).
--
-- The triggers of migrations 0020 and 0023 refresh a product's readiness and search arrays after
-- every statement that can change them: a product line of an import (the product, its category
-- links, its attribute, its terms, its values) refreshed its search arrays 3.7 times, and each
-- refresh plans search_arrays anew (custom plans, on purpose: migration 0025), 1.2 ms a time;
-- that was 75 % of the database time of an import (pg_stat_user_functions over 1 000 variant lines
-- of bench/transfer: 7.3 s of 9.7 s). Then readiness came first: 1.9 refreshes a line, each
-- locking the product and its variants again (1.4 ms a line of 6.8).
--
-- A transaction that calls refresh_defer() has both queued instead, in a temporary table that
-- lives until its end, and calls refresh_flush() before it commits: every queued product is
-- refreshed then, all of a tenant's together, once. Reads that need them current in between call
-- refresh_flush() first (the service's publish gate does, when its context says it runs in such
-- a transaction: store.WithDeferredRefresh); the flush keeps the deferral on. Nothing else
-- changes: the API's own writes never call refresh_defer and refresh as before; a savepoint rolled
-- back takes its queued products with it (an import line that fails is rolled back to its
-- savepoint). The locks are the same ones, taken at the flush instead of at each statement: the
-- products (FOR NO KEY UPDATE, in uuid order; parents before their variants are listed, as
-- migration 0024 requires) and, for category links, the tenant's category-tree lock (shared),
-- taken at the link's write as before, so a category moved meanwhile is either seen by the flush
-- or waits for the commit; the readiness locks of families and channels and the parents' share
-- locks are still taken by the triggers at each statement.
--
-- search_refresh is the one of migration 0023 with the settings of migration 0025,
-- readiness_refresh the one of migration 0027, readiness_refresh_with_variants the one of
-- migration 0024, each with the queue.
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
    UPDATE products p SET search_categories = s.categories, search_terms = s.terms
    FROM search_arrays(p_tenant, ids) s
    WHERE p.tenant_id = p_tenant AND p.uuid = s.product_uuid
      AND (p.search_categories, p.search_terms) IS DISTINCT FROM (s.categories, s.terms);
END
$$;

CREATE OR REPLACE FUNCTION readiness_refresh(p_tenant text, p_products uuid[]) RETURNS void
LANGUAGE plpgsql SET jit = off AS $$
BEGIN
    IF p_products IS NULL OR cardinality(p_products) = 0 THEN
        RETURN;
    END IF;
    IF refresh_queued('readiness', p_tenant, p_products, false) THEN
        RETURN;
    END IF;
    PERFORM 1 FROM products WHERE tenant_id = p_tenant AND uuid = ANY(p_products) ORDER BY uuid FOR NO KEY UPDATE;
    IF NOT EXISTS (SELECT 1 FROM product_publications WHERE tenant_id = p_tenant AND product_uuid = ANY(p_products)) THEN
        RETURN;
    END IF;
    UPDATE product_publications pp SET missing = s.missing
    FROM (SELECT cur.uuid, coalesce(m.missing, '[]'::jsonb) AS missing
          FROM product_publications cur
          LEFT JOIN readiness_missing(p_tenant, p_products) m ON m.publication_uuid = cur.uuid
          WHERE cur.tenant_id = p_tenant AND cur.product_uuid = ANY(p_products)) s
    WHERE pp.tenant_id = p_tenant AND pp.uuid = s.uuid AND pp.missing IS DISTINCT FROM s.missing;
END
$$;

CREATE OR REPLACE FUNCTION readiness_refresh_with_variants(p_tenant text, p_products uuid[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    IF p_products IS NULL OR cardinality(p_products) = 0 THEN
        RETURN;
    END IF;
    IF refresh_queued('readiness', p_tenant, p_products, true) THEN
        RETURN;
    END IF;
    PERFORM 1 FROM products WHERE tenant_id = p_tenant AND uuid = ANY(p_products) ORDER BY uuid FOR NO KEY UPDATE;
    PERFORM readiness_refresh(p_tenant, ARRAY(
        SELECT u FROM unnest(p_products) u
        UNION
        SELECT v.uuid FROM products v WHERE v.tenant_id = p_tenant AND v.parent_uuid = ANY(p_products)));
END
$$;

-- refresh_queued queues the refresh of the products (with their variants when p_variants) when
-- the transaction defers its refreshes, and says whether it did.
CREATE FUNCTION refresh_queued(p_what text, p_tenant text, p_products uuid[], p_variants boolean) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
    IF current_setting('catalogd.refresh_deferred', true) IS DISTINCT FROM 'on' THEN
        RETURN false;
    END IF;
    INSERT INTO pg_temp.refresh_pending (what, tenant_id, product_uuid, variants)
    SELECT p_what, p_tenant, u, p_variants FROM unnest(p_products) u;
    RETURN true;
END
$$;

-- refresh_defer queues the transaction's readiness and search-array refreshes until
-- refresh_flush (a transaction setting: it ends with the transaction, or with the savepoint that
-- called it).
CREATE FUNCTION refresh_defer() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    CREATE TEMPORARY TABLE IF NOT EXISTS refresh_pending (
        what text NOT NULL, -- 'readiness' or 'search'
        tenant_id text NOT NULL,
        product_uuid uuid NOT NULL,
        variants boolean NOT NULL -- with the products' variants
    ) ON COMMIT DROP;
    PERFORM set_config('catalogd.refresh_deferred', 'on', true);
END
$$;

-- refresh_flush runs the queued refreshes, each product once (those queued with their variants
-- with them), readiness first, and empties the queue; the deferral stays as it was.
CREATE FUNCTION refresh_flush() RETURNS void
LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
    IF current_setting('catalogd.refresh_deferred', true) IS DISTINCT FROM 'on' THEN
        RETURN;
    END IF;
    PERFORM set_config('catalogd.refresh_deferred', 'off', true);
    FOR r IN SELECT tenant_id, what,
                    array_agg(DISTINCT product_uuid) FILTER (WHERE variants) AS parents,
                    array_agg(DISTINCT product_uuid) FILTER (WHERE NOT variants) AS own
             FROM pg_temp.refresh_pending GROUP BY tenant_id, what ORDER BY tenant_id, what LOOP
        IF r.what = 'readiness' THEN
            PERFORM readiness_refresh_with_variants(r.tenant_id, r.parents);
            PERFORM readiness_refresh(r.tenant_id,
                                      ARRAY(SELECT u FROM unnest(r.own) u EXCEPT SELECT p FROM unnest(r.parents) p));
        ELSE
            PERFORM search_refresh(r.tenant_id, r.parents, true);
            PERFORM search_refresh(r.tenant_id,
                                   ARRAY(SELECT u FROM unnest(r.own) u EXCEPT SELECT p FROM unnest(r.parents) p), false);
        END IF;
    END LOOP;
    DELETE FROM pg_temp.refresh_pending;
    PERFORM set_config('catalogd.refresh_deferred', 'on', true);
END
$$;
