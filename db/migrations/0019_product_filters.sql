-- Indexes of the product list filters on what is linked to a product (categoryUuids,
-- categoryTreeUuids, tagUuids, attributeUuids, termUuids, publishedChannelUuids): each filter is a
-- semi-join from the linked uuid to the product, so each index leads with the linked uuid and
-- carries product_uuid (an index-only scan reads the matching products without the table). They
-- replace the indexes of the RESTRICT checks on the same leading columns, which they still serve.
DROP INDEX product_links_category;
CREATE INDEX product_links_category ON product_links (tenant_id, category_uuid, product_uuid) WHERE category_uuid IS NOT NULL;
DROP INDEX product_links_tag;
CREATE INDEX product_links_tag ON product_links (tenant_id, tag_uuid, product_uuid) WHERE tag_uuid IS NOT NULL;
DROP INDEX product_attributes_attribute;
CREATE INDEX product_attributes_attribute ON product_attributes (tenant_id, attribute_uuid, product_uuid);
DROP INDEX product_terms_term;
CREATE INDEX product_terms_term ON product_terms (tenant_id, term_uuid, product_uuid, product_attribute_uuid);
DROP INDEX product_publications_channel;
CREATE INDEX product_publications_channel ON product_publications (tenant_id, channel_uuid, status, product_uuid);
