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

class AttributeTermContent(_message.Message):
    __slots__ = ["attribute_uuid", "created_at", "description", "display_name", "etag", "locale_uuid", "term_uuid", "updated_at", "uuid"]
    ATTRIBUTE_UUID_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    LOCALE_UUID_FIELD_NUMBER: _ClassVar[int]
    TERM_UUID_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    attribute_uuid: str
    created_at: _timestamp_pb2.Timestamp
    description: str
    display_name: str
    etag: str
    locale_uuid: str
    term_uuid: str
    updated_at: _timestamp_pb2.Timestamp
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., attribute_uuid: _Optional[str] = ..., term_uuid: _Optional[str] = ..., locale_uuid: _Optional[str] = ..., display_name: _Optional[str] = ..., description: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class AttributeTermContentCreate(_message.Message):
    __slots__ = ["description", "display_name", "locale_uuid"]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    LOCALE_UUID_FIELD_NUMBER: _ClassVar[int]
    description: str
    display_name: str
    locale_uuid: str
    def __init__(self, locale_uuid: _Optional[str] = ..., display_name: _Optional[str] = ..., description: _Optional[str] = ...) -> None: ...

class AttributeTermContentList(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[AttributeTermContent]
    def __init__(self, items: _Optional[_Iterable[_Union[AttributeTermContent, _Mapping]]] = ...) -> None: ...

class AttributeTermContentUpdate(_message.Message):
    __slots__ = ["description", "display_name", "etag", "locale_uuid", "update_mask", "uuid"]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    LOCALE_UUID_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    description: str
    display_name: str
    etag: str
    locale_uuid: str
    update_mask: _field_mask_pb2.FieldMask
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., locale_uuid: _Optional[str] = ..., display_name: _Optional[str] = ..., description: _Optional[str] = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ..., etag: _Optional[str] = ...) -> None: ...

class BulkCreateAttributeTermContentsRequest(_message.Message):
    __slots__ = ["attribute_uuid", "items", "term_uuid"]
    ATTRIBUTE_UUID_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    TERM_UUID_FIELD_NUMBER: _ClassVar[int]
    attribute_uuid: str
    items: _containers.RepeatedCompositeFieldContainer[AttributeTermContentCreate]
    term_uuid: str
    def __init__(self, attribute_uuid: _Optional[str] = ..., term_uuid: _Optional[str] = ..., items: _Optional[_Iterable[_Union[AttributeTermContentCreate, _Mapping]]] = ...) -> None: ...

class BulkCreateAttributeTermContentsResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[AttributeTermContent]
    def __init__(self, items: _Optional[_Iterable[_Union[AttributeTermContent, _Mapping]]] = ...) -> None: ...

class BulkUpdateAttributeTermContentsRequest(_message.Message):
    __slots__ = ["attribute_uuid", "items", "term_uuid"]
    ATTRIBUTE_UUID_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    TERM_UUID_FIELD_NUMBER: _ClassVar[int]
    attribute_uuid: str
    items: _containers.RepeatedCompositeFieldContainer[AttributeTermContentUpdate]
    term_uuid: str
    def __init__(self, attribute_uuid: _Optional[str] = ..., term_uuid: _Optional[str] = ..., items: _Optional[_Iterable[_Union[AttributeTermContentUpdate, _Mapping]]] = ...) -> None: ...

class BulkUpdateAttributeTermContentsResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[AttributeTermContent]
    def __init__(self, items: _Optional[_Iterable[_Union[AttributeTermContent, _Mapping]]] = ...) -> None: ...

class CreateAttributeTermContentRequest(_message.Message):
    __slots__ = ["attribute_term_content", "attribute_uuid", "term_uuid"]
    ATTRIBUTE_TERM_CONTENT_FIELD_NUMBER: _ClassVar[int]
    ATTRIBUTE_UUID_FIELD_NUMBER: _ClassVar[int]
    TERM_UUID_FIELD_NUMBER: _ClassVar[int]
    attribute_term_content: AttributeTermContentCreate
    attribute_uuid: str
    term_uuid: str
    def __init__(self, attribute_uuid: _Optional[str] = ..., term_uuid: _Optional[str] = ..., attribute_term_content: _Optional[_Union[AttributeTermContentCreate, _Mapping]] = ...) -> None: ...

class CreateAttributeTermContentResponse(_message.Message):
    __slots__ = ["attribute_term_content"]
    ATTRIBUTE_TERM_CONTENT_FIELD_NUMBER: _ClassVar[int]
    attribute_term_content: AttributeTermContent
    def __init__(self, attribute_term_content: _Optional[_Union[AttributeTermContent, _Mapping]] = ...) -> None: ...

