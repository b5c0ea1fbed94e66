-- name: GetProductAssetType :one
SELECT * FROM product_asset_types WHERE tenant_id = $1 AND uuid = $2;

-- name: InsertProductAssetTypes :many
-- One statement for a whole bulk; a conflicting code inserts nothing for that item, and the
-- caller reports the items missing from the result.
INSERT INTO product_asset_types (tenant_id, uuid, code, display_name, is_featured_source, created_at, updated_at)
SELECT @tenant_id, unnest(@uuids::uuid[]), unnest(@codes::text[]), unnest(@display_names::text[]),
       unnest(@is_featured_sources::boolean[]), @now::timestamptz, @now::timestamptz
ON CONFLICT DO NOTHING
RETURNING *;

-- name: UpdateProductAssetType :one
UPDATE product_asset_types
SET code = coalesce(sqlc.narg('code'), code),
    display_name = coalesce(sqlc.narg('display_name'), display_name),
    is_featured_source = coalesce(sqlc.narg('is_featured_source'), is_featured_source),
    updated_at = @now
WHERE tenant_id = @tenant_id AND uuid = @uuid
RETURNING *;

-- name: DeleteProductAssetType :execrows
DELETE FROM product_asset_types WHERE tenant_id = $1 AND uuid = $2;
