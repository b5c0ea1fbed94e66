from catalog.v1 import attribute_contents_pb2 as _attribute_contents_pb2
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

ATTRIBUTE_STATUS_DRAFT: AttributeStatus
ATTRIBUTE_STATUS_PUBLISHED: AttributeStatus
ATTRIBUTE_STATUS_REMOVED: AttributeStatus
ATTRIBUTE_STATUS_UNPUBLISHED: AttributeStatus
ATTRIBUTE_STATUS_UNSPECIFIED: AttributeStatus
ATTRIBUTE_TRANSITION_PUBLISH: AttributeTransition
ATTRIBUTE_TRANSITION_REMOVE: AttributeTransition
ATTRIBUTE_TRANSITION_RESTORE: AttributeTransition
ATTRIBUTE_TRANSITION_UNPUBLISH: AttributeTransition
ATTRIBUTE_TRANSITION_UNSPECIFIED: AttributeTransition
DESCRIPTOR: _descriptor.FileDescriptor

class Attribute(_message.Message):
    __slots__ = ["code", "content_uuids", "contents", "created_at", "display_name", "etag", "removed_at", "status", "updated_at", "uuid"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    CONTENTS_FIELD_NUMBER: _ClassVar[int]
    CONTENT_UUIDS_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    REMOVED_AT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    code: str
    content_uuids: _common_pb2.UuidList
    contents: _attribute_contents_pb2.AttributeContentList
    created_at: _timestamp_pb2.Timestamp
    display_name: str
    etag: str
    removed_at: _timestamp_pb2.Timestamp
    status: AttributeStatus
    updated_at: _timestamp_pb2.Timestamp
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., removed_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., status: _Optional[_Union[AttributeStatus, str]] = ..., code: _Optional[str] = ..., display_name: _Optional[str] = ..., content_uuids: _Optional[_Union[_common_pb2.UuidList, _Mapping]] = ..., contents: _Optional[_Union[_attribute_contents_pb2.AttributeContentList, _Mapping]] = ..., etag: _Optional[str] = ...) -> None: ...

