-- Catalog structure, basic families: brands and tags (each with localized contents), product asset
-- types and product relation types. Every row carries tenant_id; every unique and foreign key
-- includes it. Products, families and their associations reference these tables later (with
-- ON DELETE RESTRICT, so deleting a brand, tag or type still in use is 409 IN_USE).

CREATE TABLE brands (
    tenant_id    text        NOT NULL,
    uuid         uuid        NOT NULL,
    code         text        NOT NULL,
    display_name text        NOT NULL,
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, uuid),
    UNIQUE (tenant_id, code)
);
CREATE INDEX brands_created ON brands (tenant_id, created_at, uuid);
CREATE INDEX brands_updated ON brands (tenant_id, updated_at, uuid);
CREATE INDEX brands_display_name ON brands (tenant_id, display_name, uuid);
CREATE INDEX brands_code_trgm ON brands USING gin (code gin_trgm_ops);
CREATE INDEX brands_display_name_trgm ON brands USING gin (display_name gin_trgm_ops);

-- Tags have exactly the shape of brands: the same columns, keys and indexes.
CREATE TABLE tags (LIKE brands INCLUDING ALL);

-- Contents of brands and tags live in the shared contents table (parent_kind 'brand' / 'tag'); a
-- generated column per kind carries the foreign key, so deleting the parent deletes its contents.
ALTER TABLE contents
    ADD COLUMN brand_uuid uuid GENERATED ALWAYS AS (CASE WHEN parent_kind = 'brand' THEN parent_uuid END) STORED,
    ADD COLUMN tag_uuid uuid GENERATED ALWAYS AS (CASE WHEN parent_kind = 'tag' THEN parent_uuid END) STORED,
    ADD CONSTRAINT contents_brand_fkey FOREIGN KEY (tenant_id, brand_uuid) REFERENCES brands (tenant_id, uuid) ON DELETE CASCADE,
    ADD CONSTRAINT contents_tag_fkey FOREIGN KEY (tenant_id, tag_uuid) REFERENCES tags (tenant_id, uuid) ON DELETE CASCADE;
-- The cascades find a parent's contents by these (partial: other kinds' rows hold nulls there).
CREATE INDEX contents_brand ON contents (tenant_id, brand_uuid) WHERE brand_uuid IS NOT NULL;
CREATE INDEX contents_tag ON contents (tenant_id, tag_uuid) WHERE tag_uuid IS NOT NULL;

CREATE TABLE product_asset_types (
    tenant_id          text        NOT NULL,
    uuid               uuid        NOT NULL,
    code               text        NOT NULL,
    display_name       text        NOT NULL,
    -- Assets of this type can be a product's featured asset.
    is_featured_source boolean     NOT NULL DEFAULT false,
    created_at         timestamptz NOT NULL,
    updated_at         timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, uuid),
    UNIQUE (tenant_id, code)
);
CREATE INDEX product_asset_types_created ON product_asset_types (tenant_id, created_at, uuid);
CREATE INDEX product_asset_types_updated ON product_asset_types (tenant_id, updated_at, uuid);
CREATE INDEX product_asset_types_display_name ON product_asset_types (tenant_id, display_name, uuid);
CREATE INDEX product_asset_types_featured ON product_asset_types (tenant_id, is_featured_source, created_at, uuid);
CREATE INDEX product_asset_types_code_trgm ON product_asset_types USING gin (code gin_trgm_ops);
CREATE INDEX product_asset_types_display_name_trgm ON product_asset_types USING gin (display_name gin_trgm_ops);

CREATE TABLE product_relation_types (
    tenant_id    text        NOT NULL,
    uuid         uuid        NOT NULL,
    code         text        NOT NULL,
    display_name text        NOT NULL,
    -- one_way, or two_way: a link keeps its inverse on the target in step. Fixed after creation.
    direction    text        NOT NULL CHECK (direction IN ('one_way', 'two_way')),
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, uuid),
    UNIQUE (tenant_id, code)
);
CREATE INDEX product_relation_types_created ON product_relation_types (tenant_id, created_at, uuid);
CREATE INDEX product_relation_types_updated ON product_relation_types (tenant_id, updated_at, uuid);
CREATE INDEX product_relation_types_display_name ON product_relation_types (tenant_id, display_name, uuid);
CREATE INDEX product_relation_types_direction ON product_relation_types (tenant_id, direction, created_at, uuid);
CREATE INDEX product_relation_types_code_trgm ON product_relation_types USING gin (code gin_trgm_ops);
CREATE INDEX product_relation_types_display_name_trgm ON product_relation_types USING gin (display_name gin_trgm_ops);
