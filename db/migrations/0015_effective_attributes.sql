-- The attributes a product shows in its expanded GET: its own product attributes and, for a
-- variant, its parent's product attributes for attributes it does not link itself (a link on the
-- variant wins), like product_effective_input_values does for values. owner_uuid is the product
-- asking; inherited rows keep the parent's uuid and product_uuid. Readiness already counts the
-- parent's attributes (ListPublicationMissing).
CREATE VIEW product_effective_attributes AS
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
      WHERE o.tenant_id = p.tenant_id AND o.product_uuid = p.uuid AND o.attribute_uuid = pa.attribute_uuid);
