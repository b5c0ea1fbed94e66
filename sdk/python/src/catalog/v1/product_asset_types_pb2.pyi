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

class BulkCreateProductAssetTypesRequest(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductAssetTypeCreate]
    def __init__(self, items: _Optional[_Iterable[_Union[ProductAssetTypeCreate, _Mapping]]] = ...) -> None: ...

class BulkCreateProductAssetTypesResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductAssetType]
    def __init__(self, items: _Optional[_Iterable[_Union[ProductAssetType, _Mapping]]] = ...) -> None: ...

class BulkUpdateProductAssetTypesRequest(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductAssetTypeUpdate]
    def __init__(self, items: _Optional[_Iterable[_Union[ProductAssetTypeUpdate, _Mapping]]] = ...) -> None: ...

class BulkUpdateProductAssetTypesResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductAssetType]
    def __init__(self, items: _Optional[_Iterable[_Union[ProductAssetType, _Mapping]]] = ...) -> None: ...

class CreateProductAssetTypeRequest(_message.Message):
    __slots__ = ["product_asset_type"]
    PRODUCT_ASSET_TYPE_FIELD_NUMBER: _ClassVar[int]
    product_asset_type: ProductAssetTypeCreate
    def __init__(self, product_asset_type: _Optional[_Union[ProductAssetTypeCreate, _Mapping]] = ...) -> None: ...

class CreateProductAssetTypeResponse(_message.Message):
    __slots__ = ["product_asset_type"]
    PRODUCT_ASSET_TYPE_FIELD_NUMBER: _ClassVar[int]
    product_asset_type: ProductAssetType
    def __init__(self, product_asset_type: _Optional[_Union[ProductAssetType, _Mapping]] = ...) -> None: ...

class DeleteProductAssetTypeRequest(_message.Message):
    __slots__ = ["etag", "product_asset_type_uuid"]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_ASSET_TYPE_UUID_FIELD_NUMBER: _ClassVar[int]
    etag: str
    product_asset_type_uuid: str
    def __init__(self, product_asset_type_uuid: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class DeleteProductAssetTypeResponse(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class GetProductAssetTypeRequest(_message.Message):
    __slots__ = ["product_asset_type_uuid"]
    PRODUCT_ASSET_TYPE_UUID_FIELD_NUMBER: _ClassVar[int]
    product_asset_type_uuid: str
    def __init__(self, product_asset_type_uuid: _Optional[str] = ...) -> None: ...

class GetProductAssetTypeResponse(_message.Message):
    __slots__ = ["product_asset_type"]
    PRODUCT_ASSET_TYPE_FIELD_NUMBER: _ClassVar[int]
    product_asset_type: ProductAssetType
    def __init__(self, product_asset_type: _Optional[_Union[ProductAssetType, _Mapping]] = ...) -> None: ...

class ListProductAssetTypesRequest(_message.Message):
    __slots__ = ["code", "codes", "created_at", "cursor", "display_name", "display_names", "is_featured_source", "order_by", "page", "size", "updated_at", "uuids"]
    CODES_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAMES_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    IS_FEATURED_SOURCE_FIELD_NUMBER: _ClassVar[int]
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
    is_featured_source: _common_pb2.BoolFilter
    order_by: _containers.RepeatedCompositeFieldContainer[_common_pb2.OrderBy]
    page: int
    size: int
    updated_at: _common_pb2.TimeFilter
    uuids: _common_pb2.StringsFilter
    def __init__(self, uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., codes: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., code: _Optional[_Union[_common_pb2.StringFilter, _Mapping]] = ..., display_names: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., display_name: _Optional[_Union[_common_pb2.StringFilter, _Mapping]] = ..., is_featured_source: _Optional[_Union[_common_pb2.BoolFilter, _Mapping]] = ..., created_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., updated_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., page: _Optional[int] = ..., size: _Optional[int] = ..., cursor: _Optional[str] = ..., order_by: _Optional[_Iterable[_Union[_common_pb2.OrderBy, _Mapping]]] = ...) -> None: ...

class ListProductAssetTypesResponse(_message.Message):
    __slots__ = ["items", "pagination"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PAGINATION_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductAssetType]
    pagination: _common_pb2.Pagination
    def __init__(self, items: _Optional[_Iterable[_Union[ProductAssetType, _Mapping]]] = ..., pagination: _Optional[_Union[_common_pb2.Pagination, _Mapping]] = ...) -> None: ...

class ProductAssetType(_message.Message):
    __slots__ = ["code", "created_at", "display_name", "etag", "is_featured_source", "updated_at", "uuid"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    IS_FEATURED_SOURCE_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    code: str
    created_at: _timestamp_pb2.Timestamp
    display_name: str
    etag: str
    is_featured_source: bool
    updated_at: _timestamp_pb2.Timestamp
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., code: _Optional[str] = ..., display_name: _Optional[str] = ..., is_featured_source: bool = ..., etag: _Optional[str] = ...) -> None: ...

class ProductAssetTypeCreate(_message.Message):
    __slots__ = ["code", "display_name", "is_featured_source"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    IS_FEATURED_SOURCE_FIELD_NUMBER: _ClassVar[int]
    code: str
    display_name: str
    is_featured_source: bool
    def __init__(self, code: _Optional[str] = ..., display_name: _Optional[str] = ..., is_featured_source: bool = ...) -> None: ...

class ProductAssetTypeUpdate(_message.Message):
    __slots__ = ["code", "display_name", "etag", "is_featured_source", "update_mask", "uuid"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    IS_FEATURED_SOURCE_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    code: str
    display_name: str
    etag: str
    is_featured_source: bool
    update_mask: _field_mask_pb2.FieldMask
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., code: _Optional[str] = ..., display_name: _Optional[str] = ..., is_featured_source: bool = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ..., etag: _Optional[str] = ...) -> None: ...

class UpdateProductAssetTypeRequest(_message.Message):
    __slots__ = ["product_asset_type", "product_asset_type_uuid"]
    PRODUCT_ASSET_TYPE_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_ASSET_TYPE_UUID_FIELD_NUMBER: _ClassVar[int]
    product_asset_type: ProductAssetTypeUpdate
    product_asset_type_uuid: str
    def __init__(self, product_asset_type_uuid: _Optional[str] = ..., product_asset_type: _Optional[_Union[ProductAssetTypeUpdate, _Mapping]] = ...) -> None: ...

class UpdateProductAssetTypeResponse(_message.Message):
    __slots__ = ["product_asset_type"]
    PRODUCT_ASSET_TYPE_FIELD_NUMBER: _ClassVar[int]
    product_asset_type: ProductAssetType
    def __init__(self, product_asset_type: _Optional[_Union[ProductAssetType, _Mapping]] = ...) -> None: ...
