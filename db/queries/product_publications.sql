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

-- name: ListPublicationReadiness :many
-- The stored readiness (migration 0020) of the product's publications on channel_uuids: one row per
-- requirement not met, in the readiness's order; a ready publication has no row. code is the
-- current code of what is missing (the product's for kind product), status the product's.
SELECT pp.channel_uuid::uuid AS channel_uuid, (m.item->>'source')::integer AS source, (m.item->>'kind')::text AS kind,
       (m.item->>'uuid')::uuid AS uuid, coalesce(a.code, it.code, pat.code, prt.code, pr.code, '')::text AS code,
       (m.item->>'localeUuid')::uuid AS locale_uuid, (m.item->>'scoping')::text AS scoping,
       (m.item->>'need')::integer AS need, coalesce((m.item->>'maxCount')::integer, -1)::integer AS max_count,
       (m.item->>'have')::integer AS have, pr.status::text AS product_status
FROM product_publications pp
CROSS JOIN LATERAL jsonb_array_elements(pp.missing) WITH ORDINALITY AS m(item, ord)
LEFT JOIN attributes a ON m.item->>'kind' = 'attribute' AND a.tenant_id = pp.tenant_id AND a.uuid = (m.item->>'uuid')::uuid
LEFT JOIN input_types it ON m.item->>'kind' = 'input_type' AND it.tenant_id = pp.tenant_id AND it.uuid = (m.item->>'uuid')::uuid
LEFT JOIN product_asset_types pat ON m.item->>'kind' = 'asset_type' AND pat.tenant_id = pp.tenant_id AND pat.uuid = (m.item->>'uuid')::uuid
LEFT JOIN product_relation_types prt ON m.item->>'kind' = 'relation_type' AND prt.tenant_id = pp.tenant_id AND prt.uuid = (m.item->>'uuid')::uuid
LEFT JOIN products pr ON pr.tenant_id = pp.tenant_id AND pr.uuid = pp.product_uuid
WHERE pp.tenant_id = @tenant_id AND pp.product_uuid = @product_uuid AND pp.channel_uuid = ANY(@channel_uuids::uuid[])
ORDER BY pp.channel_uuid, m.ord;

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
