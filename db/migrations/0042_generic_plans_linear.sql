-- The statement-level triggers on products and product_publications were quadratic in the rows a
-- statement changed once their connection had run them for a smaller statement first, and the
-- service's connections live long. Each compares the new rows with the old (changed JOIN before on
-- the key) in a query with no PL/pgSQL variable: PL/pgSQL plans such a query once per connection
-- and keeps the plan (no parameter, hence no custom plan, whatever plan_cache_mode says), and a
-- transition table is estimated at the rows it holds when the plan is made. Planned for a write of
-- one row, the join is a nested loop rescanning the old rows for each new row with a Join Filter,
-- and the plan is reused for a write of 100 000. Affected: readiness_on_products,
-- search_on_products_text and search_on_products_moved (products: every bulk write of products,
-- and every recomputation of many products' ready channels or search columns, updates them), and
-- search_on_publications_ready (product_publications: every readiness recomputation of many
-- products updates them).
--
-- Measured on the bench/search database (100 000 products, 110 162 publications), each write in a
-- transaction rolled back, after one-row writes on the same connection against a fresh connection
-- (plan_cache_mode does not matter; auto and force_generic_plan both measured):
--   - a status change of 3 000 products in one statement (SetProductStatus): 12.9 s against
--     1.7 s; 5 000: 19.7 s against 1.7 s; 10 000: over 60 s against 2.6 s;
--   - the pos channel's 10 162 publications deleted: 82.8 s against 3.2 s (three joins of the
--     8 723 products whose ready channels changed, 76 million pairs filtered each, 22-28 s each);
--     the web channel's 100 000: over 120 s against 12.7 s;
--   - a channel requirement change: title made optional on web (100 000 publications, 29 788
--     updated) over 120 s against 7.1 s; title made required on pos (10 162) 5.4 s against 1.3 s;
--   - title's isLocalizable flipped (the same 100 000 publications): over 60 s against 11.2 s;
--   - a root category moved under another (its subtree's products' search columns): over 60 s
--     against 7.6 s; a term used by 11 407 products renamed: over 60 s against 8.2 s.
--
-- The queries now find the changed rows with EXCEPT instead of a join: the new rows' tracked
-- columns minus the old rows' (in an UPDATE's transition tables each key is once in each; EXCEPT
-- takes NULLs as equal, as IS DISTINCT FROM does), which PostgreSQL runs as a hashed or a sorted
-- set operation whatever the sizes it planned for: the plan kept for the connection stays linear
-- and costs nothing to reuse. (The first fix planned the join again at each call, through
-- EXECUTE: as linear, but about 0.2 ms more for every one-row UPDATE of products, 1 000 of them
-- 0.30-0.35 s against 0.10-0.11 s.) The derived state the writes leave is unchanged (md5 over
-- every publication's missing and ready, every product's ready channels and search columns), and
-- after one-row writes they take what they took on a fresh connection; figures in bench/README.md
-- "family requirement change".
--
-- The triggers of input_types, categories, attribute_terms, brands and locales compare new and old
-- rows the same way and keep their static queries: their tables are small (all 500 categories of
-- the bench updated in one statement: 99 ms after a one-row write against 35 ms).

CREATE OR REPLACE FUNCTION readiness_on_products() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
    FOR r IN SELECT x.tenant_id, array_agg(x.uuid) AS ids, array_agg(x.family_uuid) AS families
             FROM (SELECT tenant_id, uuid, status, family_uuid, parent_uuid, kind FROM changed
                   EXCEPT
                   SELECT tenant_id, uuid, status, family_uuid, parent_uuid, kind FROM before) x
             GROUP BY x.tenant_id LOOP
        -- A product entering a family: a concurrent change of the family's requirements waits for
        -- it or is waited for.
        PERFORM readiness_lock(r.tenant_id, 'family', r.families, false);
        -- A variant moving under a parent: a concurrent write of the parent's data waits for it
        -- or is waited for (see the header of migration 0024).
        PERFORM 1 FROM products WHERE tenant_id = r.tenant_id AND uuid IN (
            SELECT y.parent_uuid FROM (SELECT tenant_id, uuid, parent_uuid FROM changed
                                       EXCEPT
                                       SELECT tenant_id, uuid, parent_uuid FROM before) y
            WHERE y.tenant_id = r.tenant_id)
        ORDER BY uuid FOR SHARE;
        PERFORM readiness_refresh(r.tenant_id, r.ids);
    END LOOP;
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION search_on_products_moved() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
    FOR r IN SELECT x.tenant_id, array_agg(x.uuid) AS ids, array_agg(DISTINCT x.parent_uuid) AS parents
             FROM (SELECT tenant_id, uuid, parent_uuid FROM changed
                   EXCEPT
                   SELECT tenant_id, uuid, parent_uuid FROM before) x
             GROUP BY x.tenant_id LOOP
        PERFORM search_refresh_variants(r.tenant_id, r.ids, r.parents);
    END LOOP;
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION search_on_products_text() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
    FOR r IN SELECT x.tenant_id, array_agg(x.uuid) AS ids
             FROM (SELECT tenant_id, uuid, code, display_name, brand_uuid FROM changed
                   EXCEPT
                   SELECT tenant_id, uuid, code, display_name, brand_uuid FROM before) x
             GROUP BY x.tenant_id LOOP
        PERFORM search_refresh(r.tenant_id, r.ids, false);
    END LOOP;
    RETURN NULL;
END
$$;

-- A publication's product never changes (no statement sets product_uuid), so the publications
-- whose (uuid, product, ready) changed are those whose ready changed.
CREATE OR REPLACE FUNCTION search_on_publications_ready() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
    FOR r IN SELECT x.tenant_id, array_agg(DISTINCT x.product_uuid) AS ids
             FROM (SELECT tenant_id, uuid, product_uuid, ready FROM changed
                   EXCEPT
                   SELECT tenant_id, uuid, product_uuid, ready FROM before) x
             GROUP BY x.tenant_id LOOP
        PERFORM ready_channels_refresh(r.tenant_id, r.ids);
    END LOOP;
    RETURN NULL;
END
$$;
