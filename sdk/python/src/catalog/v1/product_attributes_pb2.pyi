from catalog.v1 import common_pb2 as _common_pb2
from catalog.v1 import options_pb2 as _options_pb2
from catalog.v1 import product_terms_pb2 as _product_terms_pb2
from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import field_mask_pb2 as _field_mask_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class BulkCreateProductAttributesRequest(_message.Message):
    __slots__ = ["items", "product_uuid"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductAttributeCreate]
    product_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., items: _Optional[_Iterable[_Union[ProductAttributeCreate, _Mapping]]] = ...) -> None: ...

class BulkCreateProductAttributesResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductAttribute]
    def __init__(self, items: _Optional[_Iterable[_Union[ProductAttribute, _Mapping]]] = ...) -> None: ...

class BulkUpdateProductAttributesRequest(_message.Message):
    __slots__ = ["items", "product_uuid"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductAttributeUpdate]
    product_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., items: _Optional[_Iterable[_Union[ProductAttributeUpdate, _Mapping]]] = ...) -> None: ...

class BulkUpdateProductAttributesResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductAttribute]
    def __init__(self, items: _Optional[_Iterable[_Union[ProductAttribute, _Mapping]]] = ...) -> None: ...

class CreateProductAttributeRequest(_message.Message):
    __slots__ = ["product_attribute", "product_uuid"]
    PRODUCT_ATTRIBUTE_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    product_attribute: ProductAttributeCreate
    product_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., product_attribute: _Optional[_Union[ProductAttributeCreate, _Mapping]] = ...) -> None: ...

class CreateProductAttributeResponse(_message.Message):
    __slots__ = ["product_attribute"]
    PRODUCT_ATTRIBUTE_FIELD_NUMBER: _ClassVar[int]
    product_attribute: ProductAttribute
    def __init__(self, product_attribute: _Optional[_Union[ProductAttribute, _Mapping]] = ...) -> None: ...

class DeleteProductAttributeRequest(_message.Message):
    __slots__ = ["etag", "product_attribute_uuid", "product_uuid"]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_ATTRIBUTE_UUID_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    etag: str
    product_attribute_uuid: str
    product_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., product_attribute_uuid: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class DeleteProductAttributeResponse(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class GetProductAttributeRequest(_message.Message):
    __slots__ = ["expand", "include", "product_attribute_uuid", "product_uuid"]
    EXPAND_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_ATTRIBUTE_UUID_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    expand: ProductAttributeInclude
    include: ProductAttributeInclude
    product_attribute_uuid: str
    product_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., product_attribute_uuid: _Optional[str] = ..., include: _Optional[_Union[ProductAttributeInclude, _Mapping]] = ..., expand: _Optional[_Union[ProductAttributeInclude, _Mapping]] = ...) -> None: ...

class GetProductAttributeResponse(_message.Message):
    __slots__ = ["product_attribute"]
    PRODUCT_ATTRIBUTE_FIELD_NUMBER: _ClassVar[int]
    product_attribute: ProductAttribute
    def __init__(self, product_attribute: _Optional[_Union[ProductAttribute, _Mapping]] = ...) -> None: ...

class ListProductAttributesRequest(_message.Message):
    __slots__ = ["attribute_uuids", "created_at", "cursor", "expand", "include", "is_variant_axis", "order_by", "page", "product_uuid", "size", "updated_at", "uuids"]
    ATTRIBUTE_UUIDS_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    EXPAND_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_FIELD_NUMBER: _ClassVar[int]
    IS_VARIANT_AXIS_FIELD_NUMBER: _ClassVar[int]
    ORDER_BY_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUIDS_FIELD_NUMBER: _ClassVar[int]
    attribute_uuids: _common_pb2.StringsFilter
    created_at: _common_pb2.TimeFilter
    cursor: str
    expand: ProductAttributeInclude
    include: ProductAttributeInclude
    is_variant_axis: _common_pb2.BoolFilter
    order_by: _containers.RepeatedCompositeFieldContainer[_common_pb2.OrderBy]
    page: int
    product_uuid: str
    size: int
    updated_at: _common_pb2.TimeFilter
    uuids: _common_pb2.StringsFilter
    def __init__(self, product_uuid: _Optional[str] = ..., uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., attribute_uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., is_variant_axis: _Optional[_Union[_common_pb2.BoolFilter, _Mapping]] = ..., created_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., updated_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., page: _Optional[int] = ..., size: _Optional[int] = ..., cursor: _Optional[str] = ..., include: _Optional[_Union[ProductAttributeInclude, _Mapping]] = ..., expand: _Optional[_Union[ProductAttributeInclude, _Mapping]] = ..., order_by: _Optional[_Iterable[_Union[_common_pb2.OrderBy, _Mapping]]] = ...) -> None: ...

