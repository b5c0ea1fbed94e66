-- name: GetFamily :one
SELECT * FROM families WHERE tenant_id = $1 AND uuid = $2;

-- name: InsertFamilies :many
-- One statement for a whole bulk; a conflicting code inserts nothing for that item, and the
-- caller reports the items missing from the result.
INSERT INTO families (tenant_id, uuid, code, display_name, created_at, updated_at)
SELECT @tenant_id, unnest(@uuids::uuid[]), unnest(@codes::text[]), unnest(@display_names::text[]), @now::timestamptz, @now::timestamptz
ON CONFLICT DO NOTHING
RETURNING *;

-- name: UpdateFamily :one
UPDATE families
SET code = coalesce(sqlc.narg('code'), code),
    display_name = coalesce(sqlc.narg('display_name'), display_name),
    updated_at = @now
WHERE tenant_id = @tenant_id AND uuid = @uuid
RETURNING *;

-- name: DeleteFamily :execrows
-- Deletes the family's links with it (ON DELETE CASCADE).
DELETE FROM families WHERE tenant_id = $1 AND uuid = $2;
