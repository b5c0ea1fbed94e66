-- name: GetInputType :one
SELECT * FROM input_types WHERE tenant_id = $1 AND uuid = $2;

-- name: InsertInputTypes :many
-- constraints[i] is the JSON object of item i's constraints.
INSERT INTO input_types (tenant_id, uuid, type_group_uuid, code, display_name, data_type, is_localizable, constraints, created_at, updated_at)
SELECT @tenant_id, u.uuid, u.type_group_uuid, u.code, u.display_name, u.data_type, u.is_localizable, u.constraints::jsonb,
       @now::timestamptz, @now::timestamptz
FROM (SELECT unnest(@uuids::uuid[]) AS uuid, unnest(@type_group_uuids::uuid[]) AS type_group_uuid,
             unnest(@codes::text[]) AS code, unnest(@display_names::text[]) AS display_name,
             unnest(@data_types::text[]) AS data_type, unnest(@is_localizables::boolean[]) AS is_localizable,
             unnest(@constraints::text[]) AS constraints) AS u
ON CONFLICT DO NOTHING
RETURNING *;

-- name: UpdateInputType :one
UPDATE input_types
SET type_group_uuid = coalesce(sqlc.narg('type_group_uuid'), type_group_uuid),
    code = coalesce(sqlc.narg('code'), code),
    display_name = coalesce(sqlc.narg('display_name'), display_name),
    is_localizable = coalesce(sqlc.narg('is_localizable'), is_localizable),
    updated_at = @now
WHERE tenant_id = @tenant_id AND uuid = @uuid
RETURNING *;

-- name: SetInputTypeConstraints :one
UPDATE input_types SET constraints = (@constraints::text)::jsonb, updated_at = @now
WHERE tenant_id = @tenant_id AND uuid = @uuid
RETURNING *;

-- name: DeleteInputType :execrows
DELETE FROM input_types WHERE tenant_id = $1 AND uuid = $2;
