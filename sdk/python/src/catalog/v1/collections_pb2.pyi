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

COLLECTION_STATUS_ACTIVE: CollectionStatus
COLLECTION_STATUS_DRAFT: CollectionStatus
COLLECTION_STATUS_INACTIVE: CollectionStatus
COLLECTION_STATUS_REMOVED: CollectionStatus
COLLECTION_STATUS_UNSPECIFIED: CollectionStatus
COLLECTION_TRANSITION_ACTIVATE: CollectionTransition
COLLECTION_TRANSITION_DEACTIVATE: CollectionTransition
COLLECTION_TRANSITION_REMOVE: CollectionTransition
COLLECTION_TRANSITION_RESTORE: CollectionTransition
COLLECTION_TRANSITION_UNSPECIFIED: CollectionTransition
DESCRIPTOR: _descriptor.FileDescriptor

class BulkCreateCollectionsRequest(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[CollectionCreate]
    def __init__(self, items: _Optional[_Iterable[_Union[CollectionCreate, _Mapping]]] = ...) -> None: ...

class BulkCreateCollectionsResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[Collection]
    def __init__(self, items: _Optional[_Iterable[_Union[Collection, _Mapping]]] = ...) -> None: ...

class BulkTransitionCollectionsRequest(_message.Message):
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
    transition: CollectionTransition
    uuids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, transition: _Optional[_Union[CollectionTransition, str]] = ..., uuids: _Optional[_Iterable[str]] = ..., etags: _Optional[_Mapping[str, str]] = ...) -> None: ...

class BulkTransitionCollectionsResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[Collection]
    def __init__(self, items: _Optional[_Iterable[_Union[Collection, _Mapping]]] = ...) -> None: ...

class BulkUpdateCollectionsRequest(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[CollectionUpdate]
    def __init__(self, items: _Optional[_Iterable[_Union[CollectionUpdate, _Mapping]]] = ...) -> None: ...

class BulkUpdateCollectionsResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[Collection]
    def __init__(self, items: _Optional[_Iterable[_Union[Collection, _Mapping]]] = ...) -> None: ...

class Collection(_message.Message):
    __slots__ = ["code", "created_at", "display_name", "etag", "parent_uuid", "position", "removed_at", "status", "updated_at", "uuid"]
    CODE_FIELD_NUMBER: _ClassVar[int]
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
    created_at: _timestamp_pb2.Timestamp
    display_name: str
    etag: str
    parent_uuid: str
    position: int
    removed_at: _timestamp_pb2.Timestamp
    status: CollectionStatus
    updated_at: _timestamp_pb2.Timestamp
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., removed_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., status: _Optional[_Union[CollectionStatus, str]] = ..., code: _Optional[str] = ..., display_name: _Optional[str] = ..., parent_uuid: _Optional[str] = ..., position: _Optional[int] = ..., etag: _Optional[str] = ...) -> None: ...

class CollectionCreate(_message.Message):
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

class CollectionUpdate(_message.Message):
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

class CreateCollectionRequest(_message.Message):
    __slots__ = ["collection"]
    COLLECTION_FIELD_NUMBER: _ClassVar[int]
    collection: CollectionCreate
    def __init__(self, collection: _Optional[_Union[CollectionCreate, _Mapping]] = ...) -> None: ...

class CreateCollectionResponse(_message.Message):
    __slots__ = ["collection"]
    COLLECTION_FIELD_NUMBER: _ClassVar[int]
    collection: Collection
    def __init__(self, collection: _Optional[_Union[Collection, _Mapping]] = ...) -> None: ...

class DeleteCollectionRequest(_message.Message):
    __slots__ = ["collection_uuid", "etag"]
    COLLECTION_UUID_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    collection_uuid: str
    etag: str
    def __init__(self, collection_uuid: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class DeleteCollectionResponse(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class GetCollectionRequest(_message.Message):
    __slots__ = ["collection_uuid"]
    COLLECTION_UUID_FIELD_NUMBER: _ClassVar[int]
    collection_uuid: str
    def __init__(self, collection_uuid: _Optional[str] = ...) -> None: ...

class GetCollectionResponse(_message.Message):
    __slots__ = ["collection"]
    COLLECTION_FIELD_NUMBER: _ClassVar[int]
    collection: Collection
    def __init__(self, collection: _Optional[_Union[Collection, _Mapping]] = ...) -> None: ...

class ListCollectionsRequest(_message.Message):
    __slots__ = ["code", "codes", "created_at", "cursor", "display_name", "display_names", "is_removed", "is_root", "order_by", "page", "parent_uuids", "position", "size", "statuses", "updated_at", "uuids"]
    CODES_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAMES_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
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
    def __init__(self, uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., codes: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., code: _Optional[_Union[_common_pb2.StringFilter, _Mapping]] = ..., display_names: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., display_name: _Optional[_Union[_common_pb2.StringFilter, _Mapping]] = ..., statuses: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., created_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., updated_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., is_removed: _Optional[_Union[_common_pb2.BoolFilter, _Mapping]] = ..., page: _Optional[int] = ..., size: _Optional[int] = ..., cursor: _Optional[str] = ..., order_by: _Optional[_Iterable[_Union[_common_pb2.OrderBy, _Mapping]]] = ..., parent_uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., is_root: _Optional[_Union[_common_pb2.BoolFilter, _Mapping]] = ..., position: _Optional[_Union[_common_pb2.IntFilter, _Mapping]] = ...) -> None: ...

class ListCollectionsResponse(_message.Message):
    __slots__ = ["items", "pagination"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PAGINATION_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[Collection]
    pagination: _common_pb2.Pagination
    def __init__(self, items: _Optional[_Iterable[_Union[Collection, _Mapping]]] = ..., pagination: _Optional[_Union[_common_pb2.Pagination, _Mapping]] = ...) -> None: ...

class TransitionCollectionRequest(_message.Message):
    __slots__ = ["collection_uuid", "etag", "transition"]
    COLLECTION_UUID_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    TRANSITION_FIELD_NUMBER: _ClassVar[int]
    collection_uuid: str
    etag: str
    transition: CollectionTransition
    def __init__(self, collection_uuid: _Optional[str] = ..., transition: _Optional[_Union[CollectionTransition, str]] = ..., etag: _Optional[str] = ...) -> None: ...

class TransitionCollectionResponse(_message.Message):
    __slots__ = ["collection"]
    COLLECTION_FIELD_NUMBER: _ClassVar[int]
    collection: Collection
    def __init__(self, collection: _Optional[_Union[Collection, _Mapping]] = ...) -> None: ...

class UpdateCollectionRequest(_message.Message):
    __slots__ = ["collection", "collection_uuid"]
    COLLECTION_FIELD_NUMBER: _ClassVar[int]
    COLLECTION_UUID_FIELD_NUMBER: _ClassVar[int]
    collection: CollectionUpdate
    collection_uuid: str
    def __init__(self, collection_uuid: _Optional[str] = ..., collection: _Optional[_Union[CollectionUpdate, _Mapping]] = ...) -> None: ...

class UpdateCollectionResponse(_message.Message):
    __slots__ = ["collection"]
    COLLECTION_FIELD_NUMBER: _ClassVar[int]
    collection: Collection
    def __init__(self, collection: _Optional[_Union[Collection, _Mapping]] = ...) -> None: ...

class CollectionStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class CollectionTransition(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
