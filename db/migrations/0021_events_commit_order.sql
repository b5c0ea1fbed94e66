-- GET /v1/events in commit order (issue 15, item 4): events become visible in the order their
-- transactions commit, which is not the order of their uuids, so a poller following a cursor at the
-- tail could pass an event whose transaction committed after its page. Each event now records the
-- id of the transaction that wrote it (tx: the 64-bit xid8 as a bigint), the log is ordered by
-- (tx, uuid), and it shows only events of transactions older than the reading snapshot's xmin: every
-- transaction below xmin has ended, so nothing can ever appear before a position already read.
-- Events written before this migration keep tx 0 (the first, in uuid order), which adds the column
-- without rewriting the table.
ALTER TABLE events ADD COLUMN tx bigint NOT NULL DEFAULT 0;
ALTER TABLE events ALTER COLUMN tx SET DEFAULT pg_current_xact_id()::text::bigint;
CREATE INDEX events_tx ON events (tenant_id, tx, uuid);
