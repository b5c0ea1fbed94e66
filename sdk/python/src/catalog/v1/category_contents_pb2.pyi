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

class BulkCreateCategoryContentsRequest(_message.Message):
    __slots__ = ["category_uuid", "items"]
    CATEGORY_UUID_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    category_uuid: str
    items: _containers.RepeatedCompositeFieldContainer[CategoryContentCreate]
    def __init__(self, category_uuid: _Optional[str] = ..., items: _Optional[_Iterable[_Union[CategoryContentCreate, _Mapping]]] = ...) -> None: ...

class BulkCreateCategoryContentsResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[CategoryContent]
    def __init__(self, items: _Optional[_Iterable[_Union[CategoryContent, _Mapping]]] = ...) -> None: ...

class BulkUpdateCategoryContentsRequest(_message.Message):
    __slots__ = ["category_uuid", "items"]
    CATEGORY_UUID_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    category_uuid: str
    items: _containers.RepeatedCompositeFieldContainer[CategoryContentUpdate]
    def __init__(self, category_uuid: _Optional[str] = ..., items: _Optional[_Iterable[_Union[CategoryContentUpdate, _Mapping]]] = ...) -> None: ...

class BulkUpdateCategoryContentsResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[CategoryContent]
    def __init__(self, items: _Optional[_Iterable[_Union[CategoryContent, _Mapping]]] = ...) -> None: ...

class CategoryContent(_message.Message):
    __slots__ = ["category_uuid", "created_at", "description", "display_name", "etag", "locale_uuid", "updated_at", "uuid"]
    CATEGORY_UUID_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    LOCALE_UUID_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    category_uuid: str
    created_at: _timestamp_pb2.Timestamp
    description: str
    display_name: str
    etag: str
    locale_uuid: str
    updated_at: _timestamp_pb2.Timestamp
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., category_uuid: _Optional[str] = ..., locale_uuid: _Optional[str] = ..., display_name: _Optional[str] = ..., description: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class CategoryContentCreate(_message.Message):
    __slots__ = ["description", "display_name", "locale_uuid"]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    LOCALE_UUID_FIELD_NUMBER: _ClassVar[int]
    description: str
    display_name: str
    locale_uuid: str
    def __init__(self, locale_uuid: _Optional[str] = ..., display_name: _Optional[str] = ..., description: _Optional[str] = ...) -> None: ...

class CategoryContentList(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[CategoryContent]
    def __init__(self, items: _Optional[_Iterable[_Union[CategoryContent, _Mapping]]] = ...) -> None: ...

class CategoryContentUpdate(_message.Message):
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

class CreateCategoryContentRequest(_message.Message):
    __slots__ = ["category_content", "category_uuid"]
    CATEGORY_CONTENT_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_UUID_FIELD_NUMBER: _ClassVar[int]
    category_content: CategoryContentCreate
    category_uuid: str
    def __init__(self, category_uuid: _Optional[str] = ..., category_content: _Optional[_Union[CategoryContentCreate, _Mapping]] = ...) -> None: ...

class CreateCategoryContentResponse(_message.Message):
    __slots__ = ["category_content"]
    CATEGORY_CONTENT_FIELD_NUMBER: _ClassVar[int]
    category_content: CategoryContent
    def __init__(self, category_content: _Optional[_Union[CategoryContent, _Mapping]] = ...) -> None: ...

class DeleteCategoryContentRequest(_message.Message):
    __slots__ = ["category_content_uuid", "category_uuid", "etag"]
    CATEGORY_CONTENT_UUID_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_UUID_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    category_content_uuid: str
    category_uuid: str
    etag: str
    def __init__(self, category_uuid: _Optional[str] = ..., category_content_uuid: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class DeleteCategoryContentResponse(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class GetCategoryContentRequest(_message.Message):
    __slots__ = ["category_content_uuid", "category_uuid"]
    CATEGORY_CONTENT_UUID_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_UUID_FIELD_NUMBER: _ClassVar[int]
    category_content_uuid: str
    category_uuid: str
    def __init__(self, category_uuid: _Optional[str] = ..., category_content_uuid: _Optional[str] = ...) -> None: ...

class GetCategoryContentResponse(_message.Message):
    __slots__ = ["category_content"]
    CATEGORY_CONTENT_FIELD_NUMBER: _ClassVar[int]
    category_content: CategoryContent
    def __init__(self, category_content: _Optional[_Union[CategoryContent, _Mapping]] = ...) -> None: ...

class ListCategoryContentsRequest(_message.Message):
    __slots__ = ["category_uuid", "created_at", "cursor", "display_name", "display_names", "locale_uuids", "order_by", "page", "size", "updated_at", "uuids"]
    CATEGORY_UUID_FIELD_NUMBER: _ClassVar[int]
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
    category_uuid: str
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
    def __init__(self, category_uuid: _Optional[str] = ..., uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., locale_uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., display_names: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., display_name: _Optional[_Union[_common_pb2.StringFilter, _Mapping]] = ..., created_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., updated_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., page: _Optional[int] = ..., size: _Optional[int] = ..., cursor: _Optional[str] = ..., order_by: _Optional[_Iterable[_Union[_common_pb2.OrderBy, _Mapping]]] = ...) -> None: ...

class ListCategoryContentsResponse(_message.Message):
    __slots__ = ["items", "pagination"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PAGINATION_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[CategoryContent]
    pagination: _common_pb2.Pagination
    def __init__(self, items: _Optional[_Iterable[_Union[CategoryContent, _Mapping]]] = ..., pagination: _Optional[_Union[_common_pb2.Pagination, _Mapping]] = ...) -> None: ...

class UpdateCategoryContentRequest(_message.Message):
    __slots__ = ["category_content", "category_content_uuid", "category_uuid"]
    CATEGORY_CONTENT_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_CONTENT_UUID_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_UUID_FIELD_NUMBER: _ClassVar[int]
    category_content: CategoryContentUpdate
    category_content_uuid: str
    category_uuid: str
    def __init__(self, category_uuid: _Optional[str] = ..., category_content_uuid: _Optional[str] = ..., category_content: _Optional[_Union[CategoryContentUpdate, _Mapping]] = ...) -> None: ...

class UpdateCategoryContentResponse(_message.Message):
    __slots__ = ["category_content"]
    CATEGORY_CONTENT_FIELD_NUMBER: _ClassVar[int]
    category_content: CategoryContent
    def __init__(self, category_content: _Optional[_Union[CategoryContent, _Mapping]] = ...) -> None: ...
