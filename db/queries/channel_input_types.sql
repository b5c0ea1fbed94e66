-- name: GetChannelInputType :one
SELECT * FROM channel_input_types WHERE tenant_id = $1 AND channel_uuid = $2 AND uuid = $3;

-- name: InsertChannelInputTypes :many
-- A second link of the same input type inserts nothing for that item.
INSERT INTO channel_input_types (tenant_id, uuid, channel_uuid, input_type_uuid, requirement_level, scoping, created_at, updated_at)
SELECT @tenant_id, unnest(@uuids::uuid[]), @channel_uuid, unnest(@input_type_uuids::uuid[]), unnest(@requirement_levels::text[]),
       unnest(@scopings::text[]), @now::timestamptz, @now::timestamptz
ON CONFLICT DO NOTHING
RETURNING *;

-- name: UpdateChannelInputType :one
UPDATE channel_input_types
SET input_type_uuid = coalesce(sqlc.narg('input_type_uuid'), input_type_uuid),
    requirement_level = coalesce(sqlc.narg('requirement_level'), requirement_level),
    scoping = coalesce(sqlc.narg('scoping'), scoping),
    updated_at = @now
WHERE tenant_id = @tenant_id AND channel_uuid = @channel_uuid AND uuid = @uuid
RETURNING *;

-- name: DeleteChannelInputType :execrows
DELETE FROM channel_input_types WHERE tenant_id = $1 AND channel_uuid = $2 AND uuid = $3;
