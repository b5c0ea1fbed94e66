-- search_config (migration 0033) maps a locale code onto its language's text search
-- configuration. It was a scalar subquery over pg_ts_config, whose CASE on the locale code ran once
-- per row of the catalog, and a function holding a subquery is never inlined: each call ran the
-- SQL function's own executor, about 80 µs, once per localized value and content of every
-- product a refresh computes the document of (issue 31: 2 000 products' documents took 1.7 s, of
-- which search_config was 0.6 s; to_tsvector itself 0.35 s).
--
-- Now it is one CASE whose branches are the configurations themselves (regconfig constants), so
-- it is inlined into search_text and costs a few string comparisons. The branches are written
-- here for the configurations this PostgreSQL has (the query of the old function found the same
-- ones, or none: simple); a configuration a later PostgreSQL adds for a language of the list is
-- taken when this migration runs on it.
DO $$
DECLARE
    branches text := '';
    r record;
BEGIN
    FOR r IN
        SELECT v.lang, v.cfg
        FROM (VALUES ('ar', 'arabic'), ('hy', 'armenian'), ('eu', 'basque'), ('ca', 'catalan'), ('da', 'danish'),
                     ('nl', 'dutch'), ('en', 'english'), ('fi', 'finnish'), ('fr', 'french'), ('de', 'german'),
                     ('el', 'greek'), ('hi', 'hindi'), ('hu', 'hungarian'), ('id', 'indonesian'), ('ga', 'irish'),
                     ('it', 'italian'), ('lt', 'lithuanian'), ('ne', 'nepali'), ('no', 'norwegian'), ('nb', 'norwegian'),
                     ('nn', 'norwegian'), ('pt', 'portuguese'), ('ro', 'romanian'), ('ru', 'russian'), ('sr', 'serbian'),
                     ('es', 'spanish'), ('sv', 'swedish'), ('ta', 'tamil'), ('tr', 'turkish'), ('yi', 'yiddish'),
                     ('et', 'estonian')) AS v (lang, cfg)
        WHERE EXISTS (SELECT 1 FROM pg_ts_config c WHERE c.cfgnamespace = 'pg_catalog'::regnamespace AND c.cfgname = v.cfg)
    LOOP
        branches := branches || format(' WHEN %L THEN %L::regconfig', r.lang, 'pg_catalog.' || r.cfg);
    END LOOP;
    EXECUTE format($f$
        CREATE OR REPLACE FUNCTION search_config(p_code text) RETURNS regconfig
        LANGUAGE sql STABLE AS $body$
            SELECT CASE lower(split_part(replace(p_code, '_', '-'), '-', 1))%s ELSE 'pg_catalog.simple'::regconfig END
        $body$
    $f$, branches);
END
$$;
