-- name: LockEventCatalog :exec
-- Serializes the seeding of the event catalog: replicas starting together would otherwise insert
-- the same new name at once, and the loser fails on the name's key (ON CONFLICT arbitrates uuid
-- only). Transaction-scoped, so it works behind a transaction pooler.
SELECT pg_advisory_xact_lock(hashtextextended('catalogd:event-catalog', 0));

-- name: UpsertEventType :exec
INSERT INTO webhook_event_types (uuid, name, description, created_at, updated_at)
VALUES (@uuid, @name, @description, @now, @now)
ON CONFLICT (uuid) DO UPDATE SET description = excluded.description, updated_at = excluded.updated_at
WHERE webhook_event_types.description <> excluded.description;

-- name: GetEventType :one
SELECT * FROM webhook_event_types WHERE uuid = $1;

-- name: InsertWebhookSubscription :one
INSERT INTO webhook_subscriptions (tenant_id, uuid, display_name, target_url, request_timeout_ms, status, secret_sealed, created_at, updated_at)
VALUES (@tenant_id, @uuid, @display_name, @target_url, @request_timeout_ms, 'active', @secret_sealed, @now, @now)
RETURNING *;

-- name: GetWebhookSubscription :one
SELECT * FROM webhook_subscriptions WHERE tenant_id = $1 AND uuid = $2;

-- name: LockWebhookSubscription :one
-- Every write that touches a subscription and its deliveries locks the subscription first (the one
-- lock order, so they cannot deadlock); NO KEY UPDATE lets fan-out's foreign-key checks through.
SELECT * FROM webhook_subscriptions WHERE tenant_id = $1 AND uuid = $2 FOR NO KEY UPDATE;


-- name: UpdateWebhookSubscription :one
-- An update that changes nothing leaves updated_at (and so the etag) as it was.
UPDATE webhook_subscriptions
SET display_name = coalesce(sqlc.narg('display_name'), display_name),
    target_url = coalesce(sqlc.narg('target_url'), target_url),
    request_timeout_ms = coalesce(sqlc.narg('request_timeout_ms'), request_timeout_ms),
    updated_at = CASE
        WHEN (coalesce(sqlc.narg('display_name'), display_name), coalesce(sqlc.narg('target_url'), target_url),
              coalesce(sqlc.narg('request_timeout_ms'), request_timeout_ms))
             IS DISTINCT FROM (display_name, target_url, request_timeout_ms)
        THEN @now ELSE updated_at END
WHERE tenant_id = @tenant_id AND uuid = @uuid
RETURNING *;

-- name: SetWebhookSubscriptionStatus :one
-- activate resets the failure counter; suspension records when.
UPDATE webhook_subscriptions
SET status = @status,
    consecutive_failures = CASE WHEN @status = 'active' THEN 0 ELSE consecutive_failures END,
    failing_since = CASE WHEN @status = 'active' THEN NULL ELSE failing_since END,
    suspended_at = CASE WHEN @status = 'suspended' THEN @now::timestamptz ELSE NULL END,
    updated_at = @now
WHERE tenant_id = @tenant_id AND uuid = @uuid
RETURNING *;

-- name: SetWebhookSubscriptionSecret :one
UPDATE webhook_subscriptions SET secret_sealed = @secret_sealed, updated_at = @now
WHERE tenant_id = @tenant_id AND uuid = @uuid
RETURNING *;

-- name: DeleteWebhookSubscription :execrows
DELETE FROM webhook_subscriptions WHERE tenant_id = $1 AND uuid = $2;

-- name: InsertSubscriptionEventType :many
INSERT INTO webhook_subscription_event_types (tenant_id, subscription_uuid, uuid, name, created_at)
VALUES (@tenant_id, @subscription_uuid, @uuid, @name, @now)
ON CONFLICT DO NOTHING
RETURNING *;

-- name: GetEventTypes :many
SELECT * FROM webhook_event_types WHERE uuid = ANY(@uuids::uuid[]);

-- name: InsertSubscriptionEventTypes :many
-- Subscribes to several event types (bulk); the rows already there are not returned.
INSERT INTO webhook_subscription_event_types (tenant_id, subscription_uuid, uuid, name, created_at)
SELECT @tenant_id, @subscription_uuid, t.uuid, t.name, @now
FROM webhook_event_types t WHERE t.uuid = ANY(@uuids::uuid[])
ON CONFLICT DO NOTHING
RETURNING *;

