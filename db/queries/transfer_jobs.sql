-- Import and export jobs (server/transfer jobs.go). Leases and due times are on the database's
-- clock (now()), row and event timestamps on the caller's (@now::timestamptz). Every write of a worker names
-- its lease (lease_id): a worker whose import was taken over, or cancelled, changes nothing.

-- name: InsertImport :one
INSERT INTO imports (tenant_id, uuid, format, dry_run, file_name, size_bytes, checksum_sha256, storage_key,
                     status, upload_expires_at, created_at, updated_at, actor)
VALUES (@tenant_id, @uuid, @format, @dry_run, sqlc.narg(file_name), @size_bytes, sqlc.narg(checksum_sha256), @storage_key,
        @status, sqlc.narg(upload_expires_at), @now::timestamptz, @now::timestamptz, @actor::jsonb)
RETURNING *;

-- name: GetImport :one
SELECT * FROM imports WHERE tenant_id = @tenant_id AND uuid = @uuid;

-- name: LockImport :one
SELECT * FROM imports WHERE tenant_id = @tenant_id AND uuid = @uuid FOR UPDATE;

-- name: SetImportStatus :one
-- A move by the API (start, cancel, a failed start): a job leaving the queue loses its lease, and a
-- final status is stamped finished.
UPDATE imports
SET status = @status, checksum_sha256 = coalesce(sqlc.narg(checksum_sha256), checksum_sha256),
    failure_reason = sqlc.narg(failure_reason), updated_at = @now::timestamptz,
    finished_at = CASE WHEN @status IN ('completed', 'failed', 'cancelled') THEN @now::timestamptz END,
    lease_id = CASE WHEN @status IN ('queued', 'running') THEN lease_id END,
    lease_until = CASE WHEN @status IN ('queued', 'running') THEN lease_until END
WHERE tenant_id = @tenant_id AND uuid = @uuid
RETURNING *;

-- name: ClaimImport :one
-- Takes one import to run: a running one whose worker's lease ended (taken over where it stopped),
-- else a queued one of a tenant that has none running (one running import per tenant, the unique
-- index imports_one_running). Fair across tenants: the tenant whose last import started longest
-- ago goes first, then the oldest import.
WITH next AS (
    SELECT i.tenant_id, i.uuid FROM imports i
    WHERE (i.status = 'running' AND i.lease_until < now())
       OR (i.status = 'queued' AND NOT EXISTS (
               SELECT 1 FROM imports r WHERE r.tenant_id = i.tenant_id AND r.status = 'running'))
    ORDER BY (i.status = 'running') DESC,
             (SELECT max(s.started_at) FROM imports s WHERE s.tenant_id = i.tenant_id) ASC NULLS FIRST,
             i.created_at, i.uuid
    LIMIT 1
    FOR UPDATE SKIP LOCKED
)
UPDATE imports i
SET status = 'running', lease_id = @lease_id,
    lease_until = now() + make_interval(secs => @lease_seconds::double precision),
    started_at = coalesce(i.started_at, @now::timestamptz), updated_at = @now::timestamptz
FROM next
WHERE i.tenant_id = next.tenant_id AND i.uuid = next.uuid
RETURNING i.*;

-- name: CheckpointImport :execrows
-- Commits the progress of the lines applied in the same transaction and renews the lease; 0 rows:
-- the import was cancelled or taken over, and the transaction must roll back.
UPDATE imports
SET bytes_read = @bytes_read, lines_read = @lines_read,
    created_count = created_count + @created::bigint, updated_count = updated_count + @updated::bigint,
    unchanged_count = unchanged_count + @unchanged::bigint, failed_count = failed_count + @failed::bigint,
    lease_until = now() + make_interval(secs => @lease_seconds::double precision), updated_at = @now::timestamptz
WHERE tenant_id = @tenant_id AND uuid = @uuid AND lease_id = @lease_id AND status = 'running';

-- name: FinishImport :one
-- The worker's end of an import: completed, or failed with the file's reason.
UPDATE imports
SET status = @status, failure_reason = sqlc.narg(failure_reason), finished_at = @now::timestamptz, updated_at = @now::timestamptz,
    lease_id = NULL, lease_until = NULL
WHERE tenant_id = @tenant_id AND uuid = @uuid AND lease_id = @lease_id AND status = 'running'
RETURNING *;

-- name: ReleaseImport :execrows
-- A worker stopping (shutdown) gives its import back: another takes it over at once.
UPDATE imports SET lease_until = now() - interval '1 second'
WHERE tenant_id = @tenant_id AND uuid = @uuid AND lease_id = @lease_id AND status = 'running';

-- name: InsertImportLine :exec
INSERT INTO import_lines (tenant_id, uuid, import_uuid, line, type, code, status, errors, created_at, updated_at)
VALUES (@tenant_id, @uuid, @import_uuid, @line, sqlc.narg(type), sqlc.narg(code), 'failed', @errors, @now::timestamptz, @now::timestamptz);

-- name: GetImportLine :one
SELECT * FROM import_lines WHERE tenant_id = @tenant_id AND import_uuid = @import_uuid AND uuid = @uuid;

-- name: InsertImportDeferred :exec
INSERT INTO import_deferred (tenant_id, import_uuid, line, raw) VALUES (@tenant_id, @import_uuid, @line, @raw);

