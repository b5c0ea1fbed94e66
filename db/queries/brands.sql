-- name: GetBrand :one
SELECT * FROM brands WHERE tenant_id = $1 AND uuid = $2;

-- name: InsertBrands :many
-- One statement for a whole bulk; a conflicting code inserts nothing for that item, and the
-- caller reports the items missing from the result.
INSERT INTO brands (tenant_id, uuid, code, display_name, created_at, updated_at)
SELECT @tenant_id, unnest(@uuids::uuid[]), unnest(@codes::text[]), unnest(@display_names::text[]), @now::timestamptz, @now::timestamptz
ON CONFLICT DO NOTHING
RETURNING *;

-- name: UpdateBrand :one
UPDATE brands
SET code = coalesce(sqlc.narg('code'), code),
    display_name = coalesce(sqlc.narg('display_name'), display_name),
    updated_at = @now
WHERE tenant_id = @tenant_id AND uuid = @uuid
RETURNING *;

-- name: DeleteBrand :execrows
-- Deletes the row and, by cascade, its contents.
DELETE FROM brands WHERE tenant_id = $1 AND uuid = $2;
