-- Retention (DESIGN.md "Retention", server/retention): finished deliveries older than
-- CATALOG_RETENTION are deleted with their attempts, oldest first, in batches. This index makes
-- each batch a range of the finished deliveries by the time they last changed (the moment they were
-- delivered or failed). It is partial: a pending delivery has no entry, so fan-out inserts and the
-- dispatcher's claims do not write it; a delivery gets its one entry when it finishes.
--
-- Events need no index of their own: their uuids are v7 (time-ordered, server/events), so "older
-- than the cutoff" is a range of the primary key (tenant_id, uuid) within each tenant. Migration
-- 0007 dropped events_created to spare every write an index entry; this keeps it that way.
CREATE INDEX webhook_deliveries_finished ON webhook_deliveries (updated_at, tenant_id, uuid)
    WHERE status IN ('delivered', 'failed');
