-- name: GetContent :one
SELECT * FROM contents WHERE tenant_id = $1 AND parent_kind = $2 AND parent_uuid = $3 AND uuid = $4;

-- name: ListContentsOfParents :many
SELECT * FROM contents
WHERE tenant_id = $1 AND parent_kind = $2 AND parent_uuid = ANY(@parent_uuids::uuid[])
ORDER BY created_at, uuid;

-- name: InsertContents :many
-- has_descriptions[i] false stores a null description for item i.
INSERT INTO contents (tenant_id, uuid, parent_kind, parent_uuid, locale_uuid, display_name, description, created_at, updated_at)
SELECT @tenant_id, u.uuid, @parent_kind, @parent_uuid, u.locale_uuid, u.display_name,
       CASE WHEN u.has_description THEN u.description END, @now::timestamptz, @now::timestamptz
FROM (SELECT unnest(@uuids::uuid[]) AS uuid, unnest(@locale_uuids::uuid[]) AS locale_uuid,
             unnest(@display_names::text[]) AS display_name, unnest(@descriptions::text[]) AS description,
             unnest(@has_descriptions::boolean[]) AS has_description) AS u
ON CONFLICT DO NOTHING
RETURNING *;

-- name: UpdateContent :one
UPDATE contents
SET locale_uuid = coalesce(sqlc.narg('locale_uuid'), locale_uuid),
    display_name = coalesce(sqlc.narg('display_name'), display_name),
    description = CASE WHEN @set_description::boolean THEN sqlc.narg('description') ELSE description END,
    updated_at = @now
WHERE tenant_id = @tenant_id AND parent_kind = @parent_kind AND parent_uuid = @parent_uuid AND uuid = @uuid
RETURNING *;

-- name: DeleteContent :execrows
DELETE FROM contents WHERE tenant_id = $1 AND parent_kind = $2 AND parent_uuid = $3 AND uuid = $4;

-- name: LocalesExist :many
SELECT uuid FROM locales WHERE tenant_id = $1 AND uuid = ANY(@uuids::uuid[]);
