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
-- The same queries now run through EXECUTE, planned at each call for the transition tables' real
-- sizes: a hash join for a big statement, the nested loop for a row or two. The derived state the
-- writes leave is unchanged (md5 over every publication's missing and ready, every product's
-- ready channels and search columns), and they take after one-row writes what they took on a
-- fresh connection: 1.7 s (3 000 products' status), 1.9 s and 16.2 s (pos's, web's publications
-- deleted), 7.8 s and 1.6 s (web's, pos's requirement), 11.9 s (isLocalizable), 7.1 s (category
-- moved), 5.6 s (term renamed). The price is planning the four small queries at each call: about
-- 0.2 ms more per one-row UPDATE of products (1 000 of them: 0.30-0.35 s against 0.10-0.11 s).
--
-- The triggers of input_types, categories, attribute_terms, brands and locales compare new and old
-- rows the same way and keep their static queries: their tables are small (all 500 categories of
-- the bench updated in one statement: 99 ms after a one-row write against 35 ms).

CREATE OR REPLACE FUNCTION readiness_on_products() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
    FOR r IN EXECUTE $q$
             SELECT n.tenant_id, array_agg(n.uuid) AS ids, array_agg(n.family_uuid) AS families,
                    array_agg(n.parent_uuid) FILTER (WHERE n.parent_uuid IS DISTINCT FROM o.parent_uuid) AS parents
             FROM changed n
             JOIN before o ON o.tenant_id = n.tenant_id AND o.uuid = n.uuid
             WHERE (n.status, n.family_uuid, n.parent_uuid, n.kind) IS DISTINCT FROM (o.status, o.family_uuid, o.parent_uuid, o.kind)
             GROUP BY n.tenant_id $q$ LOOP
        -- A product entering a family: a concurrent change of the family's requirements waits for
        -- it or is waited for.
        PERFORM readiness_lock(r.tenant_id, 'family', r.families, false);
        -- A variant moving under a parent: a concurrent write of the parent's data waits for it
        -- or is waited for (see the header of migration 0024).
        PERFORM 1 FROM products WHERE tenant_id = r.tenant_id AND uuid = ANY(r.parents) ORDER BY uuid FOR SHARE;
        PERFORM readiness_refresh(r.tenant_id, r.ids);
    END LOOP;
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION search_on_products_moved() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
    FOR r IN EXECUTE $q$
             SELECT n.tenant_id, array_agg(n.uuid) AS ids, array_agg(DISTINCT n.parent_uuid) AS parents FROM changed n
             JOIN before o ON o.tenant_id = n.tenant_id AND o.uuid = n.uuid
             WHERE n.parent_uuid IS DISTINCT FROM o.parent_uuid
             GROUP BY n.tenant_id $q$ LOOP
        PERFORM search_refresh_variants(r.tenant_id, r.ids, r.parents);
    END LOOP;
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION search_on_products_text() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
    FOR r IN EXECUTE $q$
             SELECT n.tenant_id, array_agg(n.uuid) AS ids FROM changed n
             JOIN before o ON o.tenant_id = n.tenant_id AND o.uuid = n.uuid
             WHERE (n.code, n.display_name, n.brand_uuid) IS DISTINCT FROM (o.code, o.display_name, o.brand_uuid)
             GROUP BY n.tenant_id $q$ LOOP
        PERFORM search_refresh(r.tenant_id, r.ids, false);
    END LOOP;
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION search_on_publications_ready() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
    FOR r IN EXECUTE $q$
             SELECT n.tenant_id, array_agg(DISTINCT n.product_uuid) AS ids FROM changed n
             JOIN before o ON o.tenant_id = n.tenant_id AND o.uuid = n.uuid
             WHERE n.ready IS DISTINCT FROM o.ready
             GROUP BY n.tenant_id $q$ LOOP
        PERFORM ready_channels_refresh(r.tenant_id, r.ids);
    END LOOP;
    RETURN NULL;
END
$$;
