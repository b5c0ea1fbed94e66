-- The background work on asset files (server/assetfiles): rendition jobs, the expiry of pending
-- uploads and the blob collector. Every replica runs it: claims skip rows another replica holds
-- (FOR UPDATE SKIP LOCKED) and push what they take one lease ahead (not_before), so a replica that
-- dies leaves its rows to be claimed again when the lease ends. Leases and due times are on the
-- database's clock (now()), row and event timestamps on the caller's (@now, store.NowFor).

-- name: ClaimRenditionJobs :many
-- Takes up to @max due rendition jobs, oldest first, with their original. attempts counts the
-- claim; lease_until identifies it (the worker's later writes on the job require it unchanged).
WITH due AS (
    SELECT tenant_id, file_uuid FROM rendition_jobs
    WHERE not_before <= now()
    ORDER BY not_before
    LIMIT @max::integer
    FOR UPDATE SKIP LOCKED
)
UPDATE rendition_jobs j
SET attempts = j.attempts + 1,
    not_before = now() + make_interval(secs => @lease_seconds::double precision),
    lease_until = now() + make_interval(secs => @lease_seconds::double precision)
FROM due, asset_files f
WHERE j.tenant_id = due.tenant_id AND j.file_uuid = due.file_uuid
  AND f.tenant_id = j.tenant_id AND f.uuid = j.file_uuid
RETURNING j.tenant_id, j.file_uuid, j.attempts, j.lease_until::timestamptz AS lease_until,
          f.asset_uuid, f.kind, f.status, f.file_name, f.storage_key;

-- name: RetryRenditionJob :execrows
-- A transient failure: the job is due again after @delay_seconds, with its error.
UPDATE rendition_jobs
SET not_before = now() + make_interval(secs => @delay_seconds::double precision), lease_until = NULL,
    last_error = @last_error::text
WHERE tenant_id = @tenant_id AND file_uuid = @file_uuid AND lease_until = @lease_until::timestamptz;

-- name: ReleaseRenditionJob :execrows
-- A rendition cut by shutdown: due again at once, the claim not counted as an attempt.
UPDATE rendition_jobs
SET not_before = now(), lease_until = NULL, attempts = greatest(attempts - 1, 0)
WHERE tenant_id = @tenant_id AND file_uuid = @file_uuid AND lease_until = @lease_until::timestamptz;

-- name: DropRenditionJob :execrows
-- No renditions will be made (not a decodable image, too large, attempts exhausted, not an
-- uploaded original).
DELETE FROM rendition_jobs
WHERE tenant_id = @tenant_id AND file_uuid = @file_uuid AND lease_until = @lease_until::timestamptz;

-- name: LockRenditionSource :one
-- The original of a job about to get its renditions, and its asset, share-locked so that their
-- deletion waits for the renditions' commit (and then deletes them too) instead of deadlocking
-- with it: a deletion locks the asset, then the original, then cascades to the job; so does the
-- worker (asset, original, then it deletes the job).
SELECT f.status, f.kind
FROM assets a JOIN asset_files f ON f.tenant_id = a.tenant_id AND f.asset_uuid = a.uuid
WHERE f.tenant_id = @tenant_id AND f.uuid = @uuid
FOR KEY SHARE;

-- name: FinishRenditionJob :execrows
-- The renditions are being committed: the job goes, whoever holds its lease (0 rows: another
-- worker finished it first, or the original was deleted).
DELETE FROM rendition_jobs WHERE tenant_id = @tenant_id AND file_uuid = @file_uuid;

-- name: InsertRenditions :many
-- The renditions of one original, uploaded; a kind the original already has is skipped (the
-- unique key asset_files_rendition_key), so a rendition is never made twice.
INSERT INTO asset_files (tenant_id, uuid, asset_uuid, kind, status, file_name, content_type, size_bytes,
                         checksum_sha256, width, height, storage_key, source_file_uuid, created_at, updated_at)
SELECT @tenant_id, u.uuid, @asset_uuid, u.kind, 'uploaded', u.file_name, u.content_type, u.size_bytes,
       u.checksum, u.width, u.height, u.storage_key, @source_file_uuid, @now::timestamptz, @now::timestamptz
FROM (SELECT unnest(@uuids::uuid[]) AS uuid, unnest(@kinds::text[]) AS kind,
             unnest(@file_names::text[]) AS file_name, unnest(@content_types::text[]) AS content_type,
             unnest(@sizes::bigint[]) AS size_bytes, unnest(@checksums::text[]) AS checksum,
             unnest(@widths::integer[]) AS width, unnest(@heights::integer[]) AS height,
             unnest(@storage_keys::text[]) AS storage_key) AS u
ON CONFLICT ON CONSTRAINT asset_files_rendition_key DO NOTHING
RETURNING *;

-- name: InsertBlobIntents :many
-- Before a worker writes objects: their keys, queued for deletion @hold_seconds from now. The
-- commit that makes them asset files takes them out of the queue again (DeleteBlobIntents); if
-- the worker dies first, the blob collector deletes the orphans once the hold has passed.
INSERT INTO blob_deletions (storage_key, not_before)
SELECT unnest(@storage_keys::text[]), now() + make_interval(secs => @hold_seconds::double precision)
RETURNING id;

-- name: DeleteBlobIntents :execrows
-- Takes intents out of the queue, unless the collector has claimed them (attempts > 0: it may be
-- deleting the objects now); the caller compares the count with what it asked for.
DELETE FROM blob_deletions WHERE id = ANY(@ids::bigint[]) AND attempts = 0;

-- name: ExpireAssetFiles :many
-- Fails up to @max pending files whose upload URL expired before @now and returns them for their
-- events; the trigger of migration 0018 queues their objects for deletion (once the signed URL can
-- no longer write them). Files being completed (locked) are skipped; the next run sees them.
WITH due AS (
    SELECT tenant_id, uuid FROM asset_files
    WHERE status = 'pending' AND upload_expires_at <= @now::timestamptz
    ORDER BY upload_expires_at
    LIMIT @max::integer
    FOR UPDATE SKIP LOCKED
)
UPDATE asset_files f
SET status = 'failed', failure_reason = 'upload expired', updated_at = @now::timestamptz
FROM due
WHERE f.tenant_id = due.tenant_id AND f.uuid = due.uuid AND f.status = 'pending'
RETURNING f.*;

-- name: ClaimBlobDeletions :many
-- Takes up to @max due objects to delete. in_use is true when a live asset file (pending or
-- uploaded) still names the key: never the case by construction, but an object a file still
-- needs must never be deleted, so the collector then drops the row and keeps the object.
WITH due AS (
    SELECT id FROM blob_deletions
    WHERE not_before <= now()
    ORDER BY not_before
    LIMIT @max::integer
    FOR UPDATE SKIP LOCKED
)
UPDATE blob_deletions b
SET attempts = b.attempts + 1,
    not_before = now() + make_interval(secs => @lease_seconds::double precision),
    lease_until = now() + make_interval(secs => @lease_seconds::double precision)
FROM due
WHERE b.id = due.id
RETURNING b.id, b.storage_key, b.attempts,
          EXISTS (SELECT 1 FROM asset_files f WHERE f.storage_key = b.storage_key AND f.status <> 'failed') AS in_use;

-- name: DeleteBlobDeletions :exec
DELETE FROM blob_deletions WHERE id = ANY(@ids::bigint[]);

-- name: RetryBlobDeletion :exec
-- The store refused a deletion: try again after @delay_seconds.
UPDATE blob_deletions
SET not_before = now() + make_interval(secs => @delay_seconds::double precision)
WHERE id = @id;
