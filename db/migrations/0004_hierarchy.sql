-- Hierarchies: categories (with localized contents) and collections. Both are trees within a
-- tenant: parent_uuid is null for a root and otherwise names a node of the same table and tenant.
-- Deleting a node that still has children is refused (ON DELETE RESTRICT → 409 IN_USE). Cycles,
-- a node under itself included, are refused by the service: every write of a tenant's tree takes
-- a per-tenant lock, and a move is checked by a recursive walk up from the new parent.
-- The two tables have the same columns in the same order: the service shares one implementation.

CREATE TABLE categories (
    tenant_id    text        NOT NULL,
    uuid         uuid        NOT NULL,
    code         text        NOT NULL,
    display_name text        NOT NULL,
    parent_uuid  uuid,
    position     integer     NOT NULL DEFAULT 0,
    status       text        NOT NULL DEFAULT 'draft'
        CHECK (status IN ('draft', 'active', 'inactive', 'removed')),
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL,
    removed_at   timestamptz,
    is_root      boolean GENERATED ALWAYS AS (parent_uuid IS NULL) STORED,
    PRIMARY KEY (tenant_id, uuid),
    CONSTRAINT categories_code_key UNIQUE (tenant_id, code),
    CONSTRAINT categories_parent_fkey FOREIGN KEY (tenant_id, parent_uuid)
        REFERENCES categories (tenant_id, uuid) ON DELETE RESTRICT
);
CREATE INDEX categories_created ON categories (tenant_id, created_at, uuid);
CREATE INDEX categories_updated ON categories (tenant_id, updated_at, uuid);
CREATE INDEX categories_status ON categories (tenant_id, status, created_at, uuid);
CREATE INDEX categories_display_name ON categories (tenant_id, display_name, uuid);
CREATE INDEX categories_children ON categories (tenant_id, parent_uuid, position, uuid);
CREATE INDEX categories_root ON categories (tenant_id, is_root, position, uuid);
CREATE INDEX categories_position ON categories (tenant_id, position, uuid);
CREATE INDEX categories_code_trgm ON categories USING gin (code gin_trgm_ops);
CREATE INDEX categories_display_name_trgm ON categories USING gin (display_name gin_trgm_ops);

CREATE TABLE collections (
    tenant_id    text        NOT NULL,
    uuid         uuid        NOT NULL,
    code         text        NOT NULL,
    display_name text        NOT NULL,
    parent_uuid  uuid,
    position     integer     NOT NULL DEFAULT 0,
    status       text        NOT NULL DEFAULT 'draft'
        CHECK (status IN ('draft', 'active', 'inactive', 'removed')),
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL,
    removed_at   timestamptz,
    is_root      boolean GENERATED ALWAYS AS (parent_uuid IS NULL) STORED,
    PRIMARY KEY (tenant_id, uuid),
    CONSTRAINT collections_code_key UNIQUE (tenant_id, code),
    CONSTRAINT collections_parent_fkey FOREIGN KEY (tenant_id, parent_uuid)
        REFERENCES collections (tenant_id, uuid) ON DELETE RESTRICT
);
CREATE INDEX collections_created ON collections (tenant_id, created_at, uuid);
CREATE INDEX collections_updated ON collections (tenant_id, updated_at, uuid);
CREATE INDEX collections_status ON collections (tenant_id, status, created_at, uuid);
CREATE INDEX collections_display_name ON collections (tenant_id, display_name, uuid);
CREATE INDEX collections_children ON collections (tenant_id, parent_uuid, position, uuid);
CREATE INDEX collections_root ON collections (tenant_id, is_root, position, uuid);
CREATE INDEX collections_position ON collections (tenant_id, position, uuid);
CREATE INDEX collections_code_trgm ON collections USING gin (code gin_trgm_ops);
CREATE INDEX collections_display_name_trgm ON collections USING gin (display_name gin_trgm_ops);

-- Category contents live in the shared contents table (parent_kind 'category'); deleting a
-- category deletes its contents.
ALTER TABLE contents
    ADD COLUMN category_uuid uuid GENERATED ALWAYS AS (CASE WHEN parent_kind = 'category' THEN parent_uuid END) STORED,
    ADD CONSTRAINT contents_category_fkey FOREIGN KEY (tenant_id, category_uuid)
        REFERENCES categories (tenant_id, uuid) ON DELETE CASCADE;
CREATE INDEX contents_category ON contents (tenant_id, category_uuid) WHERE category_uuid IS NOT NULL;
