-- name: GetTypeGroup :one
SELECT * FROM type_groups WHERE tenant_id = $1 AND uuid = $2;

-- name: InsertTypeGroups :many
-- One statement for a whole bulk; a conflicting code inserts nothing for that item, and the
-- caller reports the items missing from the result.
INSERT INTO type_groups (tenant_id, uuid, code, display_name, entity_type, created_at, updated_at)
SELECT @tenant_id, unnest(@uuids::uuid[]), unnest(@codes::text[]), unnest(@display_names::text[]), unnest(@entity_types::text[]), @now::timestamptz, @now::timestamptz
ON CONFLICT DO NOTHING
RETURNING *;

-- name: UpdateTypeGroup :one
UPDATE type_groups
SET code = coalesce(sqlc.narg('code'), code),
    display_name = coalesce(sqlc.narg('display_name'), display_name),
    updated_at = @now
WHERE tenant_id = @tenant_id AND uuid = @uuid
RETURNING *;

-- name: SetTypeGroupEntityType :one
UPDATE type_groups SET entity_type = @entity_type, updated_at = @now
WHERE tenant_id = @tenant_id AND uuid = @uuid
RETURNING *;

-- name: LockTypeGroup :exec
-- FOR UPDATE conflicts with the key-share lock an insert of an input type takes on its group, so a
-- check of the group's input types after it sees them all.
SELECT 1 FROM type_groups WHERE tenant_id = $1 AND uuid = $2 FOR UPDATE;

-- name: TypeGroupHasInputTypes :one
SELECT EXISTS (SELECT 1 FROM input_types WHERE tenant_id = $1 AND type_group_uuid = $2);

-- name: DeleteTypeGroup :execrows
DELETE FROM type_groups WHERE tenant_id = $1 AND uuid = $2;
