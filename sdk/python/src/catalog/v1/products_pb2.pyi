from catalog.v1 import common_pb2 as _common_pb2
from catalog.v1 import options_pb2 as _options_pb2
from catalog.v1 import product_assets_pb2 as _product_assets_pb2
from catalog.v1 import product_attributes_pb2 as _product_attributes_pb2
from catalog.v1 import product_categories_pb2 as _product_categories_pb2
from catalog.v1 import product_input_values_pb2 as _product_input_values_pb2
from catalog.v1 import product_publications_pb2 as _product_publications_pb2
from catalog.v1 import product_relations_pb2 as _product_relations_pb2
from catalog.v1 import product_tags_pb2 as _product_tags_pb2
from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import field_mask_pb2 as _field_mask_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor
PRODUCT_KIND_SIMPLE: ProductKind
PRODUCT_KIND_UNSPECIFIED: ProductKind
PRODUCT_KIND_VARIANT: ProductKind
PRODUCT_KIND_VARIANT_PARENT: ProductKind
PRODUCT_STATUS_ACTIVE: ProductStatus
PRODUCT_STATUS_DRAFT: ProductStatus
PRODUCT_STATUS_INACTIVE: ProductStatus
PRODUCT_STATUS_REMOVED: ProductStatus
PRODUCT_STATUS_UNSPECIFIED: ProductStatus
PRODUCT_TRANSITION_ACTIVATE: ProductTransition
PRODUCT_TRANSITION_DEACTIVATE: ProductTransition
PRODUCT_TRANSITION_REMOVE: ProductTransition
PRODUCT_TRANSITION_RESTORE: ProductTransition
PRODUCT_TRANSITION_UNSPECIFIED: ProductTransition

class BulkCreateProductsRequest(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductCreate]
    def __init__(self, items: _Optional[_Iterable[_Union[ProductCreate, _Mapping]]] = ...) -> None: ...

class BulkCreateProductsResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[Product]
    def __init__(self, items: _Optional[_Iterable[_Union[Product, _Mapping]]] = ...) -> None: ...

class BulkTransitionProductsRequest(_message.Message):
    __slots__ = ["etags", "transition", "uuids"]
    class EtagsEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ETAGS_FIELD_NUMBER: _ClassVar[int]
    TRANSITION_FIELD_NUMBER: _ClassVar[int]
    UUIDS_FIELD_NUMBER: _ClassVar[int]
    etags: _containers.ScalarMap[str, str]
    transition: ProductTransition
    uuids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, transition: _Optional[_Union[ProductTransition, str]] = ..., uuids: _Optional[_Iterable[str]] = ..., etags: _Optional[_Mapping[str, str]] = ...) -> None: ...

class BulkTransitionProductsResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[Product]
    def __init__(self, items: _Optional[_Iterable[_Union[Product, _Mapping]]] = ...) -> None: ...

class BulkUpdateProductsRequest(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductUpdate]
    def __init__(self, items: _Optional[_Iterable[_Union[ProductUpdate, _Mapping]]] = ...) -> None: ...

class BulkUpdateProductsResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[Product]
    def __init__(self, items: _Optional[_Iterable[_Union[Product, _Mapping]]] = ...) -> None: ...

class CreateProductRequest(_message.Message):
    __slots__ = ["product"]
    PRODUCT_FIELD_NUMBER: _ClassVar[int]
    product: ProductCreate
    def __init__(self, product: _Optional[_Union[ProductCreate, _Mapping]] = ...) -> None: ...

class CreateProductResponse(_message.Message):
    __slots__ = ["product"]
    PRODUCT_FIELD_NUMBER: _ClassVar[int]
    product: Product
    def __init__(self, product: _Optional[_Union[Product, _Mapping]] = ...) -> None: ...

