-- Assets, their links to collections (asset collections) and their links to products (product
-- assets). Every row carries tenant_id; every unique and foreign key includes it. Asset files and
-- uploads are not part of this migration.

-- storage_location is the prefix of the asset's blob keys, written once at creation
-- ('assets/<uuid>/': the tenant is not part of it; the blob store is addressed per tenant by the
-- service). metadata is a JSON object of string to string (at most 50 keys, checked by the
-- service).
CREATE TABLE assets (
    tenant_id        text        NOT NULL,
    uuid             uuid        NOT NULL,
    code             text        NOT NULL,
    display_name     text        NOT NULL,
    description      text,
    category         text        NOT NULL CHECK (category IN ('image', 'video', 'document', 'other')),
    storage_location text        NOT NULL,
    metadata         jsonb       NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(metadata) = 'object'),
    created_at       timestamptz NOT NULL,
    updated_at       timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, uuid),
    CONSTRAINT assets_code_key UNIQUE (tenant_id, code)
);
CREATE INDEX assets_created ON assets (tenant_id, created_at, uuid);
CREATE INDEX assets_updated ON assets (tenant_id, updated_at, uuid);
CREATE INDEX assets_display_name ON assets (tenant_id, display_name, uuid);
CREATE INDEX assets_category ON assets (tenant_id, category, created_at, uuid);
CREATE INDEX assets_code_trgm ON assets USING gin (code gin_trgm_ops);
CREATE INDEX assets_display_name_trgm ON assets USING gin (display_name gin_trgm_ops);

-- One link per asset and collection. Deleting the asset deletes its links (CASCADE); deleting a
-- collection still linked to an asset is refused (RESTRICT: 409 IN_USE).
CREATE TABLE asset_collections (
    tenant_id       text        NOT NULL,
    uuid            uuid        NOT NULL,
    asset_uuid      uuid        NOT NULL,
    collection_uuid uuid        NOT NULL,
    created_at      timestamptz NOT NULL,
    updated_at      timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, uuid),
    CONSTRAINT asset_collections_collection_key UNIQUE (tenant_id, asset_uuid, collection_uuid),
    CONSTRAINT asset_collections_asset_fkey FOREIGN KEY (tenant_id, asset_uuid)
        REFERENCES assets (tenant_id, uuid) ON DELETE CASCADE,
    CONSTRAINT asset_collections_collection_fkey FOREIGN KEY (tenant_id, collection_uuid)
        REFERENCES collections (tenant_id, uuid) ON DELETE RESTRICT
);
CREATE INDEX asset_collections_created ON asset_collections (tenant_id, asset_uuid, created_at, uuid);
CREATE INDEX asset_collections_updated ON asset_collections (tenant_id, asset_uuid, updated_at, uuid);
CREATE INDEX asset_collections_collection ON asset_collections (tenant_id, collection_uuid);

-- One link per product and asset; the asset is fixed after creation. Deleting the product deletes
-- its product assets (CASCADE); deleting an asset or a product asset type still linked to a product
-- is refused (RESTRICT: 409 IN_USE).
CREATE TABLE product_assets (
    tenant_id               text        NOT NULL,
    uuid                    uuid        NOT NULL,
    product_uuid            uuid        NOT NULL,
    asset_uuid              uuid        NOT NULL,
    product_asset_type_uuid uuid        NOT NULL,
    display_priority        integer     NOT NULL DEFAULT 0,
    created_at              timestamptz NOT NULL,
    updated_at              timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, uuid),
    CONSTRAINT product_assets_asset_key UNIQUE (tenant_id, product_uuid, asset_uuid),
    CONSTRAINT product_assets_product_fkey FOREIGN KEY (tenant_id, product_uuid)
        REFERENCES products (tenant_id, uuid) ON DELETE CASCADE,
    CONSTRAINT product_assets_asset_fkey FOREIGN KEY (tenant_id, asset_uuid)
        REFERENCES assets (tenant_id, uuid) ON DELETE RESTRICT,
    CONSTRAINT product_assets_product_asset_type_fkey FOREIGN KEY (tenant_id, product_asset_type_uuid)
        REFERENCES product_asset_types (tenant_id, uuid) ON DELETE RESTRICT
);
-- displayPriority order, and the featured asset of a product (its first row of a featured type).
CREATE INDEX product_assets_priority ON product_assets (tenant_id, product_uuid, display_priority, created_at, uuid);
CREATE INDEX product_assets_created ON product_assets (tenant_id, product_uuid, created_at, uuid);
CREATE INDEX product_assets_updated ON product_assets (tenant_id, product_uuid, updated_at, uuid);
-- The RESTRICT checks when an asset or a product asset type is deleted.
CREATE INDEX product_assets_asset ON product_assets (tenant_id, asset_uuid);
CREATE INDEX product_assets_type ON product_assets (tenant_id, product_asset_type_uuid);

-- Product assets with the computed is_featured: true for the product's featured asset, the first
-- of its assets whose type has is_featured_source, by display_priority, created_at, uuid. Computed
-- on read, so it follows every change of priorities, of links and of the types' flag at once.
-- Every read of product assets (get, list, include/expand of products) goes through this view.
CREATE VIEW product_assets_view AS
SELECT pa.tenant_id, pa.uuid, pa.product_uuid, pa.asset_uuid, pa.product_asset_type_uuid,
       pa.display_priority, pa.created_at, pa.updated_at,
       coalesce(pa.uuid = (
           SELECT f.uuid FROM product_assets f
           JOIN product_asset_types t ON t.tenant_id = f.tenant_id AND t.uuid = f.product_asset_type_uuid
           WHERE f.tenant_id = pa.tenant_id AND f.product_uuid = pa.product_uuid AND t.is_featured_source
           ORDER BY f.display_priority, f.created_at, f.uuid
           LIMIT 1), false)::boolean AS is_featured
FROM product_assets pa;
