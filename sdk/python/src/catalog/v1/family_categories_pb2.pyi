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

class BulkCreateFamilyCategoriesRequest(_message.Message):
    __slots__ = ["family_uuid", "items"]
    FAMILY_UUID_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    family_uuid: str
    items: _containers.RepeatedCompositeFieldContainer[FamilyCategoryCreate]
    def __init__(self, family_uuid: _Optional[str] = ..., items: _Optional[_Iterable[_Union[FamilyCategoryCreate, _Mapping]]] = ...) -> None: ...

class BulkCreateFamilyCategoriesResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[FamilyCategory]
    def __init__(self, items: _Optional[_Iterable[_Union[FamilyCategory, _Mapping]]] = ...) -> None: ...

class BulkUpdateFamilyCategoriesRequest(_message.Message):
    __slots__ = ["family_uuid", "items"]
    FAMILY_UUID_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    family_uuid: str
    items: _containers.RepeatedCompositeFieldContainer[FamilyCategoryUpdate]
    def __init__(self, family_uuid: _Optional[str] = ..., items: _Optional[_Iterable[_Union[FamilyCategoryUpdate, _Mapping]]] = ...) -> None: ...

class BulkUpdateFamilyCategoriesResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[FamilyCategory]
    def __init__(self, items: _Optional[_Iterable[_Union[FamilyCategory, _Mapping]]] = ...) -> None: ...

class CreateFamilyCategoryRequest(_message.Message):
    __slots__ = ["family_category", "family_uuid"]
    FAMILY_CATEGORY_FIELD_NUMBER: _ClassVar[int]
    FAMILY_UUID_FIELD_NUMBER: _ClassVar[int]
    family_category: FamilyCategoryCreate
    family_uuid: str
    def __init__(self, family_uuid: _Optional[str] = ..., family_category: _Optional[_Union[FamilyCategoryCreate, _Mapping]] = ...) -> None: ...

class CreateFamilyCategoryResponse(_message.Message):
    __slots__ = ["family_category"]
    FAMILY_CATEGORY_FIELD_NUMBER: _ClassVar[int]
    family_category: FamilyCategory
    def __init__(self, family_category: _Optional[_Union[FamilyCategory, _Mapping]] = ...) -> None: ...

class DeleteFamilyCategoryRequest(_message.Message):
    __slots__ = ["etag", "family_category_uuid", "family_uuid"]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    FAMILY_CATEGORY_UUID_FIELD_NUMBER: _ClassVar[int]
    FAMILY_UUID_FIELD_NUMBER: _ClassVar[int]
    etag: str
    family_category_uuid: str
    family_uuid: str
    def __init__(self, family_uuid: _Optional[str] = ..., family_category_uuid: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class DeleteFamilyCategoryResponse(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class FamilyCategory(_message.Message):
    __slots__ = ["auto_populate", "category_uuid", "created_at", "etag", "family_uuid", "updated_at", "uuid"]
    AUTO_POPULATE_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_UUID_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    FAMILY_UUID_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    auto_populate: bool
    category_uuid: str
    created_at: _timestamp_pb2.Timestamp
    etag: str
    family_uuid: str
    updated_at: _timestamp_pb2.Timestamp
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., family_uuid: _Optional[str] = ..., category_uuid: _Optional[str] = ..., auto_populate: bool = ..., etag: _Optional[str] = ...) -> None: ...

class FamilyCategoryCreate(_message.Message):
    __slots__ = ["auto_populate", "category_uuid"]
    AUTO_POPULATE_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_UUID_FIELD_NUMBER: _ClassVar[int]
    auto_populate: bool
    category_uuid: str
    def __init__(self, category_uuid: _Optional[str] = ..., auto_populate: bool = ...) -> None: ...

class FamilyCategoryUpdate(_message.Message):
    __slots__ = ["auto_populate", "category_uuid", "etag", "update_mask", "uuid"]
    AUTO_POPULATE_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_UUID_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    auto_populate: bool
    category_uuid: str
    etag: str
    update_mask: _field_mask_pb2.FieldMask
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., category_uuid: _Optional[str] = ..., auto_populate: bool = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ..., etag: _Optional[str] = ...) -> None: ...

