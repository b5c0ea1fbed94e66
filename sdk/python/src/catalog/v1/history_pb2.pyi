from catalog.v1 import common_pb2 as _common_pb2
from catalog.v1 import options_pb2 as _options_pb2
from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class HistoryActor(_message.Message):
    __slots__ = ["client_id", "import_uuid", "subject"]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    IMPORT_UUID_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    client_id: str
    import_uuid: str
    subject: str
    def __init__(self, subject: _Optional[str] = ..., client_id: _Optional[str] = ..., import_uuid: _Optional[str] = ...) -> None: ...

class HistoryChange(_message.Message):
    __slots__ = ["after", "before", "field"]
    AFTER_FIELD_NUMBER: _ClassVar[int]
    BEFORE_FIELD_NUMBER: _ClassVar[int]
    FIELD_FIELD_NUMBER: _ClassVar[int]
    after: _struct_pb2.Value
    before: _struct_pb2.Value
    field: str
    def __init__(self, field: _Optional[str] = ..., before: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., after: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ...) -> None: ...

class HistoryEntry(_message.Message):
    __slots__ = ["action", "actor", "changes", "created_at", "parent_uuids", "request_id", "resource_type", "resource_uuid", "uuid"]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    ACTOR_FIELD_NUMBER: _ClassVar[int]
    CHANGES_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    PARENT_UUIDS_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    RESOURCE_TYPE_FIELD_NUMBER: _ClassVar[int]
    RESOURCE_UUID_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    action: str
    actor: HistoryActor
    changes: _containers.RepeatedCompositeFieldContainer[HistoryChange]
    created_at: _timestamp_pb2.Timestamp
    parent_uuids: _containers.RepeatedScalarFieldContainer[str]
    request_id: str
    resource_type: str
    resource_uuid: str
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., resource_type: _Optional[str] = ..., resource_uuid: _Optional[str] = ..., parent_uuids: _Optional[_Iterable[str]] = ..., action: _Optional[str] = ..., actor: _Optional[_Union[HistoryActor, _Mapping]] = ..., changes: _Optional[_Iterable[_Union[HistoryChange, _Mapping]]] = ..., request_id: _Optional[str] = ...) -> None: ...

class ListHistoryRequest(_message.Message):
    __slots__ = ["actors", "created_at", "cursor", "order_by", "page", "parent_uuids", "resource_types", "resource_uuids", "size"]
    ACTORS_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    ORDER_BY_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    PARENT_UUIDS_FIELD_NUMBER: _ClassVar[int]
    RESOURCE_TYPES_FIELD_NUMBER: _ClassVar[int]
    RESOURCE_UUIDS_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    actors: _common_pb2.StringsFilter
    created_at: _common_pb2.TimeFilter
    cursor: str
    order_by: _containers.RepeatedCompositeFieldContainer[_common_pb2.OrderBy]
    page: int
    parent_uuids: _common_pb2.StringsFilter
    resource_types: _common_pb2.StringsFilter
    resource_uuids: _common_pb2.StringsFilter
    size: int
    def __init__(self, resource_types: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., resource_uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., parent_uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., actors: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., created_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., page: _Optional[int] = ..., size: _Optional[int] = ..., cursor: _Optional[str] = ..., order_by: _Optional[_Iterable[_Union[_common_pb2.OrderBy, _Mapping]]] = ...) -> None: ...

class ListHistoryResponse(_message.Message):
    __slots__ = ["items", "pagination"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PAGINATION_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[HistoryEntry]
    pagination: _common_pb2.Pagination
    def __init__(self, items: _Optional[_Iterable[_Union[HistoryEntry, _Mapping]]] = ..., pagination: _Optional[_Union[_common_pb2.Pagination, _Mapping]] = ...) -> None: ...

class ListProductHistoryRequest(_message.Message):
    __slots__ = ["actors", "created_at", "cursor", "order_by", "page", "parent_uuids", "product_uuid", "resource_types", "resource_uuids", "size"]
    ACTORS_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    ORDER_BY_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    PARENT_UUIDS_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    RESOURCE_TYPES_FIELD_NUMBER: _ClassVar[int]
    RESOURCE_UUIDS_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    actors: _common_pb2.StringsFilter
    created_at: _common_pb2.TimeFilter
    cursor: str
    order_by: _containers.RepeatedCompositeFieldContainer[_common_pb2.OrderBy]
    page: int
    parent_uuids: _common_pb2.StringsFilter
    product_uuid: str
    resource_types: _common_pb2.StringsFilter
    resource_uuids: _common_pb2.StringsFilter
    size: int
    def __init__(self, product_uuid: _Optional[str] = ..., resource_types: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., resource_uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., parent_uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., actors: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., created_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., page: _Optional[int] = ..., size: _Optional[int] = ..., cursor: _Optional[str] = ..., order_by: _Optional[_Iterable[_Union[_common_pb2.OrderBy, _Mapping]]] = ...) -> None: ...

class ListProductHistoryResponse(_message.Message):
    __slots__ = ["items", "pagination"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PAGINATION_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[HistoryEntry]
    pagination: _common_pb2.Pagination
    def __init__(self, items: _Optional[_Iterable[_Union[HistoryEntry, _Mapping]]] = ..., pagination: _Optional[_Union[_common_pb2.Pagination, _Mapping]] = ...) -> None: ...
