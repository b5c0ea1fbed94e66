from catalog.v1 import common_pb2 as _common_pb2
from catalog.v1 import options_pb2 as _options_pb2
from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class AssetCollection(_message.Message):
    __slots__ = ["asset_uuid", "collection_uuid", "created_at", "etag", "updated_at", "uuid"]
    ASSET_UUID_FIELD_NUMBER: _ClassVar[int]
    COLLECTION_UUID_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    asset_uuid: str
    collection_uuid: str
    created_at: _timestamp_pb2.Timestamp
    etag: str
    updated_at: _timestamp_pb2.Timestamp
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., asset_uuid: _Optional[str] = ..., collection_uuid: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class AssetCollectionCreate(_message.Message):
    __slots__ = ["collection_uuid"]
    COLLECTION_UUID_FIELD_NUMBER: _ClassVar[int]
    collection_uuid: str
    def __init__(self, collection_uuid: _Optional[str] = ...) -> None: ...

class AssetCollectionList(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[AssetCollection]
    def __init__(self, items: _Optional[_Iterable[_Union[AssetCollection, _Mapping]]] = ...) -> None: ...

class BulkCreateAssetCollectionsRequest(_message.Message):
    __slots__ = ["asset_uuid", "items"]
    ASSET_UUID_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    asset_uuid: str
    items: _containers.RepeatedCompositeFieldContainer[AssetCollectionCreate]
    def __init__(self, asset_uuid: _Optional[str] = ..., items: _Optional[_Iterable[_Union[AssetCollectionCreate, _Mapping]]] = ...) -> None: ...

class BulkCreateAssetCollectionsResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[AssetCollection]
    def __init__(self, items: _Optional[_Iterable[_Union[AssetCollection, _Mapping]]] = ...) -> None: ...

class CreateAssetCollectionRequest(_message.Message):
    __slots__ = ["asset_collection", "asset_uuid"]
    ASSET_COLLECTION_FIELD_NUMBER: _ClassVar[int]
    ASSET_UUID_FIELD_NUMBER: _ClassVar[int]
    asset_collection: AssetCollectionCreate
    asset_uuid: str
    def __init__(self, asset_uuid: _Optional[str] = ..., asset_collection: _Optional[_Union[AssetCollectionCreate, _Mapping]] = ...) -> None: ...

class CreateAssetCollectionResponse(_message.Message):
    __slots__ = ["asset_collection"]
    ASSET_COLLECTION_FIELD_NUMBER: _ClassVar[int]
    asset_collection: AssetCollection
    def __init__(self, asset_collection: _Optional[_Union[AssetCollection, _Mapping]] = ...) -> None: ...

class DeleteAssetCollectionRequest(_message.Message):
    __slots__ = ["asset_collection_uuid", "asset_uuid", "etag"]
    ASSET_COLLECTION_UUID_FIELD_NUMBER: _ClassVar[int]
    ASSET_UUID_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    asset_collection_uuid: str
    asset_uuid: str
    etag: str
    def __init__(self, asset_uuid: _Optional[str] = ..., asset_collection_uuid: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class DeleteAssetCollectionResponse(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class GetAssetCollectionRequest(_message.Message):
    __slots__ = ["asset_collection_uuid", "asset_uuid"]
    ASSET_COLLECTION_UUID_FIELD_NUMBER: _ClassVar[int]
    ASSET_UUID_FIELD_NUMBER: _ClassVar[int]
    asset_collection_uuid: str
    asset_uuid: str
    def __init__(self, asset_uuid: _Optional[str] = ..., asset_collection_uuid: _Optional[str] = ...) -> None: ...

class GetAssetCollectionResponse(_message.Message):
    __slots__ = ["asset_collection"]
    ASSET_COLLECTION_FIELD_NUMBER: _ClassVar[int]
    asset_collection: AssetCollection
    def __init__(self, asset_collection: _Optional[_Union[AssetCollection, _Mapping]] = ...) -> None: ...

class ListAssetCollectionsRequest(_message.Message):
    __slots__ = ["asset_uuid", "collection_uuids", "created_at", "cursor", "order_by", "page", "size", "updated_at", "uuids"]
    ASSET_UUID_FIELD_NUMBER: _ClassVar[int]
    COLLECTION_UUIDS_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    ORDER_BY_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUIDS_FIELD_NUMBER: _ClassVar[int]
    asset_uuid: str
    collection_uuids: _common_pb2.StringsFilter
    created_at: _common_pb2.TimeFilter
    cursor: str
    order_by: _containers.RepeatedCompositeFieldContainer[_common_pb2.OrderBy]
    page: int
    size: int
    updated_at: _common_pb2.TimeFilter
    uuids: _common_pb2.StringsFilter
    def __init__(self, asset_uuid: _Optional[str] = ..., uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., collection_uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., created_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., updated_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., page: _Optional[int] = ..., size: _Optional[int] = ..., cursor: _Optional[str] = ..., order_by: _Optional[_Iterable[_Union[_common_pb2.OrderBy, _Mapping]]] = ...) -> None: ...

class ListAssetCollectionsResponse(_message.Message):
    __slots__ = ["items", "pagination"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PAGINATION_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[AssetCollection]
    pagination: _common_pb2.Pagination
    def __init__(self, items: _Optional[_Iterable[_Union[AssetCollection, _Mapping]]] = ..., pagination: _Optional[_Union[_common_pb2.Pagination, _Mapping]] = ...) -> None: ...
