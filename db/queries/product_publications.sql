-- name: GetProductPublication :one
SELECT * FROM product_publications WHERE tenant_id = $1 AND product_uuid = $2 AND uuid = $3;

-- name: InsertProductPublications :many
-- One statement for a whole bulk; a channel the product already has (or that appears twice in the
-- bulk) inserts nothing for that item.
INSERT INTO product_publications (tenant_id, uuid, product_uuid, channel_uuid, status, created_at, updated_at)
SELECT @tenant_id, unnest(@uuids::uuid[]), @product_uuid, unnest(@channel_uuids::uuid[]), 'draft',
       @now::timestamptz, @now::timestamptz
ON CONFLICT DO NOTHING
RETURNING *;

-- name: LockProductPublications :many
SELECT * FROM product_publications
WHERE tenant_id = @tenant_id AND product_uuid = @product_uuid AND uuid = ANY(@uuids::uuid[])
FOR UPDATE;

-- name: SetProductPublicationStatus :many
-- published_at is set on the first publish and kept afterwards.
UPDATE product_publications
SET status = @status,
    published_at = CASE WHEN @status = 'published' THEN coalesce(published_at, @now::timestamptz) ELSE published_at END,
    updated_at = @now
WHERE tenant_id = @tenant_id AND product_uuid = @product_uuid AND uuid = ANY(@uuids::uuid[])
RETURNING *;

-- name: DeleteProductPublication :execrows
DELETE FROM product_publications WHERE tenant_id = $1 AND product_uuid = $2 AND uuid = $3;

-- name: ListPublicationMissing :many
-- What product_uuid lacks to be published on each of channel_uuids (one query for a bulk publish).
-- Requirements: the channel's required input types (for each channel locale when localizable;
-- scoping channel needs a value of this channel, global one of this channel or of all channels)
-- and the product family's links applying to the product's kind (simple: all; variant_parent:
-- parent, both; variant: variant, both): required attributes and input types, and asset and
-- relation types with their counts (need = minCount, at least 1 when required; at most maxCount).
-- A variant sees its parent's attributes, its effective input values (inherited included), and
-- its parent's assets / relations of a type it has none of. have is the count found for asset and
-- relation types (0 for the others); max_count is -1 when there is no maximum.
WITH p AS (
    SELECT pr.uuid, pr.kind, pr.family_uuid, pr.parent_uuid FROM products pr WHERE pr.tenant_id = @tenant_id AND pr.uuid = @product_uuid
), chans AS (
    SELECT DISTINCT unnest(@channel_uuids::uuid[]) AS channel_uuid
), locs AS (
    SELECT cl.channel_uuid, cl.locale_uuid, cl.position FROM channel_locales cl
    WHERE cl.tenant_id = @tenant_id AND cl.channel_uuid = ANY(@channel_uuids::uuid[])
), req AS (
    SELECT cit.channel_uuid AS channel_uuid, 1 AS src, 'input_type'::text AS kind, it.uuid AS uuid, it.code AS code,
           l.locale_uuid AS locale_uuid, cit.scoping AS scoping, 0 AS need, NULL::integer AS max_count,
           cit.created_at AS linked_at, coalesce(l.position, 0) AS position
    FROM channel_input_types cit
    JOIN input_types it ON it.tenant_id = cit.tenant_id AND it.uuid = cit.input_type_uuid
    LEFT JOIN locs l ON it.is_localizable AND l.channel_uuid = cit.channel_uuid
    WHERE cit.tenant_id = @tenant_id AND cit.channel_uuid = ANY(@channel_uuids::uuid[]) AND cit.requirement_level = 'required'
      AND (NOT it.is_localizable OR l.locale_uuid IS NOT NULL)
    UNION ALL
    SELECT ch.channel_uuid, 2, fl.kind, fl.target_uuid, coalesce(a.code, it.code, pat.code, prt.code, ''), l.locale_uuid,
           'global', CASE WHEN fl.requirement_level = 'required' THEN greatest(fl.min_count, 1) ELSE fl.min_count END,
           fl.max_count, fl.created_at, coalesce(l.position, 0)
    FROM p
    CROSS JOIN chans ch
    JOIN family_links fl ON fl.tenant_id = @tenant_id AND fl.family_uuid = p.family_uuid
    LEFT JOIN attributes a ON fl.kind = 'attribute' AND a.tenant_id = fl.tenant_id AND a.uuid = fl.target_uuid
    LEFT JOIN input_types it ON fl.kind = 'input_type' AND it.tenant_id = fl.tenant_id AND it.uuid = fl.target_uuid
    LEFT JOIN product_asset_types pat ON fl.kind = 'asset_type' AND pat.tenant_id = fl.tenant_id AND pat.uuid = fl.target_uuid
    LEFT JOIN product_relation_types prt ON fl.kind = 'relation_type' AND prt.tenant_id = fl.tenant_id AND prt.uuid = fl.target_uuid
    LEFT JOIN locs l ON coalesce(it.is_localizable, false) AND l.channel_uuid = ch.channel_uuid
    WHERE fl.kind <> 'category'
      AND (fl.requirement_level = 'required'
           OR (fl.kind IN ('asset_type', 'relation_type') AND (fl.min_count > 0 OR fl.max_count IS NOT NULL)))
      AND (p.kind = 'simple' OR fl.applies_to = 'both' OR (p.kind = 'variant_parent' AND fl.applies_to = 'parent')
           OR (p.kind = 'variant' AND fl.applies_to = 'variant'))
      AND (NOT coalesce(it.is_localizable, false) OR l.locale_uuid IS NOT NULL)
), counted AS (
    SELECT r.*, CASE r.kind
        WHEN 'asset_type' THEN coalesce(
            nullif((SELECT count(*) FROM product_assets x WHERE x.tenant_id = @tenant_id AND x.product_uuid = p.uuid
                      AND x.product_asset_type_uuid = r.uuid), 0),
            (SELECT count(*) FROM product_assets x WHERE x.tenant_id = @tenant_id AND x.product_uuid = p.parent_uuid
               AND x.product_asset_type_uuid = r.uuid))
        WHEN 'relation_type' THEN coalesce(
            nullif((SELECT count(*) FROM product_relations x WHERE x.tenant_id = @tenant_id AND x.product_uuid = p.uuid
                      AND x.product_relation_type_uuid = r.uuid), 0),
            (SELECT count(*) FROM product_relations x WHERE x.tenant_id = @tenant_id AND x.product_uuid = p.parent_uuid
               AND x.product_relation_type_uuid = r.uuid))
        ELSE 0 END AS have
    FROM req r, p
)
SELECT c.channel_uuid::uuid AS channel_uuid, c.src::integer AS source, c.kind::text AS kind, c.uuid::uuid AS uuid,
       c.code::text AS code, c.locale_uuid::uuid AS locale_uuid, c.scoping::text AS scoping, c.need::integer AS need,
       coalesce(c.max_count, -1)::integer AS max_count, c.have::integer AS have
