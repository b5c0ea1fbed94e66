-- Inputs: type groups, input types, channels (with the locales they need) and the input types a
-- channel asks for. Every row carries tenant_id; every unique and foreign key includes it.

CREATE TABLE type_groups (
    tenant_id    text        NOT NULL,
    uuid         uuid        NOT NULL,
    code         text        NOT NULL,
    display_name text        NOT NULL,
    entity_type  text        NOT NULL
        CHECK (entity_type IN ('product', 'category', 'brand', 'collection', 'asset')),
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, uuid),
    UNIQUE (tenant_id, code)
);
CREATE INDEX type_groups_created ON type_groups (tenant_id, created_at, uuid);
CREATE INDEX type_groups_updated ON type_groups (tenant_id, updated_at, uuid);
CREATE INDEX type_groups_entity_type ON type_groups (tenant_id, entity_type, created_at, uuid);
CREATE INDEX type_groups_display_name ON type_groups (tenant_id, display_name, uuid);
CREATE INDEX type_groups_code_trgm ON type_groups USING gin (code gin_trgm_ops);
CREATE INDEX type_groups_display_name_trgm ON type_groups USING gin (display_name gin_trgm_ops);

-- constraints is an object of the constraints set (minLength, maxLength, min, max, pattern,
-- allowedValues); '{}' when none. A type group holding input types cannot be deleted (RESTRICT).
CREATE TABLE input_types (
    tenant_id       text        NOT NULL,
    uuid            uuid        NOT NULL,
    type_group_uuid uuid        NOT NULL,
    code            text        NOT NULL,
    display_name    text        NOT NULL,
    data_type       text        NOT NULL
        CHECK (data_type IN ('text', 'rich_text', 'integer', 'decimal', 'boolean', 'date', 'date_time', 'url', 'money', 'json')),
    is_localizable  boolean     NOT NULL DEFAULT false,
    constraints     jsonb       NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(constraints) = 'object'),
    created_at      timestamptz NOT NULL,
    updated_at      timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, uuid),
    UNIQUE (tenant_id, code),
    CONSTRAINT input_types_type_group_fkey FOREIGN KEY (tenant_id, type_group_uuid)
        REFERENCES type_groups (tenant_id, uuid) ON DELETE RESTRICT
);
CREATE INDEX input_types_created ON input_types (tenant_id, created_at, uuid);
CREATE INDEX input_types_updated ON input_types (tenant_id, updated_at, uuid);
CREATE INDEX input_types_type_group ON input_types (tenant_id, type_group_uuid, created_at, uuid);
CREATE INDEX input_types_data_type ON input_types (tenant_id, data_type, created_at, uuid);
CREATE INDEX input_types_display_name ON input_types (tenant_id, display_name, uuid);
CREATE INDEX input_types_code_trgm ON input_types USING gin (code gin_trgm_ops);
CREATE INDEX input_types_display_name_trgm ON input_types USING gin (display_name gin_trgm_ops);

CREATE TABLE channels (
    tenant_id    text        NOT NULL,
    uuid         uuid        NOT NULL,
    code         text        NOT NULL,
    display_name text        NOT NULL,
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, uuid),
    UNIQUE (tenant_id, code)
);
CREATE INDEX channels_created ON channels (tenant_id, created_at, uuid);
CREATE INDEX channels_updated ON channels (tenant_id, updated_at, uuid);
CREATE INDEX channels_display_name ON channels (tenant_id, display_name, uuid);
CREATE INDEX channels_code_trgm ON channels USING gin (code gin_trgm_ops);
CREATE INDEX channels_display_name_trgm ON channels USING gin (display_name gin_trgm_ops);

-- The locales a channel needs, in the order given. A join row is not a resource (no uuid, no
-- timestamps of its own): it is part of its channel. Deleting a locale a channel needs is refused.
CREATE TABLE channel_locales (
    tenant_id    text    NOT NULL,
    channel_uuid uuid    NOT NULL,
    locale_uuid  uuid    NOT NULL,
    position     integer NOT NULL,
    PRIMARY KEY (tenant_id, channel_uuid, locale_uuid),
    CONSTRAINT channel_locales_channel_fkey FOREIGN KEY (tenant_id, channel_uuid)
        REFERENCES channels (tenant_id, uuid) ON DELETE CASCADE,
    CONSTRAINT channel_locales_locale_fkey FOREIGN KEY (tenant_id, locale_uuid)
        REFERENCES locales (tenant_id, uuid) ON DELETE RESTRICT
);
CREATE INDEX channel_locales_locale ON channel_locales (tenant_id, locale_uuid);

-- One link per channel and input type; deleting the channel deletes its links, deleting a linked
-- input type is refused.
CREATE TABLE channel_input_types (
    tenant_id         text        NOT NULL,
    uuid              uuid        NOT NULL,
    channel_uuid      uuid        NOT NULL,
    input_type_uuid   uuid        NOT NULL,
    requirement_level text        NOT NULL CHECK (requirement_level IN ('required', 'recommended', 'optional')),
    scoping           text        NOT NULL DEFAULT 'global' CHECK (scoping IN ('global', 'channel')),
    created_at        timestamptz NOT NULL,
    updated_at        timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, uuid),
    UNIQUE (tenant_id, channel_uuid, input_type_uuid),
    CONSTRAINT channel_input_types_channel_fkey FOREIGN KEY (tenant_id, channel_uuid)
        REFERENCES channels (tenant_id, uuid) ON DELETE CASCADE,
    CONSTRAINT channel_input_types_input_type_fkey FOREIGN KEY (tenant_id, input_type_uuid)
        REFERENCES input_types (tenant_id, uuid) ON DELETE RESTRICT
);
CREATE INDEX channel_input_types_created ON channel_input_types (tenant_id, channel_uuid, created_at, uuid);
CREATE INDEX channel_input_types_input_type ON channel_input_types (tenant_id, input_type_uuid);
