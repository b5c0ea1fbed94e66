-- Links of a family to attributes, input types, categories, product asset types and product
-- relation types (kind), in one table: see 0006_families.sql.

-- name: GetFamilyLink :one
SELECT * FROM family_links WHERE tenant_id = $1 AND family_uuid = $2 AND kind = $3 AND uuid = $4;

-- name: InsertFamilyLinks :many
-- One statement for a whole bulk; a target already linked to the family (or twice in the bulk)
-- inserts nothing for that item, and the caller reports the items missing from the result.
-- has_max_counts[i] false stores no maximum (null) for item i.
INSERT INTO family_links (tenant_id, uuid, family_uuid, kind, target_uuid, requirement_level, applies_to,
                          is_variant_axis, auto_populate, min_count, max_count, created_at, updated_at)
SELECT @tenant_id, l.uuid, @family_uuid, @kind, l.target_uuid, l.requirement_level, l.applies_to,
       l.is_variant_axis, l.auto_populate, l.min_count, CASE WHEN l.has_max_count THEN l.max_count END,
       @now::timestamptz, @now::timestamptz
FROM (SELECT unnest(@uuids::uuid[]) AS uuid, unnest(@target_uuids::uuid[]) AS target_uuid,
             unnest(@requirement_levels::text[]) AS requirement_level, unnest(@applies_tos::text[]) AS applies_to,
             unnest(@is_variant_axes::boolean[]) AS is_variant_axis, unnest(@auto_populates::boolean[]) AS auto_populate,
             unnest(@min_counts::integer[]) AS min_count, unnest(@max_counts::integer[]) AS max_count,
             unnest(@has_max_counts::boolean[]) AS has_max_count) AS l
ON CONFLICT DO NOTHING
RETURNING *;

-- name: UpdateFamilyLink :one
-- The target is fixed after creation; set_max_count with a null max_count clears the maximum.
UPDATE family_links
SET requirement_level = coalesce(sqlc.narg('requirement_level'), requirement_level),
    applies_to = coalesce(sqlc.narg('applies_to'), applies_to),
    is_variant_axis = coalesce(sqlc.narg('is_variant_axis'), is_variant_axis),
    auto_populate = coalesce(sqlc.narg('auto_populate'), auto_populate),
    min_count = coalesce(sqlc.narg('min_count'), min_count),
    max_count = CASE WHEN @set_max_count::boolean THEN sqlc.narg('max_count') ELSE max_count END,
    updated_at = @now
WHERE tenant_id = @tenant_id AND family_uuid = @family_uuid AND kind = @kind AND uuid = @uuid
RETURNING *;

-- name: DeleteFamilyLink :execrows
DELETE FROM family_links WHERE tenant_id = $1 AND family_uuid = $2 AND kind = $3 AND uuid = $4;