FROM counted c, p
WHERE CASE c.kind
    WHEN 'attribute' THEN NOT EXISTS (
        SELECT 1 FROM product_attributes pa WHERE pa.tenant_id = @tenant_id AND pa.attribute_uuid = c.uuid
          AND (pa.product_uuid = p.uuid OR pa.product_uuid = p.parent_uuid))
    WHEN 'input_type' THEN NOT EXISTS (
        SELECT 1 FROM product_effective_input_values v WHERE v.tenant_id = @tenant_id AND v.owner_uuid = p.uuid
          AND v.input_type_uuid = c.uuid AND v.locale_uuid IS NOT DISTINCT FROM c.locale_uuid
          AND (v.channel_uuid = c.channel_uuid OR (c.scoping <> 'channel' AND v.channel_uuid IS NULL)))
    ELSE c.have < c.need OR c.have > coalesce(c.max_count, c.have) END
ORDER BY c.channel_uuid, c.src, c.linked_at, c.uuid, c.position;

-- name: ListProductPublicationsOfProducts :many
-- The publications of several products (include/expand), oldest first.
SELECT * FROM product_publications WHERE tenant_id = $1 AND product_uuid = ANY(@product_uuids::uuid[])
ORDER BY created_at, uuid;

-- name: UnpublishPublicationsOfProducts :many
-- A product that leaves active (deactivate, remove) is no longer sold: its published publications
-- become unpublished in the same transaction (publishedAt kept), by product then age.
WITH moved AS (
    UPDATE product_publications SET status = 'unpublished', updated_at = @now::timestamptz
    WHERE tenant_id = @tenant_id AND product_uuid = ANY(@product_uuids::uuid[]) AND status = 'published'
    RETURNING *
)
SELECT * FROM moved ORDER BY product_uuid, created_at, uuid;
