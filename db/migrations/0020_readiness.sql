-- Readiness kept per publication (issue 15): what a product lacks to be published on a channel is
-- stored on its publication (missing, in the order GET .../readiness lists it; ready when empty),
-- and every write that can change it recomputes it in the same transaction, by the triggers below.
-- The readiness GET, the publish gate and the readyChannelUuids / notReadyChannelUuids filters all
-- read this state; nothing computes readiness per request any more.
--
-- What readiness depends on, and the trigger that recomputes it:
--   products (status, family, parent)                  -> those products
--   product_attributes, product_input_values,
--   product_assets, product_relations                  -> those products and their variants
--   product_publications (insert)                      -> the new publications' products
--   family_links                                       -> the family's products with a publication
--   channel_input_types, channel_locales               -> the products published on the channel
--   input_types (isLocalizable)                        -> through the families and channels using it
-- Cascaded deletes fire the triggers of the tables they delete from, so no path is missed.
--
-- Concurrency (READ COMMITTED): a recomputation first locks what it recomputes, then reads with a
-- fresh snapshot (each statement of a PL/pgSQL function takes its own), so the last writer always
-- sees the writes that committed before it:
--   * readiness_refresh locks the products (FOR NO KEY UPDATE, in uuid order);
--   * a family or channel recomputation first takes the family's / channel's readiness lock
--     exclusively (a transaction-scoped advisory lock, readiness_lock), which a publication being
--     created takes shared on its product's family and its channel, and a product moving into a
--     family takes shared on that family: those writers and the recomputation wait for each other
--     instead of missing each other, while writers of the same family's or channel's requirements
--     queue on the exclusive lock (row locks on the family / channel would deadlock them: each
--     already holds a key-share lock on it through its foreign key).
-- Locks are taken families first, then channels, each in uuid order. Deadlocks left (writers
-- meeting on products in opposite orders) are retried by the application (store.Tx).

ALTER TABLE product_publications
    ADD COLUMN missing jsonb NOT NULL DEFAULT '[]'::jsonb,
    ADD COLUMN ready boolean GENERATED ALWAYS AS (missing = '[]'::jsonb) STORED;

-- readyChannelUuids: the ready publications of a channel; notReadyChannelUuids: whether a product
-- has a ready publication on a channel (an index-only anti-join per product).
CREATE INDEX product_publications_ready_channel ON product_publications (tenant_id, channel_uuid, product_uuid) WHERE ready;
CREATE INDEX product_publications_ready_product ON product_publications (tenant_id, product_uuid, channel_uuid) WHERE ready;

