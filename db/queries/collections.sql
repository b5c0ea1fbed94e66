-- name: GetCollection :one
SELECT * FROM collections WHERE tenant_id = $1 AND uuid = $2;

-- name: LockCollections :many
SELECT * FROM collections WHERE tenant_id = $1 AND uuid = ANY(@uuids::uuid[]) FOR UPDATE;

-- name: LockCollectionTree :exec
-- Serialises the writes of a tenant's collections, so that two concurrent moves cannot together
-- close a cycle that each one alone does not.
SELECT pg_advisory_xact_lock(hashtextextended('collections:' || @tenant_id::text, 0));

-- name: InsertCollections :many
-- One statement for a whole bulk; a conflicting code inserts nothing for that item, and the
-- caller reports the items missing from the result. has_parents[i] false makes item i a root.
INSERT INTO collections (tenant_id, uuid, code, display_name, parent_uuid, position, status, created_at, updated_at)
SELECT @tenant_id, u.uuid, u.code, u.display_name, CASE WHEN u.has_parent THEN u.parent_uuid END, u.position,
       'draft', @now::timestamptz, @now::timestamptz
FROM (SELECT unnest(@uuids::uuid[]) AS uuid, unnest(@codes::text[]) AS code, unnest(@display_names::text[]) AS display_name,
             unnest(@parent_uuids::uuid[]) AS parent_uuid, unnest(@has_parents::boolean[]) AS has_parent,
             unnest(@positions::int[]) AS position) AS u
ON CONFLICT DO NOTHING
RETURNING *;

-- name: UpdateCollection :one
-- set_parent true sets parent_uuid to the parent_uuid parameter (null: a root).
UPDATE collections
SET code = coalesce(sqlc.narg('code'), code),
    display_name = coalesce(sqlc.narg('display_name'), display_name),
    parent_uuid = CASE WHEN @set_parent::boolean THEN sqlc.narg('parent_uuid')::uuid ELSE parent_uuid END,
    position = coalesce(sqlc.narg('position'), position),
    updated_at = @now
WHERE tenant_id = @tenant_id AND uuid = @uuid
RETURNING *;

-- name: CollectionWouldCycle :one
-- Whether making parent_uuid the parent of uuid closes a cycle: uuid is parent_uuid itself or one
-- of its ancestors (a recursive walk up from parent_uuid; UNION stops on any loop).
WITH RECURSIVE up AS (
    SELECT n.uuid, n.parent_uuid FROM collections n WHERE n.tenant_id = @tenant_id AND n.uuid = @parent_uuid
    UNION
    SELECT n.uuid, n.parent_uuid FROM collections n, up WHERE n.tenant_id = @tenant_id AND n.uuid = up.parent_uuid
)
SELECT (count(*) > 0)::boolean AS cycles FROM up WHERE uuid = @uuid::uuid;

-- name: SetCollectionStatus :many
UPDATE collections
SET status = @status,
    removed_at = CASE WHEN @status = 'removed' THEN @now::timestamptz ELSE NULL END,
    updated_at = @now
WHERE tenant_id = @tenant_id AND uuid = ANY(@uuids::uuid[])
RETURNING *;

-- name: DeleteCollection :execrows
DELETE FROM collections WHERE tenant_id = $1 AND uuid = $2;
