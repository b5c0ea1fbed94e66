-- name: InsertEvents :one
-- Writes the events of one mutation and fans them out, in the same statement, into one pending
-- delivery per active subscription subscribed to each event's type; returns how many deliveries it
-- made and, when there are any, wakes the dispatchers (LISTEN catalogd_webhooks; delivered when the
-- transaction commits) in the same round trip: CASE runs pg_notify only when its condition holds,
-- and notified tells whether it ran. @traceparent is the writing request's trace context (NULL
-- without one), kept with the events and their deliveries. The same statement writes the write's
-- history entries (@h_* arrays, empty for none: server/history, InsertHistory's columns), a round
-- trip less per write.
WITH h AS (
    INSERT INTO history (tenant_id, uuid, resource_type, resource_uuid, parent_uuids, action, actor, changes, request_id, created_at)
    SELECT @tenant_id, unnest(@h_uuids::uuid[]), unnest(@h_resource_types::text[]), unnest(@h_resource_uuids::uuid[]),
           string_to_array(unnest(@h_parents::text[]), ',')::uuid[], unnest(@h_actions::text[]), sqlc.narg(h_actor)::jsonb,
           unnest(@h_changes::text[]), sqlc.narg(h_request_id)::text, clock_timestamp()
), ev AS (
    INSERT INTO events (tenant_id, uuid, type, payload, created_at, traceparent)
    SELECT @tenant_id, unnest(@uuids::uuid[]), unnest(@types::text[]), unnest(@payloads::jsonb[]), @now::timestamptz,
           sqlc.narg(traceparent)::text
    RETURNING tenant_id, uuid, type, payload, created_at, traceparent
), d AS (
    INSERT INTO webhook_deliveries (tenant_id, uuid, subscription_uuid, event_uuid, event_type, payload, status, attempts,
                                    scheduled_at, created_at, updated_at, traceparent)
    SELECT ev.tenant_id, gen_random_uuid(), s.uuid, ev.uuid, ev.type, ev.payload, 'pending', 0, ev.created_at, ev.created_at, ev.created_at,
           ev.traceparent
    FROM ev
    JOIN webhook_subscription_event_types st ON st.tenant_id = ev.tenant_id AND st.name = ev.type
    JOIN webhook_subscriptions s ON s.tenant_id = st.tenant_id AND s.uuid = st.subscription_uuid AND s.status = 'active'
    RETURNING 1
), n AS (
    SELECT count(*) AS deliveries FROM d
)
SELECT deliveries, ((CASE WHEN deliveries > 0 THEN pg_notify('catalogd_webhooks', '')::text END) IS NOT NULL)::boolean AS notified FROM n;

-- name: NotifyDeliveries :exec
-- Wakes the dispatchers (LISTEN catalogd_webhooks); delivered when the transaction commits.
SELECT pg_notify('catalogd_webhooks', '');
