-- name: GetProductAttribute :one
SELECT * FROM product_attributes WHERE tenant_id = $1 AND product_uuid = $2 AND uuid = $3;

-- name: InsertProductAttributes :many
-- One statement for a whole bulk (of one product, or of several in an import); an attribute
-- already linked to the product (or twice in the bulk) inserts nothing for that item.
INSERT INTO product_attributes (tenant_id, uuid, product_uuid, attribute_uuid, is_variant_axis, created_at, updated_at)
SELECT @tenant_id, unnest(@uuids::uuid[]), unnest(@product_uuids::uuid[]), unnest(@attribute_uuids::uuid[]),
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

-- name: ListProductTermsOfEffectiveAttributes :many
-- The terms of the effective attributes of several products (expand[productAttributes] on
-- products), oldest first: in the same round trip as the attributes themselves, so keyed by the
-- products, not by the attributes' uuids. The attributes are an array (one InitPlan), so that the
-- terms are read through their index as ListProductTermsOfProductAttributes does: as a semi-join
-- the planner took a sequential scan of every product term of every tenant.
SELECT pt.* FROM product_terms pt WHERE pt.tenant_id = @tenant_id AND pt.product_attribute_uuid = ANY(ARRAY(
  SELECT ea.uuid FROM product_effective_attributes ea WHERE ea.tenant_id = @tenant_id AND ea.owner_uuid = ANY(@owner_uuids::uuid[])))
ORDER BY pt.created_at, pt.uuid;

-- name: GetProductTerm :one
SELECT * FROM product_terms WHERE tenant_id = $1 AND product_attribute_uuid = $2 AND uuid = $3;

-- name: InsertProductTerms :many
-- One statement for a whole bulk; a term already linked (or twice in the bulk) inserts nothing
-- for that item.
INSERT INTO product_terms (tenant_id, uuid, product_uuid, product_attribute_uuid, term_uuid, created_at, updated_at)
SELECT @tenant_id, unnest(@uuids::uuid[]), unnest(@product_uuids::uuid[]), unnest(@product_attribute_uuids::uuid[]),
       unnest(@term_uuids::uuid[]), @now::timestamptz, @now::timestamptz
ON CONFLICT DO NOTHING
RETURNING *;

-- name: DeleteProductTerm :one
DELETE FROM product_terms WHERE tenant_id = $1 AND product_attribute_uuid = $2 AND uuid = $3
RETURNING *;

-- name: AttributesOfTerms :many
-- The attribute of each of the terms (a term of another tenant or none is absent).
SELECT uuid, attribute_uuid FROM attribute_terms
WHERE tenant_id = @tenant_id AND uuid = ANY(@term_uuids::uuid[]);

-- name: ListProductAttributesByUuid :many
SELECT * FROM product_attributes WHERE tenant_id = @tenant_id AND uuid = ANY(@uuids::uuid[]);

-- name: ListProductKinds :many
-- Kind and parent of each of the products (a product of another tenant or none is absent).
SELECT uuid, kind, parent_uuid FROM products WHERE tenant_id = @tenant_id AND uuid = ANY(@uuids::uuid[]);

-- name: LockVariantParents :exec
-- Serialises the writes that change the axis terms of the variants of each parent (in uuid order,
-- so two writers of several parents take them in one order).
SELECT pg_advisory_xact_lock(hashtextextended('variant-axes:' || sqlc.arg('tenant_id')::text || ':' || p.parent::text, 0))
FROM (SELECT DISTINCT unnest(@parent_uuids::uuid[]) AS parent ORDER BY 1) AS p;

-- name: FindAxisTwins :many
-- For each of the variants, the first sibling (same parent) whose combination of axis terms (the
-- sorted terms of its product attributes with is_variant_axis) equals the variant's non-empty one.
WITH combo AS (
    SELECT p.uuid, p.parent_uuid,
           coalesce((SELECT array_agg(pt.term_uuid ORDER BY pt.term_uuid) FROM product_terms pt
                JOIN product_attributes pa ON pa.tenant_id = pt.tenant_id AND pa.uuid = pt.product_attribute_uuid
                WHERE pt.tenant_id = p.tenant_id AND pt.product_uuid = p.uuid AND pa.is_variant_axis), '{}') AS terms
    FROM products p
    WHERE p.tenant_id = @tenant_id AND p.uuid = ANY(@product_uuids::uuid[]) AND p.kind = 'variant' AND p.parent_uuid IS NOT NULL
)
SELECT c.uuid AS product_uuid, c.parent_uuid::uuid AS parent_uuid, t.twin::uuid AS twin_uuid
FROM combo c
-- The siblings of each variant through the parent index, whatever the plan (a generic plan
-- joined every product of the tenant by a merge join: a cost growing with the catalog).
CROSS JOIN LATERAL (
    SELECT (array_agg(s.uuid ORDER BY s.uuid))[1] AS twin FROM products s
    WHERE s.tenant_id = @tenant_id AND s.parent_uuid = c.parent_uuid AND s.uuid <> c.uuid
      AND coalesce((SELECT array_agg(pt.term_uuid ORDER BY pt.term_uuid) FROM product_terms pt
           JOIN product_attributes pa ON pa.tenant_id = pt.tenant_id AND pa.uuid = pt.product_attribute_uuid
           WHERE pt.tenant_id = s.tenant_id AND pt.product_uuid = s.uuid AND pa.is_variant_axis), '{}') = c.terms
) t
WHERE c.terms <> '{}' AND t.twin IS NOT NULL
ORDER BY c.uuid;
