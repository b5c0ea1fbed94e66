-- search_arrays (migration 0025) is planned at every call (custom plans, on purpose), and most of
-- that planning is for the terms half of its query: the product's own terms and, for a variant,
-- its parent's. A category link written for products that have no terms and are no variants
-- (every product of an import until its attributes come, most simple products) planned it all
-- the same: 0.6 ms of the 1.1 ms a product import line spent keeping its search arrays. Now two
-- small checks find that case, and only the categories half is planned and run; its terms are
-- '{}', what the whole query gives them then.
CREATE OR REPLACE FUNCTION search_arrays(p_tenant text, p_products uuid[])
RETURNS TABLE (product_uuid uuid, categories uuid[], terms uuid[])
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_custom_plan AS $$
#variable_conflict use_column
BEGIN
IF NOT EXISTS (SELECT 1 FROM product_terms pt WHERE pt.tenant_id = p_tenant AND pt.product_uuid = ANY(p_products))
   AND NOT EXISTS (SELECT 1 FROM products v WHERE v.tenant_id = p_tenant AND v.uuid = ANY(p_products) AND v.parent_uuid IS NOT NULL) THEN
    RETURN QUERY
    WITH RECURSIVE linked AS (
        SELECT l.product_uuid, l.category_uuid FROM product_links l
        WHERE l.tenant_id = p_tenant AND l.product_uuid = ANY(p_products) AND l.category_uuid IS NOT NULL
    ), up (category_uuid, ancestor) AS (
        SELECT DISTINCT category_uuid, category_uuid FROM linked
        UNION
        SELECT up.category_uuid, c.parent_uuid FROM up
        JOIN categories c ON c.tenant_id = p_tenant AND c.uuid = up.ancestor AND c.parent_uuid IS NOT NULL
    ), closure AS (
        SELECT linked.product_uuid, array_agg(DISTINCT up.ancestor ORDER BY up.ancestor) AS categories
        FROM linked JOIN up ON up.category_uuid = linked.category_uuid
        GROUP BY linked.product_uuid
    )
    SELECT p.uuid, coalesce(closure.categories, '{}'), '{}'::uuid[]
    FROM products p
    LEFT JOIN closure ON closure.product_uuid = p.uuid
    WHERE p.tenant_id = p_tenant AND p.uuid = ANY(p_products);
    RETURN;
END IF;
RETURN QUERY
WITH RECURSIVE linked AS (
    SELECT l.product_uuid, l.category_uuid FROM product_links l
    WHERE l.tenant_id = p_tenant AND l.product_uuid = ANY(p_products) AND l.category_uuid IS NOT NULL
), up (category_uuid, ancestor) AS (
    SELECT DISTINCT category_uuid, category_uuid FROM linked
    UNION
    SELECT up.category_uuid, c.parent_uuid FROM up
    JOIN categories c ON c.tenant_id = p_tenant AND c.uuid = up.ancestor AND c.parent_uuid IS NOT NULL
), closure AS (
    SELECT linked.product_uuid, array_agg(DISTINCT up.ancestor ORDER BY up.ancestor) AS categories
    FROM linked JOIN up ON up.category_uuid = linked.category_uuid
    GROUP BY linked.product_uuid
), terms AS (
    SELECT x.product_uuid, array_agg(DISTINCT x.term_uuid ORDER BY x.term_uuid) AS terms FROM (
        SELECT pt.product_uuid, pt.term_uuid FROM product_terms pt
        WHERE pt.tenant_id = p_tenant AND pt.product_uuid = ANY(p_products)
        UNION ALL
        SELECT v.uuid, pt.term_uuid FROM products v
        JOIN product_terms pt ON pt.tenant_id = v.tenant_id AND pt.product_uuid = v.parent_uuid
        JOIN product_attributes pa ON pa.tenant_id = pt.tenant_id AND pa.uuid = pt.product_attribute_uuid
        WHERE v.tenant_id = p_tenant AND v.uuid = ANY(p_products) AND v.parent_uuid IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM product_attributes o
                          WHERE o.tenant_id = v.tenant_id AND o.product_uuid = v.uuid AND o.attribute_uuid = pa.attribute_uuid)
    ) x GROUP BY x.product_uuid
)
SELECT p.uuid, coalesce(closure.categories, '{}'), coalesce(terms.terms, '{}')
FROM products p
LEFT JOIN closure ON closure.product_uuid = p.uuid
LEFT JOIN terms ON terms.product_uuid = p.uuid
WHERE p.tenant_id = p_tenant AND p.uuid = ANY(p_products);
END
$$;
