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

DESCRIPTOR: _descriptor.FileDescriptor
FAMILY_APPLIES_TO_BOTH: FamilyAppliesTo
FAMILY_APPLIES_TO_PARENT: FamilyAppliesTo
FAMILY_APPLIES_TO_UNSPECIFIED: FamilyAppliesTo
FAMILY_APPLIES_TO_VARIANT: FamilyAppliesTo
FAMILY_REQUIREMENT_LEVEL_OPTIONAL: FamilyRequirementLevel
FAMILY_REQUIREMENT_LEVEL_RECOMMENDED: FamilyRequirementLevel
FAMILY_REQUIREMENT_LEVEL_REQUIRED: FamilyRequirementLevel
FAMILY_REQUIREMENT_LEVEL_UNSPECIFIED: FamilyRequirementLevel

class BulkCreateFamiliesRequest(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[FamilyCreate]
    def __init__(self, items: _Optional[_Iterable[_Union[FamilyCreate, _Mapping]]] = ...) -> None: ...

class BulkCreateFamiliesResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[Family]
    def __init__(self, items: _Optional[_Iterable[_Union[Family, _Mapping]]] = ...) -> None: ...

class BulkUpdateFamiliesRequest(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[FamilyUpdate]
    def __init__(self, items: _Optional[_Iterable[_Union[FamilyUpdate, _Mapping]]] = ...) -> None: ...

class BulkUpdateFamiliesResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[Family]
    def __init__(self, items: _Optional[_Iterable[_Union[Family, _Mapping]]] = ...) -> None: ...

class CreateFamilyRequest(_message.Message):
    __slots__ = ["family"]
    FAMILY_FIELD_NUMBER: _ClassVar[int]
    family: FamilyCreate
    def __init__(self, family: _Optional[_Union[FamilyCreate, _Mapping]] = ...) -> None: ...

class CreateFamilyResponse(_message.Message):
    __slots__ = ["family"]
    FAMILY_FIELD_NUMBER: _ClassVar[int]
    family: Family
    def __init__(self, family: _Optional[_Union[Family, _Mapping]] = ...) -> None: ...

class DeleteFamilyRequest(_message.Message):
    __slots__ = ["etag", "family_uuid"]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    FAMILY_UUID_FIELD_NUMBER: _ClassVar[int]
    etag: str
    family_uuid: str
    def __init__(self, family_uuid: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class DeleteFamilyResponse(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class Family(_message.Message):
    __slots__ = ["code", "created_at", "display_name", "etag", "updated_at", "uuid"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    code: str
    created_at: _timestamp_pb2.Timestamp
    display_name: str
    etag: str
    updated_at: _timestamp_pb2.Timestamp
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., code: _Optional[str] = ..., display_name: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class FamilyCreate(_message.Message):
    __slots__ = ["code", "display_name"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    code: str
    display_name: str
    def __init__(self, code: _Optional[str] = ..., display_name: _Optional[str] = ...) -> None: ...

class FamilyUpdate(_message.Message):
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

class GetFamilyRequest(_message.Message):
    __slots__ = ["family_uuid"]
    FAMILY_UUID_FIELD_NUMBER: _ClassVar[int]
    family_uuid: str
    def __init__(self, family_uuid: _Optional[str] = ...) -> None: ...

class GetFamilyResponse(_message.Message):
    __slots__ = ["family"]
    FAMILY_FIELD_NUMBER: _ClassVar[int]
    family: Family
    def __init__(self, family: _Optional[_Union[Family, _Mapping]] = ...) -> None: ...

class ListFamiliesRequest(_message.Message):
    __slots__ = ["code", "codes", "created_at", "cursor", "display_name", "display_names", "order_by", "page", "size", "updated_at", "uuids"]
    CODES_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAMES_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
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
    order_by: _containers.RepeatedCompositeFieldContainer[_common_pb2.OrderBy]
    page: int
    size: int
    updated_at: _common_pb2.TimeFilter
    uuids: _common_pb2.StringsFilter
    def __init__(self, uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., codes: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., code: _Optional[_Union[_common_pb2.StringFilter, _Mapping]] = ..., display_names: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., display_name: _Optional[_Union[_common_pb2.StringFilter, _Mapping]] = ..., created_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., updated_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., page: _Optional[int] = ..., size: _Optional[int] = ..., cursor: _Optional[str] = ..., order_by: _Optional[_Iterable[_Union[_common_pb2.OrderBy, _Mapping]]] = ...) -> None: ...

class ListFamiliesResponse(_message.Message):
    __slots__ = ["items", "pagination"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PAGINATION_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[Family]
    pagination: _common_pb2.Pagination
    def __init__(self, items: _Optional[_Iterable[_Union[Family, _Mapping]]] = ..., pagination: _Optional[_Union[_common_pb2.Pagination, _Mapping]] = ...) -> None: ...

class UpdateFamilyRequest(_message.Message):
    __slots__ = ["family", "family_uuid"]
    FAMILY_FIELD_NUMBER: _ClassVar[int]
    FAMILY_UUID_FIELD_NUMBER: _ClassVar[int]
    family: FamilyUpdate
    family_uuid: str
    def __init__(self, family_uuid: _Optional[str] = ..., family: _Optional[_Union[FamilyUpdate, _Mapping]] = ...) -> None: ...

class UpdateFamilyResponse(_message.Message):
    __slots__ = ["family"]
    FAMILY_FIELD_NUMBER: _ClassVar[int]
    family: Family
    def __init__(self, family: _Optional[_Union[Family, _Mapping]] = ...) -> None: ...

class FamilyRequirementLevel(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class FamilyAppliesTo(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
