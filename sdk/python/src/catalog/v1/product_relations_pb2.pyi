from catalog.v1 import common_pb2 as _common_pb2
from catalog.v1 import options_pb2 as _options_pb2
from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class BulkCreateProductRelationsRequest(_message.Message):
    __slots__ = ["items", "product_uuid"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductRelationCreate]
    product_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., items: _Optional[_Iterable[_Union[ProductRelationCreate, _Mapping]]] = ...) -> None: ...

class BulkCreateProductRelationsResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductRelation]
    def __init__(self, items: _Optional[_Iterable[_Union[ProductRelation, _Mapping]]] = ...) -> None: ...

class CreateProductRelationRequest(_message.Message):
    __slots__ = ["product_relation", "product_uuid"]
    PRODUCT_RELATION_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    product_relation: ProductRelationCreate
    product_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., product_relation: _Optional[_Union[ProductRelationCreate, _Mapping]] = ...) -> None: ...

class CreateProductRelationResponse(_message.Message):
    __slots__ = ["product_relation"]
    PRODUCT_RELATION_FIELD_NUMBER: _ClassVar[int]
    product_relation: ProductRelation
    def __init__(self, product_relation: _Optional[_Union[ProductRelation, _Mapping]] = ...) -> None: ...

class DeleteProductRelationRequest(_message.Message):
    __slots__ = ["etag", "product_relation_uuid", "product_uuid"]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_RELATION_UUID_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    etag: str
    product_relation_uuid: str
    product_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., product_relation_uuid: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class DeleteProductRelationResponse(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class GetProductRelationRequest(_message.Message):
    __slots__ = ["product_relation_uuid", "product_uuid"]
    PRODUCT_RELATION_UUID_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    product_relation_uuid: str
    product_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., product_relation_uuid: _Optional[str] = ...) -> None: ...

class GetProductRelationResponse(_message.Message):
    __slots__ = ["product_relation"]
    PRODUCT_RELATION_FIELD_NUMBER: _ClassVar[int]
    product_relation: ProductRelation
    def __init__(self, product_relation: _Optional[_Union[ProductRelation, _Mapping]] = ...) -> None: ...

class ListProductRelationsRequest(_message.Message):
    __slots__ = ["created_at", "cursor", "order_by", "page", "product_relation_type_uuids", "product_uuid", "size", "target_product_uuids", "updated_at", "uuids"]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    ORDER_BY_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_RELATION_TYPE_UUIDS_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    TARGET_PRODUCT_UUIDS_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUIDS_FIELD_NUMBER: _ClassVar[int]
    created_at: _common_pb2.TimeFilter
    cursor: str
    order_by: _containers.RepeatedCompositeFieldContainer[_common_pb2.OrderBy]
    page: int
    product_relation_type_uuids: _common_pb2.StringsFilter
    product_uuid: str
    size: int
    target_product_uuids: _common_pb2.StringsFilter
    updated_at: _common_pb2.TimeFilter
    uuids: _common_pb2.StringsFilter
    def __init__(self, product_uuid: _Optional[str] = ..., uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., product_relation_type_uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., target_product_uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., created_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., updated_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., page: _Optional[int] = ..., size: _Optional[int] = ..., cursor: _Optional[str] = ..., order_by: _Optional[_Iterable[_Union[_common_pb2.OrderBy, _Mapping]]] = ...) -> None: ...

class ListProductRelationsResponse(_message.Message):
    __slots__ = ["items", "pagination"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PAGINATION_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductRelation]
    pagination: _common_pb2.Pagination
    def __init__(self, items: _Optional[_Iterable[_Union[ProductRelation, _Mapping]]] = ..., pagination: _Optional[_Union[_common_pb2.Pagination, _Mapping]] = ...) -> None: ...

class ProductRelation(_message.Message):
    __slots__ = ["created_at", "etag", "inverse_relation_uuid", "product_relation_type_uuid", "product_uuid", "target_product_uuid", "updated_at", "uuid"]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    INVERSE_RELATION_UUID_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_RELATION_TYPE_UUID_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    TARGET_PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    created_at: _timestamp_pb2.Timestamp
    etag: str
    inverse_relation_uuid: str
    product_relation_type_uuid: str
    product_uuid: str
    target_product_uuid: str
    updated_at: _timestamp_pb2.Timestamp
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., product_uuid: _Optional[str] = ..., product_relation_type_uuid: _Optional[str] = ..., target_product_uuid: _Optional[str] = ..., inverse_relation_uuid: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class ProductRelationCreate(_message.Message):
    __slots__ = ["product_relation_type_uuid", "target_product_uuid"]
    PRODUCT_RELATION_TYPE_UUID_FIELD_NUMBER: _ClassVar[int]
    TARGET_PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    product_relation_type_uuid: str
    target_product_uuid: str
    def __init__(self, product_relation_type_uuid: _Optional[str] = ..., target_product_uuid: _Optional[str] = ...) -> None: ...

class ProductRelationList(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductRelation]
    def __init__(self, items: _Optional[_Iterable[_Union[ProductRelation, _Mapping]]] = ...) -> None: ...
