-- name: GetLocale :one
SELECT * FROM locales WHERE tenant_id = $1 AND uuid = $2;

-- name: LockLocales :many
SELECT * FROM locales WHERE tenant_id = $1 AND uuid = ANY(@uuids::uuid[]) FOR UPDATE;

-- name: InsertLocales :many
INSERT INTO locales (tenant_id, uuid, code, display_name, is_default, created_at, updated_at)
SELECT @tenant_id, unnest(@uuids::uuid[]), unnest(@codes::text[]), unnest(@display_names::text[]), false, @now::timestamptz, @now::timestamptz
ON CONFLICT DO NOTHING
RETURNING *;

-- name: UpdateLocale :one
UPDATE locales
SET code = coalesce(sqlc.narg('code'), code),
    display_name = coalesce(sqlc.narg('display_name'), display_name),
    updated_at = @now
WHERE tenant_id = @tenant_id AND uuid = @uuid
RETURNING *;

-- name: ClearDefaultLocale :many
-- Clears the default flag of every locale but the given one; returns those it changed.
UPDATE locales SET is_default = false, updated_at = @now
WHERE tenant_id = @tenant_id AND is_default AND uuid <> @uuid
RETURNING *;

-- name: MakeDefaultLocale :one
UPDATE locales SET is_default = true, updated_at = @now
WHERE tenant_id = @tenant_id AND uuid = @uuid
RETURNING *;

-- name: DeleteLocale :execrows
DELETE FROM locales WHERE tenant_id = $1 AND uuid = $2;

-- name: LockTenantLocales :exec
-- Serialises the writes that decide a tenant's default locale.
SELECT pg_advisory_xact_lock(hashtextextended('locales:' || @tenant_id::text, 0));

-- name: DefaultLocale :one
SELECT uuid FROM locales WHERE tenant_id = $1 AND is_default;