class ListProductAttributesResponse(_message.Message):
    __slots__ = ["items", "pagination"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PAGINATION_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductAttribute]
    pagination: _common_pb2.Pagination
    def __init__(self, items: _Optional[_Iterable[_Union[ProductAttribute, _Mapping]]] = ..., pagination: _Optional[_Union[_common_pb2.Pagination, _Mapping]] = ...) -> None: ...

class ProductAttribute(_message.Message):
    __slots__ = ["attribute_uuid", "created_at", "etag", "inherited", "is_variant_axis", "product_term_uuids", "product_terms", "product_uuid", "updated_at", "uuid"]
    ATTRIBUTE_UUID_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    INHERITED_FIELD_NUMBER: _ClassVar[int]
    IS_VARIANT_AXIS_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_TERMS_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_TERM_UUIDS_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    attribute_uuid: str
    created_at: _timestamp_pb2.Timestamp
    etag: str
    inherited: bool
    is_variant_axis: bool
    product_term_uuids: _common_pb2.UuidList
    product_terms: _product_terms_pb2.ProductTermList
    product_uuid: str
    updated_at: _timestamp_pb2.Timestamp
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., product_uuid: _Optional[str] = ..., attribute_uuid: _Optional[str] = ..., is_variant_axis: bool = ..., inherited: bool = ..., product_term_uuids: _Optional[_Union[_common_pb2.UuidList, _Mapping]] = ..., product_terms: _Optional[_Union[_product_terms_pb2.ProductTermList, _Mapping]] = ..., etag: _Optional[str] = ...) -> None: ...

class ProductAttributeCreate(_message.Message):
    __slots__ = ["attribute_uuid", "is_variant_axis"]
    ATTRIBUTE_UUID_FIELD_NUMBER: _ClassVar[int]
    IS_VARIANT_AXIS_FIELD_NUMBER: _ClassVar[int]
    attribute_uuid: str
    is_variant_axis: bool
    def __init__(self, attribute_uuid: _Optional[str] = ..., is_variant_axis: bool = ...) -> None: ...

class ProductAttributeInclude(_message.Message):
    __slots__ = ["product_terms"]
    PRODUCT_TERMS_FIELD_NUMBER: _ClassVar[int]
    product_terms: bool
    def __init__(self, product_terms: bool = ...) -> None: ...

class ProductAttributeList(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductAttribute]
    def __init__(self, items: _Optional[_Iterable[_Union[ProductAttribute, _Mapping]]] = ...) -> None: ...

class ProductAttributeUpdate(_message.Message):
    __slots__ = ["attribute_uuid", "etag", "is_variant_axis", "update_mask", "uuid"]
    ATTRIBUTE_UUID_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    IS_VARIANT_AXIS_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    attribute_uuid: str
    etag: str
    is_variant_axis: bool
    update_mask: _field_mask_pb2.FieldMask
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., attribute_uuid: _Optional[str] = ..., is_variant_axis: bool = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ..., etag: _Optional[str] = ...) -> None: ...

class UpdateProductAttributeRequest(_message.Message):
    __slots__ = ["product_attribute", "product_attribute_uuid", "product_uuid"]
    PRODUCT_ATTRIBUTE_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_ATTRIBUTE_UUID_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    product_attribute: ProductAttributeUpdate
    product_attribute_uuid: str
    product_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., product_attribute_uuid: _Optional[str] = ..., product_attribute: _Optional[_Union[ProductAttributeUpdate, _Mapping]] = ...) -> None: ...

class UpdateProductAttributeResponse(_message.Message):
    __slots__ = ["product_attribute"]
    PRODUCT_ATTRIBUTE_FIELD_NUMBER: _ClassVar[int]
    product_attribute: ProductAttribute
    def __init__(self, product_attribute: _Optional[_Union[ProductAttribute, _Mapping]] = ...) -> None: ...
