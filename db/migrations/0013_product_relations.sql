-- Product relations: a product's typed links to other products of its tenant. Every row carries
-- tenant_id; every unique and foreign key includes it.
--
-- A relation of a two_way type has an inverse row on the target (same type, product and target
-- swapped), created and deleted with it; inverse_relation_uuid points each row of the pair at the
-- other (null for one_way types). The inverse key is DEFERRABLE INITIALLY DEFERRED so that a bulk
-- insert whose pair was half skipped by ON CONFLICT DO NOTHING reaches the service, which reports
-- the conflicting item and rolls back; ON DELETE CASCADE (immediate even when deferrable) removes
-- the other half of a pair whatever deletes one half.
--
-- Deleting a product deletes the relations it holds and those targeting it (CASCADE on both
-- product keys), so the inverse of a deleted two-way link never dangles. Deleting a relation type
-- still used by a relation is refused (RESTRICT: 409 IN_USE). One relation per product, type and
-- target; never a product to itself.
CREATE TABLE product_relations (
    tenant_id                  text        NOT NULL,
    uuid                       uuid        NOT NULL,
    product_uuid               uuid        NOT NULL,
    product_relation_type_uuid uuid        NOT NULL,
    target_product_uuid        uuid        NOT NULL,
    inverse_relation_uuid      uuid,
    created_at                 timestamptz NOT NULL,
    updated_at                 timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, uuid),
    CONSTRAINT product_relations_target_key UNIQUE (tenant_id, product_uuid, product_relation_type_uuid, target_product_uuid),
    CONSTRAINT product_relations_inverse_key UNIQUE (tenant_id, inverse_relation_uuid),
    CONSTRAINT product_relations_not_self CHECK (product_uuid <> target_product_uuid),
    CONSTRAINT product_relations_product_fkey FOREIGN KEY (tenant_id, product_uuid)
        REFERENCES products (tenant_id, uuid) ON DELETE CASCADE,
    CONSTRAINT product_relations_target_product_fkey FOREIGN KEY (tenant_id, target_product_uuid)
        REFERENCES products (tenant_id, uuid) ON DELETE CASCADE,
    CONSTRAINT product_relations_product_relation_type_fkey FOREIGN KEY (tenant_id, product_relation_type_uuid)
        REFERENCES product_relation_types (tenant_id, uuid) ON DELETE RESTRICT,
    CONSTRAINT product_relations_inverse_fkey FOREIGN KEY (tenant_id, inverse_relation_uuid)
        REFERENCES product_relations (tenant_id, uuid) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED
);
CREATE INDEX product_relations_created ON product_relations (tenant_id, product_uuid, created_at, uuid);
CREATE INDEX product_relations_updated ON product_relations (tenant_id, product_uuid, updated_at, uuid);
-- The cascade from a deleted target product and the RESTRICT check of a deleted relation type.
CREATE INDEX product_relations_target ON product_relations (tenant_id, target_product_uuid);
CREATE INDEX product_relations_type ON product_relations (tenant_id, product_relation_type_uuid);
