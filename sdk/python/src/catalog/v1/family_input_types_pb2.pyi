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

class BulkCreateFamilyInputTypesRequest(_message.Message):
    __slots__ = ["family_uuid", "items"]
    FAMILY_UUID_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    family_uuid: str
    items: _containers.RepeatedCompositeFieldContainer[FamilyInputTypeCreate]
    def __init__(self, family_uuid: _Optional[str] = ..., items: _Optional[_Iterable[_Union[FamilyInputTypeCreate, _Mapping]]] = ...) -> None: ...

class BulkCreateFamilyInputTypesResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[FamilyInputType]
    def __init__(self, items: _Optional[_Iterable[_Union[FamilyInputType, _Mapping]]] = ...) -> None: ...

class BulkUpdateFamilyInputTypesRequest(_message.Message):
    __slots__ = ["family_uuid", "items"]
    FAMILY_UUID_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    family_uuid: str
    items: _containers.RepeatedCompositeFieldContainer[FamilyInputTypeUpdate]
    def __init__(self, family_uuid: _Optional[str] = ..., items: _Optional[_Iterable[_Union[FamilyInputTypeUpdate, _Mapping]]] = ...) -> None: ...

class BulkUpdateFamilyInputTypesResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[FamilyInputType]
    def __init__(self, items: _Optional[_Iterable[_Union[FamilyInputType, _Mapping]]] = ...) -> None: ...

class CreateFamilyInputTypeRequest(_message.Message):
    __slots__ = ["family_input_type", "family_uuid"]
    FAMILY_INPUT_TYPE_FIELD_NUMBER: _ClassVar[int]
    FAMILY_UUID_FIELD_NUMBER: _ClassVar[int]
    family_input_type: FamilyInputTypeCreate
    family_uuid: str
    def __init__(self, family_uuid: _Optional[str] = ..., family_input_type: _Optional[_Union[FamilyInputTypeCreate, _Mapping]] = ...) -> None: ...

class CreateFamilyInputTypeResponse(_message.Message):
    __slots__ = ["family_input_type"]
    FAMILY_INPUT_TYPE_FIELD_NUMBER: _ClassVar[int]
    family_input_type: FamilyInputType
    def __init__(self, family_input_type: _Optional[_Union[FamilyInputType, _Mapping]] = ...) -> None: ...

class DeleteFamilyInputTypeRequest(_message.Message):
    __slots__ = ["etag", "family_input_type_uuid", "family_uuid"]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    FAMILY_INPUT_TYPE_UUID_FIELD_NUMBER: _ClassVar[int]
    FAMILY_UUID_FIELD_NUMBER: _ClassVar[int]
    etag: str
    family_input_type_uuid: str
    family_uuid: str
    def __init__(self, family_uuid: _Optional[str] = ..., family_input_type_uuid: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class DeleteFamilyInputTypeResponse(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class FamilyInputType(_message.Message):
    __slots__ = ["applies_to", "created_at", "etag", "family_uuid", "input_type_uuid", "requirement_level", "updated_at", "uuid"]
    APPLIES_TO_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    FAMILY_UUID_FIELD_NUMBER: _ClassVar[int]
    INPUT_TYPE_UUID_FIELD_NUMBER: _ClassVar[int]
    REQUIREMENT_LEVEL_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    applies_to: _families_pb2.FamilyAppliesTo
    created_at: _timestamp_pb2.Timestamp
    etag: str
    family_uuid: str
    input_type_uuid: str
    requirement_level: _families_pb2.FamilyRequirementLevel
    updated_at: _timestamp_pb2.Timestamp
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., family_uuid: _Optional[str] = ..., input_type_uuid: _Optional[str] = ..., requirement_level: _Optional[_Union[_families_pb2.FamilyRequirementLevel, str]] = ..., applies_to: _Optional[_Union[_families_pb2.FamilyAppliesTo, str]] = ..., etag: _Optional[str] = ...) -> None: ...

class FamilyInputTypeCreate(_message.Message):
    __slots__ = ["applies_to", "input_type_uuid", "requirement_level"]
    APPLIES_TO_FIELD_NUMBER: _ClassVar[int]
    INPUT_TYPE_UUID_FIELD_NUMBER: _ClassVar[int]
    REQUIREMENT_LEVEL_FIELD_NUMBER: _ClassVar[int]
    applies_to: _families_pb2.FamilyAppliesTo
    input_type_uuid: str
    requirement_level: _families_pb2.FamilyRequirementLevel
    def __init__(self, input_type_uuid: _Optional[str] = ..., requirement_level: _Optional[_Union[_families_pb2.FamilyRequirementLevel, str]] = ..., applies_to: _Optional[_Union[_families_pb2.FamilyAppliesTo, str]] = ...) -> None: ...

class FamilyInputTypeUpdate(_message.Message):
    __slots__ = ["applies_to", "etag", "input_type_uuid", "requirement_level", "update_mask", "uuid"]
    APPLIES_TO_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    INPUT_TYPE_UUID_FIELD_NUMBER: _ClassVar[int]
    REQUIREMENT_LEVEL_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    applies_to: _families_pb2.FamilyAppliesTo
    etag: str
    input_type_uuid: str
    requirement_level: _families_pb2.FamilyRequirementLevel
    update_mask: _field_mask_pb2.FieldMask
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., input_type_uuid: _Optional[str] = ..., requirement_level: _Optional[_Union[_families_pb2.FamilyRequirementLevel, str]] = ..., applies_to: _Optional[_Union[_families_pb2.FamilyAppliesTo, str]] = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ..., etag: _Optional[str] = ...) -> None: ...

