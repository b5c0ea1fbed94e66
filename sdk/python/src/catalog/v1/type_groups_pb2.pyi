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
TYPE_GROUP_ENTITY_TYPE_ASSET: TypeGroupEntityType
TYPE_GROUP_ENTITY_TYPE_BRAND: TypeGroupEntityType
TYPE_GROUP_ENTITY_TYPE_CATEGORY: TypeGroupEntityType
TYPE_GROUP_ENTITY_TYPE_COLLECTION: TypeGroupEntityType
TYPE_GROUP_ENTITY_TYPE_PRODUCT: TypeGroupEntityType
TYPE_GROUP_ENTITY_TYPE_UNSPECIFIED: TypeGroupEntityType

class BulkCreateTypeGroupsRequest(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[TypeGroupCreate]
    def __init__(self, items: _Optional[_Iterable[_Union[TypeGroupCreate, _Mapping]]] = ...) -> None: ...

class BulkCreateTypeGroupsResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[TypeGroup]
    def __init__(self, items: _Optional[_Iterable[_Union[TypeGroup, _Mapping]]] = ...) -> None: ...

class BulkUpdateTypeGroupsRequest(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[TypeGroupUpdate]
    def __init__(self, items: _Optional[_Iterable[_Union[TypeGroupUpdate, _Mapping]]] = ...) -> None: ...

class BulkUpdateTypeGroupsResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[TypeGroup]
    def __init__(self, items: _Optional[_Iterable[_Union[TypeGroup, _Mapping]]] = ...) -> None: ...

class CreateTypeGroupRequest(_message.Message):
    __slots__ = ["type_group"]
    TYPE_GROUP_FIELD_NUMBER: _ClassVar[int]
    type_group: TypeGroupCreate
    def __init__(self, type_group: _Optional[_Union[TypeGroupCreate, _Mapping]] = ...) -> None: ...

class CreateTypeGroupResponse(_message.Message):
    __slots__ = ["type_group"]
    TYPE_GROUP_FIELD_NUMBER: _ClassVar[int]
    type_group: TypeGroup
    def __init__(self, type_group: _Optional[_Union[TypeGroup, _Mapping]] = ...) -> None: ...

class DeleteTypeGroupRequest(_message.Message):
    __slots__ = ["etag", "type_group_uuid"]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    TYPE_GROUP_UUID_FIELD_NUMBER: _ClassVar[int]
    etag: str
    type_group_uuid: str
    def __init__(self, type_group_uuid: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class DeleteTypeGroupResponse(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class GetTypeGroupRequest(_message.Message):
    __slots__ = ["type_group_uuid"]
    TYPE_GROUP_UUID_FIELD_NUMBER: _ClassVar[int]
    type_group_uuid: str
    def __init__(self, type_group_uuid: _Optional[str] = ...) -> None: ...

class GetTypeGroupResponse(_message.Message):
    __slots__ = ["type_group"]
    TYPE_GROUP_FIELD_NUMBER: _ClassVar[int]
    type_group: TypeGroup
    def __init__(self, type_group: _Optional[_Union[TypeGroup, _Mapping]] = ...) -> None: ...

class ListTypeGroupsRequest(_message.Message):
    __slots__ = ["code", "codes", "created_at", "cursor", "display_name", "display_names", "entity_types", "order_by", "page", "size", "updated_at", "uuids"]
    CODES_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAMES_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    ENTITY_TYPES_FIELD_NUMBER: _ClassVar[int]
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
    entity_types: _common_pb2.StringsFilter
    order_by: _containers.RepeatedCompositeFieldContainer[_common_pb2.OrderBy]
    page: int
    size: int
    updated_at: _common_pb2.TimeFilter
    uuids: _common_pb2.StringsFilter
    def __init__(self, uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., codes: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., code: _Optional[_Union[_common_pb2.StringFilter, _Mapping]] = ..., display_names: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., display_name: _Optional[_Union[_common_pb2.StringFilter, _Mapping]] = ..., entity_types: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., created_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., updated_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., page: _Optional[int] = ..., size: _Optional[int] = ..., cursor: _Optional[str] = ..., order_by: _Optional[_Iterable[_Union[_common_pb2.OrderBy, _Mapping]]] = ...) -> None: ...

class ListTypeGroupsResponse(_message.Message):
    __slots__ = ["items", "pagination"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PAGINATION_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[TypeGroup]
    pagination: _common_pb2.Pagination
    def __init__(self, items: _Optional[_Iterable[_Union[TypeGroup, _Mapping]]] = ..., pagination: _Optional[_Union[_common_pb2.Pagination, _Mapping]] = ...) -> None: ...

class TypeGroup(_message.Message):
    __slots__ = ["code", "created_at", "display_name", "entity_type", "etag", "updated_at", "uuid"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    ENTITY_TYPE_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    code: str
    created_at: _timestamp_pb2.Timestamp
    display_name: str
    entity_type: TypeGroupEntityType
    etag: str
    updated_at: _timestamp_pb2.Timestamp
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., code: _Optional[str] = ..., display_name: _Optional[str] = ..., entity_type: _Optional[_Union[TypeGroupEntityType, str]] = ..., etag: _Optional[str] = ...) -> None: ...

class TypeGroupCreate(_message.Message):
    __slots__ = ["code", "display_name", "entity_type"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    ENTITY_TYPE_FIELD_NUMBER: _ClassVar[int]
    code: str
    display_name: str
    entity_type: TypeGroupEntityType
    def __init__(self, code: _Optional[str] = ..., display_name: _Optional[str] = ..., entity_type: _Optional[_Union[TypeGroupEntityType, str]] = ...) -> None: ...

class TypeGroupUpdate(_message.Message):
    __slots__ = ["code", "display_name", "entity_type", "etag", "update_mask", "uuid"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    ENTITY_TYPE_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    code: str
    display_name: str
    entity_type: TypeGroupEntityType
    etag: str
    update_mask: _field_mask_pb2.FieldMask
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., code: _Optional[str] = ..., display_name: _Optional[str] = ..., entity_type: _Optional[_Union[TypeGroupEntityType, str]] = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ..., etag: _Optional[str] = ...) -> None: ...

class UpdateTypeGroupRequest(_message.Message):
    __slots__ = ["type_group", "type_group_uuid"]
    TYPE_GROUP_FIELD_NUMBER: _ClassVar[int]
    TYPE_GROUP_UUID_FIELD_NUMBER: _ClassVar[int]
    type_group: TypeGroupUpdate
    type_group_uuid: str
    def __init__(self, type_group_uuid: _Optional[str] = ..., type_group: _Optional[_Union[TypeGroupUpdate, _Mapping]] = ...) -> None: ...

class UpdateTypeGroupResponse(_message.Message):
    __slots__ = ["type_group"]
    TYPE_GROUP_FIELD_NUMBER: _ClassVar[int]
    type_group: TypeGroup
    def __init__(self, type_group: _Optional[_Union[TypeGroup, _Mapping]] = ...) -> None: ...

class TypeGroupEntityType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
