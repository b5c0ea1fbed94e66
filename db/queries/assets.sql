-- name: GetAsset :one
SELECT * FROM assets WHERE tenant_id = $1 AND uuid = $2;

-- name: InsertAssets :many
-- One statement for a whole bulk; a conflicting code inserts nothing for that item, and the
-- caller reports the items missing from the result. has_descriptions[i] false stores a null
-- description for item i; storage_location is the asset's blob key prefix, fixed here.
INSERT INTO assets (tenant_id, uuid, code, display_name, description, category, storage_location, metadata, created_at, updated_at)
SELECT @tenant_id, u.uuid, u.code, u.display_name, CASE WHEN u.has_description THEN u.description END,
       u.category, 'assets/' || u.uuid::text || '/', u.metadata, @now::timestamptz, @now::timestamptz
FROM (SELECT unnest(@uuids::uuid[]) AS uuid, unnest(@codes::text[]) AS code,
             unnest(@display_names::text[]) AS display_name, unnest(@descriptions::text[]) AS description,
             unnest(@has_descriptions::boolean[]) AS has_description, unnest(@categories::text[]) AS category,
             unnest(@metadatas::text[])::jsonb AS metadata) AS u
ON CONFLICT DO NOTHING
RETURNING *;

-- name: UpdateAsset :one
UPDATE assets
SET code = coalesce(sqlc.narg('code'), code),
    display_name = coalesce(sqlc.narg('display_name'), display_name),
    description = CASE WHEN @set_description::boolean THEN sqlc.narg('description') ELSE description END,
    category = coalesce(sqlc.narg('category'), category),
    metadata = coalesce(sqlc.narg('metadata')::text::jsonb, metadata),
    updated_at = @now
WHERE tenant_id = @tenant_id AND uuid = @uuid
RETURNING *;

-- name: DeleteAsset :execrows
-- Deletes its collection links with it (CASCADE); refused while a product links it (RESTRICT).
DELETE FROM assets WHERE tenant_id = $1 AND uuid = $2;

-- name: GetAssetCollection :one
SELECT * FROM asset_collections WHERE tenant_id = $1 AND asset_uuid = $2 AND uuid = $3;

-- name: InsertAssetCollections :many
-- One statement for a whole bulk; a collection already linked to the asset (or twice in the bulk)
-- inserts nothing for that item.
INSERT INTO asset_collections (tenant_id, uuid, asset_uuid, collection_uuid, created_at, updated_at)
SELECT @tenant_id, unnest(@uuids::uuid[]), @asset_uuid, unnest(@collection_uuids::uuid[]), @now::timestamptz, @now::timestamptz
ON CONFLICT DO NOTHING
RETURNING *;

-- name: DeleteAssetCollection :execrows
DELETE FROM asset_collections WHERE tenant_id = $1 AND asset_uuid = $2 AND uuid = $3;
