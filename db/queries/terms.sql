-- name: GetAttributeTerm :one
SELECT * FROM attribute_terms WHERE tenant_id = $1 AND attribute_uuid = $2 AND uuid = $3;

-- name: InsertAttributeTerms :many
INSERT INTO attribute_terms (tenant_id, uuid, attribute_uuid, code, display_name, position, created_at, updated_at)
SELECT @tenant_id, unnest(@uuids::uuid[]), @attribute_uuid, unnest(@codes::text[]), unnest(@display_names::text[]), unnest(@positions::int[]), @now::timestamptz, @now::timestamptz
ON CONFLICT DO NOTHING
RETURNING *;

-- name: UpdateAttributeTerm :one
UPDATE attribute_terms
SET code = coalesce(sqlc.narg('code'), code),
    display_name = coalesce(sqlc.narg('display_name'), display_name),
    position = coalesce(sqlc.narg('position'), position),
    updated_at = @now
WHERE tenant_id = @tenant_id AND attribute_uuid = @attribute_uuid AND uuid = @uuid
RETURNING *;

-- name: DeleteAttributeTerm :execrows
DELETE FROM attribute_terms WHERE tenant_id = $1 AND attribute_uuid = $2 AND uuid = $3;
