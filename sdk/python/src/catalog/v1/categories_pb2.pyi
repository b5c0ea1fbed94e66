from catalog.v1 import category_contents_pb2 as _category_contents_pb2
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

CATEGORY_STATUS_ACTIVE: CategoryStatus
CATEGORY_STATUS_DRAFT: CategoryStatus
CATEGORY_STATUS_INACTIVE: CategoryStatus
CATEGORY_STATUS_REMOVED: CategoryStatus
CATEGORY_STATUS_UNSPECIFIED: CategoryStatus
CATEGORY_TRANSITION_ACTIVATE: CategoryTransition
CATEGORY_TRANSITION_DEACTIVATE: CategoryTransition
CATEGORY_TRANSITION_REMOVE: CategoryTransition
CATEGORY_TRANSITION_RESTORE: CategoryTransition
CATEGORY_TRANSITION_UNSPECIFIED: CategoryTransition
DESCRIPTOR: _descriptor.FileDescriptor

class BulkCreateCategoriesRequest(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[CategoryCreate]
    def __init__(self, items: _Optional[_Iterable[_Union[CategoryCreate, _Mapping]]] = ...) -> None: ...

class BulkCreateCategoriesResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[Category]
    def __init__(self, items: _Optional[_Iterable[_Union[Category, _Mapping]]] = ...) -> None: ...

class BulkTransitionCategoriesRequest(_message.Message):
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
    transition: CategoryTransition
    uuids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, transition: _Optional[_Union[CategoryTransition, str]] = ..., uuids: _Optional[_Iterable[str]] = ..., etags: _Optional[_Mapping[str, str]] = ...) -> None: ...

class BulkTransitionCategoriesResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[Category]
    def __init__(self, items: _Optional[_Iterable[_Union[Category, _Mapping]]] = ...) -> None: ...

