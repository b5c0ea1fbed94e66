from catalog.v1 import common_pb2 as _common_pb2
from catalog.v1 import options_pb2 as _options_pb2
from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class BulkCreateProductCategoriesRequest(_message.Message):
    __slots__ = ["items", "product_uuid"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductCategoryCreate]
    product_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., items: _Optional[_Iterable[_Union[ProductCategoryCreate, _Mapping]]] = ...) -> None: ...

class BulkCreateProductCategoriesResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductCategory]
    def __init__(self, items: _Optional[_Iterable[_Union[ProductCategory, _Mapping]]] = ...) -> None: ...

class CreateProductCategoryRequest(_message.Message):
    __slots__ = ["product_category", "product_uuid"]
    PRODUCT_CATEGORY_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    product_category: ProductCategoryCreate
    product_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., product_category: _Optional[_Union[ProductCategoryCreate, _Mapping]] = ...) -> None: ...

class CreateProductCategoryResponse(_message.Message):
    __slots__ = ["product_category"]
    PRODUCT_CATEGORY_FIELD_NUMBER: _ClassVar[int]
    product_category: ProductCategory
    def __init__(self, product_category: _Optional[_Union[ProductCategory, _Mapping]] = ...) -> None: ...

class DeleteProductCategoryRequest(_message.Message):
    __slots__ = ["etag", "product_category_uuid", "product_uuid"]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_CATEGORY_UUID_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    etag: str
    product_category_uuid: str
    product_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., product_category_uuid: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class DeleteProductCategoryResponse(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class GetProductCategoryRequest(_message.Message):
    __slots__ = ["product_category_uuid", "product_uuid"]
    PRODUCT_CATEGORY_UUID_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    product_category_uuid: str
    product_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., product_category_uuid: _Optional[str] = ...) -> None: ...

class GetProductCategoryResponse(_message.Message):
    __slots__ = ["product_category"]
    PRODUCT_CATEGORY_FIELD_NUMBER: _ClassVar[int]
    product_category: ProductCategory
    def __init__(self, product_category: _Optional[_Union[ProductCategory, _Mapping]] = ...) -> None: ...

class ListProductCategoriesRequest(_message.Message):
    __slots__ = ["category_uuids", "created_at", "cursor", "order_by", "page", "product_uuid", "size", "updated_at", "uuids"]
    CATEGORY_UUIDS_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    ORDER_BY_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUIDS_FIELD_NUMBER: _ClassVar[int]
    category_uuids: _common_pb2.StringsFilter
    created_at: _common_pb2.TimeFilter
    cursor: str
    order_by: _containers.RepeatedCompositeFieldContainer[_common_pb2.OrderBy]
    page: int
    product_uuid: str
    size: int
    updated_at: _common_pb2.TimeFilter
    uuids: _common_pb2.StringsFilter
    def __init__(self, product_uuid: _Optional[str] = ..., uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., category_uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., created_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., updated_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., page: _Optional[int] = ..., size: _Optional[int] = ..., cursor: _Optional[str] = ..., order_by: _Optional[_Iterable[_Union[_common_pb2.OrderBy, _Mapping]]] = ...) -> None: ...

class ListProductCategoriesResponse(_message.Message):
    __slots__ = ["items", "pagination"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PAGINATION_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductCategory]
    pagination: _common_pb2.Pagination
    def __init__(self, items: _Optional[_Iterable[_Union[ProductCategory, _Mapping]]] = ..., pagination: _Optional[_Union[_common_pb2.Pagination, _Mapping]] = ...) -> None: ...

class ProductCategory(_message.Message):
    __slots__ = ["category_uuid", "created_at", "etag", "product_uuid", "updated_at", "uuid"]
    CATEGORY_UUID_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    category_uuid: str
    created_at: _timestamp_pb2.Timestamp
    etag: str
    product_uuid: str
    updated_at: _timestamp_pb2.Timestamp
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., product_uuid: _Optional[str] = ..., category_uuid: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class ProductCategoryCreate(_message.Message):
    __slots__ = ["category_uuid"]
    CATEGORY_UUID_FIELD_NUMBER: _ClassVar[int]
    category_uuid: str
    def __init__(self, category_uuid: _Optional[str] = ...) -> None: ...

class ProductCategoryList(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductCategory]
    def __init__(self, items: _Optional[_Iterable[_Union[ProductCategory, _Mapping]]] = ...) -> None: ...
