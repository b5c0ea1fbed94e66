-- Idempotency keys (issue 16, docs/design.md "Safe writes: idempotency keys"): the answer to the
-- first POST or PATCH a tenant sent with an Idempotency-Key, kept 24 h so that a retry with the same
-- key gets the same answer instead of writing again. Written by the request's own transaction (the
-- write and its answer commit together or not at all); read only within the 24 h (older rows are
-- ignored, and replaced by a new first request); pruned by server/retention.
--
-- fingerprint is sha256(method, the request message's deterministic protobuf encoding): a retry
-- with another body (or to another method) under the same key is refused. code is the gRPC status
-- code of the answer (0: success, response is the response message; else response is the
-- google.rpc.Status with its details).
CREATE TABLE idempotency_keys (
    tenant_id   text        NOT NULL,
    key         text        NOT NULL,
    method      text        NOT NULL,
    fingerprint bytea       NOT NULL,
    code        integer     NOT NULL,
    response    bytea       NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant_id, key)
);

-- Pruning walks the expired rows oldest first. Rows arrive in created_at order, so a BRIN index
-- finds them at a fraction of a B-tree's cost on every keyed write.
CREATE INDEX idempotency_keys_created ON idempotency_keys USING brin (created_at);
