from catalog.v1 import attribute_term_contents_pb2 as _attribute_term_contents_pb2
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

class AttributeTerm(_message.Message):
    __slots__ = ["attribute_uuid", "code", "content_uuids", "contents", "created_at", "display_name", "etag", "position", "updated_at", "uuid"]
    ATTRIBUTE_UUID_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    CONTENTS_FIELD_NUMBER: _ClassVar[int]
    CONTENT_UUIDS_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    attribute_uuid: str
    code: str
    content_uuids: _common_pb2.UuidList
    contents: _attribute_term_contents_pb2.AttributeTermContentList
    created_at: _timestamp_pb2.Timestamp
    display_name: str
    etag: str
    position: int
    updated_at: _timestamp_pb2.Timestamp
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., attribute_uuid: _Optional[str] = ..., code: _Optional[str] = ..., display_name: _Optional[str] = ..., position: _Optional[int] = ..., content_uuids: _Optional[_Union[_common_pb2.UuidList, _Mapping]] = ..., contents: _Optional[_Union[_attribute_term_contents_pb2.AttributeTermContentList, _Mapping]] = ..., etag: _Optional[str] = ...) -> None: ...

class AttributeTermCreate(_message.Message):
    __slots__ = ["code", "display_name", "position"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    code: str
    display_name: str
    position: int
    def __init__(self, code: _Optional[str] = ..., display_name: _Optional[str] = ..., position: _Optional[int] = ...) -> None: ...

class AttributeTermInclude(_message.Message):
    __slots__ = ["contents"]
    CONTENTS_FIELD_NUMBER: _ClassVar[int]
    contents: bool
    def __init__(self, contents: bool = ...) -> None: ...

class AttributeTermUpdate(_message.Message):
    __slots__ = ["code", "display_name", "etag", "position", "update_mask", "uuid"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    code: str
    display_name: str
    etag: str
    position: int
    update_mask: _field_mask_pb2.FieldMask
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., code: _Optional[str] = ..., display_name: _Optional[str] = ..., position: _Optional[int] = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ..., etag: _Optional[str] = ...) -> None: ...

class BulkCreateAttributeTermsRequest(_message.Message):
    __slots__ = ["attribute_uuid", "items"]
    ATTRIBUTE_UUID_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    attribute_uuid: str
    items: _containers.RepeatedCompositeFieldContainer[AttributeTermCreate]
    def __init__(self, attribute_uuid: _Optional[str] = ..., items: _Optional[_Iterable[_Union[AttributeTermCreate, _Mapping]]] = ...) -> None: ...

class BulkCreateAttributeTermsResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[AttributeTerm]
    def __init__(self, items: _Optional[_Iterable[_Union[AttributeTerm, _Mapping]]] = ...) -> None: ...

class BulkUpdateAttributeTermsRequest(_message.Message):
    __slots__ = ["attribute_uuid", "items"]
    ATTRIBUTE_UUID_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    attribute_uuid: str
    items: _containers.RepeatedCompositeFieldContainer[AttributeTermUpdate]
    def __init__(self, attribute_uuid: _Optional[str] = ..., items: _Optional[_Iterable[_Union[AttributeTermUpdate, _Mapping]]] = ...) -> None: ...

class BulkUpdateAttributeTermsResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[AttributeTerm]
    def __init__(self, items: _Optional[_Iterable[_Union[AttributeTerm, _Mapping]]] = ...) -> None: ...

class CreateAttributeTermRequest(_message.Message):
    __slots__ = ["attribute_term", "attribute_uuid"]
    ATTRIBUTE_TERM_FIELD_NUMBER: _ClassVar[int]
    ATTRIBUTE_UUID_FIELD_NUMBER: _ClassVar[int]
    attribute_term: AttributeTermCreate
    attribute_uuid: str
    def __init__(self, attribute_uuid: _Optional[str] = ..., attribute_term: _Optional[_Union[AttributeTermCreate, _Mapping]] = ...) -> None: ...

class CreateAttributeTermResponse(_message.Message):
    __slots__ = ["attribute_term"]
    ATTRIBUTE_TERM_FIELD_NUMBER: _ClassVar[int]
    attribute_term: AttributeTerm
    def __init__(self, attribute_term: _Optional[_Union[AttributeTerm, _Mapping]] = ...) -> None: ...

class DeleteAttributeTermRequest(_message.Message):
    __slots__ = ["attribute_uuid", "etag", "term_uuid"]
    ATTRIBUTE_UUID_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    TERM_UUID_FIELD_NUMBER: _ClassVar[int]
    attribute_uuid: str
    etag: str
    term_uuid: str
    def __init__(self, attribute_uuid: _Optional[str] = ..., term_uuid: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class DeleteAttributeTermResponse(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class GetAttributeTermRequest(_message.Message):
    __slots__ = ["attribute_uuid", "expand", "include", "term_uuid"]
    ATTRIBUTE_UUID_FIELD_NUMBER: _ClassVar[int]
    EXPAND_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_FIELD_NUMBER: _ClassVar[int]
    TERM_UUID_FIELD_NUMBER: _ClassVar[int]
    attribute_uuid: str
    expand: AttributeTermInclude
    include: AttributeTermInclude
    term_uuid: str
    def __init__(self, attribute_uuid: _Optional[str] = ..., term_uuid: _Optional[str] = ..., include: _Optional[_Union[AttributeTermInclude, _Mapping]] = ..., expand: _Optional[_Union[AttributeTermInclude, _Mapping]] = ...) -> None: ...

class GetAttributeTermResponse(_message.Message):
    __slots__ = ["attribute_term"]
    ATTRIBUTE_TERM_FIELD_NUMBER: _ClassVar[int]
    attribute_term: AttributeTerm
    def __init__(self, attribute_term: _Optional[_Union[AttributeTerm, _Mapping]] = ...) -> None: ...

class ListAttributeTermsRequest(_message.Message):
    __slots__ = ["attribute_uuid", "code", "codes", "created_at", "cursor", "display_name", "display_names", "expand", "include", "order_by", "page", "position", "size", "updated_at", "uuids"]
    ATTRIBUTE_UUID_FIELD_NUMBER: _ClassVar[int]
    CODES_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAMES_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    EXPAND_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_FIELD_NUMBER: _ClassVar[int]
    ORDER_BY_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUIDS_FIELD_NUMBER: _ClassVar[int]
    attribute_uuid: str
    code: _common_pb2.StringFilter
    codes: _common_pb2.StringsFilter
    created_at: _common_pb2.TimeFilter
    cursor: str
    display_name: _common_pb2.StringFilter
    display_names: _common_pb2.StringsFilter
    expand: AttributeTermInclude
    include: AttributeTermInclude
    order_by: _containers.RepeatedCompositeFieldContainer[_common_pb2.OrderBy]
    page: int
    position: _common_pb2.IntFilter
    size: int
    updated_at: _common_pb2.TimeFilter
    uuids: _common_pb2.StringsFilter
    def __init__(self, attribute_uuid: _Optional[str] = ..., uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., codes: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., code: _Optional[_Union[_common_pb2.StringFilter, _Mapping]] = ..., display_names: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., display_name: _Optional[_Union[_common_pb2.StringFilter, _Mapping]] = ..., position: _Optional[_Union[_common_pb2.IntFilter, _Mapping]] = ..., created_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., updated_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., page: _Optional[int] = ..., size: _Optional[int] = ..., cursor: _Optional[str] = ..., include: _Optional[_Union[AttributeTermInclude, _Mapping]] = ..., expand: _Optional[_Union[AttributeTermInclude, _Mapping]] = ..., order_by: _Optional[_Iterable[_Union[_common_pb2.OrderBy, _Mapping]]] = ...) -> None: ...

class ListAttributeTermsResponse(_message.Message):
    __slots__ = ["items", "pagination"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PAGINATION_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[AttributeTerm]
    pagination: _common_pb2.Pagination
    def __init__(self, items: _Optional[_Iterable[_Union[AttributeTerm, _Mapping]]] = ..., pagination: _Optional[_Union[_common_pb2.Pagination, _Mapping]] = ...) -> None: ...

class UpdateAttributeTermRequest(_message.Message):
    __slots__ = ["attribute_term", "attribute_uuid", "term_uuid"]
    ATTRIBUTE_TERM_FIELD_NUMBER: _ClassVar[int]
    ATTRIBUTE_UUID_FIELD_NUMBER: _ClassVar[int]
    TERM_UUID_FIELD_NUMBER: _ClassVar[int]
    attribute_term: AttributeTermUpdate
    attribute_uuid: str
    term_uuid: str
    def __init__(self, attribute_uuid: _Optional[str] = ..., term_uuid: _Optional[str] = ..., attribute_term: _Optional[_Union[AttributeTermUpdate, _Mapping]] = ...) -> None: ...

class UpdateAttributeTermResponse(_message.Message):
    __slots__ = ["attribute_term"]
    ATTRIBUTE_TERM_FIELD_NUMBER: _ClassVar[int]
    attribute_term: AttributeTerm
    def __init__(self, attribute_term: _Optional[_Union[AttributeTerm, _Mapping]] = ...) -> None: ...