-- name: DeleteSubscriptionEventType :many
DELETE FROM webhook_subscription_event_types WHERE tenant_id = $1 AND subscription_uuid = $2 AND uuid = $3
RETURNING *;

-- name: GetWebhookDelivery :one
SELECT * FROM webhook_deliveries WHERE tenant_id = $1 AND subscription_uuid = $2 AND uuid = $3;

-- name: FailPendingDeliveries :execrows
-- Deactivating or suspending a subscription fails what it had pending. A delivery in flight keeps
-- its lease, so its attempt is still recorded when the request ends.
UPDATE webhook_deliveries SET status = 'failed', scheduled_at = NULL, updated_at = @now
WHERE tenant_id = @tenant_id AND subscription_uuid = @subscription_uuid AND status = 'pending';

-- name: RedeliverWebhookDelivery :one
UPDATE webhook_deliveries
SET status = 'pending', scheduled_at = @now::timestamptz, cycle_start = attempts, lease_id = NULL, updated_at = @now
WHERE tenant_id = @tenant_id AND subscription_uuid = @subscription_uuid AND uuid = @uuid
RETURNING *;

-- name: ClaimDueDeliveries :many
-- Takes up to @max due deliveries for one dispatcher, fairly (docs/design.md "Webhook dispatcher:
-- fairness and shutdown"):
--   * each subscription has at most @per_subscription attempts in flight (leased rows, whichever
--     dispatcher holds them), one while it is failing (consecutive_failures > 0), so a hanging
--     target holds a single slot once its first attempt timed out;
--   * each tenant has at most @per_tenant attempts in flight;
--   * rows are taken round robin: each tenant's first pick, then each tenant's second …, and within
--     a tenant each subscription's oldest due row, then each one's second …; subscriptions whose
--     oldest due row is older come first.
-- Rows locked by another dispatcher are skipped; claimed rows are pushed one lease ahead and
-- stamped with @lease_id, so a crash re-sends them after the lease.
-- The statement is the function claim_due_deliveries (migration 0039), which keeps its plans for the
-- server connection, also behind a transaction pooler.
SELECT * FROM claim_due_deliveries(@per_subscription::integer, @per_tenant::integer, @max::integer,
                          @lease_seconds::double precision, @lease_id::uuid) c;

-- name: ReleaseDeliveryLease :execrows
-- Gives back a claimed delivery whose attempt was cut by shutdown: due again at once (the next
-- dispatcher sends it with the same webhook-id), no attempt counted.
UPDATE webhook_deliveries SET scheduled_at = now(), lease_id = NULL
WHERE tenant_id = @tenant_id AND uuid = @uuid AND lease_id = @lease_id AND status = 'pending';

-- name: DeliveryBacklog :one
-- The pending deliveries and how long the oldest due one has waited (the /metrics backlog figures).
SELECT count(*)::bigint AS pending,
       coalesce(extract(epoch FROM now() - min(scheduled_at) FILTER (WHERE scheduled_at <= now())), 0)::double precision AS oldest_due_seconds
FROM webhook_deliveries WHERE status = 'pending';

-- name: LockTenantSubscriptions :exec
-- Serialises the creation of a tenant's subscriptions, so that the limit holds under concurrent creates.
SELECT pg_advisory_xact_lock(hashtextextended('webhook-subscriptions:' || @tenant_id::text, 0));

-- name: CountWebhookSubscriptions :one
SELECT count(*)::integer FROM webhook_subscriptions WHERE tenant_id = $1;

-- name: InsertDeliveryAttempt :exec
INSERT INTO webhook_delivery_attempts (tenant_id, uuid, delivery_uuid, status_code, response_body, response_time_ms, error, created_at)
VALUES (@tenant_id, @uuid, @delivery_uuid, @status_code, @response_body, @response_time_ms, @error, @now);

-- name: FinishDeliveryAttempt :execrows
-- Records the outcome of an attempt, only while the caller still holds the lease. A delivery that
-- was failed meanwhile (its subscription deactivated or suspended) stays failed unless this attempt
-- delivered it.
UPDATE webhook_deliveries
SET status = CASE WHEN @status::text = 'delivered' OR status = 'pending' THEN @status::text ELSE status END,
    scheduled_at = CASE WHEN status = 'pending' THEN sqlc.narg('scheduled_at')::timestamptz END,
    attempts = attempts + 1, last_status_code = @last_status_code, lease_id = NULL, updated_at = @now
WHERE tenant_id = @tenant_id AND uuid = @uuid AND lease_id = @lease_id;

-- name: RecordDeliverySuccesses :many
-- Records successful attempts of many deliveries at once (the dispatcher's recorder: the successes
-- that finished while its previous record ran), in one statement and one commit, each only while
-- its caller still holds that delivery's lease. The subscriptions are share-locked first: the lock
-- order of every write on a subscription and its deliveries, excluding their transitions and
-- failure records but not other successes' records. Only subscriptions without failures to reset
-- are recorded here; per delivery, healthy = false: its subscription has failure counters to reset
-- (or is gone) and nothing was written for it — the caller records it under the exclusive lock
-- instead; finished = false: the lease was lost (another dispatcher took the delivery over).
WITH input AS (
    -- one row per attempt: the arrays side by side (set-returning functions in a select list zip)
    SELECT unnest(@tenant_ids::text[]) AS tenant_id, unnest(@subscription_uuids::uuid[]) AS subscription_uuid,
           unnest(@uuids::uuid[]) AS uuid, unnest(@lease_ids::uuid[]) AS lease_id, unnest(@status_codes::integer[]) AS status_code,
           unnest(@attempt_uuids::uuid[]) AS attempt_uuid, unnest(@response_bodies::text[]) AS response_body,
           unnest(@response_times_ms::integer[]) AS response_time_ms
),
sub AS (
    SELECT s.tenant_id, s.uuid FROM webhook_subscriptions s
    WHERE (s.tenant_id, s.uuid) IN (SELECT i.tenant_id, i.subscription_uuid FROM input i)
      AND s.consecutive_failures = 0 AND s.failing_since IS NULL
    FOR SHARE
),
fin AS (
    UPDATE webhook_deliveries d
    SET status = 'delivered', scheduled_at = NULL, attempts = d.attempts + 1, last_status_code = i.status_code,
        lease_id = NULL, updated_at = @now
    FROM input i JOIN sub ON sub.tenant_id = i.tenant_id AND sub.uuid = i.subscription_uuid
    WHERE d.tenant_id = i.tenant_id AND d.uuid = i.uuid AND d.lease_id = i.lease_id
    RETURNING d.tenant_id, d.uuid
),
att AS (
    INSERT INTO webhook_delivery_attempts (tenant_id, uuid, delivery_uuid, status_code, response_body, response_time_ms, error, created_at)
    SELECT i.tenant_id, i.attempt_uuid, i.uuid, i.status_code, i.response_body, i.response_time_ms, NULL, @now
    FROM input i JOIN fin ON fin.tenant_id = i.tenant_id AND fin.uuid = i.uuid
    RETURNING tenant_id, delivery_uuid
)
SELECT i.uuid::uuid AS uuid,
       EXISTS (SELECT 1 FROM sub WHERE sub.tenant_id = i.tenant_id AND sub.uuid = i.subscription_uuid) AS healthy,
       EXISTS (SELECT 1 FROM att WHERE att.tenant_id = i.tenant_id AND att.delivery_uuid = i.uuid) AS finished
FROM input i;

-- name: RecordSubscriptionSuccess :exec
UPDATE webhook_subscriptions SET consecutive_failures = 0, failing_since = NULL
WHERE tenant_id = $1 AND uuid = $2 AND (consecutive_failures <> 0 OR failing_since IS NOT NULL);

-- name: RecordSubscriptionFailure :one
UPDATE webhook_subscriptions
SET consecutive_failures = consecutive_failures + 1, failing_since = coalesce(failing_since, @now::timestamptz)
WHERE tenant_id = @tenant_id AND uuid = @uuid
RETURNING *;

-- name: ListEventTypeDeprecations :many
SELECT name, deprecated_at, sunset_at FROM webhook_event_types WHERE deprecated_at IS NOT NULL;
