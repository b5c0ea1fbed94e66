-- name: GetProductInputValue :one
SELECT * FROM product_input_values WHERE tenant_id = $1 AND product_uuid = $2 AND uuid = $3;

-- name: InsertProductInputValues :many
-- One statement for a whole bulk (of one product, or of several in an import); a value whose (input type, channel, locale) the product already
-- has (or that appears twice in the bulk) inserts nothing for that item. The nil uuid stands for
-- a null channel or locale.
INSERT INTO product_input_values (tenant_id, uuid, product_uuid, input_type_uuid, channel_uuid, locale_uuid, value, created_at, updated_at)
SELECT @tenant_id, unnest(@uuids::uuid[]), unnest(@product_uuids::uuid[]), unnest(@input_type_uuids::uuid[]),
       nullif(unnest(@channel_uuids::uuid[]), '00000000-0000-0000-0000-000000000000'),
       nullif(unnest(@locale_uuids::uuid[]), '00000000-0000-0000-0000-000000000000'), unnest(@vals::text[])::jsonb,
       @now::timestamptz, @now::timestamptz
ON CONFLICT DO NOTHING
RETURNING *;

-- name: UpdateProductInputValue :one
UPDATE product_input_values
SET value = coalesce(sqlc.narg('value')::text::jsonb, value),
    updated_at = @now
WHERE tenant_id = @tenant_id AND product_uuid = @product_uuid AND uuid = @uuid
RETURNING *;

-- name: DeleteProductInputValue :execrows
DELETE FROM product_input_values WHERE tenant_id = $1 AND product_uuid = $2 AND uuid = $3;

-- name: ListInputTypesOfValues :many
SELECT * FROM input_types WHERE tenant_id = $1 AND uuid = ANY(@uuids::uuid[]);

-- name: ListEffectiveInputValues :many
-- Own and inherited values of a product, oldest first.
SELECT * FROM product_effective_input_values WHERE tenant_id = $1 AND owner_uuid = $2
ORDER BY created_at, uuid;

-- name: ListEffectiveInputValuesOfProducts :many
-- Own and inherited values of several products (include/expand on products), oldest first.
SELECT * FROM product_effective_input_values WHERE tenant_id = $1 AND owner_uuid = ANY(@owner_uuids::uuid[])
ORDER BY created_at, uuid;
