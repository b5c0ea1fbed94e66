-- History (API.md "History (who changed what)", docs/design.md "History"): one entry per resource
-- a write changed, written in the writing transaction by the shared write machinery (server/crud,
-- server/history) beside its events. resource_type is the event type's resource ("product",
-- "product.input_value"), parent_uuids the path parameters above the resource in path order (as
-- in event payloads), actor {"subject", "clientId"} (or {"subject": "system"}, or with
-- "importUuid"), changes an array of {"field", "before", "after"} in the API's JSON names and
-- shapes. Entries are immutable; retention deletes them after CATALOG_HISTORY_RETENTION.
CREATE TABLE history (
    tenant_id     text        NOT NULL,
    uuid          uuid        NOT NULL,
    resource_type text        NOT NULL,
    resource_uuid uuid        NOT NULL,
    parent_uuids  uuid[]      NOT NULL,
    -- The top of the resource's path: its first parent, else itself. A product's entries and those
    -- of everything under it (values, links, publications, their schedules) share it, so one index
    -- range serves GET /v1/products/{productUuid}/history.
    root_uuid     uuid        GENERATED ALWAYS AS (COALESCE(parent_uuids[1], resource_uuid)) STORED,
    action        text        NOT NULL,
    actor         jsonb       NOT NULL,
    -- actors[eq] filters on the subject.
    actor_subject text        GENERATED ALWAYS AS (actor ->> 'subject') STORED,
    changes       jsonb       NOT NULL,
    request_id    text,
    created_at    timestamptz NOT NULL,
    -- Entry uuids are v7 (time-ordered): retention deletes a range of the primary key per tenant,
    -- as it does for events.
    PRIMARY KEY (tenant_id, uuid)
);

-- Newest-first keyset pages: per tenant, per resource, per product (root) and per parent.
CREATE INDEX history_created ON history (tenant_id, created_at, uuid);
CREATE INDEX history_resource ON history (tenant_id, resource_uuid, created_at, uuid);
CREATE INDEX history_root ON history (tenant_id, root_uuid, created_at, uuid);
-- Partial: a top-level resource's entries (no parents) have nothing to find here, and skip the
-- GIN insert (parentUuids[eq] names the predicate: server/history.List).
CREATE INDEX history_parents ON history USING gin (parent_uuids) WHERE cardinality(parent_uuids) > 0;

-- The actor of an import's lines: who created the import (API.md: imports name the import).
ALTER TABLE imports ADD COLUMN actor jsonb;
