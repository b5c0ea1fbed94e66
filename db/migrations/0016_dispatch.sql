-- The webhook dispatcher's fair claim (docs/design.md "Webhook dispatcher: fairness and shutdown").
--
-- Pending deliveries by subscription and due time: the claim walks the subscriptions that have
-- pending deliveries (a skip scan: one probe per subscription, however long its backlog) and takes
-- the oldest due rows of each. It replaces the global due-time index, which only served the old
-- "oldest due row first" claim that let one subscription's backlog hold every worker.
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (tenant_id, subscription_uuid, scheduled_at)
    WHERE status = 'pending';
DROP INDEX IF EXISTS webhook_deliveries_due;

-- Leased (claimed) deliveries: the attempts in flight, counted per subscription and per tenant by
-- every claim so that the caps hold across replicas. Only claimed rows are in it (a few per
-- subscription), so counting costs nothing however large the backlog.
CREATE INDEX webhook_deliveries_leased ON webhook_deliveries (tenant_id, subscription_uuid)
    WHERE status = 'pending' AND lease_id IS NOT NULL;
