-- name: GetProductRelation :one
SELECT * FROM product_relations WHERE tenant_id = $1 AND product_uuid = $2 AND uuid = $3;

-- name: GetProductRelationTypeDirections :many
-- The direction of each of the given relation types of the tenant (missing ones are absent).
SELECT uuid, direction FROM product_relation_types WHERE tenant_id = @tenant_id AND uuid = ANY(@uuids::uuid[]);

-- name: LockProductRelationPairs :exec
-- Serialises the writes of the given two-way pairs (keys built by the caller from the type and
-- the two products, in a fixed order), one transaction-scoped advisory lock per pair, taken in
-- ascending key order so that two requests never wait on each other crosswise. The lock call is
-- volatile, so PostgreSQL evaluates it after the sort.
SELECT pg_advisory_xact_lock(k)
FROM (SELECT DISTINCT hashtextextended('product-relation:' || @tenant_id::text || ':' || key, 0) AS k
      FROM unnest(@pair_keys::text[]) AS key) AS keys
ORDER BY k;

-- name: InsertProductRelations :many
-- One statement for a whole bulk and its inverse rows (a zero inverse uuid stands for null); a
-- row whose product, type and target already exist (or twice in the statement) inserts nothing,
-- and the caller reports the items missing from the result. Rows go in (product, type, target)
-- order, so two statements that conflict wait on each other in the same order.
INSERT INTO product_relations (tenant_id, uuid, product_uuid, product_relation_type_uuid, target_product_uuid,
                               inverse_relation_uuid, created_at, updated_at)
SELECT @tenant_id, r.uuid, r.product_uuid, r.type_uuid, r.target_uuid,
       nullif(r.inverse_uuid, '00000000-0000-0000-0000-000000000000'::uuid), @now::timestamptz, @now::timestamptz
FROM (SELECT unnest(@uuids::uuid[]) AS uuid, unnest(@product_uuids::uuid[]) AS product_uuid,
             unnest(@type_uuids::uuid[]) AS type_uuid, unnest(@target_uuids::uuid[]) AS target_uuid,
             unnest(@inverse_uuids::uuid[]) AS inverse_uuid) AS r
ORDER BY r.product_uuid, r.type_uuid, r.target_uuid
ON CONFLICT DO NOTHING
RETURNING *;

-- name: DeleteProductRelations :many
-- Deletes the given relations (a relation and its inverse, read first under the pair's lock) and
-- returns the rows deleted.
DELETE FROM product_relations WHERE tenant_id = @tenant_id AND uuid = ANY(@uuids::uuid[])
RETURNING *;

-- name: ListProductRelationsOfProducts :many
-- The relations held by several products (include/expand), by product, then oldest first.
SELECT * FROM product_relations WHERE tenant_id = @tenant_id AND product_uuid = ANY(@product_uuids::uuid[])
ORDER BY product_uuid, created_at, uuid;

-- name: DeleteRelationsTargetingProduct :many
-- Before a product is deleted: the relations other products hold towards it (one-way links and the
-- inverses of its two-way links), deleted here so that each gets its unlinked event (oldest first).
WITH gone AS (
    DELETE FROM product_relations
    WHERE tenant_id = @tenant_id AND target_product_uuid = @product_uuid AND product_uuid <> @product_uuid
    RETURNING *
)
SELECT * FROM gone ORDER BY created_at, uuid;
