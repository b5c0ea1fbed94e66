-- Import and export jobs (API.md "Import and export (jobs)", server/transfer, docs/design.md
-- "Import and export jobs"). The files live in the blob store under storage_key; the workers of
-- every replica claim jobs with a lease (lease_id, lease_until) like the other background work.

CREATE TABLE imports (
    tenant_id        text        NOT NULL,
    uuid             uuid        NOT NULL,
    format           text        NOT NULL CHECK (format IN ('ndjson', 'csv')),
    dry_run          boolean     NOT NULL,
    file_name        text,
    size_bytes       bigint      NOT NULL CHECK (size_bytes >= 0),
    checksum_sha256  text CHECK (checksum_sha256 ~ '^[0-9a-f]{64}$'),
    storage_key      text        NOT NULL,
    status           text        NOT NULL CHECK (status IN ('awaiting_upload', 'queued', 'running', 'completed', 'failed', 'cancelled')),
    upload_expires_at timestamptz,
    -- Progress, committed with each line: bytes_read is where the next line starts (a resumed
    -- job reads on from there), lines_read its number minus one.
    bytes_read       bigint      NOT NULL DEFAULT 0,
    lines_read       bigint      NOT NULL DEFAULT 0,
    created_count    bigint      NOT NULL DEFAULT 0,
    updated_count    bigint      NOT NULL DEFAULT 0,
    unchanged_count  bigint      NOT NULL DEFAULT 0,
    failed_count     bigint      NOT NULL DEFAULT 0,
    started_at       timestamptz,
    finished_at      timestamptz,
    failure_reason   text,
    -- The claim of the worker running it: every write of the worker requires its lease_id, and a
    -- lease not renewed by lease_until lets another worker take the import over.
    lease_id         uuid,
    lease_until      timestamptz,
    created_at       timestamptz NOT NULL,
    updated_at       timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, uuid),
    CONSTRAINT imports_storage_key UNIQUE (storage_key)
);
CREATE INDEX imports_created ON imports (tenant_id, created_at, uuid);
CREATE INDEX imports_updated ON imports (tenant_id, updated_at, uuid);
-- One running import per tenant.
CREATE UNIQUE INDEX imports_one_running ON imports (tenant_id) WHERE status = 'running';
-- The workers' queue: only waiting and running imports have an entry.
CREATE INDEX imports_queue ON imports (created_at) WHERE status IN ('queued', 'running');
CREATE INDEX imports_finished ON imports (finished_at) WHERE finished_at IS NOT NULL;

-- The lines of an import that failed, with their reasons.
CREATE TABLE import_lines (
    tenant_id   text        NOT NULL,
    uuid        uuid        NOT NULL,
    import_uuid uuid        NOT NULL,
    line        bigint      NOT NULL,
    type        text,
    code        text,
    status      text        NOT NULL CHECK (status IN ('failed')),
    errors      jsonb       NOT NULL,
    created_at  timestamptz NOT NULL,
    updated_at  timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, uuid),
    CONSTRAINT import_lines_line UNIQUE (tenant_id, import_uuid, line),
    CONSTRAINT import_lines_import_fkey FOREIGN KEY (tenant_id, import_uuid)
        REFERENCES imports (tenant_id, uuid) ON DELETE CASCADE
);
CREATE INDEX import_lines_created ON import_lines (tenant_id, import_uuid, created_at, uuid);

-- Lines that referred to codes the file had not defined yet: applied again once the file is read,
-- pass after pass. Kept in the database (with the progress that skipped them) so that a worker
-- taking a killed one's import over has them too.
CREATE TABLE import_deferred (
    tenant_id   text   NOT NULL,
    import_uuid uuid   NOT NULL,
    line        bigint NOT NULL,
    raw         bytea  NOT NULL,
    PRIMARY KEY (tenant_id, import_uuid, line),
    CONSTRAINT import_deferred_import_fkey FOREIGN KEY (tenant_id, import_uuid)
        REFERENCES imports (tenant_id, uuid) ON DELETE CASCADE
);

CREATE TABLE exports (
    tenant_id       text        NOT NULL,
    uuid            uuid        NOT NULL,
    format          text        NOT NULL CHECK (format IN ('ndjson', 'csv')),
    types           text[]      NOT NULL,
    product_filter  jsonb,
    gzip            boolean     NOT NULL,
    storage_key     text        NOT NULL,
    status          text        NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed', 'cancelled')),
    item_count      bigint      NOT NULL DEFAULT 0,
    size_bytes      bigint      NOT NULL DEFAULT 0,
    checksum_sha256 text CHECK (checksum_sha256 ~ '^[0-9a-f]{64}$'),
    started_at      timestamptz,
    finished_at     timestamptz,
    failure_reason  text,
    lease_id        uuid,
    lease_until     timestamptz,
    created_at      timestamptz NOT NULL,
    updated_at      timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, uuid),
    CONSTRAINT exports_storage_key UNIQUE (storage_key)
);
CREATE INDEX exports_created ON exports (tenant_id, created_at, uuid);
CREATE INDEX exports_updated ON exports (tenant_id, updated_at, uuid);
CREATE INDEX exports_queue ON exports (created_at) WHERE status IN ('queued', 'running');
CREATE INDEX exports_finished ON exports (finished_at) WHERE finished_at IS NOT NULL;

-- A job's file goes with its row (retention, or a failed upload): its key, and an import's upload
-- staging key, are queued for the blob collector (blob_deletions, migration 0018).
CREATE FUNCTION transfer_jobs_release_blob() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO blob_deletions (storage_key, not_before) VALUES (OLD.storage_key, now());
    IF TG_TABLE_NAME = 'imports' THEN
        INSERT INTO blob_deletions (storage_key, not_before)
        VALUES (OLD.storage_key || '.upload', greatest(now(), coalesce(OLD.upload_expires_at + interval '1 minute', now())));
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER imports_release_blob AFTER DELETE ON imports
    FOR EACH ROW EXECUTE FUNCTION transfer_jobs_release_blob();
CREATE TRIGGER exports_release_blob AFTER DELETE ON exports
    FOR EACH ROW EXECUTE FUNCTION transfer_jobs_release_blob();
