-- name: GetProductRelationType :one
SELECT * FROM product_relation_types WHERE tenant_id = $1 AND uuid = $2;

-- name: InsertProductRelationTypes :many
-- One statement for a whole bulk; a conflicting code inserts nothing for that item, and the
-- caller reports the items missing from the result.
INSERT INTO product_relation_types (tenant_id, uuid, code, display_name, direction, created_at, updated_at)
SELECT @tenant_id, unnest(@uuids::uuid[]), unnest(@codes::text[]), unnest(@display_names::text[]),
       unnest(@directions::text[]), @now::timestamptz, @now::timestamptz
ON CONFLICT DO NOTHING
RETURNING *;

-- name: UpdateProductRelationType :one
-- direction is fixed after creation.
UPDATE product_relation_types
SET code = coalesce(sqlc.narg('code'), code),
    display_name = coalesce(sqlc.narg('display_name'), display_name),
    updated_at = @now
WHERE tenant_id = @tenant_id AND uuid = @uuid
RETURNING *;

-- name: DeleteProductRelationType :execrows
DELETE FROM product_relation_types WHERE tenant_id = $1 AND uuid = $2;