-- readiness_missing computes, for every publication of the products, the requirements it does not
-- meet (publications meeting all of them have no row). Requirements: the product active; the
-- channel's required input types (for each channel locale when localizable; scoping channel needs a
-- value of this channel, global one of this channel or of all channels); the product family's links
-- applying to the product's kind (simple: all; variant_parent: parent, both; variant: variant,
-- both): required attributes and input types, asset and relation types with their counts (need =
-- minCount, at least 1 when required; at most maxCount). A variant sees its parent's attributes,
-- its effective input values (inherited included), and its parent's assets / relations of a type
-- it has none of. Each item: kind, uuid, localeUuid, source (0 the product, 1 the channel, 2 the
-- family), scoping, need, have (assets / relations found), maxCount (null: no maximum), ordered as
-- the readiness lists them (the product first, then the channel's, then the family's, each by link
-- age, then locale position).
CREATE FUNCTION readiness_missing(p_tenant text, p_products uuid[])
RETURNS TABLE (publication_uuid uuid, missing jsonb)
LANGUAGE sql STABLE AS $$
WITH pub AS (
    SELECT pp.uuid AS pub_uuid, pp.channel_uuid, pr.uuid AS product_uuid, pr.kind, pr.status, pr.family_uuid, pr.parent_uuid
    FROM product_publications pp
    JOIN products pr ON pr.tenant_id = pp.tenant_id AND pr.uuid = pp.product_uuid
    WHERE pp.tenant_id = p_tenant AND pp.product_uuid = ANY(p_products)
), req AS (
    SELECT pub.pub_uuid, pub.product_uuid, pub.parent_uuid, pub.channel_uuid, 0 AS src, 'product'::text AS kind,
           pub.product_uuid AS uuid, NULL::uuid AS locale_uuid, 'global'::text AS scoping, 0 AS need,
           NULL::integer AS max_count, NULL::timestamptz AS linked_at, 0 AS position
    FROM pub WHERE pub.status <> 'active'
    UNION ALL
    SELECT pub.pub_uuid, pub.product_uuid, pub.parent_uuid, pub.channel_uuid, 1, 'input_type', it.uuid, l.locale_uuid,
           cit.scoping, 0, NULL, cit.created_at, coalesce(l.position, 0)
    FROM pub
    JOIN channel_input_types cit ON cit.tenant_id = p_tenant AND cit.channel_uuid = pub.channel_uuid
                                 AND cit.requirement_level = 'required'
    JOIN input_types it ON it.tenant_id = cit.tenant_id AND it.uuid = cit.input_type_uuid
    LEFT JOIN channel_locales l ON it.is_localizable AND l.tenant_id = p_tenant AND l.channel_uuid = pub.channel_uuid
    WHERE NOT it.is_localizable OR l.locale_uuid IS NOT NULL
    UNION ALL
    SELECT pub.pub_uuid, pub.product_uuid, pub.parent_uuid, pub.channel_uuid, 2, fl.kind, fl.target_uuid, l.locale_uuid,
           'global', CASE WHEN fl.requirement_level = 'required' THEN greatest(fl.min_count, 1) ELSE fl.min_count END,
           fl.max_count, fl.created_at, coalesce(l.position, 0)
    FROM pub
    JOIN family_links fl ON fl.tenant_id = p_tenant AND fl.family_uuid = pub.family_uuid
    LEFT JOIN input_types it ON fl.kind = 'input_type' AND it.tenant_id = fl.tenant_id AND it.uuid = fl.target_uuid
    LEFT JOIN channel_locales l ON coalesce(it.is_localizable, false) AND l.tenant_id = p_tenant AND l.channel_uuid = pub.channel_uuid
    WHERE fl.kind <> 'category'
      AND (fl.requirement_level = 'required'
           OR (fl.kind IN ('asset_type', 'relation_type') AND (fl.min_count > 0 OR fl.max_count IS NOT NULL)))
      AND (pub.kind = 'simple' OR fl.applies_to = 'both' OR (pub.kind = 'variant_parent' AND fl.applies_to = 'parent')
           OR (pub.kind = 'variant' AND fl.applies_to = 'variant'))
      AND (NOT coalesce(it.is_localizable, false) OR l.locale_uuid IS NOT NULL)
), counted AS (
    SELECT r.*, CASE r.kind
        WHEN 'asset_type' THEN coalesce(
            nullif((SELECT count(*) FROM product_assets x WHERE x.tenant_id = p_tenant AND x.product_uuid = r.product_uuid
                      AND x.product_asset_type_uuid = r.uuid), 0),
            (SELECT count(*) FROM product_assets x WHERE x.tenant_id = p_tenant AND x.product_uuid = r.parent_uuid
               AND x.product_asset_type_uuid = r.uuid))
        WHEN 'relation_type' THEN coalesce(
            nullif((SELECT count(*) FROM product_relations x WHERE x.tenant_id = p_tenant AND x.product_uuid = r.product_uuid
                      AND x.product_relation_type_uuid = r.uuid), 0),
            (SELECT count(*) FROM product_relations x WHERE x.tenant_id = p_tenant AND x.product_uuid = r.parent_uuid
               AND x.product_relation_type_uuid = r.uuid))
        ELSE 0 END AS have
    FROM req r
)
SELECT c.pub_uuid,
       jsonb_agg(jsonb_build_object('kind', c.kind, 'uuid', c.uuid, 'localeUuid', c.locale_uuid, 'source', c.src,
                                    'scoping', c.scoping, 'need', c.need, 'have', c.have, 'maxCount', c.max_count)
                 ORDER BY c.src, c.linked_at, c.uuid, c.position)
