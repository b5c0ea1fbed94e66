-- name: GetProductAttribute :one
SELECT * FROM product_attributes WHERE tenant_id = $1 AND product_uuid = $2 AND uuid = $3;

-- name: InsertProductAttributes :many
-- One statement for a whole bulk; an attribute already linked to the product (or twice in the
-- bulk) inserts nothing for that item.
INSERT INTO product_attributes (tenant_id, uuid, product_uuid, attribute_uuid, is_variant_axis, created_at, updated_at)
SELECT @tenant_id, unnest(@uuids::uuid[]), @product_uuid, unnest(@attribute_uuids::uuid[]),
       unnest(@is_variant_axes::boolean[]), @now::timestamptz, @now::timestamptz
ON CONFLICT DO NOTHING
RETURNING *;

-- name: UpdateProductAttribute :one
UPDATE product_attributes
SET is_variant_axis = coalesce(sqlc.narg('is_variant_axis'), is_variant_axis),
    updated_at = @now
WHERE tenant_id = @tenant_id AND product_uuid = @product_uuid AND uuid = @uuid
RETURNING *;

-- name: DeleteProductAttribute :execrows
-- Deletes its product terms with it (ON DELETE CASCADE).
DELETE FROM product_attributes WHERE tenant_id = $1 AND product_uuid = $2 AND uuid = $3;

-- name: ListEffectiveAttributesOfProducts :many
-- Own and inherited attributes of several products (include/expand on products), oldest first.
SELECT * FROM product_effective_attributes WHERE tenant_id = $1 AND owner_uuid = ANY(@owner_uuids::uuid[])
ORDER BY created_at, uuid;

-- name: ListProductTermsOfProductAttributes :many
-- The terms of several product attributes (include/expand), oldest first.
SELECT * FROM product_terms WHERE tenant_id = $1 AND product_attribute_uuid = ANY(@product_attribute_uuids::uuid[])
ORDER BY created_at, uuid;

-- name: GetProductTerm :one
SELECT * FROM product_terms WHERE tenant_id = $1 AND product_attribute_uuid = $2 AND uuid = $3;

-- name: InsertProductTerms :many
-- One statement for a whole bulk; a term already linked (or twice in the bulk) inserts nothing
-- for that item.
INSERT INTO product_terms (tenant_id, uuid, product_uuid, product_attribute_uuid, term_uuid, created_at, updated_at)
SELECT @tenant_id, unnest(@uuids::uuid[]), @product_uuid, @product_attribute_uuid, unnest(@term_uuids::uuid[]),
       @now::timestamptz, @now::timestamptz
ON CONFLICT DO NOTHING
RETURNING *;

-- name: DeleteProductTerm :one
DELETE FROM product_terms WHERE tenant_id = $1 AND product_attribute_uuid = $2 AND uuid = $3
RETURNING *;

-- name: ListTermsOfAttribute :many
SELECT uuid FROM attribute_terms
WHERE tenant_id = @tenant_id AND attribute_uuid = @attribute_uuid AND uuid = ANY(@term_uuids::uuid[]);

-- name: LockVariantParent :exec
-- Serialises the writes that change the axis terms of the variants of one parent.
SELECT pg_advisory_xact_lock(hashtextextended('variant-axes:' || sqlc.arg('tenant_id')::text || ':' || sqlc.arg('parent_uuid')::text, 0));

-- name: AxisTermsOfProduct :many
-- The terms of the product's axis attributes (its combination), sorted.
SELECT pt.term_uuid FROM product_terms pt
JOIN product_attributes pa ON pa.tenant_id = pt.tenant_id AND pa.uuid = pt.product_attribute_uuid
WHERE pt.tenant_id = @tenant_id AND pt.product_uuid = @product_uuid AND pa.is_variant_axis
ORDER BY pt.term_uuid;

-- name: FindAxisTwin :many
-- The siblings of the product (same parent) whose combination of axis terms equals terms
-- (sorted).
SELECT s.uuid FROM products s
WHERE s.tenant_id = @tenant_id AND s.parent_uuid = @parent_uuid AND s.uuid <> @product_uuid
  AND coalesce((SELECT array_agg(pt.term_uuid ORDER BY pt.term_uuid) FROM product_terms pt
       JOIN product_attributes pa ON pa.tenant_id = pt.tenant_id AND pa.uuid = pt.product_attribute_uuid
       WHERE pt.tenant_id = s.tenant_id AND pt.product_uuid = s.uuid AND pa.is_variant_axis), '{}') = @terms::uuid[]
ORDER BY s.uuid
LIMIT 1;
