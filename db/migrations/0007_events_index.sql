-- Nothing reads the outbox by time (deliveries are fanned out in the writing statement), so the
-- index only slowed every write: one fewer index entry per event.
DROP INDEX IF EXISTS events_created;