FROM counted c
WHERE CASE c.kind
    WHEN 'product' THEN true
    WHEN 'attribute' THEN NOT EXISTS (
        SELECT 1 FROM product_attributes pa WHERE pa.tenant_id = p_tenant AND pa.attribute_uuid = c.uuid
          AND (pa.product_uuid = c.product_uuid OR pa.product_uuid = c.parent_uuid))
    WHEN 'input_type' THEN NOT EXISTS (
        SELECT 1 FROM product_effective_input_values v WHERE v.tenant_id = p_tenant AND v.owner_uuid = c.product_uuid
          AND v.input_type_uuid = c.uuid AND v.locale_uuid IS NOT DISTINCT FROM c.locale_uuid
          AND (v.channel_uuid = c.channel_uuid OR (c.scoping <> 'channel' AND v.channel_uuid IS NULL)))
    ELSE c.have < c.need OR c.have > coalesce(c.max_count, c.have) END
GROUP BY c.pub_uuid
$$;

-- readiness_refresh recomputes the readiness of every publication of the products (after locking
-- the products), writing only the publications whose state changed.
-- jit off: the planner's estimate for a large recomputation passes jit_above_cost, and compiling
-- costs seconds where the work takes a fraction of one (10 000 products: 2.1 s of JIT, 0.2 s of work).
CREATE FUNCTION readiness_refresh(p_tenant text, p_products uuid[]) RETURNS void
LANGUAGE plpgsql SET jit = off AS $$
BEGIN
    IF p_products IS NULL OR cardinality(p_products) = 0 THEN
        RETURN;
    END IF;
    PERFORM 1 FROM products WHERE tenant_id = p_tenant AND uuid = ANY(p_products) ORDER BY uuid FOR NO KEY UPDATE;
    UPDATE product_publications pp SET missing = s.missing
    FROM (SELECT cur.uuid, coalesce(m.missing, '[]'::jsonb) AS missing
          FROM product_publications cur
          LEFT JOIN readiness_missing(p_tenant, p_products) m ON m.publication_uuid = cur.uuid
          WHERE cur.tenant_id = p_tenant AND cur.product_uuid = ANY(p_products)) s
    WHERE pp.tenant_id = p_tenant AND pp.uuid = s.uuid AND pp.missing IS DISTINCT FROM s.missing;
END
$$;