class DeleteProductRequest(_message.Message):
    __slots__ = ["etag", "product_uuid"]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    etag: str
    product_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class DeleteProductResponse(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class FacetCount(_message.Message):
    __slots__ = ["code", "count", "uuid"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    code: str
    count: int
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., code: _Optional[str] = ..., count: _Optional[int] = ...) -> None: ...

class FacetCountList(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[FacetCount]
    def __init__(self, items: _Optional[_Iterable[_Union[FacetCount, _Mapping]]] = ...) -> None: ...

class FacetValueCount(_message.Message):
    __slots__ = ["code", "count", "value"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    code: str
    count: int
    value: str
    def __init__(self, value: _Optional[str] = ..., code: _Optional[str] = ..., count: _Optional[int] = ...) -> None: ...

class FacetValueCountList(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[FacetValueCount]
    def __init__(self, items: _Optional[_Iterable[_Union[FacetValueCount, _Mapping]]] = ...) -> None: ...

class GetProductRequest(_message.Message):
    __slots__ = ["expand", "include", "product_uuid"]
    EXPAND_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    expand: ProductInclude
    include: ProductInclude
    product_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., include: _Optional[_Union[ProductInclude, _Mapping]] = ..., expand: _Optional[_Union[ProductInclude, _Mapping]] = ...) -> None: ...

class GetProductResponse(_message.Message):
    __slots__ = ["product"]
    PRODUCT_FIELD_NUMBER: _ClassVar[int]
    product: Product
    def __init__(self, product: _Optional[_Union[Product, _Mapping]] = ...) -> None: ...

class ListProductsRequest(_message.Message):
    __slots__ = ["attribute_uuids", "brand_uuids", "category_tree_uuids", "category_uuids", "code", "codes", "created_at", "cursor", "display_name", "display_names", "expand", "facet_size", "facets", "family_uuids", "include", "is_removed", "kinds", "locales", "not_ready_channel_uuids", "order_by", "page", "parent_uuids", "published_channel_uuids", "q", "ready_channel_uuids", "size", "statuses", "tag_uuids", "term_uuids", "updated_at", "uuids"]
    ATTRIBUTE_UUIDS_FIELD_NUMBER: _ClassVar[int]
    BRAND_UUIDS_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_TREE_UUIDS_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_UUIDS_FIELD_NUMBER: _ClassVar[int]
    CODES_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAMES_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    EXPAND_FIELD_NUMBER: _ClassVar[int]
    FACETS_FIELD_NUMBER: _ClassVar[int]
    FACET_SIZE_FIELD_NUMBER: _ClassVar[int]
    FAMILY_UUIDS_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_FIELD_NUMBER: _ClassVar[int]
    IS_REMOVED_FIELD_NUMBER: _ClassVar[int]
    KINDS_FIELD_NUMBER: _ClassVar[int]
    LOCALES_FIELD_NUMBER: _ClassVar[int]
    NOT_READY_CHANNEL_UUIDS_FIELD_NUMBER: _ClassVar[int]
    ORDER_BY_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    PARENT_UUIDS_FIELD_NUMBER: _ClassVar[int]
    PUBLISHED_CHANNEL_UUIDS_FIELD_NUMBER: _ClassVar[int]
    Q_FIELD_NUMBER: _ClassVar[int]
    READY_CHANNEL_UUIDS_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    STATUSES_FIELD_NUMBER: _ClassVar[int]
    TAG_UUIDS_FIELD_NUMBER: _ClassVar[int]
    TERM_UUIDS_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUIDS_FIELD_NUMBER: _ClassVar[int]
    attribute_uuids: _common_pb2.StringsFilter
    brand_uuids: _common_pb2.StringsFilter
    category_tree_uuids: _common_pb2.StringsFilter
    category_uuids: _common_pb2.StringsFilter
    code: _common_pb2.StringFilter
    codes: _common_pb2.StringsFilter
    created_at: _common_pb2.TimeFilter
    cursor: str
    display_name: _common_pb2.StringFilter
    display_names: _common_pb2.StringsFilter
    expand: ProductInclude
    facet_size: int
    facets: _containers.RepeatedScalarFieldContainer[str]
    family_uuids: _common_pb2.StringsFilter
    include: ProductInclude
    is_removed: _common_pb2.BoolFilter
    kinds: _common_pb2.StringsFilter
    locales: _common_pb2.StringsFilter
    not_ready_channel_uuids: _common_pb2.StringsFilter
    order_by: _containers.RepeatedCompositeFieldContainer[_common_pb2.OrderBy]
    page: int
    parent_uuids: _common_pb2.StringsFilter
    published_channel_uuids: _common_pb2.StringsFilter
    q: str
    ready_channel_uuids: _common_pb2.StringsFilter
    size: int
    statuses: _common_pb2.StringsFilter
    tag_uuids: _common_pb2.StringsFilter
    term_uuids: _common_pb2.StringsFilter
    updated_at: _common_pb2.TimeFilter
    uuids: _common_pb2.StringsFilter
    def __init__(self, uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., codes: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., code: _Optional[_Union[_common_pb2.StringFilter, _Mapping]] = ..., display_names: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., display_name: _Optional[_Union[_common_pb2.StringFilter, _Mapping]] = ..., statuses: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., created_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., updated_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., is_removed: _Optional[_Union[_common_pb2.BoolFilter, _Mapping]] = ..., page: _Optional[int] = ..., size: _Optional[int] = ..., cursor: _Optional[str] = ..., include: _Optional[_Union[ProductInclude, _Mapping]] = ..., expand: _Optional[_Union[ProductInclude, _Mapping]] = ..., order_by: _Optional[_Iterable[_Union[_common_pb2.OrderBy, _Mapping]]] = ..., kinds: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., family_uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., parent_uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., brand_uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., category_uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., category_tree_uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., tag_uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., attribute_uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., term_uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., published_channel_uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., ready_channel_uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., not_ready_channel_uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., q: _Optional[str] = ..., locales: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., facets: _Optional[_Iterable[str]] = ..., facet_size: _Optional[int] = ...) -> None: ...

class ListProductsResponse(_message.Message):
    __slots__ = ["facets", "items", "pagination"]
    FACETS_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PAGINATION_FIELD_NUMBER: _ClassVar[int]
    facets: ProductFacets
    items: _containers.RepeatedCompositeFieldContainer[Product]
    pagination: _common_pb2.Pagination
    def __init__(self, items: _Optional[_Iterable[_Union[Product, _Mapping]]] = ..., pagination: _Optional[_Union[_common_pb2.Pagination, _Mapping]] = ..., facets: _Optional[_Union[ProductFacets, _Mapping]] = ...) -> None: ...

class Product(_message.Message):
    __slots__ = ["brand_uuid", "code", "created_at", "display_name", "etag", "family_uuid", "featured_asset_uuid", "input_value_uuids", "input_values", "kind", "parent_uuid", "product_asset_uuids", "product_assets", "product_attribute_uuids", "product_attributes", "product_categories", "product_category_uuids", "product_relation_uuids", "product_relations", "product_tag_uuids", "product_tags", "publication_uuids", "publications", "removed_at", "status", "updated_at", "uuid", "variant_uuids", "variants"]
    BRAND_UUID_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    FAMILY_UUID_FIELD_NUMBER: _ClassVar[int]
    FEATURED_ASSET_UUID_FIELD_NUMBER: _ClassVar[int]
    INPUT_VALUES_FIELD_NUMBER: _ClassVar[int]
    INPUT_VALUE_UUIDS_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    PARENT_UUID_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_ASSETS_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_ASSET_UUIDS_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_ATTRIBUTE_UUIDS_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_CATEGORIES_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_CATEGORY_UUIDS_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_RELATIONS_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_RELATION_UUIDS_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_TAGS_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_TAG_UUIDS_FIELD_NUMBER: _ClassVar[int]
    PUBLICATIONS_FIELD_NUMBER: _ClassVar[int]
    PUBLICATION_UUIDS_FIELD_NUMBER: _ClassVar[int]
    REMOVED_AT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    VARIANTS_FIELD_NUMBER: _ClassVar[int]
    VARIANT_UUIDS_FIELD_NUMBER: _ClassVar[int]
    brand_uuid: str
    code: str
    created_at: _timestamp_pb2.Timestamp
    display_name: str
    etag: str
    family_uuid: str
    featured_asset_uuid: str
    input_value_uuids: _common_pb2.UuidList
    input_values: _product_input_values_pb2.ProductInputValueList
    kind: ProductKind
    parent_uuid: str
    product_asset_uuids: _common_pb2.UuidList
    product_assets: _product_assets_pb2.ProductAssetList
    product_attribute_uuids: _common_pb2.UuidList
    product_attributes: _product_attributes_pb2.ProductAttributeList
    product_categories: _product_categories_pb2.ProductCategoryList
    product_category_uuids: _common_pb2.UuidList
    product_relation_uuids: _common_pb2.UuidList
    product_relations: _product_relations_pb2.ProductRelationList
    product_tag_uuids: _common_pb2.UuidList
    product_tags: _product_tags_pb2.ProductTagList
    publication_uuids: _common_pb2.UuidList
    publications: _product_publications_pb2.ProductPublicationList
    removed_at: _timestamp_pb2.Timestamp
    status: ProductStatus
    updated_at: _timestamp_pb2.Timestamp
    uuid: str
    variant_uuids: _common_pb2.UuidList
    variants: ProductList
    def __init__(self, uuid: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., removed_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., status: _Optional[_Union[ProductStatus, str]] = ..., code: _Optional[str] = ..., display_name: _Optional[str] = ..., kind: _Optional[_Union[ProductKind, str]] = ..., family_uuid: _Optional[str] = ..., parent_uuid: _Optional[str] = ..., brand_uuid: _Optional[str] = ..., product_category_uuids: _Optional[_Union[_common_pb2.UuidList, _Mapping]] = ..., product_categories: _Optional[_Union[_product_categories_pb2.ProductCategoryList, _Mapping]] = ..., product_tag_uuids: _Optional[_Union[_common_pb2.UuidList, _Mapping]] = ..., product_tags: _Optional[_Union[_product_tags_pb2.ProductTagList, _Mapping]] = ..., product_attribute_uuids: _Optional[_Union[_common_pb2.UuidList, _Mapping]] = ..., product_attributes: _Optional[_Union[_product_attributes_pb2.ProductAttributeList, _Mapping]] = ..., input_value_uuids: _Optional[_Union[_common_pb2.UuidList, _Mapping]] = ..., input_values: _Optional[_Union[_product_input_values_pb2.ProductInputValueList, _Mapping]] = ..., publication_uuids: _Optional[_Union[_common_pb2.UuidList, _Mapping]] = ..., publications: _Optional[_Union[_product_publications_pb2.ProductPublicationList, _Mapping]] = ..., variant_uuids: _Optional[_Union[_common_pb2.UuidList, _Mapping]] = ..., variants: _Optional[_Union[ProductList, _Mapping]] = ..., product_asset_uuids: _Optional[_Union[_common_pb2.UuidList, _Mapping]] = ..., product_assets: _Optional[_Union[_product_assets_pb2.ProductAssetList, _Mapping]] = ..., product_relation_uuids: _Optional[_Union[_common_pb2.UuidList, _Mapping]] = ..., product_relations: _Optional[_Union[_product_relations_pb2.ProductRelationList, _Mapping]] = ..., featured_asset_uuid: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class ProductCreate(_message.Message):
    __slots__ = ["brand_uuid", "code", "display_name", "family_uuid", "kind", "parent_uuid"]
    BRAND_UUID_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    FAMILY_UUID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    PARENT_UUID_FIELD_NUMBER: _ClassVar[int]
    brand_uuid: str
    code: str
    display_name: str
    family_uuid: str
    kind: ProductKind
    parent_uuid: str
    def __init__(self, code: _Optional[str] = ..., display_name: _Optional[str] = ..., kind: _Optional[_Union[ProductKind, str]] = ..., family_uuid: _Optional[str] = ..., parent_uuid: _Optional[str] = ..., brand_uuid: _Optional[str] = ...) -> None: ...

class ProductFacets(_message.Message):
    __slots__ = ["brands", "categories", "category_tree", "families", "kinds", "published_channels", "ready_channels", "statuses", "tags", "terms"]
    BRANDS_FIELD_NUMBER: _ClassVar[int]
    CATEGORIES_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_TREE_FIELD_NUMBER: _ClassVar[int]
    FAMILIES_FIELD_NUMBER: _ClassVar[int]
    KINDS_FIELD_NUMBER: _ClassVar[int]
    PUBLISHED_CHANNELS_FIELD_NUMBER: _ClassVar[int]
    READY_CHANNELS_FIELD_NUMBER: _ClassVar[int]
    STATUSES_FIELD_NUMBER: _ClassVar[int]
    TAGS_FIELD_NUMBER: _ClassVar[int]
    TERMS_FIELD_NUMBER: _ClassVar[int]
    brands: FacetCountList
    categories: FacetCountList
    category_tree: FacetCountList
    families: FacetCountList
    kinds: FacetValueCountList
    published_channels: FacetCountList
    ready_channels: FacetCountList
    statuses: FacetValueCountList
    tags: FacetCountList
    terms: FacetCountList
    def __init__(self, categories: _Optional[_Union[FacetCountList, _Mapping]] = ..., category_tree: _Optional[_Union[FacetCountList, _Mapping]] = ..., terms: _Optional[_Union[FacetCountList, _Mapping]] = ..., brands: _Optional[_Union[FacetCountList, _Mapping]] = ..., tags: _Optional[_Union[FacetCountList, _Mapping]] = ..., families: _Optional[_Union[FacetCountList, _Mapping]] = ..., kinds: _Optional[_Union[FacetValueCountList, _Mapping]] = ..., statuses: _Optional[_Union[FacetValueCountList, _Mapping]] = ..., published_channels: _Optional[_Union[FacetCountList, _Mapping]] = ..., ready_channels: _Optional[_Union[FacetCountList, _Mapping]] = ...) -> None: ...

class ProductInclude(_message.Message):
    __slots__ = ["input_values", "product_assets", "product_attributes", "product_categories", "product_relations", "product_tags", "publications", "variants"]
    INPUT_VALUES_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_ASSETS_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_CATEGORIES_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_RELATIONS_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_TAGS_FIELD_NUMBER: _ClassVar[int]
    PUBLICATIONS_FIELD_NUMBER: _ClassVar[int]
    VARIANTS_FIELD_NUMBER: _ClassVar[int]
    input_values: bool
    product_assets: bool
    product_attributes: bool
    product_categories: bool
    product_relations: bool
    product_tags: bool
    publications: bool
    variants: bool
    def __init__(self, product_categories: bool = ..., product_tags: bool = ..., product_attributes: bool = ..., input_values: bool = ..., product_assets: bool = ..., product_relations: bool = ..., publications: bool = ..., variants: bool = ...) -> None: ...

class ProductList(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[Product]
    def __init__(self, items: _Optional[_Iterable[_Union[Product, _Mapping]]] = ...) -> None: ...

class ProductUpdate(_message.Message):
    __slots__ = ["brand_uuid", "code", "display_name", "etag", "family_uuid", "kind", "parent_uuid", "update_mask", "uuid"]
    BRAND_UUID_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    FAMILY_UUID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    PARENT_UUID_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    brand_uuid: str
    code: str
    display_name: str
    etag: str
    family_uuid: str
    kind: ProductKind
    parent_uuid: str
    update_mask: _field_mask_pb2.FieldMask
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., code: _Optional[str] = ..., display_name: _Optional[str] = ..., kind: _Optional[_Union[ProductKind, str]] = ..., family_uuid: _Optional[str] = ..., parent_uuid: _Optional[str] = ..., brand_uuid: _Optional[str] = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ..., etag: _Optional[str] = ...) -> None: ...

class TransitionProductRequest(_message.Message):
    __slots__ = ["etag", "product_uuid", "transition"]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    TRANSITION_FIELD_NUMBER: _ClassVar[int]
    etag: str
    product_uuid: str
    transition: ProductTransition
    def __init__(self, product_uuid: _Optional[str] = ..., transition: _Optional[_Union[ProductTransition, str]] = ..., etag: _Optional[str] = ...) -> None: ...

class TransitionProductResponse(_message.Message):
    __slots__ = ["product"]
    PRODUCT_FIELD_NUMBER: _ClassVar[int]
    product: Product
    def __init__(self, product: _Optional[_Union[Product, _Mapping]] = ...) -> None: ...

class UpdateProductRequest(_message.Message):
    __slots__ = ["product", "product_uuid"]
    PRODUCT_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    product: ProductUpdate
    product_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., product: _Optional[_Union[ProductUpdate, _Mapping]] = ...) -> None: ...

class UpdateProductResponse(_message.Message):
    __slots__ = ["product"]
    PRODUCT_FIELD_NUMBER: _ClassVar[int]
    product: Product
    def __init__(self, product: _Optional[_Union[Product, _Mapping]] = ...) -> None: ...

class ProductStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class ProductTransition(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class ProductKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
