-- Asset files of the API (server/catalog/asset_files.go). The background work on them (renditions,
-- expiry, blob deletions) is in asset_file_workers.sql.

-- name: GetAssetFile :one
SELECT * FROM asset_files WHERE tenant_id = $1 AND asset_uuid = $2 AND uuid = $3;

-- name: InsertAssetFiles :many
-- Initiate: one statement for a whole bulk of pending files, each with the expiry of its own
-- upload URL. has_checksums[i] false stores a null checksum for item i.
INSERT INTO asset_files (tenant_id, uuid, asset_uuid, kind, status, file_name, content_type, size_bytes,
                         checksum_sha256, storage_key, upload_expires_at, created_at, updated_at)
SELECT @tenant_id, u.uuid, u.asset_uuid, u.kind, 'pending', u.file_name, u.content_type, u.size_bytes,
       CASE WHEN u.has_checksum THEN u.checksum END, u.storage_key, u.expires_at,
       @now::timestamptz, @now::timestamptz
FROM (SELECT unnest(@uuids::uuid[]) AS uuid, unnest(@asset_uuids::uuid[]) AS asset_uuid,
             unnest(@kinds::text[]) AS kind, unnest(@file_names::text[]) AS file_name,
             unnest(@content_types::text[]) AS content_type, unnest(@sizes::bigint[]) AS size_bytes,
             unnest(@checksums::text[]) AS checksum, unnest(@has_checksums::boolean[]) AS has_checksum,
             unnest(@storage_keys::text[]) AS storage_key, unnest(@expires_ats::timestamptz[]) AS expires_at) AS u
RETURNING *;

-- name: LockAssetFiles :many
-- Complete: the files of uuids in the tenant, locked until the transaction ends (the expiry sweep
-- and a concurrent complete or delete wait, then see the outcome).
SELECT * FROM asset_files WHERE tenant_id = @tenant_id AND uuid = ANY(@uuids::uuid[])
ORDER BY uuid
FOR UPDATE;

-- name: ListAssetFilesByUuids :many
SELECT * FROM asset_files WHERE tenant_id = @tenant_id AND uuid = ANY(@uuids::uuid[]);

-- name: MarkAssetFilesUploaded :many
-- Complete succeeded: the verified checksum and, for images, the pixel size (0: not an image,
-- stored as null). The staging key is queued for deletion once the upload URL has expired: a PUT
-- after complete may still write it, and nothing else would remove it (migration 0018).
WITH done AS (
    UPDATE asset_files f
    SET status = 'uploaded', checksum_sha256 = u.checksum, width = nullif(u.width, 0), height = nullif(u.height, 0), updated_at = @now
    FROM (SELECT unnest(@uuids::uuid[]) AS uuid, unnest(@checksums::text[]) AS checksum,
                 unnest(@widths::integer[]) AS width, unnest(@heights::integer[]) AS height) AS u
    WHERE f.tenant_id = @tenant_id AND f.uuid = u.uuid AND f.status = 'pending'
    RETURNING f.*
), staging AS (
    -- Twice, as in the trigger: a slow PUT to S3 begun before the expiry may land after it.
    INSERT INTO blob_deletions (storage_key, not_before)
    SELECT storage_key || '.upload', greatest(now(), upload_expires_at + interval '1 minute') + d
    FROM done, (VALUES (interval '0'), (interval '1 day')) AS later(d)
)
SELECT * FROM done;

-- name: MarkAssetFilesFailed :many
-- Complete refused: the file is failed with its reason; the trigger of migration 0018 queues its
-- objects for deletion once the signed URL has expired.
UPDATE asset_files f
SET status = 'failed', failure_reason = u.reason, updated_at = @now
FROM (SELECT unnest(@uuids::uuid[]) AS uuid, unnest(@reasons::text[]) AS reason) AS u
WHERE f.tenant_id = @tenant_id AND f.uuid = u.uuid AND f.status = 'pending'
RETURNING f.*;

-- name: EnqueueRenditionJobs :exec
-- Renditions to make of uploaded image originals (server/assetfiles claims them).
INSERT INTO rendition_jobs (tenant_id, file_uuid, not_before, created_at)
SELECT @tenant_id, unnest(@file_uuids::uuid[]), @now::timestamptz, @now::timestamptz
ON CONFLICT DO NOTHING;

-- name: DeleteAssetFile :many
-- Deletes a file and, when it is an original, its renditions in the same statement; returns every
-- deleted uuid (one event each). The trigger of migration 0018 queues their objects for deletion.
DELETE FROM asset_files
WHERE tenant_id = @tenant_id AND asset_uuid = @asset_uuid AND (uuid = @uuid OR source_file_uuid = @uuid)
RETURNING *;

-- name: AssetFileUuidsOfAsset :many
-- The files an asset's deletion deletes with it (one asset.file.deleted each).
SELECT * FROM asset_files WHERE tenant_id = $1 AND asset_uuid = $2 ORDER BY created_at, uuid;
