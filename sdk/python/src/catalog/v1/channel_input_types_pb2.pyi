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

CHANNEL_INPUT_TYPE_REQUIREMENT_LEVEL_OPTIONAL: ChannelInputTypeRequirementLevel
CHANNEL_INPUT_TYPE_REQUIREMENT_LEVEL_RECOMMENDED: ChannelInputTypeRequirementLevel
CHANNEL_INPUT_TYPE_REQUIREMENT_LEVEL_REQUIRED: ChannelInputTypeRequirementLevel
CHANNEL_INPUT_TYPE_REQUIREMENT_LEVEL_UNSPECIFIED: ChannelInputTypeRequirementLevel
CHANNEL_INPUT_TYPE_SCOPING_CHANNEL: ChannelInputTypeScoping
CHANNEL_INPUT_TYPE_SCOPING_GLOBAL: ChannelInputTypeScoping
CHANNEL_INPUT_TYPE_SCOPING_UNSPECIFIED: ChannelInputTypeScoping
DESCRIPTOR: _descriptor.FileDescriptor

class BulkCreateChannelInputTypesRequest(_message.Message):
    __slots__ = ["channel_uuid", "items"]
    CHANNEL_UUID_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    channel_uuid: str
    items: _containers.RepeatedCompositeFieldContainer[ChannelInputTypeCreate]
    def __init__(self, channel_uuid: _Optional[str] = ..., items: _Optional[_Iterable[_Union[ChannelInputTypeCreate, _Mapping]]] = ...) -> None: ...

class BulkCreateChannelInputTypesResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ChannelInputType]
    def __init__(self, items: _Optional[_Iterable[_Union[ChannelInputType, _Mapping]]] = ...) -> None: ...

class BulkUpdateChannelInputTypesRequest(_message.Message):
    __slots__ = ["channel_uuid", "items"]
    CHANNEL_UUID_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    channel_uuid: str
    items: _containers.RepeatedCompositeFieldContainer[ChannelInputTypeUpdate]
    def __init__(self, channel_uuid: _Optional[str] = ..., items: _Optional[_Iterable[_Union[ChannelInputTypeUpdate, _Mapping]]] = ...) -> None: ...

class BulkUpdateChannelInputTypesResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ChannelInputType]
    def __init__(self, items: _Optional[_Iterable[_Union[ChannelInputType, _Mapping]]] = ...) -> None: ...

class ChannelInputType(_message.Message):
    __slots__ = ["channel_uuid", "created_at", "etag", "input_type_uuid", "requirement_level", "scoping", "updated_at", "uuid"]
    CHANNEL_UUID_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    INPUT_TYPE_UUID_FIELD_NUMBER: _ClassVar[int]
    REQUIREMENT_LEVEL_FIELD_NUMBER: _ClassVar[int]
    SCOPING_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    channel_uuid: str
    created_at: _timestamp_pb2.Timestamp
    etag: str
    input_type_uuid: str
    requirement_level: ChannelInputTypeRequirementLevel
    scoping: ChannelInputTypeScoping
    updated_at: _timestamp_pb2.Timestamp
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., channel_uuid: _Optional[str] = ..., input_type_uuid: _Optional[str] = ..., requirement_level: _Optional[_Union[ChannelInputTypeRequirementLevel, str]] = ..., scoping: _Optional[_Union[ChannelInputTypeScoping, str]] = ..., etag: _Optional[str] = ...) -> None: ...

class ChannelInputTypeCreate(_message.Message):
    __slots__ = ["input_type_uuid", "requirement_level", "scoping"]
    INPUT_TYPE_UUID_FIELD_NUMBER: _ClassVar[int]
    REQUIREMENT_LEVEL_FIELD_NUMBER: _ClassVar[int]
    SCOPING_FIELD_NUMBER: _ClassVar[int]
    input_type_uuid: str
    requirement_level: ChannelInputTypeRequirementLevel
    scoping: ChannelInputTypeScoping
    def __init__(self, input_type_uuid: _Optional[str] = ..., requirement_level: _Optional[_Union[ChannelInputTypeRequirementLevel, str]] = ..., scoping: _Optional[_Union[ChannelInputTypeScoping, str]] = ...) -> None: ...

class ChannelInputTypeUpdate(_message.Message):
    __slots__ = ["etag", "input_type_uuid", "requirement_level", "scoping", "update_mask", "uuid"]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    INPUT_TYPE_UUID_FIELD_NUMBER: _ClassVar[int]
    REQUIREMENT_LEVEL_FIELD_NUMBER: _ClassVar[int]
    SCOPING_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    etag: str
    input_type_uuid: str
    requirement_level: ChannelInputTypeRequirementLevel
    scoping: ChannelInputTypeScoping
    update_mask: _field_mask_pb2.FieldMask
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., input_type_uuid: _Optional[str] = ..., requirement_level: _Optional[_Union[ChannelInputTypeRequirementLevel, str]] = ..., scoping: _Optional[_Union[ChannelInputTypeScoping, str]] = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ..., etag: _Optional[str] = ...) -> None: ...

