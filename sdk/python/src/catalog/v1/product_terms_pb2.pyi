from catalog.v1 import common_pb2 as _common_pb2
from catalog.v1 import options_pb2 as _options_pb2
from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class BulkCreateProductTermsRequest(_message.Message):
    __slots__ = ["items", "product_attribute_uuid", "product_uuid"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_ATTRIBUTE_UUID_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductTermCreate]
    product_attribute_uuid: str
    product_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., product_attribute_uuid: _Optional[str] = ..., items: _Optional[_Iterable[_Union[ProductTermCreate, _Mapping]]] = ...) -> None: ...

class BulkCreateProductTermsResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductTerm]
    def __init__(self, items: _Optional[_Iterable[_Union[ProductTerm, _Mapping]]] = ...) -> None: ...

class CreateProductTermRequest(_message.Message):
    __slots__ = ["product_attribute_uuid", "product_term", "product_uuid"]
    PRODUCT_ATTRIBUTE_UUID_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_TERM_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    product_attribute_uuid: str
    product_term: ProductTermCreate
    product_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., product_attribute_uuid: _Optional[str] = ..., product_term: _Optional[_Union[ProductTermCreate, _Mapping]] = ...) -> None: ...

class CreateProductTermResponse(_message.Message):
    __slots__ = ["product_term"]
    PRODUCT_TERM_FIELD_NUMBER: _ClassVar[int]
    product_term: ProductTerm
    def __init__(self, product_term: _Optional[_Union[ProductTerm, _Mapping]] = ...) -> None: ...

class DeleteProductTermRequest(_message.Message):
    __slots__ = ["etag", "product_attribute_uuid", "product_term_uuid", "product_uuid"]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_ATTRIBUTE_UUID_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_TERM_UUID_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    etag: str
    product_attribute_uuid: str
    product_term_uuid: str
    product_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., product_attribute_uuid: _Optional[str] = ..., product_term_uuid: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class DeleteProductTermResponse(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class GetProductTermRequest(_message.Message):
    __slots__ = ["product_attribute_uuid", "product_term_uuid", "product_uuid"]
    PRODUCT_ATTRIBUTE_UUID_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_TERM_UUID_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    product_attribute_uuid: str
    product_term_uuid: str
    product_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., product_attribute_uuid: _Optional[str] = ..., product_term_uuid: _Optional[str] = ...) -> None: ...

class GetProductTermResponse(_message.Message):
    __slots__ = ["product_term"]
    PRODUCT_TERM_FIELD_NUMBER: _ClassVar[int]
    product_term: ProductTerm
    def __init__(self, product_term: _Optional[_Union[ProductTerm, _Mapping]] = ...) -> None: ...

class ListProductTermsRequest(_message.Message):
    __slots__ = ["created_at", "cursor", "order_by", "page", "product_attribute_uuid", "product_uuid", "size", "term_uuids", "updated_at", "uuids"]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    ORDER_BY_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_ATTRIBUTE_UUID_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    TERM_UUIDS_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUIDS_FIELD_NUMBER: _ClassVar[int]
    created_at: _common_pb2.TimeFilter
    cursor: str
    order_by: _containers.RepeatedCompositeFieldContainer[_common_pb2.OrderBy]
    page: int
    product_attribute_uuid: str
    product_uuid: str
    size: int
    term_uuids: _common_pb2.StringsFilter
    updated_at: _common_pb2.TimeFilter
    uuids: _common_pb2.StringsFilter
    def __init__(self, product_uuid: _Optional[str] = ..., product_attribute_uuid: _Optional[str] = ..., uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., term_uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., created_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., updated_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., page: _Optional[int] = ..., size: _Optional[int] = ..., cursor: _Optional[str] = ..., order_by: _Optional[_Iterable[_Union[_common_pb2.OrderBy, _Mapping]]] = ...) -> None: ...

class ListProductTermsResponse(_message.Message):
    __slots__ = ["items", "pagination"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PAGINATION_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductTerm]
    pagination: _common_pb2.Pagination
    def __init__(self, items: _Optional[_Iterable[_Union[ProductTerm, _Mapping]]] = ..., pagination: _Optional[_Union[_common_pb2.Pagination, _Mapping]] = ...) -> None: ...

class ProductTerm(_message.Message):
    __slots__ = ["created_at", "etag", "product_attribute_uuid", "product_uuid", "term_uuid", "updated_at", "uuid"]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_ATTRIBUTE_UUID_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    TERM_UUID_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    created_at: _timestamp_pb2.Timestamp
    etag: str
    product_attribute_uuid: str
    product_uuid: str
    term_uuid: str
    updated_at: _timestamp_pb2.Timestamp
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., product_uuid: _Optional[str] = ..., product_attribute_uuid: _Optional[str] = ..., term_uuid: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class ProductTermCreate(_message.Message):
    __slots__ = ["term_uuid"]
    TERM_UUID_FIELD_NUMBER: _ClassVar[int]
    term_uuid: str
    def __init__(self, term_uuid: _Optional[str] = ...) -> None: ...

class ProductTermList(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductTerm]
    def __init__(self, items: _Optional[_Iterable[_Union[ProductTerm, _Mapping]]] = ...) -> None: ...