-- name: ListImportDeferred :many
-- The deferred lines after @after_line, in line order.
SELECT line, raw FROM import_deferred
WHERE tenant_id = @tenant_id AND import_uuid = @import_uuid AND line > @after_line
ORDER BY line LIMIT @max;

-- name: DeleteImportDeferred :execrows
DELETE FROM import_deferred WHERE tenant_id = @tenant_id AND import_uuid = @import_uuid AND line = @line;

-- name: InsertExport :one
INSERT INTO exports (tenant_id, uuid, format, types, product_filter, gzip, storage_key, status, created_at, updated_at)
VALUES (@tenant_id, @uuid, @format, @types, sqlc.narg(product_filter), @gzip, @storage_key, 'queued', @now::timestamptz, @now::timestamptz)
RETURNING *;

-- name: GetExport :one
SELECT * FROM exports WHERE tenant_id = @tenant_id AND uuid = @uuid;

-- name: LockExport :one
SELECT * FROM exports WHERE tenant_id = @tenant_id AND uuid = @uuid FOR UPDATE;

-- name: CancelExport :one
UPDATE exports SET status = 'cancelled', finished_at = @now::timestamptz, updated_at = @now::timestamptz, lease_id = NULL, lease_until = NULL
WHERE tenant_id = @tenant_id AND uuid = @uuid
RETURNING *;

-- name: ClaimExport :one
-- Takes one export to run: queued, or running with its worker's lease ended (an export is written
-- again from the start). Fair across tenants like imports.
WITH next AS (
    SELECT e.tenant_id, e.uuid FROM exports e
    WHERE (e.status = 'running' AND e.lease_until < now()) OR e.status = 'queued'
    ORDER BY (SELECT max(s.started_at) FROM exports s WHERE s.tenant_id = e.tenant_id) ASC NULLS FIRST,
             e.created_at, e.uuid
    LIMIT 1
    FOR UPDATE SKIP LOCKED
)
UPDATE exports e
SET status = 'running', lease_id = @lease_id, item_count = 0,
    lease_until = now() + make_interval(secs => @lease_seconds::double precision),
    started_at = @now::timestamptz, updated_at = @now::timestamptz
FROM next
WHERE e.tenant_id = next.tenant_id AND e.uuid = next.uuid
RETURNING e.*;

-- name: ProgressExport :execrows
-- The export's count so far, renewing the lease; 0 rows: cancelled or taken over.
UPDATE exports
SET item_count = @item_count, updated_at = @now::timestamptz,
    lease_until = now() + make_interval(secs => @lease_seconds::double precision)
WHERE tenant_id = @tenant_id AND uuid = @uuid AND lease_id = @lease_id AND status = 'running';

-- name: FinishExport :one
UPDATE exports
SET status = @status, item_count = @item_count, size_bytes = @size_bytes, checksum_sha256 = sqlc.narg(checksum_sha256),
    failure_reason = sqlc.narg(failure_reason), finished_at = @now::timestamptz, updated_at = @now::timestamptz, lease_id = NULL, lease_until = NULL
WHERE tenant_id = @tenant_id AND uuid = @uuid AND lease_id = @lease_id AND status = 'running'
RETURNING *;

-- name: ReleaseExport :execrows
UPDATE exports SET lease_until = now() - interval '1 second'
WHERE tenant_id = @tenant_id AND uuid = @uuid AND lease_id = @lease_id AND status = 'running';

-- name: PruneImports :execrows
-- Retention: up to @max finished imports that ended before the cutoff (their lines and deferred
-- lines cascade; their files are queued for deletion by the trigger).
DELETE FROM imports d WHERE (d.tenant_id, d.uuid) IN (
    SELECT p.tenant_id, p.uuid FROM imports p WHERE p.finished_at < @cutoff::timestamptz ORDER BY p.finished_at LIMIT @max::integer);

-- name: PruneExports :execrows
DELETE FROM exports d WHERE (d.tenant_id, d.uuid) IN (
    SELECT p.tenant_id, p.uuid FROM exports p WHERE p.finished_at < @cutoff::timestamptz ORDER BY p.finished_at LIMIT @max::integer);

-- name: ExpireImportUploads :execrows
-- Imports whose upload was never started before its URL expired fail (their staged file goes with
-- the row at retention).
UPDATE imports SET status = 'failed', failure_reason = 'the upload was not started before its URL expired',
    finished_at = @now::timestamptz, updated_at = @now::timestamptz
WHERE status = 'awaiting_upload' AND upload_expires_at < now();

-- name: RestartImport :execrows
-- A dry run taken over starts again from the top: its failed and deferred lines go, its progress
-- and counts are zeroed (under the worker's lease).
WITH lines AS (
    DELETE FROM import_lines l WHERE l.tenant_id = @tenant_id AND l.import_uuid = @uuid
), waiting AS (
    DELETE FROM import_deferred d WHERE d.tenant_id = @tenant_id AND d.import_uuid = @uuid
)
UPDATE imports i
SET bytes_read = 0, lines_read = 0, created_count = 0, updated_count = 0, unchanged_count = 0, failed_count = 0
WHERE i.tenant_id = @tenant_id AND i.uuid = @uuid AND i.lease_id = @lease_id;

-- name: RefreshDefer :exec
-- Queues the transaction's readiness and search-array refreshes until RefreshFlush (migration 0029).
SELECT refresh_defer();

-- name: RefreshFlush :exec
-- Runs the queued readiness and search-array refreshes, once per product.
SELECT refresh_flush();