class GetFamilyCategoryRequest(_message.Message):
    __slots__ = ["family_category_uuid", "family_uuid"]
    FAMILY_CATEGORY_UUID_FIELD_NUMBER: _ClassVar[int]
    FAMILY_UUID_FIELD_NUMBER: _ClassVar[int]
    family_category_uuid: str
    family_uuid: str
    def __init__(self, family_uuid: _Optional[str] = ..., family_category_uuid: _Optional[str] = ...) -> None: ...

class GetFamilyCategoryResponse(_message.Message):
    __slots__ = ["family_category"]
    FAMILY_CATEGORY_FIELD_NUMBER: _ClassVar[int]
    family_category: FamilyCategory
    def __init__(self, family_category: _Optional[_Union[FamilyCategory, _Mapping]] = ...) -> None: ...

class ListFamilyCategoriesRequest(_message.Message):
    __slots__ = ["auto_populate", "category_uuids", "created_at", "cursor", "family_uuid", "order_by", "page", "size", "updated_at", "uuids"]
    AUTO_POPULATE_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_UUIDS_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    FAMILY_UUID_FIELD_NUMBER: _ClassVar[int]
    ORDER_BY_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUIDS_FIELD_NUMBER: _ClassVar[int]
    auto_populate: _common_pb2.BoolFilter
    category_uuids: _common_pb2.StringsFilter
    created_at: _common_pb2.TimeFilter
    cursor: str
    family_uuid: str
    order_by: _containers.RepeatedCompositeFieldContainer[_common_pb2.OrderBy]
    page: int
    size: int
    updated_at: _common_pb2.TimeFilter
    uuids: _common_pb2.StringsFilter
    def __init__(self, family_uuid: _Optional[str] = ..., uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., category_uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., auto_populate: _Optional[_Union[_common_pb2.BoolFilter, _Mapping]] = ..., created_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., updated_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., page: _Optional[int] = ..., size: _Optional[int] = ..., cursor: _Optional[str] = ..., order_by: _Optional[_Iterable[_Union[_common_pb2.OrderBy, _Mapping]]] = ...) -> None: ...

class ListFamilyCategoriesResponse(_message.Message):
    __slots__ = ["items", "pagination"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PAGINATION_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[FamilyCategory]
    pagination: _common_pb2.Pagination
    def __init__(self, items: _Optional[_Iterable[_Union[FamilyCategory, _Mapping]]] = ..., pagination: _Optional[_Union[_common_pb2.Pagination, _Mapping]] = ...) -> None: ...

class UpdateFamilyCategoryRequest(_message.Message):
    __slots__ = ["family_category", "family_category_uuid", "family_uuid"]
    FAMILY_CATEGORY_FIELD_NUMBER: _ClassVar[int]
    FAMILY_CATEGORY_UUID_FIELD_NUMBER: _ClassVar[int]
    FAMILY_UUID_FIELD_NUMBER: _ClassVar[int]
    family_category: FamilyCategoryUpdate
    family_category_uuid: str
    family_uuid: str
    def __init__(self, family_uuid: _Optional[str] = ..., family_category_uuid: _Optional[str] = ..., family_category: _Optional[_Union[FamilyCategoryUpdate, _Mapping]] = ...) -> None: ...

class UpdateFamilyCategoryResponse(_message.Message):
    __slots__ = ["family_category"]
    FAMILY_CATEGORY_FIELD_NUMBER: _ClassVar[int]
    family_category: FamilyCategory
    def __init__(self, family_category: _Optional[_Union[FamilyCategory, _Mapping]] = ...) -> None: ...
