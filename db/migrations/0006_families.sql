-- Families: product blueprints, and their links to attributes, input types, categories, product
-- asset types and product relation types. Every row carries tenant_id; every unique and foreign key
-- includes it.

CREATE TABLE families (
    tenant_id    text        NOT NULL,
    uuid         uuid        NOT NULL,
    code         text        NOT NULL,
    display_name text        NOT NULL,
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, uuid),
    CONSTRAINT families_code_key UNIQUE (tenant_id, code)
);
CREATE INDEX families_created ON families (tenant_id, created_at, uuid);
CREATE INDEX families_updated ON families (tenant_id, updated_at, uuid);
CREATE INDEX families_display_name ON families (tenant_id, display_name, uuid);
CREATE INDEX families_code_trgm ON families USING gin (code gin_trgm_ops);
CREATE INDEX families_display_name_trgm ON families USING gin (display_name gin_trgm_ops);

-- The five kinds of family link (family attribute, input type, category, asset type, relation
-- type) share one table, as contents do: kind names the linked family of resources, target_uuid
-- the linked resource, and a stored generated column per kind carries a real foreign key to it.
-- Deleting a family deletes its links (CASCADE); deleting a resource still linked to a family is
-- refused (RESTRICT: 409 IN_USE). One link per family and target.
--
-- Every link has every constraint column; a kind that does not offer one keeps its neutral value
-- (checked below), so a query over several kinds needs no special cases: requirement_level
-- 'optional' (categories), applies_to 'both' (categories, relation types), is_variant_axis false
-- (all but attributes), auto_populate false (all but categories), min_count 0 and max_count null
-- (all but asset and relation types). max_count null means no maximum.
--
-- The rules across columns (max_count >= min_count; a variant axis does not apply to the parent
-- only) are the service's, checked in the writing transaction: a CHECK here would fire before the
-- service could name the offending field of a bulk item.
CREATE TABLE family_links (
    tenant_id         text        NOT NULL,
    uuid              uuid        NOT NULL,
    family_uuid       uuid        NOT NULL,
    kind              text        NOT NULL
        CHECK (kind IN ('attribute', 'input_type', 'category', 'asset_type', 'relation_type')),
    target_uuid       uuid        NOT NULL,
    requirement_level text        NOT NULL DEFAULT 'optional'
        CHECK (requirement_level IN ('required', 'recommended', 'optional')),
    applies_to        text        NOT NULL DEFAULT 'both' CHECK (applies_to IN ('parent', 'variant', 'both')),
    is_variant_axis   boolean     NOT NULL DEFAULT false,
    auto_populate     boolean     NOT NULL DEFAULT false,
    min_count         integer     NOT NULL DEFAULT 0 CHECK (min_count >= 0),
    max_count         integer     CHECK (max_count >= 0),
    created_at        timestamptz NOT NULL,
    updated_at        timestamptz NOT NULL,
    -- requirementLevel[order]: required first, then recommended, then optional.
    requirement_rank  smallint GENERATED ALWAYS AS (
        CASE requirement_level WHEN 'required' THEN 1 WHEN 'recommended' THEN 2 ELSE 3 END) STORED,
    attribute_uuid             uuid GENERATED ALWAYS AS (CASE WHEN kind = 'attribute' THEN target_uuid END) STORED,
    input_type_uuid            uuid GENERATED ALWAYS AS (CASE WHEN kind = 'input_type' THEN target_uuid END) STORED,
    category_uuid              uuid GENERATED ALWAYS AS (CASE WHEN kind = 'category' THEN target_uuid END) STORED,
    product_asset_type_uuid    uuid GENERATED ALWAYS AS (CASE WHEN kind = 'asset_type' THEN target_uuid END) STORED,
    product_relation_type_uuid uuid GENERATED ALWAYS AS (CASE WHEN kind = 'relation_type' THEN target_uuid END) STORED,
    PRIMARY KEY (tenant_id, uuid),
    CONSTRAINT family_links_target_key UNIQUE (tenant_id, family_uuid, kind, target_uuid),
    CONSTRAINT family_links_family_fkey FOREIGN KEY (tenant_id, family_uuid)
        REFERENCES families (tenant_id, uuid) ON DELETE CASCADE,
    CONSTRAINT family_links_attribute_fkey FOREIGN KEY (tenant_id, attribute_uuid)
        REFERENCES attributes (tenant_id, uuid) ON DELETE RESTRICT,
    CONSTRAINT family_links_input_type_fkey FOREIGN KEY (tenant_id, input_type_uuid)
        REFERENCES input_types (tenant_id, uuid) ON DELETE RESTRICT,
    CONSTRAINT family_links_category_fkey FOREIGN KEY (tenant_id, category_uuid)
        REFERENCES categories (tenant_id, uuid) ON DELETE RESTRICT,
    CONSTRAINT family_links_asset_type_fkey FOREIGN KEY (tenant_id, product_asset_type_uuid)
        REFERENCES product_asset_types (tenant_id, uuid) ON DELETE RESTRICT,
    CONSTRAINT family_links_relation_type_fkey FOREIGN KEY (tenant_id, product_relation_type_uuid)
        REFERENCES product_relation_types (tenant_id, uuid) ON DELETE RESTRICT,
    CONSTRAINT family_links_neutral_columns CHECK (
        (kind <> 'category' OR requirement_level = 'optional')
        AND (kind IN ('attribute', 'input_type', 'asset_type') OR applies_to = 'both')
        AND (kind = 'attribute' OR NOT is_variant_axis)
        AND (kind = 'category' OR NOT auto_populate)
        AND (kind IN ('asset_type', 'relation_type') OR (min_count = 0 AND max_count IS NULL)))
);
-- Lists of one family's links of one kind, in the default and updatedAt orders.
CREATE INDEX family_links_created ON family_links (tenant_id, family_uuid, kind, created_at, uuid);
CREATE INDEX family_links_updated ON family_links (tenant_id, family_uuid, kind, updated_at, uuid);
-- The RESTRICT checks when a linked resource is deleted (and "which families use X").
CREATE INDEX family_links_attribute ON family_links (tenant_id, attribute_uuid) WHERE attribute_uuid IS NOT NULL;
CREATE INDEX family_links_input_type ON family_links (tenant_id, input_type_uuid) WHERE input_type_uuid IS NOT NULL;
CREATE INDEX family_links_category ON family_links (tenant_id, category_uuid) WHERE category_uuid IS NOT NULL;
CREATE INDEX family_links_asset_type ON family_links (tenant_id, product_asset_type_uuid) WHERE product_asset_type_uuid IS NOT NULL;
CREATE INDEX family_links_relation_type ON family_links (tenant_id, product_relation_type_uuid) WHERE product_relation_type_uuid IS NOT NULL;
