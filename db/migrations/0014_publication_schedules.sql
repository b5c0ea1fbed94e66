-- Publication schedules: a publish or unpublish of a product channel publication planned for
-- scheduled_at, run once by the scheduler (pending → executed or failed) or cancelled before.
-- Deleting the publication (or its product, which deletes its publications) deletes its schedules
-- (CASCADE). product_uuid is the publication's product, copied at creation (a publication never
-- changes product).
CREATE TABLE publication_schedules (
    tenant_id        text        NOT NULL,
    uuid             uuid        NOT NULL,
    product_uuid     uuid        NOT NULL,
    publication_uuid uuid        NOT NULL,
    transition       text        NOT NULL CHECK (transition IN ('publish', 'unpublish')),
    scheduled_at     timestamptz NOT NULL,
    status           text        NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'executed', 'failed', 'cancelled')),
    executed_at      timestamptz,
    failure_code     text,
    failure_reason   text,
    created_at       timestamptz NOT NULL,
    updated_at       timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, uuid),
    CONSTRAINT publication_schedules_publication_fkey FOREIGN KEY (tenant_id, publication_uuid)
        REFERENCES product_publications (tenant_id, uuid) ON DELETE CASCADE
);
CREATE INDEX publication_schedules_created ON publication_schedules (tenant_id, publication_uuid, created_at, uuid);
CREATE INDEX publication_schedules_updated ON publication_schedules (tenant_id, publication_uuid, updated_at, uuid);
CREATE INDEX publication_schedules_scheduled ON publication_schedules (tenant_id, publication_uuid, scheduled_at, uuid);
-- The scheduler's claim: due pending schedules of every tenant, oldest first.
CREATE INDEX publication_schedules_due ON publication_schedules (scheduled_at, tenant_id, uuid) WHERE status = 'pending';
