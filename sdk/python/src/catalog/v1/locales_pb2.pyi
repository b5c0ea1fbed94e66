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

class BulkCreateLocalesRequest(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[LocaleCreate]
    def __init__(self, items: _Optional[_Iterable[_Union[LocaleCreate, _Mapping]]] = ...) -> None: ...

class BulkCreateLocalesResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[Locale]
    def __init__(self, items: _Optional[_Iterable[_Union[Locale, _Mapping]]] = ...) -> None: ...

class BulkUpdateLocalesRequest(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[LocaleUpdate]
    def __init__(self, items: _Optional[_Iterable[_Union[LocaleUpdate, _Mapping]]] = ...) -> None: ...

class BulkUpdateLocalesResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[Locale]
    def __init__(self, items: _Optional[_Iterable[_Union[Locale, _Mapping]]] = ...) -> None: ...

class CreateLocaleRequest(_message.Message):
    __slots__ = ["locale"]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    locale: LocaleCreate
    def __init__(self, locale: _Optional[_Union[LocaleCreate, _Mapping]] = ...) -> None: ...

class CreateLocaleResponse(_message.Message):
    __slots__ = ["locale"]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    locale: Locale
    def __init__(self, locale: _Optional[_Union[Locale, _Mapping]] = ...) -> None: ...

class DeleteLocaleRequest(_message.Message):
    __slots__ = ["etag", "locale_uuid"]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    LOCALE_UUID_FIELD_NUMBER: _ClassVar[int]
    etag: str
    locale_uuid: str
    def __init__(self, locale_uuid: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class DeleteLocaleResponse(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class GetLocaleRequest(_message.Message):
    __slots__ = ["locale_uuid"]
    LOCALE_UUID_FIELD_NUMBER: _ClassVar[int]
    locale_uuid: str
    def __init__(self, locale_uuid: _Optional[str] = ...) -> None: ...

class GetLocaleResponse(_message.Message):
    __slots__ = ["locale"]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    locale: Locale
    def __init__(self, locale: _Optional[_Union[Locale, _Mapping]] = ...) -> None: ...

class ListLocalesRequest(_message.Message):
    __slots__ = ["code", "codes", "created_at", "cursor", "display_name", "display_names", "is_default", "order_by", "page", "size", "updated_at", "uuids"]
    CODES_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAMES_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    IS_DEFAULT_FIELD_NUMBER: _ClassVar[int]
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
    is_default: _common_pb2.BoolFilter
    order_by: _containers.RepeatedCompositeFieldContainer[_common_pb2.OrderBy]
    page: int
    size: int
    updated_at: _common_pb2.TimeFilter
    uuids: _common_pb2.StringsFilter
    def __init__(self, uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., codes: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., code: _Optional[_Union[_common_pb2.StringFilter, _Mapping]] = ..., display_names: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., display_name: _Optional[_Union[_common_pb2.StringFilter, _Mapping]] = ..., is_default: _Optional[_Union[_common_pb2.BoolFilter, _Mapping]] = ..., created_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., updated_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., page: _Optional[int] = ..., size: _Optional[int] = ..., cursor: _Optional[str] = ..., order_by: _Optional[_Iterable[_Union[_common_pb2.OrderBy, _Mapping]]] = ...) -> None: ...

class ListLocalesResponse(_message.Message):
    __slots__ = ["items", "pagination"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PAGINATION_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[Locale]
    pagination: _common_pb2.Pagination
    def __init__(self, items: _Optional[_Iterable[_Union[Locale, _Mapping]]] = ..., pagination: _Optional[_Union[_common_pb2.Pagination, _Mapping]] = ...) -> None: ...

class Locale(_message.Message):
    __slots__ = ["code", "created_at", "display_name", "etag", "is_default", "updated_at", "uuid"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    IS_DEFAULT_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    code: str
    created_at: _timestamp_pb2.Timestamp
    display_name: str
    etag: str
    is_default: bool
    updated_at: _timestamp_pb2.Timestamp
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., code: _Optional[str] = ..., display_name: _Optional[str] = ..., is_default: bool = ..., etag: _Optional[str] = ...) -> None: ...

class LocaleCreate(_message.Message):
    __slots__ = ["code", "display_name", "is_default"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    IS_DEFAULT_FIELD_NUMBER: _ClassVar[int]
    code: str
    display_name: str
    is_default: bool
    def __init__(self, code: _Optional[str] = ..., display_name: _Optional[str] = ..., is_default: bool = ...) -> None: ...

class LocaleUpdate(_message.Message):
    __slots__ = ["code", "display_name", "etag", "is_default", "update_mask", "uuid"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    IS_DEFAULT_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    code: str
    display_name: str
    etag: str
    is_default: bool
    update_mask: _field_mask_pb2.FieldMask
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., code: _Optional[str] = ..., display_name: _Optional[str] = ..., is_default: bool = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ..., etag: _Optional[str] = ...) -> None: ...

class UpdateLocaleRequest(_message.Message):
    __slots__ = ["locale", "locale_uuid"]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    LOCALE_UUID_FIELD_NUMBER: _ClassVar[int]
    locale: LocaleUpdate
    locale_uuid: str
    def __init__(self, locale_uuid: _Optional[str] = ..., locale: _Optional[_Union[LocaleUpdate, _Mapping]] = ...) -> None: ...

class UpdateLocaleResponse(_message.Message):
    __slots__ = ["locale"]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    locale: Locale
    def __init__(self, locale: _Optional[_Union[Locale, _Mapping]] = ...) -> None: ...
