-- name: GetChannel :one
SELECT * FROM channels WHERE tenant_id = $1 AND uuid = $2;

-- name: InsertChannels :many
INSERT INTO channels (tenant_id, uuid, code, display_name, created_at, updated_at)
SELECT @tenant_id, unnest(@uuids::uuid[]), unnest(@codes::text[]), unnest(@display_names::text[]), @now::timestamptz, @now::timestamptz
ON CONFLICT DO NOTHING
RETURNING *;

-- name: UpdateChannel :one
UPDATE channels
SET code = coalesce(sqlc.narg('code'), code),
    display_name = coalesce(sqlc.narg('display_name'), display_name),
    updated_at = @now
WHERE tenant_id = @tenant_id AND uuid = @uuid
RETURNING *;

-- name: DeleteChannel :execrows
DELETE FROM channels WHERE tenant_id = $1 AND uuid = $2;

-- name: InsertChannelLocales :exec
-- Rows of several channels at once: channel_uuids[i] needs locale_uuids[i] at positions[i].
INSERT INTO channel_locales (tenant_id, channel_uuid, locale_uuid, position)
SELECT @tenant_id, unnest(@channel_uuids::uuid[]), unnest(@locale_uuids::uuid[]), unnest(@positions::int[]);

-- name: DeleteChannelLocales :exec
DELETE FROM channel_locales WHERE tenant_id = $1 AND channel_uuid = $2;

-- name: ChannelLocales :many
-- The locales of several channels, each channel's in its order.
SELECT channel_uuid, locale_uuid FROM channel_locales
WHERE tenant_id = $1 AND channel_uuid = ANY(@channel_uuids::uuid[])
ORDER BY channel_uuid, position;

-- name: ChannelsNeedingLocales :many
SELECT DISTINCT channel_uuid FROM channel_locales
WHERE tenant_id = $1 AND locale_uuid = ANY(@locale_uuids::uuid[]);
