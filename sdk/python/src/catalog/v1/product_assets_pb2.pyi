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

class BulkCreateProductAssetsRequest(_message.Message):
    __slots__ = ["items", "product_uuid"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductAssetCreate]
    product_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., items: _Optional[_Iterable[_Union[ProductAssetCreate, _Mapping]]] = ...) -> None: ...

class BulkCreateProductAssetsResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductAsset]
    def __init__(self, items: _Optional[_Iterable[_Union[ProductAsset, _Mapping]]] = ...) -> None: ...

class BulkUpdateProductAssetsRequest(_message.Message):
    __slots__ = ["items", "product_uuid"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductAssetUpdate]
    product_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., items: _Optional[_Iterable[_Union[ProductAssetUpdate, _Mapping]]] = ...) -> None: ...

class BulkUpdateProductAssetsResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductAsset]
    def __init__(self, items: _Optional[_Iterable[_Union[ProductAsset, _Mapping]]] = ...) -> None: ...

class CreateProductAssetRequest(_message.Message):
    __slots__ = ["product_asset", "product_uuid"]
    PRODUCT_ASSET_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    product_asset: ProductAssetCreate
    product_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., product_asset: _Optional[_Union[ProductAssetCreate, _Mapping]] = ...) -> None: ...

class CreateProductAssetResponse(_message.Message):
    __slots__ = ["product_asset"]
    PRODUCT_ASSET_FIELD_NUMBER: _ClassVar[int]
    product_asset: ProductAsset
    def __init__(self, product_asset: _Optional[_Union[ProductAsset, _Mapping]] = ...) -> None: ...

class DeleteProductAssetRequest(_message.Message):
    __slots__ = ["etag", "product_asset_uuid", "product_uuid"]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_ASSET_UUID_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    etag: str
    product_asset_uuid: str
    product_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., product_asset_uuid: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class DeleteProductAssetResponse(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class GetProductAssetRequest(_message.Message):
    __slots__ = ["product_asset_uuid", "product_uuid"]
    PRODUCT_ASSET_UUID_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    product_asset_uuid: str
    product_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., product_asset_uuid: _Optional[str] = ...) -> None: ...

class GetProductAssetResponse(_message.Message):
    __slots__ = ["product_asset"]
    PRODUCT_ASSET_FIELD_NUMBER: _ClassVar[int]
    product_asset: ProductAsset
    def __init__(self, product_asset: _Optional[_Union[ProductAsset, _Mapping]] = ...) -> None: ...

class ListProductAssetsRequest(_message.Message):
    __slots__ = ["asset_uuids", "created_at", "cursor", "display_priority", "is_featured", "order_by", "page", "product_asset_type_uuids", "product_uuid", "size", "updated_at", "uuids"]
    ASSET_UUIDS_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_PRIORITY_FIELD_NUMBER: _ClassVar[int]
    IS_FEATURED_FIELD_NUMBER: _ClassVar[int]
    ORDER_BY_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_ASSET_TYPE_UUIDS_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUIDS_FIELD_NUMBER: _ClassVar[int]
    asset_uuids: _common_pb2.StringsFilter
    created_at: _common_pb2.TimeFilter
    cursor: str
    display_priority: _common_pb2.IntFilter
    is_featured: _common_pb2.BoolFilter
    order_by: _containers.RepeatedCompositeFieldContainer[_common_pb2.OrderBy]
    page: int
    product_asset_type_uuids: _common_pb2.StringsFilter
    product_uuid: str
    size: int
    updated_at: _common_pb2.TimeFilter
    uuids: _common_pb2.StringsFilter
    def __init__(self, product_uuid: _Optional[str] = ..., uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., asset_uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., product_asset_type_uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., display_priority: _Optional[_Union[_common_pb2.IntFilter, _Mapping]] = ..., is_featured: _Optional[_Union[_common_pb2.BoolFilter, _Mapping]] = ..., created_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., updated_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., page: _Optional[int] = ..., size: _Optional[int] = ..., cursor: _Optional[str] = ..., order_by: _Optional[_Iterable[_Union[_common_pb2.OrderBy, _Mapping]]] = ...) -> None: ...

class ListProductAssetsResponse(_message.Message):
    __slots__ = ["items", "pagination"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PAGINATION_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductAsset]
    pagination: _common_pb2.Pagination
    def __init__(self, items: _Optional[_Iterable[_Union[ProductAsset, _Mapping]]] = ..., pagination: _Optional[_Union[_common_pb2.Pagination, _Mapping]] = ...) -> None: ...

class ProductAsset(_message.Message):
    __slots__ = ["asset_uuid", "created_at", "display_priority", "etag", "is_featured", "product_asset_type_uuid", "product_uuid", "updated_at", "uuid"]
    ASSET_UUID_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_PRIORITY_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    IS_FEATURED_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_ASSET_TYPE_UUID_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    asset_uuid: str
    created_at: _timestamp_pb2.Timestamp
    display_priority: int
    etag: str
    is_featured: bool
    product_asset_type_uuid: str
    product_uuid: str
    updated_at: _timestamp_pb2.Timestamp
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., product_uuid: _Optional[str] = ..., asset_uuid: _Optional[str] = ..., product_asset_type_uuid: _Optional[str] = ..., display_priority: _Optional[int] = ..., is_featured: bool = ..., etag: _Optional[str] = ...) -> None: ...

class ProductAssetCreate(_message.Message):
    __slots__ = ["asset_uuid", "display_priority", "product_asset_type_uuid"]
    ASSET_UUID_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_PRIORITY_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_ASSET_TYPE_UUID_FIELD_NUMBER: _ClassVar[int]
    asset_uuid: str
    display_priority: int
    product_asset_type_uuid: str
    def __init__(self, asset_uuid: _Optional[str] = ..., product_asset_type_uuid: _Optional[str] = ..., display_priority: _Optional[int] = ...) -> None: ...

class ProductAssetList(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductAsset]
    def __init__(self, items: _Optional[_Iterable[_Union[ProductAsset, _Mapping]]] = ...) -> None: ...

class ProductAssetUpdate(_message.Message):
    __slots__ = ["asset_uuid", "display_priority", "etag", "product_asset_type_uuid", "update_mask", "uuid"]
    ASSET_UUID_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_PRIORITY_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_ASSET_TYPE_UUID_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    asset_uuid: str
    display_priority: int
    etag: str
    product_asset_type_uuid: str
    update_mask: _field_mask_pb2.FieldMask
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., asset_uuid: _Optional[str] = ..., product_asset_type_uuid: _Optional[str] = ..., display_priority: _Optional[int] = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ..., etag: _Optional[str] = ...) -> None: ...

class UpdateProductAssetRequest(_message.Message):
    __slots__ = ["product_asset", "product_asset_uuid", "product_uuid"]
    PRODUCT_ASSET_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_ASSET_UUID_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    product_asset: ProductAssetUpdate
    product_asset_uuid: str
    product_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., product_asset_uuid: _Optional[str] = ..., product_asset: _Optional[_Union[ProductAssetUpdate, _Mapping]] = ...) -> None: ...

class UpdateProductAssetResponse(_message.Message):
    __slots__ = ["product_asset"]
    PRODUCT_ASSET_FIELD_NUMBER: _ClassVar[int]
    product_asset: ProductAsset
    def __init__(self, product_asset: _Optional[_Union[ProductAsset, _Mapping]] = ...) -> None: ...
