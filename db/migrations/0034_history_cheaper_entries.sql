-- A cheaper history entry (issue 30: history must cost at most 15 % of a bulk create; docs/design.md
-- "History", bench/README.md step 16). Each entry of a bulk create of 100 wrote a jsonb parsed by
-- PostgreSQL and four B-tree entries; it now writes text and two B-tree entries (three under a
-- product), for the same reads:
--
-- * changes is text: the JSON array catalogd wrote (server/history.Diff), kept byte for byte.
--   PostgreSQL never looks inside it (no filter reads it; catalogd decodes it to answer), and
--   parsing it into jsonb was a third of what an entry cost the database.
-- * The primary key is (tenant_id, created_at, uuid): the order of every list (newest first, ties
--   by uuid) and the key of retention's batches, so the index history_created is gone.
-- * root_uuid is stored only for an entry under another resource (its first parent; NULL for a
--   top-level resource, whose entries the index on resource_uuid already finds) and indexed only
--   there. The view history_rooted gives every entry its root (the first parent, else the resource
--   itself) in two halves PostgreSQL merges in list order (a Merge Append of two index scans):
--   GET /v1/products/{productUuid}/history is root_uuid = the product on it.
ALTER TABLE history ALTER COLUMN changes TYPE text USING changes::text;

ALTER TABLE history DROP CONSTRAINT history_pkey;
ALTER TABLE history ADD PRIMARY KEY (tenant_id, created_at, uuid);
DROP INDEX history_created;

ALTER TABLE history DROP COLUMN root_uuid; -- and its index history_root
ALTER TABLE history ADD COLUMN root_uuid uuid GENERATED ALWAYS AS (parent_uuids[1]) STORED;
CREATE INDEX history_root ON history (tenant_id, root_uuid, created_at, uuid) WHERE root_uuid IS NOT NULL;

-- The conditions that keep each entry once (the first half's top-level entries, the second's
-- entries under a resource; resource uuids are unique, so root_uuid <> resource_uuid there) stand
-- outside the halves: written inside one, PostgreSQL 15 no longer reads that half in list order
-- and sorts all of the product's entries for every page.
CREATE VIEW history_rooted AS
    SELECT * FROM (
        SELECT tenant_id, uuid, resource_type, resource_uuid, parent_uuids, action, actor, actor_subject, changes,
               request_id, created_at, resource_uuid AS root_uuid
        FROM history
        UNION ALL
        SELECT tenant_id, uuid, resource_type, resource_uuid, parent_uuids, action, actor, actor_subject, changes,
               request_id, created_at, root_uuid
        FROM history
    ) h
    WHERE root_uuid IS NOT NULL AND (cardinality(parent_uuids) = 0 OR root_uuid <> resource_uuid);
