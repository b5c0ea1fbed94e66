-- name: GetPublicationSchedule :one
SELECT * FROM publication_schedules WHERE tenant_id = $1 AND publication_uuid = $2 AND uuid = $3;

-- name: InsertPublicationSchedules :many
-- One statement for a whole bulk (schedules have no unique key beyond their uuid).
INSERT INTO publication_schedules (tenant_id, uuid, product_uuid, publication_uuid, transition, scheduled_at, status, created_at, updated_at)
SELECT @tenant_id, unnest(@uuids::uuid[]), @product_uuid, @publication_uuid, unnest(@transitions::text[]),
       unnest(@scheduled_ats::timestamptz[]), 'pending', @now::timestamptz, @now::timestamptz
RETURNING *;

-- name: LockPublicationSchedules :many
SELECT * FROM publication_schedules
WHERE tenant_id = @tenant_id AND publication_uuid = @publication_uuid AND uuid = ANY(@uuids::uuid[])
FOR UPDATE;

-- name: UpdatePublicationSchedule :one
-- The caller has locked the row and checked it is pending.
UPDATE publication_schedules
SET transition = coalesce(sqlc.narg('transition'), transition),
    scheduled_at = coalesce(sqlc.narg('scheduled_at'), scheduled_at),
    updated_at = @now
WHERE tenant_id = @tenant_id AND publication_uuid = @publication_uuid AND uuid = @uuid
RETURNING *;

-- name: SetPublicationScheduleStatus :many
UPDATE publication_schedules
SET status = @status, updated_at = @now
WHERE tenant_id = @tenant_id AND publication_uuid = @publication_uuid AND uuid = ANY(@uuids::uuid[])
RETURNING *;

-- name: DeletePublicationSchedule :execrows
DELETE FROM publication_schedules WHERE tenant_id = $1 AND publication_uuid = $2 AND uuid = $3;

-- name: ClaimDuePublicationSchedule :one
-- The scheduler's claim, across tenants: the oldest due pending schedule (but those of skip), locked
-- for this transaction. A row another scheduler holds is skipped, and a row it has just run is no
-- longer pending when the lock is granted (the condition is checked again on the locked row).
SELECT * FROM publication_schedules
WHERE status = 'pending' AND scheduled_at <= @now::timestamptz AND NOT (uuid = ANY(@skip::uuid[]))
ORDER BY scheduled_at, tenant_id, uuid
LIMIT 1
FOR UPDATE SKIP LOCKED;

-- name: FinishPublicationSchedule :one
-- Records the scheduler's run of a claimed schedule: executed, or failed with its code and reason.
UPDATE publication_schedules
SET status = @status, executed_at = @now::timestamptz, failure_code = sqlc.narg('failure_code'),
    failure_reason = sqlc.narg('failure_reason'), updated_at = @now::timestamptz
WHERE tenant_id = @tenant_id AND uuid = @uuid AND status = 'pending'
RETURNING *;
