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
UPDATE webhook_subscriptions
SET display_name = coalesce(sqlc.narg('display_name'), display_name),
    target_url = coalesce(sqlc.narg('target_url'), target_url),
    request_timeout_ms = coalesce(sqlc.narg('request_timeout_ms'), request_timeout_ms),
    updated_at = @now
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

-- name: DeleteSubscriptionEventType :execrows
DELETE FROM webhook_subscription_event_types WHERE tenant_id = $1 AND subscription_uuid = $2 AND uuid = $3;

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
-- Takes up to @max due deliveries for one dispatcher: rows locked by another dispatcher are
-- skipped, and claimed rows are pushed one lease ahead, so a crash re-sends them after the lease.
WITH due AS (
    SELECT d.tenant_id, d.uuid FROM webhook_deliveries d
    WHERE d.status = 'pending' AND d.scheduled_at <= now()
    ORDER BY d.scheduled_at
    LIMIT @max
    FOR UPDATE SKIP LOCKED
)
UPDATE webhook_deliveries d
SET scheduled_at = now() + make_interval(secs => @lease_seconds::double precision), lease_id = @lease_id
FROM due, webhook_subscriptions s
WHERE d.tenant_id = due.tenant_id AND d.uuid = due.uuid
  AND s.tenant_id = d.tenant_id AND s.uuid = d.subscription_uuid
RETURNING d.tenant_id, d.uuid, d.subscription_uuid, d.event_type, d.payload, d.attempts, d.cycle_start,
          s.target_url, s.request_timeout_ms, s.secret_sealed, s.status AS subscription_status;

-- name: NextDueDelivery :one
SELECT min(scheduled_at)::timestamptz FROM webhook_deliveries WHERE status = 'pending';

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