-- readiness_refresh_with_variants: the products and their variants (a variant reads its parent's
-- attributes, values, assets and relations).
CREATE FUNCTION readiness_refresh_with_variants(p_tenant text, p_products uuid[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM readiness_refresh(p_tenant, ARRAY(
        SELECT u FROM unnest(p_products) u
        UNION
        SELECT v.uuid FROM products v WHERE v.tenant_id = p_tenant AND v.parent_uuid = ANY(p_products)));
END
$$;

-- readiness_lock takes the readiness locks of kind ('family' or 'channel') of ids, in uuid order:
-- exclusive for a recomputation of all their products, shared for a write that must not be missed
-- by one (see the header).
CREATE FUNCTION readiness_lock(p_tenant text, p_kind text, p_ids uuid[], p_exclusive boolean) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE id uuid;
BEGIN
    FOR id IN SELECT DISTINCT u FROM unnest(p_ids) u WHERE u IS NOT NULL ORDER BY 1 LOOP
        IF p_exclusive THEN
            PERFORM pg_advisory_xact_lock(hashtextextended('catalogd:readiness:' || p_kind || ':' || p_tenant || ':' || id::text, 0));
        ELSE
            PERFORM pg_advisory_xact_lock_shared(hashtextextended('catalogd:readiness:' || p_kind || ':' || p_tenant || ':' || id::text, 0));
        END IF;
    END LOOP;
END
$$;

-- readiness_refresh_families: the published products of the families, after taking their readiness locks.
CREATE FUNCTION readiness_refresh_families(p_tenant text, p_families uuid[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    IF p_families IS NULL OR cardinality(p_families) = 0 THEN
        RETURN;
    END IF;
    PERFORM readiness_lock(p_tenant, 'family', p_families, true);
    PERFORM readiness_refresh(p_tenant, ARRAY(
        SELECT DISTINCT pp.product_uuid FROM products p
        JOIN product_publications pp ON pp.tenant_id = p.tenant_id AND pp.product_uuid = p.uuid
        WHERE p.tenant_id = p_tenant AND p.family_uuid = ANY(p_families)));
END
$$;

-- readiness_refresh_channels: the products with a publication on the channels, after taking their
-- readiness locks.
CREATE FUNCTION readiness_refresh_channels(p_tenant text, p_channels uuid[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    IF p_channels IS NULL OR cardinality(p_channels) = 0 THEN
        RETURN;
    END IF;
    PERFORM readiness_lock(p_tenant, 'channel', p_channels, true);
    PERFORM readiness_refresh(p_tenant, ARRAY(
        SELECT DISTINCT pp.product_uuid FROM product_publications pp
        WHERE pp.tenant_id = p_tenant AND pp.channel_uuid = ANY(p_channels)));
END
$$;

-- Statement-level triggers: each reads the rows its statement changed (the transition table
-- "changed", and "before" for the old rows of an update) and recomputes once per tenant.

CREATE FUNCTION readiness_on_product_data() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
    FOR r IN SELECT tenant_id, array_agg(DISTINCT product_uuid) AS ids FROM changed GROUP BY tenant_id LOOP
        PERFORM readiness_refresh_with_variants(r.tenant_id, r.ids);
    END LOOP;
    RETURN NULL;
END
$$;

CREATE FUNCTION readiness_on_products() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
    FOR r IN SELECT n.tenant_id, array_agg(n.uuid) AS ids, array_agg(n.family_uuid) AS families FROM changed n
             JOIN before o ON o.tenant_id = n.tenant_id AND o.uuid = n.uuid
             WHERE (n.status, n.family_uuid, n.parent_uuid, n.kind) IS DISTINCT FROM (o.status, o.family_uuid, o.parent_uuid, o.kind)
             GROUP BY n.tenant_id LOOP
        -- A product entering a family: a concurrent change of the family's requirements waits for
        -- it or is waited for.
        PERFORM readiness_lock(r.tenant_id, 'family', r.families, false);
        PERFORM readiness_refresh(r.tenant_id, r.ids);
    END LOOP;
    RETURN NULL;
END
$$;

CREATE FUNCTION readiness_on_publications() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
    FOR r IN SELECT tenant_id, array_agg(DISTINCT product_uuid) AS ids, array_agg(DISTINCT channel_uuid) AS channels
             FROM changed GROUP BY tenant_id LOOP
        -- A concurrent change of the requirements of the products' families or of the channels
        -- (readiness_refresh_families / _channels) waits for these publications or is waited for.
        PERFORM readiness_lock(r.tenant_id, 'family', ARRAY(
            SELECT p.family_uuid FROM products p WHERE p.tenant_id = r.tenant_id AND p.uuid = ANY(r.ids)), false);
        PERFORM readiness_lock(r.tenant_id, 'channel', r.channels, false);
        PERFORM readiness_refresh(r.tenant_id, r.ids);
    END LOOP;
    RETURN NULL;
END
$$;

CREATE FUNCTION readiness_on_family_links() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
    FOR r IN SELECT tenant_id, array_agg(DISTINCT family_uuid) AS ids FROM changed WHERE kind <> 'category' GROUP BY tenant_id LOOP
        PERFORM readiness_refresh_families(r.tenant_id, r.ids);
    END LOOP;
    RETURN NULL;
END
$$;

CREATE FUNCTION readiness_on_channel_data() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
    FOR r IN SELECT tenant_id, array_agg(DISTINCT channel_uuid) AS ids FROM changed GROUP BY tenant_id LOOP
        PERFORM readiness_refresh_channels(r.tenant_id, r.ids);
    END LOOP;
    RETURN NULL;
END
$$;

CREATE FUNCTION readiness_on_input_types() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
    FOR r IN SELECT n.tenant_id, array_agg(n.uuid) AS ids FROM changed n
             JOIN before o ON o.tenant_id = n.tenant_id AND o.uuid = n.uuid
             WHERE n.is_localizable IS DISTINCT FROM o.is_localizable
             GROUP BY n.tenant_id LOOP
        PERFORM readiness_refresh_families(r.tenant_id, ARRAY(
            SELECT DISTINCT fl.family_uuid FROM family_links fl WHERE fl.tenant_id = r.tenant_id AND fl.input_type_uuid = ANY(r.ids)));
        PERFORM readiness_refresh_channels(r.tenant_id, ARRAY(
            SELECT DISTINCT cit.channel_uuid FROM channel_input_types cit WHERE cit.tenant_id = r.tenant_id AND cit.input_type_uuid = ANY(r.ids)));
    END LOOP;
    RETURN NULL;
END
$$;

CREATE TRIGGER readiness_products AFTER UPDATE ON products
    REFERENCING OLD TABLE AS before NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION readiness_on_products();
CREATE TRIGGER readiness_input_types AFTER UPDATE ON input_types
    REFERENCING OLD TABLE AS before NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION readiness_on_input_types();
CREATE TRIGGER readiness_publications AFTER INSERT ON product_publications
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION readiness_on_publications();

CREATE TRIGGER readiness_product_attributes_ins AFTER INSERT ON product_attributes
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION readiness_on_product_data();
CREATE TRIGGER readiness_product_attributes_upd AFTER UPDATE ON product_attributes
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION readiness_on_product_data();
CREATE TRIGGER readiness_product_attributes_del AFTER DELETE ON product_attributes
    REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION readiness_on_product_data();
CREATE TRIGGER readiness_product_input_values_ins AFTER INSERT ON product_input_values
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION readiness_on_product_data();
CREATE TRIGGER readiness_product_input_values_upd AFTER UPDATE ON product_input_values
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION readiness_on_product_data();
CREATE TRIGGER readiness_product_input_values_del AFTER DELETE ON product_input_values
    REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION readiness_on_product_data();
CREATE TRIGGER readiness_product_assets_ins AFTER INSERT ON product_assets
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION readiness_on_product_data();
CREATE TRIGGER readiness_product_assets_upd AFTER UPDATE ON product_assets
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION readiness_on_product_data();
CREATE TRIGGER readiness_product_assets_del AFTER DELETE ON product_assets
    REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION readiness_on_product_data();
CREATE TRIGGER readiness_product_relations_ins AFTER INSERT ON product_relations
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION readiness_on_product_data();
CREATE TRIGGER readiness_product_relations_upd AFTER UPDATE ON product_relations
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION readiness_on_product_data();
CREATE TRIGGER readiness_product_relations_del AFTER DELETE ON product_relations
    REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION readiness_on_product_data();

CREATE TRIGGER readiness_family_links_ins AFTER INSERT ON family_links
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION readiness_on_family_links();
CREATE TRIGGER readiness_family_links_upd AFTER UPDATE ON family_links
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION readiness_on_family_links();
CREATE TRIGGER readiness_family_links_del AFTER DELETE ON family_links
    REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION readiness_on_family_links();
CREATE TRIGGER readiness_channel_input_types_ins AFTER INSERT ON channel_input_types
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION readiness_on_channel_data();
CREATE TRIGGER readiness_channel_input_types_upd AFTER UPDATE ON channel_input_types
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION readiness_on_channel_data();
CREATE TRIGGER readiness_channel_input_types_del AFTER DELETE ON channel_input_types
    REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION readiness_on_channel_data();
CREATE TRIGGER readiness_channel_locales_ins AFTER INSERT ON channel_locales
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION readiness_on_channel_data();
CREATE TRIGGER readiness_channel_locales_upd AFTER UPDATE ON channel_locales
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION readiness_on_channel_data();
CREATE TRIGGER readiness_channel_locales_del AFTER DELETE ON channel_locales
    REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION readiness_on_channel_data();

-- The publications that exist already.
SELECT readiness_refresh(t.tenant_id, t.ids)
FROM (SELECT tenant_id, array_agg(DISTINCT product_uuid) AS ids FROM product_publications GROUP BY tenant_id) t;
