-- Full-text search over products (issue 31): GET /v1/products?q=... .
--
-- What is searched: each product stores search_document, a tsvector of
--   weight A  its code (also whole, lower-cased, so "boot-1" finds "BOOT-1-RED" as typed) and
--             displayName;
--   weight B  its text and rich-text input values (rich text without its markup), a variant's
--             inherited ones too (product_effective_input_values);
--   weight C  the codes and display names of its effective terms (search_terms), of the
--             categories it is linked to and of its brand, and the display names of their
--             contents;
--   weight D  the descriptions of those contents.
-- Text that has a locale (a localized value, a content) is parsed with the text search
-- configuration of the locale's language (search_config: de-DE -> german, a language PostgreSQL
-- has no stemmer for -> simple) and each of its lexemes is tagged with the locale: prefixed with
-- '~<locales.search_tag>~' (search_tagged). Text without a locale is parsed with simple and not
-- tagged. The query (search_tsquery) looks for each word untagged (simple) and tagged with every
-- locale in scope, stemmed by that locale's configuration: locales[eq] narrows the scope, so it
-- limits the matching to those locales' text exactly, and one GIN index serves every locale.
--
-- Kept current in the writing transaction by the refresh machinery of the search arrays
-- (migrations 0023, 0029): search_refresh recomputes the document with the arrays (it names the
-- fresh effective terms), so every write that refreshed the arrays refreshes the document, and an
-- import batch queues both (refresh_defer / refresh_flush). New triggers call search_refresh for
-- what only the text depends on:
--   products (insert: every product; code, display_name, brand_uuid changed) -> the products
--   product_input_values of text and rich_text types -> the products and their variants
--   contents of terms, categories, brands                -> the products having them
--   attribute_terms, categories, brands (code, display_name changed)  -> the products having them
--   locales (code changed: its language may change)      -> the products with text in it
-- Concurrency: a write of a term's, category's or brand's name or contents, or of a locale's code,
-- locks that row FOR UPDATE before it looks for the products to refresh. A product linking it
-- holds a FOR KEY SHARE lock on the same row (its foreign key check) until it commits, which
-- conflicts: whichever comes second sees the other's committed write (READ COMMITTED: a new
-- snapshot per statement after the wait).

ALTER TABLE locales ADD COLUMN search_tag bigint GENERATED ALWAYS AS IDENTITY;
ALTER TABLE products ADD COLUMN search_document tsvector NOT NULL DEFAULT '';

-- search_config maps a BCP 47 locale code onto the text search configuration of its language,
-- simple when PostgreSQL has none for it.
CREATE FUNCTION search_config(p_code text) RETURNS regconfig
LANGUAGE sql STABLE AS $$
    SELECT coalesce((SELECT c.oid::regconfig FROM pg_ts_config c
                     WHERE c.cfgnamespace = 'pg_catalog'::regnamespace
                       AND c.cfgname = CASE lower(split_part(replace(p_code, '_', '-'), '-', 1))
                           WHEN 'ar' THEN 'arabic' WHEN 'hy' THEN 'armenian' WHEN 'eu' THEN 'basque'
                           WHEN 'ca' THEN 'catalan' WHEN 'da' THEN 'danish' WHEN 'nl' THEN 'dutch'
                           WHEN 'en' THEN 'english' WHEN 'fi' THEN 'finnish' WHEN 'fr' THEN 'french'
                           WHEN 'de' THEN 'german' WHEN 'el' THEN 'greek' WHEN 'hi' THEN 'hindi'
                           WHEN 'hu' THEN 'hungarian' WHEN 'id' THEN 'indonesian' WHEN 'ga' THEN 'irish'
                           WHEN 'it' THEN 'italian' WHEN 'lt' THEN 'lithuanian' WHEN 'ne' THEN 'nepali'
                           WHEN 'no' THEN 'norwegian' WHEN 'nb' THEN 'norwegian' WHEN 'nn' THEN 'norwegian'
                           WHEN 'pt' THEN 'portuguese' WHEN 'ro' THEN 'romanian' WHEN 'ru' THEN 'russian'
                           WHEN 'sr' THEN 'serbian' WHEN 'es' THEN 'spanish' WHEN 'sv' THEN 'swedish'
                           WHEN 'ta' THEN 'tamil' WHEN 'tr' THEN 'turkish' WHEN 'yi' THEN 'yiddish'
                           WHEN 'et' THEN 'estonian' END),
                    'simple'::regconfig)
