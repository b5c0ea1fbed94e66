-- Product input values: one JSON value per product, input type, channel (null: all channels) and
-- locale (null: not localizable). The value is checked by the service against the input type's
-- data type and constraints. Deleting the product deletes its values (CASCADE); deleting an input
-- type, channel or locale still used by a value is refused (RESTRICT: 409 IN_USE).
CREATE TABLE product_input_values (
    tenant_id       text        NOT NULL,
    uuid            uuid        NOT NULL,
    product_uuid    uuid        NOT NULL,
    input_type_uuid uuid        NOT NULL,
    channel_uuid    uuid,
    locale_uuid     uuid,
    value           jsonb       NOT NULL,
    created_at      timestamptz NOT NULL,
    updated_at      timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, uuid),
    -- NULL channel / locale are one key each: a second "all channels" value is a conflict.
    CONSTRAINT product_input_values_key UNIQUE NULLS NOT DISTINCT
        (tenant_id, product_uuid, input_type_uuid, channel_uuid, locale_uuid),
    CONSTRAINT product_input_values_product_fkey FOREIGN KEY (tenant_id, product_uuid)
        REFERENCES products (tenant_id, uuid) ON DELETE CASCADE,
    CONSTRAINT product_input_values_input_type_fkey FOREIGN KEY (tenant_id, input_type_uuid)
        REFERENCES input_types (tenant_id, uuid) ON DELETE RESTRICT,
    CONSTRAINT product_input_values_channel_fkey FOREIGN KEY (tenant_id, channel_uuid)
        REFERENCES channels (tenant_id, uuid) ON DELETE RESTRICT,
    CONSTRAINT product_input_values_locale_fkey FOREIGN KEY (tenant_id, locale_uuid)
        REFERENCES locales (tenant_id, uuid) ON DELETE RESTRICT
);
CREATE INDEX product_input_values_created ON product_input_values (tenant_id, product_uuid, created_at, uuid);
CREATE INDEX product_input_values_updated ON product_input_values (tenant_id, product_uuid, updated_at, uuid);
-- The RESTRICT checks of input types, channels and locales.
CREATE INDEX product_input_values_input_type ON product_input_values (tenant_id, input_type_uuid);
CREATE INDEX product_input_values_channel ON product_input_values (tenant_id, channel_uuid) WHERE channel_uuid IS NOT NULL;
CREATE INDEX product_input_values_locale ON product_input_values (tenant_id, locale_uuid) WHERE locale_uuid IS NOT NULL;

-- The values a product sees: its own (inherited = false) and, for a variant, its parent's values
-- for the (input type, channel, locale) keys the variant does not set itself (inherited = true).
-- owner_uuid is the product seeing the value; product_uuid the product holding it.
CREATE VIEW product_effective_input_values AS
SELECT v.tenant_id, v.uuid, v.product_uuid, v.input_type_uuid, v.channel_uuid, v.locale_uuid, v.value,
       v.created_at, v.updated_at, v.product_uuid AS owner_uuid, false AS inherited
FROM product_input_values v
UNION ALL
SELECT pv.tenant_id, pv.uuid, pv.product_uuid, pv.input_type_uuid, pv.channel_uuid, pv.locale_uuid, pv.value,
       pv.created_at, pv.updated_at, p.uuid AS owner_uuid, true AS inherited
FROM products p
JOIN product_input_values pv ON pv.tenant_id = p.tenant_id AND pv.product_uuid = p.parent_uuid
WHERE p.parent_uuid IS NOT NULL
  AND NOT EXISTS (
      SELECT 1 FROM product_input_values o
      WHERE o.tenant_id = p.tenant_id AND o.product_uuid = p.uuid AND o.input_type_uuid = pv.input_type_uuid
        AND o.channel_uuid IS NOT DISTINCT FROM pv.channel_uuid AND o.locale_uuid IS NOT DISTINCT FROM pv.locale_uuid);
