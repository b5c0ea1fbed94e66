-- Webhooks: the platform's event type catalog, subscriptions, and deliveries with their attempts.

-- Platform-managed (not per tenant): seeded from the code's event catalog at every migration.
CREATE TABLE webhook_event_types (
    uuid          uuid        PRIMARY KEY,
    name          text        NOT NULL UNIQUE,
    description   text        NOT NULL,
    deprecated_at timestamptz,
    sunset_at     timestamptz,
    created_at    timestamptz NOT NULL,
    updated_at    timestamptz NOT NULL
);
CREATE INDEX webhook_event_types_created ON webhook_event_types (created_at, uuid);

CREATE TABLE webhook_subscriptions (
    tenant_id            text        NOT NULL,
    uuid                 uuid        NOT NULL,
    display_name         text        NOT NULL,
    target_url           text        NOT NULL,
    request_timeout_ms   integer     NOT NULL DEFAULT 15000 CHECK (request_timeout_ms BETWEEN 1000 AND 30000),
    status               text        NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive', 'suspended')),
    -- AES-256-GCM nonce || ciphertext of the whsec_ secret.
    secret_sealed        bytea       NOT NULL,
    consecutive_failures integer     NOT NULL DEFAULT 0,
    -- First failed attempt since the last success (null while healthy).
    failing_since        timestamptz,
    suspended_at         timestamptz,
    created_at           timestamptz NOT NULL,
    updated_at           timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, uuid)
);
CREATE INDEX webhook_subscriptions_created ON webhook_subscriptions (tenant_id, created_at, uuid);

-- uuid is the event type's uuid: a subscription has each event type once.
CREATE TABLE webhook_subscription_event_types (
    tenant_id         text        NOT NULL,
    subscription_uuid uuid        NOT NULL,
    uuid              uuid        NOT NULL REFERENCES webhook_event_types (uuid),
    name              text        NOT NULL,
    created_at        timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, subscription_uuid, uuid),
    FOREIGN KEY (tenant_id, subscription_uuid) REFERENCES webhook_subscriptions (tenant_id, uuid) ON DELETE CASCADE
);
-- Fan-out looks subscriptions up by tenant and event name.
CREATE INDEX webhook_subscription_event_types_name ON webhook_subscription_event_types (tenant_id, name);

-- The delivery row is the queue: workers claim due pending rows (FOR UPDATE SKIP LOCKED), pushing
-- scheduled_at one lease ahead, so a crashed worker's delivery becomes due again after the lease.
CREATE TABLE webhook_deliveries (
    tenant_id         text        NOT NULL,
    uuid              uuid        NOT NULL,
    subscription_uuid uuid        NOT NULL,
    event_uuid        uuid        NOT NULL,
    event_type        text        NOT NULL,
    payload           jsonb       NOT NULL,
    status            text        NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts          integer     NOT NULL DEFAULT 0,
    -- attempts made before the current retry cycle (a manual redelivery starts a new cycle)
    cycle_start       integer     NOT NULL DEFAULT 0,
    last_status_code  integer,
    scheduled_at      timestamptz,
    lease_id          uuid,
    created_at        timestamptz NOT NULL,
    updated_at        timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, uuid),
    FOREIGN KEY (tenant_id, subscription_uuid) REFERENCES webhook_subscriptions (tenant_id, uuid) ON DELETE CASCADE
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (scheduled_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_subscription ON webhook_deliveries (tenant_id, subscription_uuid, created_at, uuid);

CREATE TABLE webhook_delivery_attempts (
    tenant_id        text        NOT NULL,
    uuid             uuid        NOT NULL,
    delivery_uuid    uuid        NOT NULL,
    status_code      integer,
    response_body    text        NOT NULL,
    response_time_ms integer     NOT NULL,
    error            text,
    created_at       timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, uuid),
    FOREIGN KEY (tenant_id, delivery_uuid) REFERENCES webhook_deliveries (tenant_id, uuid) ON DELETE CASCADE
);
CREATE INDEX webhook_delivery_attempts_delivery ON webhook_delivery_attempts (tenant_id, delivery_uuid, created_at, uuid);
