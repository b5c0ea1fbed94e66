-- name: RetentionNextEventTenant :one
-- The next tenant with events after @after (the empty string for the first): one probe of the
-- primary key (a loose index scan, one statement per tenant); no row when there is none.
SELECT tenant_id FROM events WHERE tenant_id > @after::text ORDER BY tenant_id LIMIT 1;

-- name: PruneEvents :one
-- Deletes up to @max events of one tenant older than the cutoff, in uuid order from @after_uuid
-- (keyset: a batch never walks the entries of the batches before it). Event uuids are v7, so
-- uuid < @bound (the smallest v7 of the cutoff's millisecond) is a range of the primary key;
-- created_at < @cutoff keeps the cut exact. Returns how many it deleted and the last uuid.
WITH old AS (
    SELECT e.tenant_id, e.uuid FROM events e
    WHERE e.tenant_id = @tenant_id AND e.uuid > @after_uuid AND e.uuid < @bound AND e.created_at < @cutoff
    ORDER BY e.uuid
    LIMIT @max
), del AS (
    DELETE FROM events e USING old WHERE e.tenant_id = old.tenant_id AND e.uuid = old.uuid
    RETURNING e.uuid
)
SELECT (SELECT count(*) FROM old)::bigint AS seen, (SELECT count(*) FROM del)::bigint AS deleted,
       coalesce((SELECT old.uuid FROM old ORDER BY old.uuid DESC LIMIT 1), @after_uuid)::uuid AS last_uuid;

-- name: PruneDeliveries :one
-- Deletes up to @max finished (delivered or failed) deliveries that last changed before the cutoff,
-- and their attempts, oldest first from the keyset (@after_at, @after_tenant, @after_uuid) on the
-- index webhook_deliveries_finished. Pending deliveries and their attempts are never touched. Rows
-- are locked (SKIP LOCKED: a redelivery in progress keeps its row; a row made pending meanwhile no
-- longer matches). A failed delivery still holding a lease may have an attempt in flight (its
-- subscription was deactivated meanwhile): it waits until @lease_cutoff, past any lease.
WITH old AS (
    SELECT d.tenant_id, d.uuid, d.updated_at FROM webhook_deliveries d
    WHERE d.status IN ('delivered', 'failed') AND d.updated_at < @cutoff
      AND (d.updated_at, d.tenant_id, d.uuid) > (@after_at::timestamptz, @after_tenant::text, @after_uuid::uuid)
      AND (d.lease_id IS NULL OR d.updated_at < @lease_cutoff::timestamptz)
    ORDER BY d.updated_at, d.tenant_id, d.uuid
    LIMIT @max
    FOR UPDATE SKIP LOCKED
), att AS (
    -- Their attempts, counted here and deleted by the foreign key's ON DELETE CASCADE (one index
    -- probe per delivery). The lateral subquery (OFFSET 0 keeps it one) is a probe of
    -- webhook_delivery_attempts_delivery per delivery, whatever the planner thinks of the table.
    SELECT count(*) AS n FROM old CROSS JOIN LATERAL (
        SELECT 1 FROM webhook_delivery_attempts a WHERE a.tenant_id = old.tenant_id AND a.delivery_uuid = old.uuid OFFSET 0
    ) x
), del AS (
    DELETE FROM webhook_deliveries d USING old
    WHERE d.tenant_id = old.tenant_id AND d.uuid = old.uuid
    RETURNING 1
), last AS (
    SELECT old.updated_at, old.tenant_id, old.uuid FROM old
    ORDER BY old.updated_at DESC, old.tenant_id DESC, old.uuid DESC LIMIT 1
)
SELECT (SELECT count(*) FROM old)::bigint AS seen, (SELECT count(*) FROM del)::bigint AS deliveries,
       (SELECT n FROM att)::bigint AS attempts,
       coalesce((SELECT last.updated_at FROM last), @after_at)::timestamptz AS last_at,
       coalesce((SELECT last.tenant_id FROM last), @after_tenant)::text AS last_tenant,
       coalesce((SELECT last.uuid FROM last), @after_uuid)::uuid AS last_uuid;
