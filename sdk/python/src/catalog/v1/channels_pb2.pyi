from catalog.v1 import common_pb2 as _common_pb2
from catalog.v1 import options_pb2 as _options_pb2
from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import field_mask_pb2 as _field_mask_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class BulkCreateChannelsRequest(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ChannelCreate]
    def __init__(self, items: _Optional[_Iterable[_Union[ChannelCreate, _Mapping]]] = ...) -> None: ...

class BulkCreateChannelsResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[Channel]
    def __init__(self, items: _Optional[_Iterable[_Union[Channel, _Mapping]]] = ...) -> None: ...

class BulkUpdateChannelsRequest(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ChannelUpdate]
    def __init__(self, items: _Optional[_Iterable[_Union[ChannelUpdate, _Mapping]]] = ...) -> None: ...

class BulkUpdateChannelsResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[Channel]
    def __init__(self, items: _Optional[_Iterable[_Union[Channel, _Mapping]]] = ...) -> None: ...

class Channel(_message.Message):
    __slots__ = ["code", "created_at", "display_name", "etag", "locale_uuids", "updated_at", "uuid"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    LOCALE_UUIDS_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    code: str
    created_at: _timestamp_pb2.Timestamp
    display_name: str
    etag: str
    locale_uuids: _containers.RepeatedScalarFieldContainer[str]
    updated_at: _timestamp_pb2.Timestamp
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., code: _Optional[str] = ..., display_name: _Optional[str] = ..., locale_uuids: _Optional[_Iterable[str]] = ..., etag: _Optional[str] = ...) -> None: ...

class ChannelCreate(_message.Message):
    __slots__ = ["code", "display_name", "locale_uuids"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    LOCALE_UUIDS_FIELD_NUMBER: _ClassVar[int]
    code: str
    display_name: str
    locale_uuids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, code: _Optional[str] = ..., display_name: _Optional[str] = ..., locale_uuids: _Optional[_Iterable[str]] = ...) -> None: ...

class ChannelUpdate(_message.Message):
    __slots__ = ["code", "display_name", "etag", "locale_uuids", "update_mask", "uuid"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    LOCALE_UUIDS_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    code: str
    display_name: str
    etag: str
    locale_uuids: _common_pb2.UuidList
    update_mask: _field_mask_pb2.FieldMask
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., code: _Optional[str] = ..., display_name: _Optional[str] = ..., locale_uuids: _Optional[_Union[_common_pb2.UuidList, _Mapping]] = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ..., etag: _Optional[str] = ...) -> None: ...

class CreateChannelRequest(_message.Message):
    __slots__ = ["channel"]
    CHANNEL_FIELD_NUMBER: _ClassVar[int]
    channel: ChannelCreate
    def __init__(self, channel: _Optional[_Union[ChannelCreate, _Mapping]] = ...) -> None: ...

class CreateChannelResponse(_message.Message):
    __slots__ = ["channel"]
    CHANNEL_FIELD_NUMBER: _ClassVar[int]
    channel: Channel
    def __init__(self, channel: _Optional[_Union[Channel, _Mapping]] = ...) -> None: ...

class DeleteChannelRequest(_message.Message):
    __slots__ = ["channel_uuid", "etag"]
    CHANNEL_UUID_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    channel_uuid: str
    etag: str
    def __init__(self, channel_uuid: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class DeleteChannelResponse(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class GetChannelRequest(_message.Message):
    __slots__ = ["channel_uuid"]
    CHANNEL_UUID_FIELD_NUMBER: _ClassVar[int]
    channel_uuid: str
    def __init__(self, channel_uuid: _Optional[str] = ...) -> None: ...

class GetChannelResponse(_message.Message):
    __slots__ = ["channel"]
    CHANNEL_FIELD_NUMBER: _ClassVar[int]
    channel: Channel
    def __init__(self, channel: _Optional[_Union[Channel, _Mapping]] = ...) -> None: ...

class ListChannelsRequest(_message.Message):
    __slots__ = ["code", "codes", "created_at", "cursor", "display_name", "display_names", "locale_uuids", "order_by", "page", "size", "updated_at", "uuids"]
    CODES_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAMES_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    LOCALE_UUIDS_FIELD_NUMBER: _ClassVar[int]
    ORDER_BY_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUIDS_FIELD_NUMBER: _ClassVar[int]
    code: _common_pb2.StringFilter
    codes: _common_pb2.StringsFilter
    created_at: _common_pb2.TimeFilter
    cursor: str
    display_name: _common_pb2.StringFilter
    display_names: _common_pb2.StringsFilter
    locale_uuids: _common_pb2.StringsFilter
    order_by: _containers.RepeatedCompositeFieldContainer[_common_pb2.OrderBy]
    page: int
    size: int
    updated_at: _common_pb2.TimeFilter
    uuids: _common_pb2.StringsFilter
    def __init__(self, uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., codes: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., code: _Optional[_Union[_common_pb2.StringFilter, _Mapping]] = ..., display_names: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., display_name: _Optional[_Union[_common_pb2.StringFilter, _Mapping]] = ..., locale_uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., created_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., updated_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., page: _Optional[int] = ..., size: _Optional[int] = ..., cursor: _Optional[str] = ..., order_by: _Optional[_Iterable[_Union[_common_pb2.OrderBy, _Mapping]]] = ...) -> None: ...

class ListChannelsResponse(_message.Message):
    __slots__ = ["items", "pagination"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PAGINATION_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[Channel]
    pagination: _common_pb2.Pagination
    def __init__(self, items: _Optional[_Iterable[_Union[Channel, _Mapping]]] = ..., pagination: _Optional[_Union[_common_pb2.Pagination, _Mapping]] = ...) -> None: ...

class UpdateChannelRequest(_message.Message):
    __slots__ = ["channel", "channel_uuid"]
    CHANNEL_FIELD_NUMBER: _ClassVar[int]
    CHANNEL_UUID_FIELD_NUMBER: _ClassVar[int]
    channel: ChannelUpdate
    channel_uuid: str
    def __init__(self, channel_uuid: _Optional[str] = ..., channel: _Optional[_Union[ChannelUpdate, _Mapping]] = ...) -> None: ...

class UpdateChannelResponse(_message.Message):
    __slots__ = ["channel"]
    CHANNEL_FIELD_NUMBER: _ClassVar[int]
    channel: Channel
    def __init__(self, channel: _Optional[_Union[Channel, _Mapping]] = ...) -> None: ...
