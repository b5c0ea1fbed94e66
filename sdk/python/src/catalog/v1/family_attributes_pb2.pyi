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

class BulkCreateFamilyAttributesRequest(_message.Message):
    __slots__ = ["family_uuid", "items"]
    FAMILY_UUID_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    family_uuid: str
    items: _containers.RepeatedCompositeFieldContainer[FamilyAttributeCreate]
    def __init__(self, family_uuid: _Optional[str] = ..., items: _Optional[_Iterable[_Union[FamilyAttributeCreate, _Mapping]]] = ...) -> None: ...

class BulkCreateFamilyAttributesResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[FamilyAttribute]
    def __init__(self, items: _Optional[_Iterable[_Union[FamilyAttribute, _Mapping]]] = ...) -> None: ...

class BulkUpdateFamilyAttributesRequest(_message.Message):
    __slots__ = ["family_uuid", "items"]
    FAMILY_UUID_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    family_uuid: str
    items: _containers.RepeatedCompositeFieldContainer[FamilyAttributeUpdate]
    def __init__(self, family_uuid: _Optional[str] = ..., items: _Optional[_Iterable[_Union[FamilyAttributeUpdate, _Mapping]]] = ...) -> None: ...

class BulkUpdateFamilyAttributesResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[FamilyAttribute]
    def __init__(self, items: _Optional[_Iterable[_Union[FamilyAttribute, _Mapping]]] = ...) -> None: ...

class CreateFamilyAttributeRequest(_message.Message):
    __slots__ = ["family_attribute", "family_uuid"]
    FAMILY_ATTRIBUTE_FIELD_NUMBER: _ClassVar[int]
    FAMILY_UUID_FIELD_NUMBER: _ClassVar[int]
    family_attribute: FamilyAttributeCreate
    family_uuid: str
    def __init__(self, family_uuid: _Optional[str] = ..., family_attribute: _Optional[_Union[FamilyAttributeCreate, _Mapping]] = ...) -> None: ...

class CreateFamilyAttributeResponse(_message.Message):
    __slots__ = ["family_attribute"]
    FAMILY_ATTRIBUTE_FIELD_NUMBER: _ClassVar[int]
    family_attribute: FamilyAttribute
    def __init__(self, family_attribute: _Optional[_Union[FamilyAttribute, _Mapping]] = ...) -> None: ...

class DeleteFamilyAttributeRequest(_message.Message):
    __slots__ = ["etag", "family_attribute_uuid", "family_uuid"]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    FAMILY_ATTRIBUTE_UUID_FIELD_NUMBER: _ClassVar[int]
    FAMILY_UUID_FIELD_NUMBER: _ClassVar[int]
    etag: str
    family_attribute_uuid: str
    family_uuid: str
    def __init__(self, family_uuid: _Optional[str] = ..., family_attribute_uuid: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class DeleteFamilyAttributeResponse(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class FamilyAttribute(_message.Message):
    __slots__ = ["applies_to", "attribute_uuid", "created_at", "etag", "family_uuid", "is_variant_axis", "requirement_level", "updated_at", "uuid"]
    APPLIES_TO_FIELD_NUMBER: _ClassVar[int]
    ATTRIBUTE_UUID_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    FAMILY_UUID_FIELD_NUMBER: _ClassVar[int]
    IS_VARIANT_AXIS_FIELD_NUMBER: _ClassVar[int]
    REQUIREMENT_LEVEL_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    applies_to: _families_pb2.FamilyAppliesTo
    attribute_uuid: str
    created_at: _timestamp_pb2.Timestamp
    etag: str
    family_uuid: str
    is_variant_axis: bool
    requirement_level: _families_pb2.FamilyRequirementLevel
    updated_at: _timestamp_pb2.Timestamp
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., family_uuid: _Optional[str] = ..., attribute_uuid: _Optional[str] = ..., requirement_level: _Optional[_Union[_families_pb2.FamilyRequirementLevel, str]] = ..., applies_to: _Optional[_Union[_families_pb2.FamilyAppliesTo, str]] = ..., is_variant_axis: bool = ..., etag: _Optional[str] = ...) -> None: ...

class FamilyAttributeCreate(_message.Message):
    __slots__ = ["applies_to", "attribute_uuid", "is_variant_axis", "requirement_level"]
    APPLIES_TO_FIELD_NUMBER: _ClassVar[int]
    ATTRIBUTE_UUID_FIELD_NUMBER: _ClassVar[int]
    IS_VARIANT_AXIS_FIELD_NUMBER: _ClassVar[int]
    REQUIREMENT_LEVEL_FIELD_NUMBER: _ClassVar[int]
    applies_to: _families_pb2.FamilyAppliesTo
    attribute_uuid: str
    is_variant_axis: bool
    requirement_level: _families_pb2.FamilyRequirementLevel
    def __init__(self, attribute_uuid: _Optional[str] = ..., requirement_level: _Optional[_Union[_families_pb2.FamilyRequirementLevel, str]] = ..., applies_to: _Optional[_Union[_families_pb2.FamilyAppliesTo, str]] = ..., is_variant_axis: bool = ...) -> None: ...

class FamilyAttributeUpdate(_message.Message):
    __slots__ = ["applies_to", "attribute_uuid", "etag", "is_variant_axis", "requirement_level", "update_mask", "uuid"]
    APPLIES_TO_FIELD_NUMBER: _ClassVar[int]
    ATTRIBUTE_UUID_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    IS_VARIANT_AXIS_FIELD_NUMBER: _ClassVar[int]
    REQUIREMENT_LEVEL_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    applies_to: _families_pb2.FamilyAppliesTo
    attribute_uuid: str
    etag: str
    is_variant_axis: bool
    requirement_level: _families_pb2.FamilyRequirementLevel
    update_mask: _field_mask_pb2.FieldMask
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., attribute_uuid: _Optional[str] = ..., requirement_level: _Optional[_Union[_families_pb2.FamilyRequirementLevel, str]] = ..., applies_to: _Optional[_Union[_families_pb2.FamilyAppliesTo, str]] = ..., is_variant_axis: bool = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ..., etag: _Optional[str] = ...) -> None: ...

