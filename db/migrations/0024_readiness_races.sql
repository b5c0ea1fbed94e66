-- Two races of the readiness kept by migration 0020, found by an outside audit: each left a
-- publication's stored readiness wrong after both writers had committed (the readiness GET, the
-- filters and the publish gate read it, so a product missing a required value could be published).
--
-- 1. A parent's data (values, attributes, assets, relations) written while a variant moves under
--    it. readiness_refresh_with_variants listed the parent's variants before locking anything, so
--    a variant whose move had not committed was left out, and the move's own recomputation read
--    the parent without the other writer's uncommitted change. Now the parents are locked first
--    and their variants listed after (as search_refresh of migration 0023 does): the service locks
--    a variant's new parent FOR SHARE before the move, which the parent's writer (FOR NO KEY
--    UPDATE) waits for, or is waited for, and whichever comes last sees the other. A move also
--    locks the new parents FOR SHARE itself, so a path that did not would still be ordered.
--
-- 2. An input type's isLocalizable changed while a family or channel starts (or stops) requiring
--    it. The input type's recomputation listed the families and channels using it without seeing
--    the new link, and the link's recomputation read the old isLocalizable; nothing ordered the
--    two (the update's row lock and the link's key-share lock do not conflict). Now a family or
--    channel link of input types locks them FOR SHARE before its recomputation: the isLocalizable
--    update (FOR NO KEY UPDATE) and the link wait for each other. The share lock is taken before
--    the family's / channel's readiness lock, which the isLocalizable update takes after its row
--    lock: the same order on both sides.

CREATE OR REPLACE FUNCTION readiness_refresh_with_variants(p_tenant text, p_products uuid[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    IF p_products IS NULL OR cardinality(p_products) = 0 THEN
        RETURN;
    END IF;
    PERFORM 1 FROM products WHERE tenant_id = p_tenant AND uuid = ANY(p_products) ORDER BY uuid FOR NO KEY UPDATE;
    PERFORM readiness_refresh(p_tenant, ARRAY(
        SELECT u FROM unnest(p_products) u
        UNION
        SELECT v.uuid FROM products v WHERE v.tenant_id = p_tenant AND v.parent_uuid = ANY(p_products)));
END
$$;

CREATE OR REPLACE FUNCTION readiness_on_products() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
    FOR r IN SELECT n.tenant_id, array_agg(n.uuid) AS ids, array_agg(n.family_uuid) AS families,
                    array_agg(n.parent_uuid) FILTER (WHERE n.parent_uuid IS DISTINCT FROM o.parent_uuid) AS parents
             FROM changed n
             JOIN before o ON o.tenant_id = n.tenant_id AND o.uuid = n.uuid
             WHERE (n.status, n.family_uuid, n.parent_uuid, n.kind) IS DISTINCT FROM (o.status, o.family_uuid, o.parent_uuid, o.kind)
             GROUP BY n.tenant_id LOOP
        -- A product entering a family: a concurrent change of the family's requirements waits for
        -- it or is waited for.
        PERFORM readiness_lock(r.tenant_id, 'family', r.families, false);
        -- A variant moving under a parent: a concurrent write of the parent's data waits for it
        -- or is waited for (see the header).
        PERFORM 1 FROM products WHERE tenant_id = r.tenant_id AND uuid = ANY(r.parents) ORDER BY uuid FOR SHARE;
        PERFORM readiness_refresh(r.tenant_id, r.ids);
    END LOOP;
    RETURN NULL;
END
$$;

-- readiness_lock_input_types: the input types a family's or channel's links name, FOR SHARE (see
-- the header).
CREATE FUNCTION readiness_lock_input_types(p_tenant text, p_ids uuid[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM input_types WHERE tenant_id = p_tenant AND uuid = ANY(p_ids) ORDER BY uuid FOR SHARE;
END
$$;

CREATE OR REPLACE FUNCTION readiness_on_family_links() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
    FOR r IN SELECT tenant_id, array_agg(DISTINCT family_uuid) AS ids,
                    array_agg(DISTINCT input_type_uuid) FILTER (WHERE input_type_uuid IS NOT NULL) AS input_types
             FROM changed WHERE kind <> 'category' GROUP BY tenant_id LOOP
        PERFORM readiness_lock_input_types(r.tenant_id, r.input_types);
        PERFORM readiness_refresh_families(r.tenant_id, r.ids);
    END LOOP;
    RETURN NULL;
END
$$;

CREATE FUNCTION readiness_on_channel_input_types() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
    FOR r IN SELECT tenant_id, array_agg(DISTINCT channel_uuid) AS ids, array_agg(DISTINCT input_type_uuid) AS input_types
             FROM changed GROUP BY tenant_id LOOP
        PERFORM readiness_lock_input_types(r.tenant_id, r.input_types);
        PERFORM readiness_refresh_channels(r.tenant_id, r.ids);
    END LOOP;
    RETURN NULL;
END
$$;

DROP TRIGGER readiness_channel_input_types_ins ON channel_input_types;
DROP TRIGGER readiness_channel_input_types_upd ON channel_input_types;
DROP TRIGGER readiness_channel_input_types_del ON channel_input_types;
CREATE TRIGGER readiness_channel_input_types_ins AFTER INSERT ON channel_input_types
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION readiness_on_channel_input_types();
CREATE TRIGGER readiness_channel_input_types_upd AFTER UPDATE ON channel_input_types
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION readiness_on_channel_input_types();
CREATE TRIGGER readiness_channel_input_types_del AFTER DELETE ON channel_input_types
    REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION readiness_on_channel_input_types();
