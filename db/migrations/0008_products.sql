-- Products and their links to categories and tags. Every row carries tenant_id; every unique and
-- foreign key includes it.

-- A product's kind is fixed after creation. family_uuid is required for variant_parent and
-- variant (and then fixed), optional for simple; parent_uuid is required for variant and null for
-- the others (the service also checks that the parent is a variant_parent of the same family).
-- Deleting a family, a brand or a variant_parent still used by products is refused (RESTRICT:
-- 409 IN_USE).
CREATE TABLE products (
    tenant_id    text        NOT NULL,
    uuid         uuid        NOT NULL,
    code         text        NOT NULL,
    display_name text        NOT NULL,
    kind         text        NOT NULL CHECK (kind IN ('simple', 'variant_parent', 'variant')),
    status       text        NOT NULL DEFAULT 'draft'
        CHECK (status IN ('draft', 'active', 'inactive', 'removed')),
    family_uuid  uuid,
    parent_uuid  uuid,
    brand_uuid   uuid,
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL,
    removed_at   timestamptz,
    PRIMARY KEY (tenant_id, uuid),
    CONSTRAINT products_code_key UNIQUE (tenant_id, code),
    CONSTRAINT products_family_fkey FOREIGN KEY (tenant_id, family_uuid)
        REFERENCES families (tenant_id, uuid) ON DELETE RESTRICT,
    CONSTRAINT products_parent_fkey FOREIGN KEY (tenant_id, parent_uuid)
        REFERENCES products (tenant_id, uuid) ON DELETE RESTRICT,
    CONSTRAINT products_brand_fkey FOREIGN KEY (tenant_id, brand_uuid)
        REFERENCES brands (tenant_id, uuid) ON DELETE RESTRICT,
    CONSTRAINT products_kind_shape CHECK (
        (kind = 'simple' OR family_uuid IS NOT NULL)
        AND ((kind = 'variant') = (parent_uuid IS NOT NULL)))
);
CREATE INDEX products_created ON products (tenant_id, created_at, uuid);
CREATE INDEX products_updated ON products (tenant_id, updated_at, uuid);
CREATE INDEX products_status ON products (tenant_id, status, created_at, uuid);
CREATE INDEX products_display_name ON products (tenant_id, display_name, uuid);
CREATE INDEX products_code_trgm ON products USING gin (code gin_trgm_ops);
CREATE INDEX products_display_name_trgm ON products USING gin (display_name gin_trgm_ops);
-- familyUuids / parentUuids / brandUuids filters and the RESTRICT checks.
CREATE INDEX products_family ON products (tenant_id, family_uuid) WHERE family_uuid IS NOT NULL;
CREATE INDEX products_parent ON products (tenant_id, parent_uuid) WHERE parent_uuid IS NOT NULL;
CREATE INDEX products_brand ON products (tenant_id, brand_uuid) WHERE brand_uuid IS NOT NULL;

-- Product categories and product tags share one table, like family_links: kind names the linked
-- family of resources, target_uuid the linked resource, and a stored generated column per kind
-- carries a real foreign key to it. Deleting a product deletes its links (CASCADE); deleting a
-- category or tag still linked to a product is refused (RESTRICT: 409 IN_USE). One link per
-- product and target.
CREATE TABLE product_links (
    tenant_id     text        NOT NULL,
    uuid          uuid        NOT NULL,
    product_uuid  uuid        NOT NULL,
    kind          text        NOT NULL CHECK (kind IN ('category', 'tag')),
    target_uuid   uuid        NOT NULL,
    created_at    timestamptz NOT NULL,
    updated_at    timestamptz NOT NULL,
    category_uuid uuid GENERATED ALWAYS AS (CASE WHEN kind = 'category' THEN target_uuid END) STORED,
    tag_uuid      uuid GENERATED ALWAYS AS (CASE WHEN kind = 'tag' THEN target_uuid END) STORED,
    PRIMARY KEY (tenant_id, uuid),
    CONSTRAINT product_links_target_key UNIQUE (tenant_id, product_uuid, kind, target_uuid),
    CONSTRAINT product_links_product_fkey FOREIGN KEY (tenant_id, product_uuid)
        REFERENCES products (tenant_id, uuid) ON DELETE CASCADE,
    CONSTRAINT product_links_category_fkey FOREIGN KEY (tenant_id, category_uuid)
        REFERENCES categories (tenant_id, uuid) ON DELETE RESTRICT,
    CONSTRAINT product_links_tag_fkey FOREIGN KEY (tenant_id, tag_uuid)
        REFERENCES tags (tenant_id, uuid) ON DELETE RESTRICT
);
CREATE INDEX product_links_created ON product_links (tenant_id, product_uuid, kind, created_at, uuid);
CREATE INDEX product_links_updated ON product_links (tenant_id, product_uuid, kind, updated_at, uuid);
CREATE INDEX product_links_category ON product_links (tenant_id, category_uuid) WHERE category_uuid IS NOT NULL;
CREATE INDEX product_links_tag ON product_links (tenant_id, tag_uuid) WHERE tag_uuid IS NOT NULL;
