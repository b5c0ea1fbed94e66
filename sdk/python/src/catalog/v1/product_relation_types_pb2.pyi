from catalog.v1 import common_pb2 as _common_pb2
from catalog.v1 import options_pb2 as _options_pb2
from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import field_mask_pb2 as _field_mask_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor
PRODUCT_RELATION_DIRECTION_ONE_WAY: ProductRelationDirection
PRODUCT_RELATION_DIRECTION_TWO_WAY: ProductRelationDirection
PRODUCT_RELATION_DIRECTION_UNSPECIFIED: ProductRelationDirection

class BulkCreateProductRelationTypesRequest(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductRelationTypeCreate]
    def __init__(self, items: _Optional[_Iterable[_Union[ProductRelationTypeCreate, _Mapping]]] = ...) -> None: ...

class BulkCreateProductRelationTypesResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductRelationType]
    def __init__(self, items: _Optional[_Iterable[_Union[ProductRelationType, _Mapping]]] = ...) -> None: ...

class BulkUpdateProductRelationTypesRequest(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductRelationTypeUpdate]
    def __init__(self, items: _Optional[_Iterable[_Union[ProductRelationTypeUpdate, _Mapping]]] = ...) -> None: ...

class BulkUpdateProductRelationTypesResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductRelationType]
    def __init__(self, items: _Optional[_Iterable[_Union[ProductRelationType, _Mapping]]] = ...) -> None: ...

class CreateProductRelationTypeRequest(_message.Message):
    __slots__ = ["product_relation_type"]
    PRODUCT_RELATION_TYPE_FIELD_NUMBER: _ClassVar[int]
    product_relation_type: ProductRelationTypeCreate
    def __init__(self, product_relation_type: _Optional[_Union[ProductRelationTypeCreate, _Mapping]] = ...) -> None: ...

class CreateProductRelationTypeResponse(_message.Message):
    __slots__ = ["product_relation_type"]
    PRODUCT_RELATION_TYPE_FIELD_NUMBER: _ClassVar[int]
    product_relation_type: ProductRelationType
    def __init__(self, product_relation_type: _Optional[_Union[ProductRelationType, _Mapping]] = ...) -> None: ...

class DeleteProductRelationTypeRequest(_message.Message):
    __slots__ = ["etag", "product_relation_type_uuid"]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_RELATION_TYPE_UUID_FIELD_NUMBER: _ClassVar[int]
    etag: str
    product_relation_type_uuid: str
    def __init__(self, product_relation_type_uuid: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class DeleteProductRelationTypeResponse(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class GetProductRelationTypeRequest(_message.Message):
    __slots__ = ["product_relation_type_uuid"]
    PRODUCT_RELATION_TYPE_UUID_FIELD_NUMBER: _ClassVar[int]
    product_relation_type_uuid: str
    def __init__(self, product_relation_type_uuid: _Optional[str] = ...) -> None: ...

class GetProductRelationTypeResponse(_message.Message):
    __slots__ = ["product_relation_type"]
    PRODUCT_RELATION_TYPE_FIELD_NUMBER: _ClassVar[int]
    product_relation_type: ProductRelationType
    def __init__(self, product_relation_type: _Optional[_Union[ProductRelationType, _Mapping]] = ...) -> None: ...

class ListProductRelationTypesRequest(_message.Message):
    __slots__ = ["code", "codes", "created_at", "cursor", "directions", "display_name", "display_names", "order_by", "page", "size", "updated_at", "uuids"]
    CODES_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    DIRECTIONS_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAMES_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    ORDER_BY_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUIDS_FIELD_NUMBER: _ClassVar[int]
    code: _common_pb2.StringFilter
    codes: _common_pb2.StringsFilter
    created_at: _common_pb2.TimeFilter
    cursor: str
    directions: _common_pb2.StringsFilter
    display_name: _common_pb2.StringFilter
    display_names: _common_pb2.StringsFilter
    order_by: _containers.RepeatedCompositeFieldContainer[_common_pb2.OrderBy]
    page: int
    size: int
    updated_at: _common_pb2.TimeFilter
    uuids: _common_pb2.StringsFilter
    def __init__(self, uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., codes: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., code: _Optional[_Union[_common_pb2.StringFilter, _Mapping]] = ..., display_names: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., display_name: _Optional[_Union[_common_pb2.StringFilter, _Mapping]] = ..., directions: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., created_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., updated_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., page: _Optional[int] = ..., size: _Optional[int] = ..., cursor: _Optional[str] = ..., order_by: _Optional[_Iterable[_Union[_common_pb2.OrderBy, _Mapping]]] = ...) -> None: ...

class ListProductRelationTypesResponse(_message.Message):
    __slots__ = ["items", "pagination"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PAGINATION_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductRelationType]
    pagination: _common_pb2.Pagination
    def __init__(self, items: _Optional[_Iterable[_Union[ProductRelationType, _Mapping]]] = ..., pagination: _Optional[_Union[_common_pb2.Pagination, _Mapping]] = ...) -> None: ...

class ProductRelationType(_message.Message):
    __slots__ = ["code", "created_at", "direction", "display_name", "etag", "updated_at", "uuid"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    DIRECTION_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    code: str
    created_at: _timestamp_pb2.Timestamp
    direction: ProductRelationDirection
    display_name: str
    etag: str
    updated_at: _timestamp_pb2.Timestamp
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., code: _Optional[str] = ..., display_name: _Optional[str] = ..., direction: _Optional[_Union[ProductRelationDirection, str]] = ..., etag: _Optional[str] = ...) -> None: ...

class ProductRelationTypeCreate(_message.Message):
    __slots__ = ["code", "direction", "display_name"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    DIRECTION_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    code: str
    direction: ProductRelationDirection
    display_name: str
    def __init__(self, code: _Optional[str] = ..., display_name: _Optional[str] = ..., direction: _Optional[_Union[ProductRelationDirection, str]] = ...) -> None: ...

class ProductRelationTypeUpdate(_message.Message):
    __slots__ = ["code", "direction", "display_name", "etag", "update_mask", "uuid"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    DIRECTION_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    code: str
    direction: ProductRelationDirection
    display_name: str
    etag: str
    update_mask: _field_mask_pb2.FieldMask
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., code: _Optional[str] = ..., display_name: _Optional[str] = ..., direction: _Optional[_Union[ProductRelationDirection, str]] = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ..., etag: _Optional[str] = ...) -> None: ...

class UpdateProductRelationTypeRequest(_message.Message):
    __slots__ = ["product_relation_type", "product_relation_type_uuid"]
    PRODUCT_RELATION_TYPE_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_RELATION_TYPE_UUID_FIELD_NUMBER: _ClassVar[int]
    product_relation_type: ProductRelationTypeUpdate
    product_relation_type_uuid: str
    def __init__(self, product_relation_type_uuid: _Optional[str] = ..., product_relation_type: _Optional[_Union[ProductRelationTypeUpdate, _Mapping]] = ...) -> None: ...

class UpdateProductRelationTypeResponse(_message.Message):
    __slots__ = ["product_relation_type"]
    PRODUCT_RELATION_TYPE_FIELD_NUMBER: _ClassVar[int]
    product_relation_type: ProductRelationType
    def __init__(self, product_relation_type: _Optional[_Union[ProductRelationType, _Mapping]] = ...) -> None: ...

class ProductRelationDirection(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
