-- name: GetProduct :one
SELECT * FROM products WHERE tenant_id = $1 AND uuid = $2;

-- name: LockProductFamilies :exec
-- Before a lifecycle move locks its products: a status change recomputes their readiness, which
-- takes their family's readiness lock (shared, migration 0020) after their rows, while a change of
-- the family's requirements takes it (exclusive) before the rows. Taken here first, in the order
-- of every other writer (families, then products), the move and the change wait for each other
-- instead of deadlocking.
SELECT readiness_lock(@tenant_id, 'family', ARRAY(
    SELECT p.family_uuid FROM products p WHERE p.tenant_id = @tenant_id AND p.uuid = ANY(@uuids::uuid[])), false);

-- name: LockProducts :many
-- In uuid order, so that two bulk moves of overlapping products wait for each other.
SELECT * FROM products WHERE tenant_id = $1 AND uuid = ANY(@uuids::uuid[]) ORDER BY uuid FOR UPDATE;

-- name: ShareProducts :many
-- The products of uuids, locked against deletion for the rest of the transaction (parent checks).
SELECT * FROM products WHERE tenant_id = $1 AND uuid = ANY(@uuids::uuid[]) FOR SHARE;

-- name: InsertProducts :many
-- One statement for a whole bulk; a conflicting code inserts nothing for that item, and the
-- caller reports the items missing from the result. has_x[i] false stores null for item i.
INSERT INTO products (tenant_id, uuid, code, display_name, kind, status, family_uuid, parent_uuid, brand_uuid, created_at, updated_at)
SELECT @tenant_id, p.uuid, p.code, p.display_name, p.kind, 'draft',
       CASE WHEN p.has_family THEN p.family_uuid END, CASE WHEN p.has_parent THEN p.parent_uuid END,
       CASE WHEN p.has_brand THEN p.brand_uuid END, @now::timestamptz, @now::timestamptz
FROM (SELECT unnest(@uuids::uuid[]) AS uuid, unnest(@codes::text[]) AS code, unnest(@display_names::text[]) AS display_name,
             unnest(@kinds::text[]) AS kind,
             unnest(@family_uuids::uuid[]) AS family_uuid, unnest(@has_families::boolean[]) AS has_family,
             unnest(@parent_uuids::uuid[]) AS parent_uuid, unnest(@has_parents::boolean[]) AS has_parent,
             unnest(@brand_uuids::uuid[]) AS brand_uuid, unnest(@has_brands::boolean[]) AS has_brand) AS p
ON CONFLICT DO NOTHING
RETURNING *;

-- name: UpdateProduct :one
-- The kind never changes; the family changes only on a simple product (the caller reports a
-- different value given for another kind); set_x true sets x to the parameter (null clears it).
UPDATE products
SET code = coalesce(sqlc.narg('code'), code),
    display_name = coalesce(sqlc.narg('display_name'), display_name),
    family_uuid = CASE WHEN @set_family::boolean AND kind = 'simple' THEN sqlc.narg('family_uuid')::uuid ELSE family_uuid END,
    parent_uuid = CASE WHEN @set_parent::boolean AND kind = 'variant' AND sqlc.narg('parent_uuid')::uuid IS NOT NULL
                       THEN sqlc.narg('parent_uuid')::uuid ELSE parent_uuid END,
    brand_uuid = CASE WHEN @set_brand::boolean THEN sqlc.narg('brand_uuid')::uuid ELSE brand_uuid END,
    updated_at = @now
WHERE tenant_id = @tenant_id AND uuid = @uuid
RETURNING *;

-- name: SetProductStatus :many
UPDATE products
SET status = @status,
    removed_at = CASE WHEN @status = 'removed' THEN @now::timestamptz ELSE NULL END,
    updated_at = @now
WHERE tenant_id = @tenant_id AND uuid = ANY(@uuids::uuid[])
RETURNING *;

-- name: DeleteProduct :execrows
-- Deletes the product's links with it (ON DELETE CASCADE).
DELETE FROM products WHERE tenant_id = $1 AND uuid = $2;

-- name: GetProductLink :one
SELECT * FROM product_links WHERE tenant_id = $1 AND product_uuid = $2 AND kind = $3 AND uuid = $4;

-- name: InsertProductLinks :many
-- One statement for a whole bulk (of one product, or of the auto-populated links of several); a
-- target already linked to the product (or twice in the bulk) inserts nothing for that item.
INSERT INTO product_links (tenant_id, uuid, product_uuid, kind, target_uuid, created_at, updated_at)
SELECT @tenant_id, unnest(@uuids::uuid[]), unnest(@product_uuids::uuid[]), @kind, unnest(@target_uuids::uuid[]),
       @now::timestamptz, @now::timestamptz
ON CONFLICT DO NOTHING
RETURNING *;

-- name: DeleteProductLink :execrows
DELETE FROM product_links WHERE tenant_id = $1 AND product_uuid = $2 AND kind = $3 AND uuid = $4;

-- name: ListProductLinksOfProducts :many
-- The links of one kind of several products (include/expand), oldest first.
SELECT * FROM product_links WHERE tenant_id = $1 AND kind = $2 AND product_uuid = ANY(@product_uuids::uuid[])
ORDER BY created_at, uuid;

-- name: ListAutoPopulatedCategories :many
-- The categories of families linked with autoPopulate, in link order.
SELECT family_uuid, target_uuid FROM family_links
WHERE tenant_id = $1 AND kind = 'category' AND auto_populate AND family_uuid = ANY(@family_uuids::uuid[])
ORDER BY created_at, uuid;

-- name: ListVariantsOfProducts :many
-- The variants (not removed) of several variant_parents (include/expand), oldest first.
SELECT * FROM products WHERE tenant_id = $1 AND parent_uuid = ANY(@parent_uuids::uuid[]) AND status <> 'removed'
ORDER BY created_at, uuid;
