from catalog.v1 import common_pb2 as _common_pb2
from catalog.v1 import options_pb2 as _options_pb2
from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import field_mask_pb2 as _field_mask_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class BulkCreateProductInputValuesRequest(_message.Message):
    __slots__ = ["items", "product_uuid"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductInputValueCreate]
    product_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., items: _Optional[_Iterable[_Union[ProductInputValueCreate, _Mapping]]] = ...) -> None: ...

class BulkCreateProductInputValuesResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductInputValue]
    def __init__(self, items: _Optional[_Iterable[_Union[ProductInputValue, _Mapping]]] = ...) -> None: ...

class BulkUpdateProductInputValuesRequest(_message.Message):
    __slots__ = ["items", "product_uuid"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductInputValueUpdate]
    product_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., items: _Optional[_Iterable[_Union[ProductInputValueUpdate, _Mapping]]] = ...) -> None: ...

class BulkUpdateProductInputValuesResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductInputValue]
    def __init__(self, items: _Optional[_Iterable[_Union[ProductInputValue, _Mapping]]] = ...) -> None: ...

class CreateProductInputValueRequest(_message.Message):
    __slots__ = ["product_input_value", "product_uuid"]
    PRODUCT_INPUT_VALUE_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    product_input_value: ProductInputValueCreate
    product_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., product_input_value: _Optional[_Union[ProductInputValueCreate, _Mapping]] = ...) -> None: ...

class CreateProductInputValueResponse(_message.Message):
    __slots__ = ["product_input_value"]
    PRODUCT_INPUT_VALUE_FIELD_NUMBER: _ClassVar[int]
    product_input_value: ProductInputValue
    def __init__(self, product_input_value: _Optional[_Union[ProductInputValue, _Mapping]] = ...) -> None: ...

class DeleteProductInputValueRequest(_message.Message):
    __slots__ = ["etag", "input_value_uuid", "product_uuid"]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    INPUT_VALUE_UUID_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    etag: str
    input_value_uuid: str
    product_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., input_value_uuid: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class DeleteProductInputValueResponse(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class GetProductInputValueRequest(_message.Message):
    __slots__ = ["input_value_uuid", "product_uuid"]
    INPUT_VALUE_UUID_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    input_value_uuid: str
    product_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., input_value_uuid: _Optional[str] = ...) -> None: ...

class GetProductInputValueResponse(_message.Message):
    __slots__ = ["product_input_value"]
    PRODUCT_INPUT_VALUE_FIELD_NUMBER: _ClassVar[int]
    product_input_value: ProductInputValue
    def __init__(self, product_input_value: _Optional[_Union[ProductInputValue, _Mapping]] = ...) -> None: ...

class ListProductInputValuesRequest(_message.Message):
    __slots__ = ["channel_uuids", "created_at", "cursor", "include", "input_type_uuids", "locale_uuids", "order_by", "page", "product_uuid", "size", "updated_at", "uuids"]
    CHANNEL_UUIDS_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_FIELD_NUMBER: _ClassVar[int]
    INPUT_TYPE_UUIDS_FIELD_NUMBER: _ClassVar[int]
    LOCALE_UUIDS_FIELD_NUMBER: _ClassVar[int]
    ORDER_BY_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUIDS_FIELD_NUMBER: _ClassVar[int]
    channel_uuids: _common_pb2.StringsFilter
    created_at: _common_pb2.TimeFilter
    cursor: str
    include: ProductInputValueInclude
    input_type_uuids: _common_pb2.StringsFilter
    locale_uuids: _common_pb2.StringsFilter
    order_by: _containers.RepeatedCompositeFieldContainer[_common_pb2.OrderBy]
    page: int
    product_uuid: str
    size: int
    updated_at: _common_pb2.TimeFilter
    uuids: _common_pb2.StringsFilter
    def __init__(self, product_uuid: _Optional[str] = ..., uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., input_type_uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., channel_uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., locale_uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., created_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., updated_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., page: _Optional[int] = ..., size: _Optional[int] = ..., cursor: _Optional[str] = ..., include: _Optional[_Union[ProductInputValueInclude, _Mapping]] = ..., order_by: _Optional[_Iterable[_Union[_common_pb2.OrderBy, _Mapping]]] = ...) -> None: ...

