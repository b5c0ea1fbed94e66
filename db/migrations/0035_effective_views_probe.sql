-- The inherited half of product_effective_input_values and product_effective_attributes: a
-- variant shows its parent's value (attribute) unless it has its own for the same key. That test
-- was a NOT EXISTS that PostgreSQL turned into an anti join, and for the anti join's inner side it
-- took the index on the key's input type (attribute) alone, (tenant_id, input_type_uuid), filtering
-- the product afterwards: every value of that input type in the tenant was read for each inherited
-- row. With 22 000 products of 4 values a hydrated GET of one variant read 8 776 rows for 3
-- inherited values (7.7 ms, custom plan or generic); with a million products it would read
-- hundreds of thousands. OFFSET 0 keeps the subquery a subplan (it is not pulled up into a join),
-- which probes the variant's own values through (tenant_id, product_uuid, ...) for each row of the
-- parent: bounded by the two products' own rows, whatever the plan mode and the statistics
-- (1.1 ms on the same data, most of it the first touch of the index pages). Same rows as before.
CREATE OR REPLACE VIEW product_effective_input_values AS
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
        AND o.channel_uuid IS NOT DISTINCT FROM pv.channel_uuid AND o.locale_uuid IS NOT DISTINCT FROM pv.locale_uuid
      OFFSET 0);

CREATE OR REPLACE VIEW product_effective_attributes AS
SELECT a.tenant_id, a.uuid, a.product_uuid, a.attribute_uuid, a.is_variant_axis, a.created_at, a.updated_at,
       a.product_uuid AS owner_uuid, false AS inherited
FROM product_attributes a
UNION ALL
SELECT pa.tenant_id, pa.uuid, pa.product_uuid, pa.attribute_uuid, pa.is_variant_axis, pa.created_at, pa.updated_at,
       p.uuid AS owner_uuid, true AS inherited
FROM products p
JOIN product_attributes pa ON pa.tenant_id = p.tenant_id AND pa.product_uuid = p.parent_uuid
WHERE p.parent_uuid IS NOT NULL
  AND NOT EXISTS (
      SELECT 1 FROM product_attributes o
      WHERE o.tenant_id = p.tenant_id AND o.product_uuid = p.uuid AND o.attribute_uuid = pa.attribute_uuid
      OFFSET 0);