class CreateChannelInputTypeRequest(_message.Message):
    __slots__ = ["channel_input_type", "channel_uuid"]
    CHANNEL_INPUT_TYPE_FIELD_NUMBER: _ClassVar[int]
    CHANNEL_UUID_FIELD_NUMBER: _ClassVar[int]
    channel_input_type: ChannelInputTypeCreate
    channel_uuid: str
    def __init__(self, channel_uuid: _Optional[str] = ..., channel_input_type: _Optional[_Union[ChannelInputTypeCreate, _Mapping]] = ...) -> None: ...

class CreateChannelInputTypeResponse(_message.Message):
    __slots__ = ["channel_input_type"]
    CHANNEL_INPUT_TYPE_FIELD_NUMBER: _ClassVar[int]
    channel_input_type: ChannelInputType
    def __init__(self, channel_input_type: _Optional[_Union[ChannelInputType, _Mapping]] = ...) -> None: ...

class DeleteChannelInputTypeRequest(_message.Message):
    __slots__ = ["channel_input_type_uuid", "channel_uuid", "etag"]
    CHANNEL_INPUT_TYPE_UUID_FIELD_NUMBER: _ClassVar[int]
    CHANNEL_UUID_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    channel_input_type_uuid: str
    channel_uuid: str
    etag: str
    def __init__(self, channel_uuid: _Optional[str] = ..., channel_input_type_uuid: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class DeleteChannelInputTypeResponse(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class GetChannelInputTypeRequest(_message.Message):
    __slots__ = ["channel_input_type_uuid", "channel_uuid"]
    CHANNEL_INPUT_TYPE_UUID_FIELD_NUMBER: _ClassVar[int]
    CHANNEL_UUID_FIELD_NUMBER: _ClassVar[int]
    channel_input_type_uuid: str
    channel_uuid: str
    def __init__(self, channel_uuid: _Optional[str] = ..., channel_input_type_uuid: _Optional[str] = ...) -> None: ...

class GetChannelInputTypeResponse(_message.Message):
    __slots__ = ["channel_input_type"]
    CHANNEL_INPUT_TYPE_FIELD_NUMBER: _ClassVar[int]
    channel_input_type: ChannelInputType
    def __init__(self, channel_input_type: _Optional[_Union[ChannelInputType, _Mapping]] = ...) -> None: ...

class ListChannelInputTypesRequest(_message.Message):
    __slots__ = ["channel_uuid", "created_at", "cursor", "input_type_uuids", "order_by", "page", "requirement_levels", "scopings", "size", "updated_at", "uuids"]
    CHANNEL_UUID_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    INPUT_TYPE_UUIDS_FIELD_NUMBER: _ClassVar[int]
    ORDER_BY_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    REQUIREMENT_LEVELS_FIELD_NUMBER: _ClassVar[int]
    SCOPINGS_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUIDS_FIELD_NUMBER: _ClassVar[int]
    channel_uuid: str
    created_at: _common_pb2.TimeFilter
    cursor: str
    input_type_uuids: _common_pb2.StringsFilter
    order_by: _containers.RepeatedCompositeFieldContainer[_common_pb2.OrderBy]
    page: int
    requirement_levels: _common_pb2.StringsFilter
    scopings: _common_pb2.StringsFilter
    size: int
    updated_at: _common_pb2.TimeFilter
    uuids: _common_pb2.StringsFilter
    def __init__(self, channel_uuid: _Optional[str] = ..., uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., input_type_uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., requirement_levels: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., scopings: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., created_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., updated_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., page: _Optional[int] = ..., size: _Optional[int] = ..., cursor: _Optional[str] = ..., order_by: _Optional[_Iterable[_Union[_common_pb2.OrderBy, _Mapping]]] = ...) -> None: ...

class ListChannelInputTypesResponse(_message.Message):
    __slots__ = ["items", "pagination"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PAGINATION_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ChannelInputType]
    pagination: _common_pb2.Pagination
    def __init__(self, items: _Optional[_Iterable[_Union[ChannelInputType, _Mapping]]] = ..., pagination: _Optional[_Union[_common_pb2.Pagination, _Mapping]] = ...) -> None: ...

class UpdateChannelInputTypeRequest(_message.Message):
    __slots__ = ["channel_input_type", "channel_input_type_uuid", "channel_uuid"]
    CHANNEL_INPUT_TYPE_FIELD_NUMBER: _ClassVar[int]
    CHANNEL_INPUT_TYPE_UUID_FIELD_NUMBER: _ClassVar[int]
    CHANNEL_UUID_FIELD_NUMBER: _ClassVar[int]
    channel_input_type: ChannelInputTypeUpdate
    channel_input_type_uuid: str
    channel_uuid: str
    def __init__(self, channel_uuid: _Optional[str] = ..., channel_input_type_uuid: _Optional[str] = ..., channel_input_type: _Optional[_Union[ChannelInputTypeUpdate, _Mapping]] = ...) -> None: ...

class UpdateChannelInputTypeResponse(_message.Message):
    __slots__ = ["channel_input_type"]
    CHANNEL_INPUT_TYPE_FIELD_NUMBER: _ClassVar[int]
    channel_input_type: ChannelInputType
    def __init__(self, channel_input_type: _Optional[_Union[ChannelInputType, _Mapping]] = ...) -> None: ...

class ChannelInputTypeRequirementLevel(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class ChannelInputTypeScoping(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
