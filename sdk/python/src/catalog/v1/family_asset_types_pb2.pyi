from catalog.v1 import common_pb2 as _common_pb2
from catalog.v1 import families_pb2 as _families_pb2
from catalog.v1 import options_pb2 as _options_pb2
from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import field_mask_pb2 as _field_mask_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class BulkCreateFamilyAssetTypesRequest(_message.Message):
    __slots__ = ["family_uuid", "items"]
    FAMILY_UUID_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    family_uuid: str
    items: _containers.RepeatedCompositeFieldContainer[FamilyAssetTypeCreate]
    def __init__(self, family_uuid: _Optional[str] = ..., items: _Optional[_Iterable[_Union[FamilyAssetTypeCreate, _Mapping]]] = ...) -> None: ...

class BulkCreateFamilyAssetTypesResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[FamilyAssetType]
    def __init__(self, items: _Optional[_Iterable[_Union[FamilyAssetType, _Mapping]]] = ...) -> None: ...

class BulkUpdateFamilyAssetTypesRequest(_message.Message):
    __slots__ = ["family_uuid", "items"]
    FAMILY_UUID_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    family_uuid: str
    items: _containers.RepeatedCompositeFieldContainer[FamilyAssetTypeUpdate]
    def __init__(self, family_uuid: _Optional[str] = ..., items: _Optional[_Iterable[_Union[FamilyAssetTypeUpdate, _Mapping]]] = ...) -> None: ...

class BulkUpdateFamilyAssetTypesResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[FamilyAssetType]
    def __init__(self, items: _Optional[_Iterable[_Union[FamilyAssetType, _Mapping]]] = ...) -> None: ...

class CreateFamilyAssetTypeRequest(_message.Message):
    __slots__ = ["family_asset_type", "family_uuid"]
    FAMILY_ASSET_TYPE_FIELD_NUMBER: _ClassVar[int]
    FAMILY_UUID_FIELD_NUMBER: _ClassVar[int]
    family_asset_type: FamilyAssetTypeCreate
    family_uuid: str
    def __init__(self, family_uuid: _Optional[str] = ..., family_asset_type: _Optional[_Union[FamilyAssetTypeCreate, _Mapping]] = ...) -> None: ...

class CreateFamilyAssetTypeResponse(_message.Message):
    __slots__ = ["family_asset_type"]
    FAMILY_ASSET_TYPE_FIELD_NUMBER: _ClassVar[int]
    family_asset_type: FamilyAssetType
    def __init__(self, family_asset_type: _Optional[_Union[FamilyAssetType, _Mapping]] = ...) -> None: ...

class DeleteFamilyAssetTypeRequest(_message.Message):
    __slots__ = ["etag", "family_asset_type_uuid", "family_uuid"]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    FAMILY_ASSET_TYPE_UUID_FIELD_NUMBER: _ClassVar[int]
    FAMILY_UUID_FIELD_NUMBER: _ClassVar[int]
    etag: str
    family_asset_type_uuid: str
    family_uuid: str
    def __init__(self, family_uuid: _Optional[str] = ..., family_asset_type_uuid: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class DeleteFamilyAssetTypeResponse(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class FamilyAssetType(_message.Message):
    __slots__ = ["applies_to", "created_at", "etag", "family_uuid", "max_count", "min_count", "product_asset_type_uuid", "requirement_level", "updated_at", "uuid"]
    APPLIES_TO_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    FAMILY_UUID_FIELD_NUMBER: _ClassVar[int]
    MAX_COUNT_FIELD_NUMBER: _ClassVar[int]
    MIN_COUNT_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_ASSET_TYPE_UUID_FIELD_NUMBER: _ClassVar[int]
    REQUIREMENT_LEVEL_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    applies_to: _families_pb2.FamilyAppliesTo
    created_at: _timestamp_pb2.Timestamp
    etag: str
    family_uuid: str
    max_count: int
    min_count: int
    product_asset_type_uuid: str
    requirement_level: _families_pb2.FamilyRequirementLevel
    updated_at: _timestamp_pb2.Timestamp
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., family_uuid: _Optional[str] = ..., product_asset_type_uuid: _Optional[str] = ..., requirement_level: _Optional[_Union[_families_pb2.FamilyRequirementLevel, str]] = ..., min_count: _Optional[int] = ..., max_count: _Optional[int] = ..., applies_to: _Optional[_Union[_families_pb2.FamilyAppliesTo, str]] = ..., etag: _Optional[str] = ...) -> None: ...

class FamilyAssetTypeCreate(_message.Message):
    __slots__ = ["applies_to", "max_count", "min_count", "product_asset_type_uuid", "requirement_level"]
    APPLIES_TO_FIELD_NUMBER: _ClassVar[int]
    MAX_COUNT_FIELD_NUMBER: _ClassVar[int]
    MIN_COUNT_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_ASSET_TYPE_UUID_FIELD_NUMBER: _ClassVar[int]
    REQUIREMENT_LEVEL_FIELD_NUMBER: _ClassVar[int]
    applies_to: _families_pb2.FamilyAppliesTo
    max_count: int
    min_count: int
    product_asset_type_uuid: str
    requirement_level: _families_pb2.FamilyRequirementLevel
    def __init__(self, product_asset_type_uuid: _Optional[str] = ..., requirement_level: _Optional[_Union[_families_pb2.FamilyRequirementLevel, str]] = ..., min_count: _Optional[int] = ..., max_count: _Optional[int] = ..., applies_to: _Optional[_Union[_families_pb2.FamilyAppliesTo, str]] = ...) -> None: ...

class FamilyAssetTypeUpdate(_message.Message):
    __slots__ = ["applies_to", "etag", "max_count", "min_count", "product_asset_type_uuid", "requirement_level", "update_mask", "uuid"]
    APPLIES_TO_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    MAX_COUNT_FIELD_NUMBER: _ClassVar[int]
    MIN_COUNT_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_ASSET_TYPE_UUID_FIELD_NUMBER: _ClassVar[int]
    REQUIREMENT_LEVEL_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    applies_to: _families_pb2.FamilyAppliesTo
    etag: str
    max_count: int
    min_count: int
    product_asset_type_uuid: str
    requirement_level: _families_pb2.FamilyRequirementLevel
    update_mask: _field_mask_pb2.FieldMask
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., product_asset_type_uuid: _Optional[str] = ..., requirement_level: _Optional[_Union[_families_pb2.FamilyRequirementLevel, str]] = ..., min_count: _Optional[int] = ..., max_count: _Optional[int] = ..., applies_to: _Optional[_Union[_families_pb2.FamilyAppliesTo, str]] = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ..., etag: _Optional[str] = ...) -> None: ...

