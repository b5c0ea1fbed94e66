-- The dispatcher's claim keeps its plans for the connection (issue 28: delivery latency behind a
-- transaction pooler).
--
-- Behind PgBouncer in transaction mode catalogd sends its statements unnamed (no prepared statement
-- may outlive its transaction there), so PostgreSQL plans each one at every call. ClaimDueDeliveries,
-- the statement the dispatcher runs most, costs 2.9 ms to plan and 1.3 ms to run
-- (pg_stat_statements with track_planning over bench/webhooks -scenario topology): at 1 000
-- deliveries/s the pooled run spent three times the database CPU of the direct one and fell behind
-- (p50 0.75-3.8 s against 6-7 ms directly). A PL/pgSQL function keeps the plans of its statements for
-- the server connection it runs on, whichever client transaction calls it, so the claim is now this
-- function, called by a trivial statement, and it takes the claims' lock itself (one round trip
-- less). On a direct connection it changes nothing but where the plan is kept. Its statement is
-- ClaimDueDeliveries' as it was (db/queries/webhooks.sql keeps the description of what it does).

-- The row a claim returns: a delivery with what sending it needs of its subscription. The function
-- returns rows of this view's type (sqlc reads a function's columns from a relation's type only).
CREATE VIEW claimed_deliveries AS
SELECT d.tenant_id, d.uuid, d.subscription_uuid, d.event_type, d.payload, d.attempts, d.cycle_start, d.created_at,
       d.traceparent, s.target_url, s.request_timeout_ms, s.secret_sealed, s.status AS subscription_status
FROM webhook_deliveries d JOIN webhook_subscriptions s ON s.tenant_id = d.tenant_id AND s.uuid = d.subscription_uuid;

CREATE FUNCTION claim_due_deliveries(p_per_subscription integer, p_per_tenant integer, p_max integer,
                                     p_lease_seconds double precision, p_lease_id uuid)
