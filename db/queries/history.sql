-- name: InsertHistory :exec
-- Writes the history entries of one write (server/history.Record), in its transaction. created_at
-- is the time of this statement, not of the transaction's start: the writes of one resource hold
-- its row lock until they commit, so the second of two writers records after the first committed
-- and its entries sort after the first's (an unbroken before/after chain in createdAt order).
INSERT INTO history (tenant_id, uuid, resource_type, resource_uuid, parent_uuids, action, actor, changes, request_id, created_at)
SELECT @tenant_id, unnest(@uuids::uuid[]), unnest(@resource_types::text[]), unnest(@resource_uuids::uuid[]),
       string_to_array(unnest(@parents::text[]), ',')::uuid[], unnest(@actions::text[]), @actor::jsonb,
       unnest(@changes::text[]), sqlc.narg(request_id)::text, clock_timestamp();

-- name: RetentionNextHistoryTenant :one
-- The next tenant with history entries after @after (the empty string for the first).
SELECT tenant_id FROM history WHERE tenant_id > @after::text ORDER BY tenant_id LIMIT 1;

-- name: PruneHistory :one
-- Deletes up to @max history entries of one tenant older than the cutoff, oldest first from the
-- position (@after_at, @after_uuid) on: a range of the primary key (tenant_id, created_at, uuid),
-- so a batch never walks the entries of the batches before it. Returns how many it saw and deleted
-- and the position of the last.
WITH old AS (
    SELECT h.tenant_id, h.created_at, h.uuid FROM history h
    WHERE h.tenant_id = @tenant_id AND (h.created_at, h.uuid) > (@after_at::timestamptz, @after_uuid::uuid)
      AND h.created_at < @cutoff
    ORDER BY h.created_at, h.uuid
    LIMIT @max
), del AS (
    DELETE FROM history h USING old
    WHERE h.tenant_id = old.tenant_id AND h.created_at = old.created_at AND h.uuid = old.uuid
    RETURNING h.uuid
), last AS (
    SELECT old.created_at, old.uuid FROM old ORDER BY old.created_at DESC, old.uuid DESC LIMIT 1
)
SELECT (SELECT count(*) FROM old)::bigint AS seen, (SELECT count(*) FROM del)::bigint AS deleted,
       coalesce((SELECT last.created_at FROM last), @after_at::timestamptz)::timestamptz AS last_at,
       coalesce((SELECT last.uuid FROM last), @after_uuid::uuid)::uuid AS last_uuid;
