-- name: InsertEvents :one
-- Writes the events of one mutation and fans them out, in the same statement, into one pending
-- delivery per active subscription subscribed to each event's type; returns how many deliveries it
-- made (the caller then NOTIFYs the dispatchers, delivered on commit).
WITH ev AS (
    INSERT INTO events (tenant_id, uuid, type, payload, created_at)
    SELECT @tenant_id, unnest(@uuids::uuid[]), unnest(@types::text[]), unnest(@payloads::jsonb[]), @now::timestamptz
    RETURNING tenant_id, uuid, type, payload, created_at
), d AS (
    INSERT INTO webhook_deliveries (tenant_id, uuid, subscription_uuid, event_uuid, event_type, payload, status, attempts,
                                    scheduled_at, created_at, updated_at)
    SELECT ev.tenant_id, gen_random_uuid(), s.uuid, ev.uuid, ev.type, ev.payload, 'pending', 0, ev.created_at, ev.created_at, ev.created_at
    FROM ev
    JOIN webhook_subscription_event_types st ON st.tenant_id = ev.tenant_id AND st.name = ev.type
    JOIN webhook_subscriptions s ON s.tenant_id = st.tenant_id AND s.uuid = st.subscription_uuid AND s.status = 'active'
    RETURNING 1
)
SELECT count(*) FROM d;

-- name: NotifyDeliveries :exec
-- Wakes the dispatchers (LISTEN catalogd_webhooks); delivered when the transaction commits.
SELECT pg_notify('catalogd_webhooks', '');