$$;

-- search_lexeme quotes a lexeme for tsquery / tsvector input (quotes doubled, backslashes escaped).
CREATE FUNCTION search_lexeme(p_lexeme text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
    SELECT '''' || replace(replace(p_lexeme, '\', '\\'), '''', '''''') || ''''
$$;

-- search_tagged prefixes every lexeme of the document with the locale's tag, keeping positions
-- and weights: in the text form of a tsvector every lexeme opens with a quote after a space (a
-- lexeme of to_tsvector holds no space; a quote inside one is doubled), so one replace tags them
-- all, instead of rebuilding the document lexeme by lexeme.
CREATE FUNCTION search_tagged(p_doc tsvector, p_tag bigint) RETURNS tsvector
LANGUAGE sql IMMUTABLE AS $$
    SELECT replace(' ' || p_doc::text, ' ''', ' ''~' || p_tag || '~')::tsvector
$$;

-- search_text is the weighted document of one piece of text, tagged with its locale when it has one.
CREATE FUNCTION search_text(p_text text, p_weight "char", p_locale_code text, p_locale_tag bigint) RETURNS tsvector
LANGUAGE sql STABLE AS $$
    SELECT CASE WHEN p_locale_tag IS NULL THEN setweight(to_tsvector('simple', coalesce(p_text, '')), p_weight)
                ELSE search_tagged(setweight(to_tsvector(search_config(p_locale_code), coalesce(p_text, '')), p_weight), p_locale_tag)
           END
$$;

-- search_plain is rich text without its markup: tags and character references become spaces.
CREATE FUNCTION search_plain(p_text text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
    SELECT regexp_replace(regexp_replace(p_text, '<[^>]*>', ' ', 'g'), '&(#?[a-zA-Z0-9]+);', ' ', 'g')
$$;

CREATE AGGREGATE search_concat(tsvector) (SFUNC = tsvector_concat, STYPE = tsvector, INITCOND = '');

-- search_documents computes search_document for the products, given their effective terms
-- (p_terms: {product uuid: [term uuids]}, as search_arrays computes them in the same refresh).
CREATE FUNCTION search_documents(p_tenant text, p_products uuid[], p_terms jsonb)
RETURNS TABLE (product_uuid uuid, document tsvector)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_custom_plan SET jit = off AS $$
#variable_conflict use_column
BEGIN
RETURN QUERY
WITH p AS (
    SELECT p.uuid, p.code, p.display_name, p.brand_uuid FROM products p
    WHERE p.tenant_id = p_tenant AND p.uuid = ANY(p_products)
), vals AS MATERIALIZED (
    -- The products' values first, by the product index (joined to input_types first, the planner
    -- read every value of each text type).
    SELECT v.owner_uuid, v.input_type_uuid, v.locale_uuid, v.value FROM product_effective_input_values v
    WHERE v.tenant_id = p_tenant AND v.owner_uuid = ANY(p_products) AND jsonb_typeof(v.value) = 'string'
), things (product_uuid, kind, thing) AS (
    SELECT e.key::uuid, 'attribute_term', t::uuid FROM jsonb_each(coalesce(p_terms, '{}')) e, jsonb_array_elements_text(e.value) t
    UNION ALL
    SELECT l.product_uuid, 'category', l.category_uuid FROM product_links l
    WHERE l.tenant_id = p_tenant AND l.product_uuid = ANY(p_products) AND l.category_uuid IS NOT NULL
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

-- search_refresh: migration 0029's, which now also recomputes the documents (from the arrays it
-- computes: the document names the effective terms).
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

-- Every new product (search_on_products_created of migration 0023 refreshed variants only).
CREATE OR REPLACE FUNCTION search_on_products_created() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
    FOR r IN SELECT tenant_id, array_agg(uuid) FILTER (WHERE parent_uuid IS NOT NULL) AS variants,
                    array_agg(DISTINCT parent_uuid) FILTER (WHERE parent_uuid IS NOT NULL) AS parents,
                    array_agg(uuid) FILTER (WHERE parent_uuid IS NULL) AS others
             FROM changed GROUP BY tenant_id LOOP
        PERFORM search_refresh_variants(r.tenant_id, r.variants, r.parents);
        PERFORM search_refresh(r.tenant_id, r.others, false);
    END LOOP;
    RETURN NULL;
END
$$;

-- A product's own searched fields changed (search_refresh's own updates change none of them).
CREATE FUNCTION search_on_products_text() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
    FOR r IN SELECT n.tenant_id, array_agg(n.uuid) AS ids FROM changed n
             JOIN before o ON o.tenant_id = n.tenant_id AND o.uuid = n.uuid
             WHERE (n.code, n.display_name, n.brand_uuid) IS DISTINCT FROM (o.code, o.display_name, o.brand_uuid)
             GROUP BY n.tenant_id LOOP
        PERFORM search_refresh(r.tenant_id, r.ids, false);
    END LOOP;
    RETURN NULL;