class BulkUpdateCategoriesRequest(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[CategoryUpdate]
    def __init__(self, items: _Optional[_Iterable[_Union[CategoryUpdate, _Mapping]]] = ...) -> None: ...

class BulkUpdateCategoriesResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[Category]
    def __init__(self, items: _Optional[_Iterable[_Union[Category, _Mapping]]] = ...) -> None: ...

class Category(_message.Message):
    __slots__ = ["code", "content_uuids", "contents", "created_at", "display_name", "etag", "parent_uuid", "position", "removed_at", "status", "updated_at", "uuid"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    CONTENTS_FIELD_NUMBER: _ClassVar[int]
    CONTENT_UUIDS_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    PARENT_UUID_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    REMOVED_AT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    code: str
    content_uuids: _common_pb2.UuidList
    contents: _category_contents_pb2.CategoryContentList
    created_at: _timestamp_pb2.Timestamp
    display_name: str
    etag: str
    parent_uuid: str
    position: int
    removed_at: _timestamp_pb2.Timestamp
    status: CategoryStatus
    updated_at: _timestamp_pb2.Timestamp
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., removed_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., status: _Optional[_Union[CategoryStatus, str]] = ..., code: _Optional[str] = ..., display_name: _Optional[str] = ..., parent_uuid: _Optional[str] = ..., position: _Optional[int] = ..., content_uuids: _Optional[_Union[_common_pb2.UuidList, _Mapping]] = ..., contents: _Optional[_Union[_category_contents_pb2.CategoryContentList, _Mapping]] = ..., etag: _Optional[str] = ...) -> None: ...

class CategoryCreate(_message.Message):
    __slots__ = ["code", "display_name", "parent_uuid", "position"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    PARENT_UUID_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    code: str
    display_name: str
    parent_uuid: str
    position: int
    def __init__(self, code: _Optional[str] = ..., display_name: _Optional[str] = ..., parent_uuid: _Optional[str] = ..., position: _Optional[int] = ...) -> None: ...

class CategoryInclude(_message.Message):
    __slots__ = ["contents"]
    CONTENTS_FIELD_NUMBER: _ClassVar[int]
    contents: bool
    def __init__(self, contents: bool = ...) -> None: ...

class CategoryUpdate(_message.Message):
    __slots__ = ["code", "display_name", "etag", "parent_uuid", "position", "update_mask", "uuid"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    PARENT_UUID_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    code: str
    display_name: str
    etag: str
    parent_uuid: str
    position: int
    update_mask: _field_mask_pb2.FieldMask
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., code: _Optional[str] = ..., display_name: _Optional[str] = ..., parent_uuid: _Optional[str] = ..., position: _Optional[int] = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ..., etag: _Optional[str] = ...) -> None: ...

class CreateCategoryRequest(_message.Message):
    __slots__ = ["category"]
    CATEGORY_FIELD_NUMBER: _ClassVar[int]
    category: CategoryCreate
    def __init__(self, category: _Optional[_Union[CategoryCreate, _Mapping]] = ...) -> None: ...

class CreateCategoryResponse(_message.Message):
    __slots__ = ["category"]
    CATEGORY_FIELD_NUMBER: _ClassVar[int]
    category: Category
    def __init__(self, category: _Optional[_Union[Category, _Mapping]] = ...) -> None: ...

class DeleteCategoryRequest(_message.Message):
    __slots__ = ["category_uuid", "etag"]
    CATEGORY_UUID_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    category_uuid: str
    etag: str
    def __init__(self, category_uuid: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class DeleteCategoryResponse(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class GetCategoryRequest(_message.Message):
    __slots__ = ["category_uuid", "expand", "include"]
    CATEGORY_UUID_FIELD_NUMBER: _ClassVar[int]
    EXPAND_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_FIELD_NUMBER: _ClassVar[int]
    category_uuid: str
    expand: CategoryInclude
    include: CategoryInclude
    def __init__(self, category_uuid: _Optional[str] = ..., include: _Optional[_Union[CategoryInclude, _Mapping]] = ..., expand: _Optional[_Union[CategoryInclude, _Mapping]] = ...) -> None: ...

class GetCategoryResponse(_message.Message):
    __slots__ = ["category"]
    CATEGORY_FIELD_NUMBER: _ClassVar[int]
    category: Category
    def __init__(self, category: _Optional[_Union[Category, _Mapping]] = ...) -> None: ...

class ListCategoriesRequest(_message.Message):
    __slots__ = ["code", "codes", "created_at", "cursor", "display_name", "display_names", "expand", "include", "is_removed", "is_root", "order_by", "page", "parent_uuids", "position", "size", "statuses", "updated_at", "uuids"]
    CODES_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAMES_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    EXPAND_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_FIELD_NUMBER: _ClassVar[int]
    IS_REMOVED_FIELD_NUMBER: _ClassVar[int]
    IS_ROOT_FIELD_NUMBER: _ClassVar[int]
    ORDER_BY_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    PARENT_UUIDS_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
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
    expand: CategoryInclude
    include: CategoryInclude
    is_removed: _common_pb2.BoolFilter
    is_root: _common_pb2.BoolFilter
    order_by: _containers.RepeatedCompositeFieldContainer[_common_pb2.OrderBy]
    page: int
    parent_uuids: _common_pb2.StringsFilter
    position: _common_pb2.IntFilter
    size: int
    statuses: _common_pb2.StringsFilter
    updated_at: _common_pb2.TimeFilter
    uuids: _common_pb2.StringsFilter
    def __init__(self, uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., codes: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., code: _Optional[_Union[_common_pb2.StringFilter, _Mapping]] = ..., display_names: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., display_name: _Optional[_Union[_common_pb2.StringFilter, _Mapping]] = ..., statuses: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., created_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., updated_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., is_removed: _Optional[_Union[_common_pb2.BoolFilter, _Mapping]] = ..., page: _Optional[int] = ..., size: _Optional[int] = ..., cursor: _Optional[str] = ..., include: _Optional[_Union[CategoryInclude, _Mapping]] = ..., expand: _Optional[_Union[CategoryInclude, _Mapping]] = ..., order_by: _Optional[_Iterable[_Union[_common_pb2.OrderBy, _Mapping]]] = ..., parent_uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., is_root: _Optional[_Union[_common_pb2.BoolFilter, _Mapping]] = ..., position: _Optional[_Union[_common_pb2.IntFilter, _Mapping]] = ...) -> None: ...

class ListCategoriesResponse(_message.Message):
    __slots__ = ["items", "pagination"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PAGINATION_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[Category]
    pagination: _common_pb2.Pagination
    def __init__(self, items: _Optional[_Iterable[_Union[Category, _Mapping]]] = ..., pagination: _Optional[_Union[_common_pb2.Pagination, _Mapping]] = ...) -> None: ...

class TransitionCategoryRequest(_message.Message):
    __slots__ = ["category_uuid", "etag", "transition"]
    CATEGORY_UUID_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    TRANSITION_FIELD_NUMBER: _ClassVar[int]
    category_uuid: str
    etag: str
    transition: CategoryTransition
    def __init__(self, category_uuid: _Optional[str] = ..., transition: _Optional[_Union[CategoryTransition, str]] = ..., etag: _Optional[str] = ...) -> None: ...

class TransitionCategoryResponse(_message.Message):
    __slots__ = ["category"]
    CATEGORY_FIELD_NUMBER: _ClassVar[int]
    category: Category
    def __init__(self, category: _Optional[_Union[Category, _Mapping]] = ...) -> None: ...

class UpdateCategoryRequest(_message.Message):
    __slots__ = ["category", "category_uuid"]
    CATEGORY_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_UUID_FIELD_NUMBER: _ClassVar[int]
    category: CategoryUpdate
    category_uuid: str
    def __init__(self, category_uuid: _Optional[str] = ..., category: _Optional[_Union[CategoryUpdate, _Mapping]] = ...) -> None: ...

class UpdateCategoryResponse(_message.Message):
    __slots__ = ["category"]
    CATEGORY_FIELD_NUMBER: _ClassVar[int]
    category: Category
    def __init__(self, category: _Optional[_Union[Category, _Mapping]] = ...) -> None: ...

class CategoryStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class CategoryTransition(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
