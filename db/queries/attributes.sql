-- name: GetAttribute :one
SELECT * FROM attributes WHERE tenant_id = $1 AND uuid = $2;

-- name: LockAttributes :many
SELECT * FROM attributes WHERE tenant_id = $1 AND uuid = ANY(@uuids::uuid[]) FOR UPDATE;

-- name: InsertAttributes :many
-- One statement for a whole bulk; a conflicting code inserts nothing for that item, and the
-- caller reports the items missing from the result.
INSERT INTO attributes (tenant_id, uuid, code, display_name, status, created_at, updated_at)
SELECT @tenant_id, unnest(@uuids::uuid[]), unnest(@codes::text[]), unnest(@display_names::text[]), 'draft', @now::timestamptz, @now::timestamptz
ON CONFLICT DO NOTHING
RETURNING *;

-- name: UpdateAttribute :one
UPDATE attributes
SET code = coalesce(sqlc.narg('code'), code),
    display_name = coalesce(sqlc.narg('display_name'), display_name),
    updated_at = @now
WHERE tenant_id = @tenant_id AND uuid = @uuid
RETURNING *;

-- name: SetAttributeStatus :many
UPDATE attributes
SET status = @status,
    removed_at = CASE WHEN @status = 'removed' THEN @now::timestamptz ELSE NULL END,
    updated_at = @now
WHERE tenant_id = @tenant_id AND uuid = ANY(@uuids::uuid[])
RETURNING *;

-- name: DeleteAttribute :execrows
DELETE FROM attributes WHERE tenant_id = $1 AND uuid = $2;
