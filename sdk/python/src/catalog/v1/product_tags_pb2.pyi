from catalog.v1 import common_pb2 as _common_pb2
from catalog.v1 import options_pb2 as _options_pb2
from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class BulkCreateProductTagsRequest(_message.Message):
    __slots__ = ["items", "product_uuid"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductTagCreate]
    product_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., items: _Optional[_Iterable[_Union[ProductTagCreate, _Mapping]]] = ...) -> None: ...

class BulkCreateProductTagsResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductTag]
    def __init__(self, items: _Optional[_Iterable[_Union[ProductTag, _Mapping]]] = ...) -> None: ...

class CreateProductTagRequest(_message.Message):
    __slots__ = ["product_tag", "product_uuid"]
    PRODUCT_TAG_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    product_tag: ProductTagCreate
    product_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., product_tag: _Optional[_Union[ProductTagCreate, _Mapping]] = ...) -> None: ...

class CreateProductTagResponse(_message.Message):
    __slots__ = ["product_tag"]
    PRODUCT_TAG_FIELD_NUMBER: _ClassVar[int]
    product_tag: ProductTag
    def __init__(self, product_tag: _Optional[_Union[ProductTag, _Mapping]] = ...) -> None: ...

class DeleteProductTagRequest(_message.Message):
    __slots__ = ["etag", "product_tag_uuid", "product_uuid"]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_TAG_UUID_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    etag: str
    product_tag_uuid: str
    product_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., product_tag_uuid: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class DeleteProductTagResponse(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class GetProductTagRequest(_message.Message):
    __slots__ = ["product_tag_uuid", "product_uuid"]
    PRODUCT_TAG_UUID_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    product_tag_uuid: str
    product_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., product_tag_uuid: _Optional[str] = ...) -> None: ...

class GetProductTagResponse(_message.Message):
    __slots__ = ["product_tag"]
    PRODUCT_TAG_FIELD_NUMBER: _ClassVar[int]
    product_tag: ProductTag
    def __init__(self, product_tag: _Optional[_Union[ProductTag, _Mapping]] = ...) -> None: ...

class ListProductTagsRequest(_message.Message):
    __slots__ = ["created_at", "cursor", "order_by", "page", "product_uuid", "size", "tag_uuids", "updated_at", "uuids"]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    ORDER_BY_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    TAG_UUIDS_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUIDS_FIELD_NUMBER: _ClassVar[int]
    created_at: _common_pb2.TimeFilter
    cursor: str
    order_by: _containers.RepeatedCompositeFieldContainer[_common_pb2.OrderBy]
    page: int
    product_uuid: str
    size: int
    tag_uuids: _common_pb2.StringsFilter
    updated_at: _common_pb2.TimeFilter
    uuids: _common_pb2.StringsFilter
    def __init__(self, product_uuid: _Optional[str] = ..., uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., tag_uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., created_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., updated_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., page: _Optional[int] = ..., size: _Optional[int] = ..., cursor: _Optional[str] = ..., order_by: _Optional[_Iterable[_Union[_common_pb2.OrderBy, _Mapping]]] = ...) -> None: ...

class ListProductTagsResponse(_message.Message):
    __slots__ = ["items", "pagination"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PAGINATION_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductTag]
    pagination: _common_pb2.Pagination
    def __init__(self, items: _Optional[_Iterable[_Union[ProductTag, _Mapping]]] = ..., pagination: _Optional[_Union[_common_pb2.Pagination, _Mapping]] = ...) -> None: ...

class ProductTag(_message.Message):
    __slots__ = ["created_at", "etag", "product_uuid", "tag_uuid", "updated_at", "uuid"]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    TAG_UUID_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    created_at: _timestamp_pb2.Timestamp
    etag: str
    product_uuid: str
    tag_uuid: str
    updated_at: _timestamp_pb2.Timestamp
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., product_uuid: _Optional[str] = ..., tag_uuid: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class ProductTagCreate(_message.Message):
    __slots__ = ["tag_uuid"]
    TAG_UUID_FIELD_NUMBER: _ClassVar[int]
    tag_uuid: str
    def __init__(self, tag_uuid: _Optional[str] = ...) -> None: ...

class ProductTagList(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductTag]
    def __init__(self, items: _Optional[_Iterable[_Union[ProductTag, _Mapping]]] = ...) -> None: ...