class GetFamilyAssetTypeRequest(_message.Message):
    __slots__ = ["family_asset_type_uuid", "family_uuid"]
    FAMILY_ASSET_TYPE_UUID_FIELD_NUMBER: _ClassVar[int]
    FAMILY_UUID_FIELD_NUMBER: _ClassVar[int]
    family_asset_type_uuid: str
    family_uuid: str
    def __init__(self, family_uuid: _Optional[str] = ..., family_asset_type_uuid: _Optional[str] = ...) -> None: ...

class GetFamilyAssetTypeResponse(_message.Message):
    __slots__ = ["family_asset_type"]
    FAMILY_ASSET_TYPE_FIELD_NUMBER: _ClassVar[int]
    family_asset_type: FamilyAssetType
    def __init__(self, family_asset_type: _Optional[_Union[FamilyAssetType, _Mapping]] = ...) -> None: ...

class ListFamilyAssetTypesRequest(_message.Message):
    __slots__ = ["applies_to", "created_at", "cursor", "family_uuid", "max_count", "min_count", "order_by", "page", "product_asset_type_uuids", "requirement_levels", "size", "updated_at", "uuids"]
    APPLIES_TO_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    FAMILY_UUID_FIELD_NUMBER: _ClassVar[int]
    MAX_COUNT_FIELD_NUMBER: _ClassVar[int]
    MIN_COUNT_FIELD_NUMBER: _ClassVar[int]
    ORDER_BY_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_ASSET_TYPE_UUIDS_FIELD_NUMBER: _ClassVar[int]
    REQUIREMENT_LEVELS_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUIDS_FIELD_NUMBER: _ClassVar[int]
    applies_to: _common_pb2.StringsFilter
    created_at: _common_pb2.TimeFilter
    cursor: str
    family_uuid: str
    max_count: _common_pb2.IntFilter
    min_count: _common_pb2.IntFilter
    order_by: _containers.RepeatedCompositeFieldContainer[_common_pb2.OrderBy]
    page: int
    product_asset_type_uuids: _common_pb2.StringsFilter
    requirement_levels: _common_pb2.StringsFilter
    size: int
    updated_at: _common_pb2.TimeFilter
    uuids: _common_pb2.StringsFilter
    def __init__(self, family_uuid: _Optional[str] = ..., uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., product_asset_type_uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., requirement_levels: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., min_count: _Optional[_Union[_common_pb2.IntFilter, _Mapping]] = ..., max_count: _Optional[_Union[_common_pb2.IntFilter, _Mapping]] = ..., applies_to: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., created_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., updated_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., page: _Optional[int] = ..., size: _Optional[int] = ..., cursor: _Optional[str] = ..., order_by: _Optional[_Iterable[_Union[_common_pb2.OrderBy, _Mapping]]] = ...) -> None: ...

class ListFamilyAssetTypesResponse(_message.Message):
    __slots__ = ["items", "pagination"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PAGINATION_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[FamilyAssetType]
    pagination: _common_pb2.Pagination
    def __init__(self, items: _Optional[_Iterable[_Union[FamilyAssetType, _Mapping]]] = ..., pagination: _Optional[_Union[_common_pb2.Pagination, _Mapping]] = ...) -> None: ...

class UpdateFamilyAssetTypeRequest(_message.Message):
    __slots__ = ["family_asset_type", "family_asset_type_uuid", "family_uuid"]
    FAMILY_ASSET_TYPE_FIELD_NUMBER: _ClassVar[int]
    FAMILY_ASSET_TYPE_UUID_FIELD_NUMBER: _ClassVar[int]
    FAMILY_UUID_FIELD_NUMBER: _ClassVar[int]
    family_asset_type: FamilyAssetTypeUpdate
    family_asset_type_uuid: str
    family_uuid: str
    def __init__(self, family_uuid: _Optional[str] = ..., family_asset_type_uuid: _Optional[str] = ..., family_asset_type: _Optional[_Union[FamilyAssetTypeUpdate, _Mapping]] = ...) -> None: ...

class UpdateFamilyAssetTypeResponse(_message.Message):
    __slots__ = ["family_asset_type"]
    FAMILY_ASSET_TYPE_FIELD_NUMBER: _ClassVar[int]
    family_asset_type: FamilyAssetType
    def __init__(self, family_asset_type: _Optional[_Union[FamilyAssetType, _Mapping]] = ...) -> None: ...