class ListProductInputValuesResponse(_message.Message):
    __slots__ = ["items", "pagination"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PAGINATION_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductInputValue]
    pagination: _common_pb2.Pagination
    def __init__(self, items: _Optional[_Iterable[_Union[ProductInputValue, _Mapping]]] = ..., pagination: _Optional[_Union[_common_pb2.Pagination, _Mapping]] = ...) -> None: ...

class ProductInputValue(_message.Message):
    __slots__ = ["channel_uuid", "created_at", "etag", "inherited", "input_type_uuid", "locale_uuid", "product_uuid", "updated_at", "uuid", "value"]
    CHANNEL_UUID_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    INHERITED_FIELD_NUMBER: _ClassVar[int]
    INPUT_TYPE_UUID_FIELD_NUMBER: _ClassVar[int]
    LOCALE_UUID_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    channel_uuid: str
    created_at: _timestamp_pb2.Timestamp
    etag: str
    inherited: bool
    input_type_uuid: str
    locale_uuid: str
    product_uuid: str
    updated_at: _timestamp_pb2.Timestamp
    uuid: str
    value: _struct_pb2.Value
    def __init__(self, uuid: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., product_uuid: _Optional[str] = ..., input_type_uuid: _Optional[str] = ..., channel_uuid: _Optional[str] = ..., locale_uuid: _Optional[str] = ..., value: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., inherited: bool = ..., etag: _Optional[str] = ...) -> None: ...

class ProductInputValueCreate(_message.Message):
    __slots__ = ["channel_uuid", "input_type_uuid", "locale_uuid", "value"]
    CHANNEL_UUID_FIELD_NUMBER: _ClassVar[int]
    INPUT_TYPE_UUID_FIELD_NUMBER: _ClassVar[int]
    LOCALE_UUID_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    channel_uuid: str
    input_type_uuid: str
    locale_uuid: str
    value: _struct_pb2.Value
    def __init__(self, input_type_uuid: _Optional[str] = ..., channel_uuid: _Optional[str] = ..., locale_uuid: _Optional[str] = ..., value: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ...) -> None: ...

class ProductInputValueInclude(_message.Message):
    __slots__ = ["inherited"]
    INHERITED_FIELD_NUMBER: _ClassVar[int]
    inherited: bool
    def __init__(self, inherited: bool = ...) -> None: ...

class ProductInputValueList(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductInputValue]
    def __init__(self, items: _Optional[_Iterable[_Union[ProductInputValue, _Mapping]]] = ...) -> None: ...

class ProductInputValueUpdate(_message.Message):
    __slots__ = ["etag", "update_mask", "uuid", "value"]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    etag: str
    update_mask: _field_mask_pb2.FieldMask
    uuid: str
    value: _struct_pb2.Value
    def __init__(self, uuid: _Optional[str] = ..., value: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ..., etag: _Optional[str] = ...) -> None: ...

class UpdateProductInputValueRequest(_message.Message):
    __slots__ = ["input_value_uuid", "product_input_value", "product_uuid"]
    INPUT_VALUE_UUID_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_INPUT_VALUE_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    input_value_uuid: str
    product_input_value: ProductInputValueUpdate
    product_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., input_value_uuid: _Optional[str] = ..., product_input_value: _Optional[_Union[ProductInputValueUpdate, _Mapping]] = ...) -> None: ...

class UpdateProductInputValueResponse(_message.Message):
    __slots__ = ["product_input_value"]
    PRODUCT_INPUT_VALUE_FIELD_NUMBER: _ClassVar[int]
    product_input_value: ProductInputValue
    def __init__(self, product_input_value: _Optional[_Union[ProductInputValue, _Mapping]] = ...) -> None: ...
