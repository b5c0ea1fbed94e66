-- Product attributes (links of products to attributes) and product terms (links of a product
-- attribute to terms of its attribute). Every row carries tenant_id; every unique and foreign key
-- includes it.

-- One link per product and attribute; the attribute is fixed after creation. is_variant_axis is
-- true only on products of kind variant_parent or variant (checked by the service: the kind is
-- fixed after creation). Deleting the product deletes its attributes (CASCADE); deleting an
-- attribute still linked to a product is refused (RESTRICT: 409 IN_USE).
CREATE TABLE product_attributes (
    tenant_id       text        NOT NULL,
    uuid            uuid        NOT NULL,
    product_uuid    uuid        NOT NULL,
    attribute_uuid  uuid        NOT NULL,
    is_variant_axis boolean     NOT NULL DEFAULT false,
    created_at      timestamptz NOT NULL,
    updated_at      timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, uuid),
    CONSTRAINT product_attributes_attribute_key UNIQUE (tenant_id, product_uuid, attribute_uuid),
    -- Target of product_terms' composite key (a term row names its product and product attribute).
    CONSTRAINT product_attributes_product_uuid_key UNIQUE (tenant_id, product_uuid, uuid),
    CONSTRAINT product_attributes_product_fkey FOREIGN KEY (tenant_id, product_uuid)
        REFERENCES products (tenant_id, uuid) ON DELETE CASCADE,
    CONSTRAINT product_attributes_attribute_fkey FOREIGN KEY (tenant_id, attribute_uuid)
        REFERENCES attributes (tenant_id, uuid) ON DELETE RESTRICT
);
CREATE INDEX product_attributes_created ON product_attributes (tenant_id, product_uuid, created_at, uuid);
CREATE INDEX product_attributes_updated ON product_attributes (tenant_id, product_uuid, updated_at, uuid);
CREATE INDEX product_attributes_attribute ON product_attributes (tenant_id, attribute_uuid);

-- One link per product attribute and term; the service checks that the term belongs to the
-- product attribute's attribute. Unlinking the product attribute (or deleting the product)
-- deletes its terms (CASCADE); deleting a term still linked is refused (RESTRICT: 409 IN_USE).
CREATE TABLE product_terms (
    tenant_id              text        NOT NULL,
    uuid                   uuid        NOT NULL,
    product_uuid           uuid        NOT NULL,
    product_attribute_uuid uuid        NOT NULL,
    term_uuid              uuid        NOT NULL,
    created_at             timestamptz NOT NULL,
    updated_at             timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, uuid),
    CONSTRAINT product_terms_term_key UNIQUE (tenant_id, product_attribute_uuid, term_uuid),
    CONSTRAINT product_terms_product_attribute_fkey FOREIGN KEY (tenant_id, product_uuid, product_attribute_uuid)
        REFERENCES product_attributes (tenant_id, product_uuid, uuid) ON DELETE CASCADE,
    CONSTRAINT product_terms_term_fkey FOREIGN KEY (tenant_id, term_uuid)
        REFERENCES attribute_terms (tenant_id, uuid) ON DELETE RESTRICT
);
CREATE INDEX product_terms_created ON product_terms (tenant_id, product_attribute_uuid, created_at, uuid);
CREATE INDEX product_terms_updated ON product_terms (tenant_id, product_attribute_uuid, updated_at, uuid);
CREATE INDEX product_terms_product ON product_terms (tenant_id, product_uuid);
CREATE INDEX product_terms_term ON product_terms (tenant_id, term_uuid);
