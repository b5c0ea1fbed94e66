-- Asset files (API.md "Assets"): the originals clients upload in two steps (initiate, transfer to a
-- pre-signed URL, complete) and the renditions catalogd makes of image originals. The bytes live in
-- the blob store (server/blobstore) under storage_key; these rows are what the API shows.
--
-- A file is `pending` from initiate until complete; complete makes it `uploaded` (object present with
-- the declared size and checksum) or `failed`; a pending file past upload_expires_at is failed by the
-- expiry sweep (server/assetfiles). Renditions are inserted `uploaded` by the rendition workers and
-- name their original in source_file_uuid; deleting the original deletes them (CASCADE), deleting the
-- asset deletes every file (CASCADE).
CREATE TABLE asset_files (
    tenant_id         text        NOT NULL,
    uuid              uuid        NOT NULL,
    asset_uuid        uuid        NOT NULL,
    kind              text        NOT NULL CHECK (kind IN ('original', 'thumbnail', 'web_optimized')),
    status            text        NOT NULL CHECK (status IN ('pending', 'uploaded', 'failed')),
    file_name         text        NOT NULL,
    content_type      text        NOT NULL,
    size_bytes        bigint      NOT NULL CHECK (size_bytes >= 0),
    -- Declared at initiate (optional), else filled at complete from the stored object.
    checksum_sha256   text CHECK (checksum_sha256 ~ '^[0-9a-f]{64}$'),
    width             integer,
    height            integer,
    storage_key       text        NOT NULL,
    -- When the upload URL stops working; null for renditions (never uploaded by a client).
    upload_expires_at timestamptz,
    source_file_uuid  uuid,
    failure_reason    text,
    created_at        timestamptz NOT NULL,
    updated_at        timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, uuid),
    CONSTRAINT asset_files_storage_key UNIQUE (storage_key),
    CONSTRAINT asset_files_asset_fkey FOREIGN KEY (tenant_id, asset_uuid)
        REFERENCES assets (tenant_id, uuid) ON DELETE CASCADE,
    CONSTRAINT asset_files_source_fkey FOREIGN KEY (tenant_id, source_file_uuid)
        REFERENCES asset_files (tenant_id, uuid) ON DELETE CASCADE,
    -- One rendition of each kind per original (a rendition worker that runs twice inserts once).
    CONSTRAINT asset_files_rendition_key UNIQUE (tenant_id, source_file_uuid, kind)
);
CREATE INDEX asset_files_created ON asset_files (tenant_id, asset_uuid, created_at, uuid);
CREATE INDEX asset_files_updated ON asset_files (tenant_id, asset_uuid, updated_at, uuid);
CREATE INDEX asset_files_source ON asset_files (tenant_id, source_file_uuid) WHERE source_file_uuid IS NOT NULL;
-- The expiry sweep's range: only pending files have an entry.
CREATE INDEX asset_files_pending_expiry ON asset_files (upload_expires_at) WHERE status = 'pending';

-- Objects to remove from the blob store. A blob cannot be deleted in a database transaction, so
-- every write that lets go of an object adds its key here in the same transaction (the triggers
-- below: a file deleted, or failed by complete or by the expiry sweep), and the blob collector
-- (server/assetfiles) deletes the objects and then the rows: no acknowledged delete can leave its
-- blob behind, whatever crashes. A file has two keys: storage_key, and the staging object its
-- upload URL writes (storage_key || '.upload', moved to storage_key by complete). not_before
-- holds the deletion of a pending upload's keys until its signed URL has expired, so a PUT still
-- in flight cannot recreate an object after it was removed.
CREATE TABLE blob_deletions (
    id          bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    storage_key text        NOT NULL,
    not_before  timestamptz NOT NULL,
    attempts    integer     NOT NULL DEFAULT 0,
    lease_until timestamptz
);
CREATE INDEX blob_deletions_due ON blob_deletions (not_before);

-- The keys of a file that is deleted or fails. The staging key can be written until the upload
-- URL expires, and so can the key itself by a complete that moved the staging object while the
-- file was being failed or deleted: both wait for the expiry (plus a minute) unless the file was
-- uploaded (its key is then never written again and goes at once).
CREATE FUNCTION asset_files_release_blob() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    after_expiry timestamptz := greatest(now(), coalesce(OLD.upload_expires_at + interval '1 minute', now()));
BEGIN
    INSERT INTO blob_deletions (storage_key, not_before)
    VALUES (OLD.storage_key, CASE WHEN OLD.status = 'uploaded' THEN now() ELSE after_expiry END);
    IF OLD.upload_expires_at IS NOT NULL THEN -- uploaded by a client: it has a staging key
        -- Twice: S3 checks a pre-signed URL's expiry when a PUT starts, so a slow PUT begun just
        -- before it can land after the first deletion (catalogd's own store refuses it).
        INSERT INTO blob_deletions (storage_key, not_before)
        VALUES (OLD.storage_key || '.upload', after_expiry), (OLD.storage_key || '.upload', after_expiry + interval '1 day');
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER asset_files_release_blob AFTER DELETE ON asset_files
    FOR EACH ROW EXECUTE FUNCTION asset_files_release_blob();
CREATE TRIGGER asset_files_release_failed_blob AFTER UPDATE OF status ON asset_files
    FOR EACH ROW WHEN (NEW.status = 'failed' AND OLD.status <> 'failed')
    EXECUTE FUNCTION asset_files_release_blob();

-- Renditions still to make: one row per uploaded image original, claimed by the rendition workers of
-- every replica with a lease (like webhook deliveries): a worker that dies mid-rendition leaves the
-- row to be claimed again when its lease ends. The row goes when the renditions exist, or when they
-- cannot be made (not an image catalogd decodes, over 100 megapixels, attempts exhausted).
CREATE TABLE rendition_jobs (
    tenant_id   text        NOT NULL,
    file_uuid   uuid        NOT NULL,
    attempts    integer     NOT NULL DEFAULT 0,
    not_before  timestamptz NOT NULL,
    lease_until timestamptz,
    last_error  text,
    created_at  timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, file_uuid),
    CONSTRAINT rendition_jobs_file_fkey FOREIGN KEY (tenant_id, file_uuid)
        REFERENCES asset_files (tenant_id, uuid) ON DELETE CASCADE
);
CREATE INDEX rendition_jobs_due ON rendition_jobs (not_before);

-- The asset-file events are created, uploaded, failed and deleted (API.md); the catalog's earlier
-- asset.file.updated was never emitted (no operation changes a file) and leaves the catalog, with
-- any subscription to it.
DELETE FROM webhook_subscription_event_types WHERE name = 'asset.file.updated';
DELETE FROM webhook_event_types WHERE name = 'asset.file.updated';
