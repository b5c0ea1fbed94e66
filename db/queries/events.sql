-- name: InsertEvents :exec
INSERT INTO events (tenant_id, uuid, type, payload, created_at)
SELECT @tenant_id, unnest(@uuids::uuid[]), unnest(@types::text[]), unnest(@payloads::jsonb[]), @now::timestamptz;

-- name: ListEventsSince :many
SELECT * FROM events WHERE tenant_id = $1 AND created_at >= @since ORDER BY created_at, uuid;