class AttributeCreate(_message.Message):
    __slots__ = ["code", "display_name"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    code: str
    display_name: str
    def __init__(self, code: _Optional[str] = ..., display_name: _Optional[str] = ...) -> None: ...

class AttributeInclude(_message.Message):
    __slots__ = ["contents"]
    CONTENTS_FIELD_NUMBER: _ClassVar[int]
    contents: bool
    def __init__(self, contents: bool = ...) -> None: ...

class AttributeList(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[Attribute]
    def __init__(self, items: _Optional[_Iterable[_Union[Attribute, _Mapping]]] = ...) -> None: ...

class AttributeUpdate(_message.Message):
    __slots__ = ["code", "display_name", "etag", "update_mask", "uuid"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    code: str
    display_name: str
    etag: str
    update_mask: _field_mask_pb2.FieldMask
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., code: _Optional[str] = ..., display_name: _Optional[str] = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ..., etag: _Optional[str] = ...) -> None: ...

class BulkCreateAttributesRequest(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[AttributeCreate]
    def __init__(self, items: _Optional[_Iterable[_Union[AttributeCreate, _Mapping]]] = ...) -> None: ...

class BulkCreateAttributesResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[Attribute]
    def __init__(self, items: _Optional[_Iterable[_Union[Attribute, _Mapping]]] = ...) -> None: ...

class BulkTransitionAttributesRequest(_message.Message):
    __slots__ = ["etags", "transition", "uuids"]
    class EtagsEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ETAGS_FIELD_NUMBER: _ClassVar[int]
    TRANSITION_FIELD_NUMBER: _ClassVar[int]
    UUIDS_FIELD_NUMBER: _ClassVar[int]
    etags: _containers.ScalarMap[str, str]
    transition: AttributeTransition
    uuids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, transition: _Optional[_Union[AttributeTransition, str]] = ..., uuids: _Optional[_Iterable[str]] = ..., etags: _Optional[_Mapping[str, str]] = ...) -> None: ...

class BulkTransitionAttributesResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[Attribute]
    def __init__(self, items: _Optional[_Iterable[_Union[Attribute, _Mapping]]] = ...) -> None: ...

class BulkUpdateAttributesRequest(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[AttributeUpdate]
    def __init__(self, items: _Optional[_Iterable[_Union[AttributeUpdate, _Mapping]]] = ...) -> None: ...

class BulkUpdateAttributesResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[Attribute]
    def __init__(self, items: _Optional[_Iterable[_Union[Attribute, _Mapping]]] = ...) -> None: ...

class CreateAttributeRequest(_message.Message):
    __slots__ = ["attribute"]
    ATTRIBUTE_FIELD_NUMBER: _ClassVar[int]
    attribute: AttributeCreate
    def __init__(self, attribute: _Optional[_Union[AttributeCreate, _Mapping]] = ...) -> None: ...

class CreateAttributeResponse(_message.Message):
    __slots__ = ["attribute"]
    ATTRIBUTE_FIELD_NUMBER: _ClassVar[int]
    attribute: Attribute
    def __init__(self, attribute: _Optional[_Union[Attribute, _Mapping]] = ...) -> None: ...

class DeleteAttributeRequest(_message.Message):
    __slots__ = ["attribute_uuid", "etag"]
    ATTRIBUTE_UUID_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    attribute_uuid: str
    etag: str
    def __init__(self, attribute_uuid: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class DeleteAttributeResponse(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class GetAttributeRequest(_message.Message):
    __slots__ = ["attribute_uuid", "expand", "include"]
    ATTRIBUTE_UUID_FIELD_NUMBER: _ClassVar[int]
    EXPAND_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_FIELD_NUMBER: _ClassVar[int]
    attribute_uuid: str
    expand: AttributeInclude
    include: AttributeInclude
    def __init__(self, attribute_uuid: _Optional[str] = ..., include: _Optional[_Union[AttributeInclude, _Mapping]] = ..., expand: _Optional[_Union[AttributeInclude, _Mapping]] = ...) -> None: ...

class GetAttributeResponse(_message.Message):
    __slots__ = ["attribute"]
    ATTRIBUTE_FIELD_NUMBER: _ClassVar[int]
    attribute: Attribute
    def __init__(self, attribute: _Optional[_Union[Attribute, _Mapping]] = ...) -> None: ...

class ListAttributesRequest(_message.Message):
    __slots__ = ["code", "codes", "created_at", "cursor", "display_name", "display_names", "expand", "include", "is_removed", "order_by", "page", "size", "statuses", "updated_at", "uuids"]
    CODES_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAMES_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    EXPAND_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_FIELD_NUMBER: _ClassVar[int]
    IS_REMOVED_FIELD_NUMBER: _ClassVar[int]
    ORDER_BY_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    STATUSES_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUIDS_FIELD_NUMBER: _ClassVar[int]
    code: _common_pb2.StringFilter
    codes: _common_pb2.StringsFilter
    created_at: _common_pb2.TimeFilter
    cursor: str
    display_name: _common_pb2.StringFilter
    display_names: _common_pb2.StringsFilter
    expand: AttributeInclude
    include: AttributeInclude
    is_removed: _common_pb2.BoolFilter
    order_by: _containers.RepeatedCompositeFieldContainer[_common_pb2.OrderBy]
    page: int
    size: int
    statuses: _common_pb2.StringsFilter
    updated_at: _common_pb2.TimeFilter
    uuids: _common_pb2.StringsFilter
    def __init__(self, uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., codes: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., code: _Optional[_Union[_common_pb2.StringFilter, _Mapping]] = ..., display_names: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., display_name: _Optional[_Union[_common_pb2.StringFilter, _Mapping]] = ..., statuses: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., created_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., updated_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., is_removed: _Optional[_Union[_common_pb2.BoolFilter, _Mapping]] = ..., page: _Optional[int] = ..., size: _Optional[int] = ..., cursor: _Optional[str] = ..., include: _Optional[_Union[AttributeInclude, _Mapping]] = ..., expand: _Optional[_Union[AttributeInclude, _Mapping]] = ..., order_by: _Optional[_Iterable[_Union[_common_pb2.OrderBy, _Mapping]]] = ...) -> None: ...

class ListAttributesResponse(_message.Message):
    __slots__ = ["items", "pagination"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PAGINATION_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[Attribute]
    pagination: _common_pb2.Pagination
    def __init__(self, items: _Optional[_Iterable[_Union[Attribute, _Mapping]]] = ..., pagination: _Optional[_Union[_common_pb2.Pagination, _Mapping]] = ...) -> None: ...

class TransitionAttributeRequest(_message.Message):
    __slots__ = ["attribute_uuid", "etag", "transition"]
    ATTRIBUTE_UUID_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    TRANSITION_FIELD_NUMBER: _ClassVar[int]
    attribute_uuid: str
    etag: str
    transition: AttributeTransition
    def __init__(self, attribute_uuid: _Optional[str] = ..., transition: _Optional[_Union[AttributeTransition, str]] = ..., etag: _Optional[str] = ...) -> None: ...

class TransitionAttributeResponse(_message.Message):
    __slots__ = ["attribute"]
    ATTRIBUTE_FIELD_NUMBER: _ClassVar[int]
    attribute: Attribute
    def __init__(self, attribute: _Optional[_Union[Attribute, _Mapping]] = ...) -> None: ...

class UpdateAttributeRequest(_message.Message):
    __slots__ = ["attribute", "attribute_uuid"]
    ATTRIBUTE_FIELD_NUMBER: _ClassVar[int]
    ATTRIBUTE_UUID_FIELD_NUMBER: _ClassVar[int]
    attribute: AttributeUpdate
    attribute_uuid: str
    def __init__(self, attribute_uuid: _Optional[str] = ..., attribute: _Optional[_Union[AttributeUpdate, _Mapping]] = ...) -> None: ...

class UpdateAttributeResponse(_message.Message):
    __slots__ = ["attribute"]
    ATTRIBUTE_FIELD_NUMBER: _ClassVar[int]
    attribute: Attribute
    def __init__(self, attribute: _Optional[_Union[Attribute, _Mapping]] = ...) -> None: ...

class AttributeStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class AttributeTransition(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
