-- Product channel publications: the publication state of a product for one channel, one per
-- product and channel. Deleting the product deletes its publications (CASCADE); deleting a channel
-- that still has publications is refused (RESTRICT: 409 IN_USE). published_at is set on the first
-- publish and kept after an unpublish.
CREATE TABLE product_publications (
    tenant_id    text        NOT NULL,
    uuid         uuid        NOT NULL,
    product_uuid uuid        NOT NULL,
    channel_uuid uuid        NOT NULL,
    status       text        NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'published', 'unpublished')),
    published_at timestamptz,
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, uuid),
    CONSTRAINT product_publications_channel_key UNIQUE (tenant_id, product_uuid, channel_uuid),
    CONSTRAINT product_publications_product_fkey FOREIGN KEY (tenant_id, product_uuid)
        REFERENCES products (tenant_id, uuid) ON DELETE CASCADE,
    CONSTRAINT product_publications_channel_fkey FOREIGN KEY (tenant_id, channel_uuid)
        REFERENCES channels (tenant_id, uuid) ON DELETE RESTRICT
);
CREATE INDEX product_publications_created ON product_publications (tenant_id, product_uuid, created_at, uuid);
CREATE INDEX product_publications_updated ON product_publications (tenant_id, product_uuid, updated_at, uuid);
CREATE INDEX product_publications_status ON product_publications (tenant_id, product_uuid, status, uuid);
-- The RESTRICT check of channels.
CREATE INDEX product_publications_channel ON product_publications (tenant_id, channel_uuid);
