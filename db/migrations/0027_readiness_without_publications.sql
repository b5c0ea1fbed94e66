-- readiness_refresh (migration 0020) recomputes the readiness of the products' publications; for
-- products without any (every product of an import until its publications come, most products
-- of a catalog being built) it still planned and ran its recomputation, and fired the
-- publications' UPDATE trigger, on every write of a product's data: a product import line spent
-- a third of a millisecond there for its values alone. Now it returns once it finds no
-- publication of the products, after taking the same locks as before: a publication created
-- concurrently locks its product first (readiness_on_publications), so it is either seen here
-- or created after this transaction and computed then, as before.
CREATE OR REPLACE FUNCTION readiness_refresh(p_tenant text, p_products uuid[]) RETURNS void
LANGUAGE plpgsql SET jit = off AS $$
BEGIN
    IF p_products IS NULL OR cardinality(p_products) = 0 THEN
        RETURN;
    END IF;
    PERFORM 1 FROM products WHERE tenant_id = p_tenant AND uuid = ANY(p_products) ORDER BY uuid FOR NO KEY UPDATE;
    IF NOT EXISTS (SELECT 1 FROM product_publications WHERE tenant_id = p_tenant AND product_uuid = ANY(p_products)) THEN
        RETURN;
    END IF;
    UPDATE product_publications pp SET missing = s.missing
    FROM (SELECT cur.uuid, coalesce(m.missing, '[]'::jsonb) AS missing
          FROM product_publications cur
          LEFT JOIN readiness_missing(p_tenant, p_products) m ON m.publication_uuid = cur.uuid
          WHERE cur.tenant_id = p_tenant AND cur.product_uuid = ANY(p_products)) s
    WHERE pp.tenant_id = p_tenant AND pp.uuid = s.uuid AND pp.missing IS DISTINCT FROM s.missing;
END
$$;