END
$$;

-- Text and rich-text values written: their products and those products' variants (which inherit
-- the values they do not set themselves).
CREATE FUNCTION search_on_input_values() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
    FOR r IN SELECT c.tenant_id, array_agg(DISTINCT c.product_uuid) AS ids FROM changed c
             JOIN input_types it ON it.tenant_id = c.tenant_id AND it.uuid = c.input_type_uuid
             WHERE it.data_type IN ('text', 'rich_text')
             GROUP BY c.tenant_id LOOP
        PERFORM search_refresh(r.tenant_id, r.ids, true);
    END LOOP;
    RETURN NULL;
END
$$;

-- search_refresh_having refreshes the products having the terms, categories or brands (kind as
-- contents.parent_kind), after locking those rows FOR UPDATE (see the header).
CREATE FUNCTION search_refresh_having(p_tenant text, p_kind text, p_things uuid[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    IF p_things IS NULL OR cardinality(p_things) = 0 THEN
        RETURN;
    END IF;
    IF p_kind = 'attribute_term' THEN
        PERFORM 1 FROM attribute_terms WHERE tenant_id = p_tenant AND uuid = ANY(p_things) ORDER BY uuid FOR UPDATE;
        PERFORM search_refresh(p_tenant, ARRAY(SELECT p.uuid FROM products p
                                               WHERE p.tenant_id = p_tenant AND p.search_terms && p_things), false);
    ELSIF p_kind = 'category' THEN
        PERFORM 1 FROM categories WHERE tenant_id = p_tenant AND uuid = ANY(p_things) ORDER BY uuid FOR UPDATE;
        PERFORM search_refresh(p_tenant, ARRAY(SELECT DISTINCT l.product_uuid FROM product_links l
                                               WHERE l.tenant_id = p_tenant AND l.category_uuid = ANY(p_things)), false);
    ELSIF p_kind = 'brand' THEN
        PERFORM 1 FROM brands WHERE tenant_id = p_tenant AND uuid = ANY(p_things) ORDER BY uuid FOR UPDATE;
        PERFORM search_refresh(p_tenant, ARRAY(SELECT p.uuid FROM products p
                                               WHERE p.tenant_id = p_tenant AND p.brand_uuid = ANY(p_things)), false);
    END IF;
END
$$;

CREATE FUNCTION search_on_contents() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
    FOR r IN SELECT tenant_id, parent_kind, array_agg(DISTINCT parent_uuid) AS ids FROM changed
             WHERE parent_kind IN ('attribute_term', 'category', 'brand')
             GROUP BY tenant_id, parent_kind LOOP
        PERFORM search_refresh_having(r.tenant_id, r.parent_kind, r.ids);
    END LOOP;
    RETURN NULL;
END
$$;

-- A term's, category's or brand's code or display name changed (TG_ARGV[0]: its kind).
CREATE FUNCTION search_on_names() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
    FOR r IN SELECT n.tenant_id, array_agg(n.uuid) AS ids FROM changed n
             JOIN before o ON o.tenant_id = n.tenant_id AND o.uuid = n.uuid
             WHERE (n.code, n.display_name) IS DISTINCT FROM (o.code, o.display_name)
             GROUP BY n.tenant_id LOOP
        PERFORM search_refresh_having(r.tenant_id, TG_ARGV[0], r.ids);
    END LOOP;
    RETURN NULL;
END
$$;

-- A locale's code changed: its language, so the stemming of its text, may have changed. Its
-- products: those with values in it (and their variants), and those having a term, category or
-- brand with contents in it.
CREATE FUNCTION search_on_locales() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
    FOR r IN SELECT n.tenant_id, array_agg(n.uuid) AS ids FROM changed n
             JOIN before o ON o.tenant_id = n.tenant_id AND o.uuid = n.uuid
             WHERE search_config(n.code) IS DISTINCT FROM search_config(o.code)
             GROUP BY n.tenant_id LOOP
        PERFORM 1 FROM locales WHERE tenant_id = r.tenant_id AND uuid = ANY(r.ids) ORDER BY uuid FOR UPDATE;
        PERFORM search_refresh(r.tenant_id, ARRAY(SELECT DISTINCT v.product_uuid FROM product_input_values v
                                                  WHERE v.tenant_id = r.tenant_id AND v.locale_uuid = ANY(r.ids)), true);
        PERFORM search_refresh_having(r.tenant_id, k.kind, k.things)
        FROM (SELECT c.parent_kind AS kind, array_agg(DISTINCT c.parent_uuid) AS things FROM contents c
              WHERE c.tenant_id = r.tenant_id AND c.locale_uuid = ANY(r.ids)
                AND c.parent_kind IN ('attribute_term', 'category', 'brand')
              GROUP BY c.parent_kind ORDER BY c.parent_kind) k;
    END LOOP;
    RETURN NULL;
END
$$;

CREATE TRIGGER search_products_text AFTER UPDATE ON products
    REFERENCING OLD TABLE AS before NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION search_on_products_text();
CREATE TRIGGER search_input_values_ins AFTER INSERT ON product_input_values
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION search_on_input_values();
CREATE TRIGGER search_input_values_upd AFTER UPDATE ON product_input_values
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION search_on_input_values();
CREATE TRIGGER search_input_values_del AFTER DELETE ON product_input_values
    REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION search_on_input_values();
CREATE TRIGGER search_contents_ins AFTER INSERT ON contents
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION search_on_contents();
CREATE TRIGGER search_contents_upd AFTER UPDATE ON contents
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION search_on_contents();
CREATE TRIGGER search_contents_del AFTER DELETE ON contents
    REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION search_on_contents();
CREATE TRIGGER search_terms_names AFTER UPDATE ON attribute_terms
    REFERENCING OLD TABLE AS before NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION search_on_names('attribute_term');
CREATE TRIGGER search_categories_names AFTER UPDATE ON categories
    REFERENCING OLD TABLE AS before NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION search_on_names('category');
CREATE TRIGGER search_brands_names AFTER UPDATE ON brands
    REFERENCING OLD TABLE AS before NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION search_on_names('brand');
CREATE TRIGGER search_locales AFTER UPDATE ON locales
    REFERENCING OLD TABLE AS before NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION search_on_locales();

-- search_tsquery builds the query of q from its parsed items (words and quoted phrases, as the
-- service parsed them: never raw input to to_tsquery): every item must match; an item matches
-- its words in order, untagged as simple parses them, or tagged with one of the locales in scope
-- (p_locales; null: every locale of the tenant) as that locale's configuration stems them, or, for
-- a word, as one whole lower-cased lexeme (a code as typed). With p_prefix the last item's words
-- match the start of lexemes. An item that is a stop word in the language of a locale in scope
-- ("the", "und") is left out, as plainto_tsquery leaves it out, unless every item is one. Lexemes
-- are quoted (search_lexeme) and the query text is parsed by tsquery's input function, which does
-- no further processing. NULL when no item has a word.
CREATE FUNCTION search_tsquery(p_tenant text, p_items text[], p_phrases boolean[], p_prefix boolean, p_locales uuid[])
RETURNS tsquery
LANGUAGE plpgsql STABLE AS $$
DECLARE
    alts text[];
    kept text[] := '{}';
    stopped text[] := '{}';
    chain text;
    i int;
    star text;
    stop boolean;
    r record;
BEGIN
    FOR i IN 1 .. coalesce(cardinality(p_items), 0) LOOP
        IF NOT EXISTS (SELECT 1 FROM unnest(to_tsvector('simple', p_items[i]))) THEN
            CONTINUE; -- nothing to search for in it (punctuation only)
        END IF;
        star := CASE WHEN p_prefix AND i = cardinality(p_items) THEN ':*' ELSE '' END;
        alts := '{}';
        stop := false;
        FOR r IN SELECT NULL::text AS tag, 'simple'::regconfig AS cfg
                 UNION ALL
                 SELECT '~' || l.search_tag || '~', search_config(l.code) FROM locales l
                 WHERE l.tenant_id = p_tenant AND (p_locales IS NULL OR l.uuid = ANY(p_locales)) LOOP
            -- The item's lexemes by position, with the distance between positions (<N>: a stop
            -- word dropped counts); lexemes at one position are alternatives.
            SELECT string_agg(CASE WHEN g.n = 1 THEN g.lexemes ELSE '<' || g.gap || '> ' || g.lexemes END, ' ' ORDER BY g.pos) INTO chain FROM (
                SELECT x.pos, '(' || string_agg(search_lexeme(coalesce(r.tag, '') || x.lexeme) || star, ' | ') || ')' AS lexemes,
                       x.pos - lag(x.pos, 1, x.pos) OVER (ORDER BY x.pos) AS gap,
                       row_number() OVER (ORDER BY x.pos) AS n
                FROM (SELECT u.lexeme, p AS pos FROM unnest(to_tsvector(r.cfg, p_items[i])) u, unnest(u.positions) p) x
                GROUP BY x.pos) g;
            IF chain IS NOT NULL THEN
                alts := alts || ('(' || chain || ')');
            ELSE
                stop := true; -- only stop words in this locale's language
            END IF;
        END LOOP;
        IF NOT p_phrases[i] THEN
            alts := alts || (search_lexeme(lower(p_items[i])) || star);
        END IF;
        IF stop THEN
            stopped := stopped || ('(' || array_to_string(alts, ' | ') || ')');
        ELSE
            kept := kept || ('(' || array_to_string(alts, ' | ') || ')');
        END IF;
    END LOOP;
    IF cardinality(kept) = 0 THEN
        kept := stopped;
    END IF;
    IF cardinality(kept) = 0 THEN
        RETURN NULL;
    END IF;
    RETURN array_to_string(kept, ' & ')::tsquery;
END
$$;

-- The products that exist already.
SELECT search_refresh(t.tenant_id, t.ids, false)
FROM (SELECT tenant_id, array_agg(uuid) AS ids FROM products GROUP BY tenant_id) t;

CREATE INDEX products_search_document ON products USING gin (search_document);
