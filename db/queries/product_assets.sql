-- Product assets are read through product_assets_view (db/migrations/0012_assets.sql), which adds
-- the computed is_featured; writes go to product_assets.

-- name: GetProductAsset :one
SELECT * FROM product_assets_view WHERE tenant_id = $1 AND product_uuid = $2 AND uuid = $3;

-- name: ListProductAssetsByUuids :many
-- The product assets of ids of one product (re-read after a write, with is_featured).
SELECT * FROM product_assets_view
WHERE tenant_id = @tenant_id AND product_uuid = @product_uuid AND uuid = ANY(@uuids::uuid[]);

-- name: InsertProductAssets :many
-- One statement for a whole bulk; an asset already linked to the product (or twice in the bulk)
-- inserts nothing for that item. Returns the uuids inserted.
INSERT INTO product_assets (tenant_id, uuid, product_uuid, asset_uuid, product_asset_type_uuid, display_priority, created_at, updated_at)
SELECT @tenant_id, unnest(@uuids::uuid[]), @product_uuid, unnest(@asset_uuids::uuid[]),
       unnest(@product_asset_type_uuids::uuid[]), unnest(@display_priorities::integer[]), @now::timestamptz, @now::timestamptz
ON CONFLICT DO NOTHING
RETURNING uuid;

-- name: UpdateProductAsset :one
-- A product asset type of another tenant or none fails the foreign key (404 naming it).
UPDATE product_assets
SET product_asset_type_uuid = coalesce(sqlc.narg('product_asset_type_uuid'), product_asset_type_uuid),
    display_priority = coalesce(sqlc.narg('display_priority'), display_priority),
    updated_at = @now
WHERE tenant_id = @tenant_id AND product_uuid = @product_uuid AND uuid = @uuid
RETURNING uuid;

-- name: DeleteProductAsset :execrows
DELETE FROM product_assets WHERE tenant_id = $1 AND product_uuid = $2 AND uuid = $3;

-- name: ListProductAssetsOfProducts :many
-- The product assets of several products (include/expand), with is_featured, in display order.
SELECT * FROM product_assets_view
WHERE tenant_id = @tenant_id AND product_uuid = ANY(@product_uuids::uuid[])
ORDER BY product_uuid, display_priority, created_at, uuid;

-- name: ListFeaturedAssetsOfProducts :many
-- The featured asset of each of several products that has one: its first product asset of a type
-- with is_featured_source, by display_priority, created_at, uuid (as product_assets_view). A
-- variant with no such asset of its own shows its parent's (like readiness counts them).
SELECT DISTINCT ON (p.uuid) p.uuid AS product_uuid, pa.uuid AS product_asset_uuid, pa.asset_uuid
FROM products p
JOIN product_assets pa ON pa.tenant_id = p.tenant_id AND (pa.product_uuid = p.uuid OR pa.product_uuid = p.parent_uuid)
JOIN product_asset_types t ON t.tenant_id = pa.tenant_id AND t.uuid = pa.product_asset_type_uuid
WHERE p.tenant_id = @tenant_id AND p.uuid = ANY(@product_uuids::uuid[]) AND t.is_featured_source
ORDER BY p.uuid, (pa.product_uuid = p.uuid) DESC, pa.display_priority, pa.created_at, pa.uuid;

-- name: ListFeaturedAssetsOfVariants :many
-- ListFeaturedAssetsOfProducts for the variants (not removed) of several variant_parents
-- (expand[variants]), in the same round trip as the variants themselves.
SELECT DISTINCT ON (p.uuid) p.uuid AS product_uuid, pa.uuid AS product_asset_uuid, pa.asset_uuid
FROM products p
JOIN product_assets pa ON pa.tenant_id = p.tenant_id AND (pa.product_uuid = p.uuid OR pa.product_uuid = p.parent_uuid)
JOIN product_asset_types t ON t.tenant_id = pa.tenant_id AND t.uuid = pa.product_asset_type_uuid
WHERE p.tenant_id = @tenant_id AND p.parent_uuid = ANY(@parent_uuids::uuid[]) AND p.status <> 'removed' AND t.is_featured_source
ORDER BY p.uuid, (pa.product_uuid = p.uuid) DESC, pa.display_priority, pa.created_at, pa.uuid;