class DeleteAttributeTermContentRequest(_message.Message):
    __slots__ = ["attribute_uuid", "etag", "term_content_uuid", "term_uuid"]
    ATTRIBUTE_UUID_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    TERM_CONTENT_UUID_FIELD_NUMBER: _ClassVar[int]
    TERM_UUID_FIELD_NUMBER: _ClassVar[int]
    attribute_uuid: str
    etag: str
    term_content_uuid: str
    term_uuid: str
    def __init__(self, attribute_uuid: _Optional[str] = ..., term_uuid: _Optional[str] = ..., term_content_uuid: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class DeleteAttributeTermContentResponse(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class GetAttributeTermContentRequest(_message.Message):
    __slots__ = ["attribute_uuid", "term_content_uuid", "term_uuid"]
    ATTRIBUTE_UUID_FIELD_NUMBER: _ClassVar[int]
    TERM_CONTENT_UUID_FIELD_NUMBER: _ClassVar[int]
    TERM_UUID_FIELD_NUMBER: _ClassVar[int]
    attribute_uuid: str
    term_content_uuid: str
    term_uuid: str
    def __init__(self, attribute_uuid: _Optional[str] = ..., term_uuid: _Optional[str] = ..., term_content_uuid: _Optional[str] = ...) -> None: ...

class GetAttributeTermContentResponse(_message.Message):
    __slots__ = ["attribute_term_content"]
    ATTRIBUTE_TERM_CONTENT_FIELD_NUMBER: _ClassVar[int]
    attribute_term_content: AttributeTermContent
    def __init__(self, attribute_term_content: _Optional[_Union[AttributeTermContent, _Mapping]] = ...) -> None: ...

class ListAttributeTermContentsRequest(_message.Message):
    __slots__ = ["attribute_uuid", "created_at", "cursor", "display_name", "display_names", "locale_uuids", "order_by", "page", "size", "term_uuid", "updated_at", "uuids"]
    ATTRIBUTE_UUID_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAMES_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    LOCALE_UUIDS_FIELD_NUMBER: _ClassVar[int]
    ORDER_BY_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    TERM_UUID_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUIDS_FIELD_NUMBER: _ClassVar[int]
    attribute_uuid: str
    created_at: _common_pb2.TimeFilter
    cursor: str
    display_name: _common_pb2.StringFilter
    display_names: _common_pb2.StringsFilter
    locale_uuids: _common_pb2.StringsFilter
    order_by: _containers.RepeatedCompositeFieldContainer[_common_pb2.OrderBy]
    page: int
    size: int
    term_uuid: str
    updated_at: _common_pb2.TimeFilter
    uuids: _common_pb2.StringsFilter
    def __init__(self, attribute_uuid: _Optional[str] = ..., term_uuid: _Optional[str] = ..., uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., locale_uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., display_names: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., display_name: _Optional[_Union[_common_pb2.StringFilter, _Mapping]] = ..., created_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., updated_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., page: _Optional[int] = ..., size: _Optional[int] = ..., cursor: _Optional[str] = ..., order_by: _Optional[_Iterable[_Union[_common_pb2.OrderBy, _Mapping]]] = ...) -> None: ...

class ListAttributeTermContentsResponse(_message.Message):
    __slots__ = ["items", "pagination"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PAGINATION_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[AttributeTermContent]
    pagination: _common_pb2.Pagination
    def __init__(self, items: _Optional[_Iterable[_Union[AttributeTermContent, _Mapping]]] = ..., pagination: _Optional[_Union[_common_pb2.Pagination, _Mapping]] = ...) -> None: ...

class UpdateAttributeTermContentRequest(_message.Message):
    __slots__ = ["attribute_term_content", "attribute_uuid", "term_content_uuid", "term_uuid"]
    ATTRIBUTE_TERM_CONTENT_FIELD_NUMBER: _ClassVar[int]
    ATTRIBUTE_UUID_FIELD_NUMBER: _ClassVar[int]
    TERM_CONTENT_UUID_FIELD_NUMBER: _ClassVar[int]
    TERM_UUID_FIELD_NUMBER: _ClassVar[int]
    attribute_term_content: AttributeTermContentUpdate
    attribute_uuid: str
    term_content_uuid: str
    term_uuid: str
    def __init__(self, attribute_uuid: _Optional[str] = ..., term_uuid: _Optional[str] = ..., term_content_uuid: _Optional[str] = ..., attribute_term_content: _Optional[_Union[AttributeTermContentUpdate, _Mapping]] = ...) -> None: ...

class UpdateAttributeTermContentResponse(_message.Message):
    __slots__ = ["attribute_term_content"]
    ATTRIBUTE_TERM_CONTENT_FIELD_NUMBER: _ClassVar[int]
    attribute_term_content: AttributeTermContent
    def __init__(self, attribute_term_content: _Optional[_Union[AttributeTermContent, _Mapping]] = ...) -> None: ...