class GetFamilyAttributeRequest(_message.Message):
    __slots__ = ["family_attribute_uuid", "family_uuid"]
    FAMILY_ATTRIBUTE_UUID_FIELD_NUMBER: _ClassVar[int]
    FAMILY_UUID_FIELD_NUMBER: _ClassVar[int]
    family_attribute_uuid: str
    family_uuid: str
    def __init__(self, family_uuid: _Optional[str] = ..., family_attribute_uuid: _Optional[str] = ...) -> None: ...

class GetFamilyAttributeResponse(_message.Message):
    __slots__ = ["family_attribute"]
    FAMILY_ATTRIBUTE_FIELD_NUMBER: _ClassVar[int]
    family_attribute: FamilyAttribute
    def __init__(self, family_attribute: _Optional[_Union[FamilyAttribute, _Mapping]] = ...) -> None: ...

class ListFamilyAttributesRequest(_message.Message):
    __slots__ = ["applies_to", "attribute_uuids", "created_at", "cursor", "family_uuid", "is_variant_axis", "order_by", "page", "requirement_levels", "size", "updated_at", "uuids"]
    APPLIES_TO_FIELD_NUMBER: _ClassVar[int]
    ATTRIBUTE_UUIDS_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    FAMILY_UUID_FIELD_NUMBER: _ClassVar[int]
    IS_VARIANT_AXIS_FIELD_NUMBER: _ClassVar[int]
    ORDER_BY_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    REQUIREMENT_LEVELS_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUIDS_FIELD_NUMBER: _ClassVar[int]
    applies_to: _common_pb2.StringsFilter
    attribute_uuids: _common_pb2.StringsFilter
    created_at: _common_pb2.TimeFilter
    cursor: str
    family_uuid: str
    is_variant_axis: _common_pb2.BoolFilter
    order_by: _containers.RepeatedCompositeFieldContainer[_common_pb2.OrderBy]
    page: int
    requirement_levels: _common_pb2.StringsFilter
    size: int
    updated_at: _common_pb2.TimeFilter
    uuids: _common_pb2.StringsFilter
    def __init__(self, family_uuid: _Optional[str] = ..., uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., attribute_uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., requirement_levels: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., applies_to: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., is_variant_axis: _Optional[_Union[_common_pb2.BoolFilter, _Mapping]] = ..., created_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., updated_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., page: _Optional[int] = ..., size: _Optional[int] = ..., cursor: _Optional[str] = ..., order_by: _Optional[_Iterable[_Union[_common_pb2.OrderBy, _Mapping]]] = ...) -> None: ...

class ListFamilyAttributesResponse(_message.Message):
    __slots__ = ["items", "pagination"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PAGINATION_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[FamilyAttribute]
    pagination: _common_pb2.Pagination
    def __init__(self, items: _Optional[_Iterable[_Union[FamilyAttribute, _Mapping]]] = ..., pagination: _Optional[_Union[_common_pb2.Pagination, _Mapping]] = ...) -> None: ...

class UpdateFamilyAttributeRequest(_message.Message):
    __slots__ = ["family_attribute", "family_attribute_uuid", "family_uuid"]
    FAMILY_ATTRIBUTE_FIELD_NUMBER: _ClassVar[int]
    FAMILY_ATTRIBUTE_UUID_FIELD_NUMBER: _ClassVar[int]
    FAMILY_UUID_FIELD_NUMBER: _ClassVar[int]
    family_attribute: FamilyAttributeUpdate
    family_attribute_uuid: str
    family_uuid: str
    def __init__(self, family_uuid: _Optional[str] = ..., family_attribute_uuid: _Optional[str] = ..., family_attribute: _Optional[_Union[FamilyAttributeUpdate, _Mapping]] = ...) -> None: ...

class UpdateFamilyAttributeResponse(_message.Message):
    __slots__ = ["family_attribute"]
    FAMILY_ATTRIBUTE_FIELD_NUMBER: _ClassVar[int]
    family_attribute: FamilyAttribute
    def __init__(self, family_attribute: _Optional[_Union[FamilyAttribute, _Mapping]] = ...) -> None: ...