RETURNS SETOF claimed_deliveries
LANGUAGE plpgsql SET jit = off AS $$
BEGIN
    -- Claims run one at a time across replicas, so that the in-flight counts a claim reads are
    -- exact and the caps hold however many dispatchers there are (the lock was a statement of its
    -- own before the claim). The claim's statement, which comes after it, reads a snapshot taken
    -- once the lock is held (READ COMMITTED: each statement of a volatile function takes its own).
    PERFORM pg_advisory_xact_lock(hashtextextended('catalogd:webhook-claim', 0));
    RETURN QUERY
    WITH RECURSIVE params AS (
        SELECT p_per_subscription AS per_subscription, p_per_tenant AS per_tenant, p_max AS max_rows
    ),
    pending_subs AS (
        -- the subscriptions with pending deliveries: a skip scan of webhook_deliveries_pending
        (SELECT d.tenant_id, d.subscription_uuid FROM webhook_deliveries d
         WHERE d.status = 'pending'
         ORDER BY d.tenant_id, d.subscription_uuid LIMIT 1)
        UNION ALL
        SELECT n.tenant_id, n.subscription_uuid
        FROM pending_subs p CROSS JOIN LATERAL (
            SELECT d.tenant_id, d.subscription_uuid FROM webhook_deliveries d
            WHERE d.status = 'pending' AND (d.tenant_id, d.subscription_uuid) > (p.tenant_id, p.subscription_uuid)
            ORDER BY d.tenant_id, d.subscription_uuid LIMIT 1) n
    ),
    in_flight AS (
        -- from webhook_deliveries_leased: the lease's expiry is an aggregate FILTER, not a condition
        -- the planner could serve with webhook_deliveries_pending (a walk of the whole backlog)
        SELECT d.tenant_id, d.subscription_uuid, (count(*) FILTER (WHERE d.scheduled_at > now()))::integer AS n FROM webhook_deliveries d
        WHERE d.status = 'pending' AND d.lease_id IS NOT NULL
        GROUP BY d.tenant_id, d.subscription_uuid
    ),
    tenant_in_flight AS (
        -- from webhook_deliveries_leased: the lease's expiry is an aggregate FILTER, not a condition
        -- the planner could serve with webhook_deliveries_pending (a walk of the whole backlog)
        SELECT f.tenant_id, sum(f.n)::integer AS n FROM in_flight f GROUP BY f.tenant_id
    ),
    due_subs AS (
        SELECT p.tenant_id, p.subscription_uuid, o.oldest,
               (CASE WHEN s.consecutive_failures > 0 THEN 1 ELSE x.per_subscription END) - coalesce(f.n, 0) AS room
        FROM pending_subs p
        CROSS JOIN params x
        JOIN webhook_subscriptions s ON s.tenant_id = p.tenant_id AND s.uuid = p.subscription_uuid
        CROSS JOIN LATERAL (
            SELECT min(d.scheduled_at) AS oldest FROM webhook_deliveries d
            WHERE d.tenant_id = p.tenant_id AND d.subscription_uuid = p.subscription_uuid
              AND d.status = 'pending' AND d.scheduled_at <= now()) o
        LEFT JOIN in_flight f ON f.tenant_id = p.tenant_id AND f.subscription_uuid = p.subscription_uuid
        WHERE o.oldest IS NOT NULL
    ),
    ranked_subs AS (
        SELECT u.tenant_id, u.subscription_uuid, u.oldest, u.room,
               row_number() OVER (PARTITION BY u.tenant_id ORDER BY u.oldest, u.subscription_uuid) AS sub_rank
        FROM due_subs u WHERE u.room > 0
    ),
    picks AS (
        SELECT r.tenant_id, r.oldest, r.sub_rank, c.uuid, c.k
        FROM ranked_subs r CROSS JOIN LATERAL (
            SELECT x.uuid, row_number() OVER (ORDER BY x.scheduled_at) AS k FROM (
                SELECT d.uuid, d.scheduled_at FROM webhook_deliveries d
                WHERE d.tenant_id = r.tenant_id AND d.subscription_uuid = r.subscription_uuid
                  AND d.status = 'pending' AND d.scheduled_at <= now()
                ORDER BY d.scheduled_at LIMIT r.room) x) c
    ),
    tenant_picks AS (
        SELECT p.tenant_id, p.uuid, p.oldest,
               row_number() OVER (PARTITION BY p.tenant_id ORDER BY p.k, p.sub_rank) AS tk
        FROM picks p
    ),
    chosen AS (
        SELECT t.tenant_id, t.uuid FROM tenant_picks t
        CROSS JOIN params x
        LEFT JOIN tenant_in_flight ti ON ti.tenant_id = t.tenant_id
        WHERE t.tk <= x.per_tenant - coalesce(ti.n, 0)
        ORDER BY t.tk, t.oldest
        LIMIT (SELECT max_rows FROM params)
    ),
    due AS (
        -- Each chosen row is locked by its primary key alone, then checked to be still pending and
        -- due (the version locked: one finished meanwhile is locked but not claimed), and updated by
        -- its primary key. No partial index can serve these lookups: with the check in them, a generic
        -- plan made while the table was small looked each row up in webhook_deliveries_pending by
        -- tenant, a walk of the tenant's whole backlog per row. (LIMIT 1, one row by its key anyway,
        -- keeps the planner from moving the check into the lookup.)
        SELECT l.tenant_id, l.uuid FROM chosen c CROSS JOIN LATERAL (
            SELECT d.tenant_id, d.uuid, d.status, d.scheduled_at FROM webhook_deliveries d
            WHERE d.tenant_id = c.tenant_id AND d.uuid = c.uuid
            LIMIT 1 FOR UPDATE SKIP LOCKED) l
        WHERE l.status = 'pending' AND l.scheduled_at <= now()
    )
    UPDATE webhook_deliveries d
    SET scheduled_at = now() + make_interval(secs => p_lease_seconds), lease_id = p_lease_id
    FROM due, webhook_subscriptions s
    WHERE d.tenant_id = due.tenant_id AND d.uuid = due.uuid
      AND s.tenant_id = d.tenant_id AND s.uuid = d.subscription_uuid
    RETURNING d.tenant_id, d.uuid, d.subscription_uuid, d.event_type, d.payload, d.attempts, d.cycle_start, d.created_at,
              d.traceparent, s.target_url, s.request_timeout_ms, s.secret_sealed, s.status AS subscription_status;
END
$$;
