-- The family requirement change of bench/search, timed in SQL and rolled back (bench/README.md
-- "family requirement change"): run against a database bench/search has seeded, with
--   psql "$DB" -v plan=force_generic_plan -v all=0 -f bench/search/family_change.sql
-- plan: auto (custom plans in a fresh session) or force_generic_plan (what a long-lived
-- connection settles on); all=1 first moves every product of the tenant into family-0 (with
-- user triggers off: only the timed change recomputes readiness), for 100 000 products at
-- -products 100000. Prints the statement's time and the family's ready publications after it.
\timing off
BEGIN;
SET LOCAL plan_cache_mode = :plan;
SELECT uuid AS family FROM families WHERE tenant_id = 'bench-search' AND code = 'family-0' \gset
\if :all
ALTER TABLE products DISABLE TRIGGER USER;
UPDATE products SET family_uuid = :'family' WHERE tenant_id = 'bench-search' AND family_uuid IS NOT NULL;
ALTER TABLE products ENABLE TRIGGER USER;
\endif
\timing on
UPDATE family_links SET requirement_level = 'required'
WHERE tenant_id = 'bench-search' AND family_uuid = :'family' AND requirement_level = 'optional';
\timing off
SELECT count(*) FILTER (WHERE pp.ready) AS ready, count(*) AS publications
FROM product_publications pp JOIN products p ON p.tenant_id = pp.tenant_id AND p.uuid = pp.product_uuid
WHERE pp.tenant_id = 'bench-search' AND p.family_uuid = :'family';
ROLLBACK;
