-- Foundation: locales, attributes, terms, localized contents, and the event outbox.
-- Every row carries tenant_id; every unique and foreign key includes it.

CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE locales (
    tenant_id    text        NOT NULL,
    uuid         uuid        NOT NULL,
    code         text        NOT NULL,
    display_name text        NOT NULL,
    is_default   boolean     NOT NULL DEFAULT false,
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, uuid),
    UNIQUE (tenant_id, code)
);
CREATE UNIQUE INDEX locales_one_default ON locales (tenant_id) WHERE is_default;
CREATE INDEX locales_created ON locales (tenant_id, created_at, uuid);

CREATE TABLE attributes (
    tenant_id    text        NOT NULL,
    uuid         uuid        NOT NULL,
    code         text        NOT NULL,
    display_name text        NOT NULL,
    status       text        NOT NULL DEFAULT 'draft'
        CHECK (status IN ('draft', 'published', 'unpublished', 'removed')),
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL,
    removed_at   timestamptz,
    PRIMARY KEY (tenant_id, uuid),
    UNIQUE (tenant_id, code)
);
CREATE INDEX attributes_created ON attributes (tenant_id, created_at, uuid);
CREATE INDEX attributes_updated ON attributes (tenant_id, updated_at, uuid);
CREATE INDEX attributes_status ON attributes (tenant_id, status, created_at, uuid);
CREATE INDEX attributes_display_name ON attributes (tenant_id, display_name, uuid);
CREATE INDEX attributes_code_trgm ON attributes USING gin (code gin_trgm_ops);
CREATE INDEX attributes_display_name_trgm ON attributes USING gin (display_name gin_trgm_ops);

CREATE TABLE attribute_terms (
    tenant_id      text        NOT NULL,
    uuid           uuid        NOT NULL,
    attribute_uuid uuid        NOT NULL,
    code           text        NOT NULL,
    display_name   text        NOT NULL,
    position       integer     NOT NULL DEFAULT 0,
    created_at     timestamptz NOT NULL,
    updated_at     timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, uuid),
    UNIQUE (tenant_id, attribute_uuid, code),
    FOREIGN KEY (tenant_id, attribute_uuid) REFERENCES attributes (tenant_id, uuid) ON DELETE CASCADE
);
CREATE INDEX attribute_terms_created ON attribute_terms (tenant_id, attribute_uuid, created_at, uuid);

-- Localized content of every family lives in one table: parent_kind names the family
-- ('attribute', 'attribute_term', ...), parent_uuid the owner. A stored generated column per
-- family carries the foreign key, so deleting the owner deletes its contents.
CREATE TABLE contents (
    tenant_id      text        NOT NULL,
    uuid           uuid        NOT NULL,
    parent_kind    text        NOT NULL,
    parent_uuid    uuid        NOT NULL,
    locale_uuid    uuid        NOT NULL,
    display_name   text        NOT NULL,
    description    text,
    created_at     timestamptz NOT NULL,
    updated_at     timestamptz NOT NULL,
    attribute_uuid uuid GENERATED ALWAYS AS (CASE WHEN parent_kind = 'attribute' THEN parent_uuid END) STORED,
    term_uuid      uuid GENERATED ALWAYS AS (CASE WHEN parent_kind = 'attribute_term' THEN parent_uuid END) STORED,
    PRIMARY KEY (tenant_id, uuid),
    UNIQUE (tenant_id, parent_kind, parent_uuid, locale_uuid),
    FOREIGN KEY (tenant_id, locale_uuid) REFERENCES locales (tenant_id, uuid),
    FOREIGN KEY (tenant_id, attribute_uuid) REFERENCES attributes (tenant_id, uuid) ON DELETE CASCADE,
    FOREIGN KEY (tenant_id, term_uuid) REFERENCES attribute_terms (tenant_id, uuid) ON DELETE CASCADE
);
CREATE INDEX contents_parent ON contents (tenant_id, parent_kind, parent_uuid, created_at, uuid);
CREATE INDEX contents_locale ON contents (tenant_id, locale_uuid);

-- The outbox: every mutation writes its events here in its own transaction.
CREATE TABLE events (
    tenant_id  text        NOT NULL,
    uuid       uuid        NOT NULL,
    type       text        NOT NULL,
    payload    jsonb       NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, uuid)
);
CREATE INDEX events_created ON events (created_at, uuid);