class GetFamilyInputTypeRequest(_message.Message):
    __slots__ = ["family_input_type_uuid", "family_uuid"]
    FAMILY_INPUT_TYPE_UUID_FIELD_NUMBER: _ClassVar[int]
    FAMILY_UUID_FIELD_NUMBER: _ClassVar[int]
    family_input_type_uuid: str
    family_uuid: str
    def __init__(self, family_uuid: _Optional[str] = ..., family_input_type_uuid: _Optional[str] = ...) -> None: ...

class GetFamilyInputTypeResponse(_message.Message):
    __slots__ = ["family_input_type"]
    FAMILY_INPUT_TYPE_FIELD_NUMBER: _ClassVar[int]
    family_input_type: FamilyInputType
    def __init__(self, family_input_type: _Optional[_Union[FamilyInputType, _Mapping]] = ...) -> None: ...

class ListFamilyInputTypesRequest(_message.Message):
    __slots__ = ["applies_to", "created_at", "cursor", "family_uuid", "input_type_uuids", "order_by", "page", "requirement_levels", "size", "updated_at", "uuids"]
    APPLIES_TO_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    FAMILY_UUID_FIELD_NUMBER: _ClassVar[int]
    INPUT_TYPE_UUIDS_FIELD_NUMBER: _ClassVar[int]
    ORDER_BY_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    REQUIREMENT_LEVELS_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUIDS_FIELD_NUMBER: _ClassVar[int]
    applies_to: _common_pb2.StringsFilter
    created_at: _common_pb2.TimeFilter
    cursor: str
    family_uuid: str
    input_type_uuids: _common_pb2.StringsFilter
    order_by: _containers.RepeatedCompositeFieldContainer[_common_pb2.OrderBy]
    page: int
    requirement_levels: _common_pb2.StringsFilter
    size: int
    updated_at: _common_pb2.TimeFilter
    uuids: _common_pb2.StringsFilter
    def __init__(self, family_uuid: _Optional[str] = ..., uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., input_type_uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., requirement_levels: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., applies_to: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., created_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., updated_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., page: _Optional[int] = ..., size: _Optional[int] = ..., cursor: _Optional[str] = ..., order_by: _Optional[_Iterable[_Union[_common_pb2.OrderBy, _Mapping]]] = ...) -> None: ...

class ListFamilyInputTypesResponse(_message.Message):
    __slots__ = ["items", "pagination"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PAGINATION_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[FamilyInputType]
    pagination: _common_pb2.Pagination
    def __init__(self, items: _Optional[_Iterable[_Union[FamilyInputType, _Mapping]]] = ..., pagination: _Optional[_Union[_common_pb2.Pagination, _Mapping]] = ...) -> None: ...

class UpdateFamilyInputTypeRequest(_message.Message):
    __slots__ = ["family_input_type", "family_input_type_uuid", "family_uuid"]
    FAMILY_INPUT_TYPE_FIELD_NUMBER: _ClassVar[int]
    FAMILY_INPUT_TYPE_UUID_FIELD_NUMBER: _ClassVar[int]
    FAMILY_UUID_FIELD_NUMBER: _ClassVar[int]
    family_input_type: FamilyInputTypeUpdate
    family_input_type_uuid: str
    family_uuid: str
    def __init__(self, family_uuid: _Optional[str] = ..., family_input_type_uuid: _Optional[str] = ..., family_input_type: _Optional[_Union[FamilyInputTypeUpdate, _Mapping]] = ...) -> None: ...

class UpdateFamilyInputTypeResponse(_message.Message):
    __slots__ = ["family_input_type"]
    FAMILY_INPUT_TYPE_FIELD_NUMBER: _ClassVar[int]
    family_input_type: FamilyInputType
    def __init__(self, family_input_type: _Optional[_Union[FamilyInputType, _Mapping]] = ...) -> None: ...
