-- The readiness recomputation was quadratic in the number of products once PostgreSQL chose a
-- generic plan for it, and a long-lived connection does: readiness_refresh's UPDATE joined the
-- products' publications to readiness_missing's rows (only the publications missing something)
-- with a LEFT JOIN of two sets it estimates at about ten rows each (an array parameter is assumed
-- to hold ten), so the generic plan was a nested loop filtering every pair. A family's
-- requirement change over 10 000 products took 2.4 s generic against 0.6 s custom (37 million
-- pairs filtered; bench/README.md "family requirement change"), and over 100 000 products, 100
-- times the pairs: the 503 of the 1M search bench.
--
-- readiness_missing now returns every publication of the products, with '[]' when it misses
-- nothing (one row per publication, each publication's requirements aggregated on their own), and
-- readiness_refresh updates the publications by primary key from it: a probe per publication, or
-- a hash join, whatever the plan and the estimates. What it computes is unchanged (the header of
-- migration 0020).

CREATE OR REPLACE FUNCTION readiness_missing(p_tenant text, p_products uuid[])
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
), unmet AS (
    SELECT c.* FROM counted c
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
)
SELECT u.pub_uuid,
       coalesce(jsonb_agg(jsonb_build_object('kind', u.kind, 'uuid', u.uuid, 'localeUuid', u.locale_uuid, 'source', u.src,
                                             'scoping', u.scoping, 'need', u.need, 'have', u.have, 'maxCount', u.max_count)
                          ORDER BY u.src, u.linked_at, u.uuid, u.position) FILTER (WHERE u.kind IS NOT NULL),
                '[]'::jsonb)
FROM (SELECT pub_uuid, kind, uuid, locale_uuid, src, scoping, need, have, max_count, linked_at, position FROM unmet
      UNION ALL
      SELECT pub_uuid, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL FROM pub) u
GROUP BY u.pub_uuid
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
    UPDATE product_publications pp SET missing = m.missing
    FROM readiness_missing(p_tenant, p_products) m
    WHERE pp.tenant_id = p_tenant AND pp.uuid = m.publication_uuid AND pp.missing IS DISTINCT FROM m.missing;
END
$$;
