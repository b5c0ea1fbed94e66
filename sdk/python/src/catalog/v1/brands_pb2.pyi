from catalog.v1 import brand_contents_pb2 as _brand_contents_pb2
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

class Brand(_message.Message):
    __slots__ = ["code", "content_uuids", "contents", "created_at", "display_name", "etag", "updated_at", "uuid"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    CONTENTS_FIELD_NUMBER: _ClassVar[int]
    CONTENT_UUIDS_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    code: str
    content_uuids: _common_pb2.UuidList
    contents: _brand_contents_pb2.BrandContentList
    created_at: _timestamp_pb2.Timestamp
    display_name: str
    etag: str
    updated_at: _timestamp_pb2.Timestamp
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., code: _Optional[str] = ..., display_name: _Optional[str] = ..., content_uuids: _Optional[_Union[_common_pb2.UuidList, _Mapping]] = ..., contents: _Optional[_Union[_brand_contents_pb2.BrandContentList, _Mapping]] = ..., etag: _Optional[str] = ...) -> None: ...

class BrandCreate(_message.Message):
    __slots__ = ["code", "display_name"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    code: str
    display_name: str
    def __init__(self, code: _Optional[str] = ..., display_name: _Optional[str] = ...) -> None: ...

class BrandInclude(_message.Message):
    __slots__ = ["contents"]
    CONTENTS_FIELD_NUMBER: _ClassVar[int]
    contents: bool
    def __init__(self, contents: bool = ...) -> None: ...

class BrandUpdate(_message.Message):
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

class BulkCreateBrandsRequest(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[BrandCreate]
    def __init__(self, items: _Optional[_Iterable[_Union[BrandCreate, _Mapping]]] = ...) -> None: ...

class BulkCreateBrandsResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[Brand]
    def __init__(self, items: _Optional[_Iterable[_Union[Brand, _Mapping]]] = ...) -> None: ...

class BulkUpdateBrandsRequest(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[BrandUpdate]
    def __init__(self, items: _Optional[_Iterable[_Union[BrandUpdate, _Mapping]]] = ...) -> None: ...

class BulkUpdateBrandsResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[Brand]
    def __init__(self, items: _Optional[_Iterable[_Union[Brand, _Mapping]]] = ...) -> None: ...

class CreateBrandRequest(_message.Message):
    __slots__ = ["brand"]
    BRAND_FIELD_NUMBER: _ClassVar[int]
    brand: BrandCreate
    def __init__(self, brand: _Optional[_Union[BrandCreate, _Mapping]] = ...) -> None: ...

class CreateBrandResponse(_message.Message):
    __slots__ = ["brand"]
    BRAND_FIELD_NUMBER: _ClassVar[int]
    brand: Brand
    def __init__(self, brand: _Optional[_Union[Brand, _Mapping]] = ...) -> None: ...

class DeleteBrandRequest(_message.Message):
    __slots__ = ["brand_uuid", "etag"]
    BRAND_UUID_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    brand_uuid: str
    etag: str
    def __init__(self, brand_uuid: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class DeleteBrandResponse(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class GetBrandRequest(_message.Message):
    __slots__ = ["brand_uuid", "expand", "include"]
    BRAND_UUID_FIELD_NUMBER: _ClassVar[int]
    EXPAND_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_FIELD_NUMBER: _ClassVar[int]
    brand_uuid: str
    expand: BrandInclude
    include: BrandInclude
    def __init__(self, brand_uuid: _Optional[str] = ..., include: _Optional[_Union[BrandInclude, _Mapping]] = ..., expand: _Optional[_Union[BrandInclude, _Mapping]] = ...) -> None: ...

class GetBrandResponse(_message.Message):
    __slots__ = ["brand"]
    BRAND_FIELD_NUMBER: _ClassVar[int]
    brand: Brand
    def __init__(self, brand: _Optional[_Union[Brand, _Mapping]] = ...) -> None: ...

class ListBrandsRequest(_message.Message):
    __slots__ = ["code", "codes", "created_at", "cursor", "display_name", "display_names", "expand", "include", "order_by", "page", "size", "updated_at", "uuids"]
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
    SIZE_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUIDS_FIELD_NUMBER: _ClassVar[int]
    code: _common_pb2.StringFilter
    codes: _common_pb2.StringsFilter
    created_at: _common_pb2.TimeFilter
    cursor: str
    display_name: _common_pb2.StringFilter
    display_names: _common_pb2.StringsFilter
    expand: BrandInclude
    include: BrandInclude
    order_by: _containers.RepeatedCompositeFieldContainer[_common_pb2.OrderBy]
    page: int
    size: int
    updated_at: _common_pb2.TimeFilter
    uuids: _common_pb2.StringsFilter
    def __init__(self, uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., codes: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., code: _Optional[_Union[_common_pb2.StringFilter, _Mapping]] = ..., display_names: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., display_name: _Optional[_Union[_common_pb2.StringFilter, _Mapping]] = ..., created_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., updated_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., page: _Optional[int] = ..., size: _Optional[int] = ..., cursor: _Optional[str] = ..., include: _Optional[_Union[BrandInclude, _Mapping]] = ..., expand: _Optional[_Union[BrandInclude, _Mapping]] = ..., order_by: _Optional[_Iterable[_Union[_common_pb2.OrderBy, _Mapping]]] = ...) -> None: ...

class ListBrandsResponse(_message.Message):
    __slots__ = ["items", "pagination"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PAGINATION_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[Brand]
    pagination: _common_pb2.Pagination
    def __init__(self, items: _Optional[_Iterable[_Union[Brand, _Mapping]]] = ..., pagination: _Optional[_Union[_common_pb2.Pagination, _Mapping]] = ...) -> None: ...

class UpdateBrandRequest(_message.Message):
    __slots__ = ["brand", "brand_uuid"]
    BRAND_FIELD_NUMBER: _ClassVar[int]
    BRAND_UUID_FIELD_NUMBER: _ClassVar[int]
    brand: BrandUpdate
    brand_uuid: str
    def __init__(self, brand_uuid: _Optional[str] = ..., brand: _Optional[_Union[BrandUpdate, _Mapping]] = ...) -> None: ...

class UpdateBrandResponse(_message.Message):
    __slots__ = ["brand"]
    BRAND_FIELD_NUMBER: _ClassVar[int]
    brand: Brand
    def __init__(self, brand: _Optional[_Union[Brand, _Mapping]] = ...) -> None: ...
