-- name: GetTag :one
SELECT * FROM tags WHERE tenant_id = $1 AND uuid = $2;

-- name: InsertTags :many
-- One statement for a whole bulk; a conflicting code inserts nothing for that item, and the
-- caller reports the items missing from the result.
INSERT INTO tags (tenant_id, uuid, code, display_name, created_at, updated_at)
SELECT @tenant_id, unnest(@uuids::uuid[]), unnest(@codes::text[]), unnest(@display_names::text[]), @now::timestamptz, @now::timestamptz
ON CONFLICT DO NOTHING
RETURNING *;

-- name: UpdateTag :one
UPDATE tags
SET code = coalesce(sqlc.narg('code'), code),
    display_name = coalesce(sqlc.narg('display_name'), display_name),
    updated_at = @now
WHERE tenant_id = @tenant_id AND uuid = @uuid
RETURNING *;

-- name: DeleteTag :execrows
-- Deletes the row and, by cascade, its contents.
DELETE FROM tags WHERE tenant_id = $1 AND uuid = $2;
