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
INPUT_TYPE_DATA_TYPE_BOOLEAN: InputTypeDataType
INPUT_TYPE_DATA_TYPE_DATE: InputTypeDataType
INPUT_TYPE_DATA_TYPE_DATE_TIME: InputTypeDataType
INPUT_TYPE_DATA_TYPE_DECIMAL: InputTypeDataType
INPUT_TYPE_DATA_TYPE_INTEGER: InputTypeDataType
INPUT_TYPE_DATA_TYPE_JSON: InputTypeDataType
INPUT_TYPE_DATA_TYPE_MONEY: InputTypeDataType
INPUT_TYPE_DATA_TYPE_RICH_TEXT: InputTypeDataType
INPUT_TYPE_DATA_TYPE_TEXT: InputTypeDataType
INPUT_TYPE_DATA_TYPE_UNSPECIFIED: InputTypeDataType
INPUT_TYPE_DATA_TYPE_URL: InputTypeDataType

class BulkCreateInputTypesRequest(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[InputTypeCreate]
    def __init__(self, items: _Optional[_Iterable[_Union[InputTypeCreate, _Mapping]]] = ...) -> None: ...

class BulkCreateInputTypesResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[InputType]
    def __init__(self, items: _Optional[_Iterable[_Union[InputType, _Mapping]]] = ...) -> None: ...

class BulkUpdateInputTypesRequest(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[InputTypeUpdate]
    def __init__(self, items: _Optional[_Iterable[_Union[InputTypeUpdate, _Mapping]]] = ...) -> None: ...

class BulkUpdateInputTypesResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[InputType]
    def __init__(self, items: _Optional[_Iterable[_Union[InputType, _Mapping]]] = ...) -> None: ...

class CreateInputTypeRequest(_message.Message):
    __slots__ = ["input_type"]
    INPUT_TYPE_FIELD_NUMBER: _ClassVar[int]
    input_type: InputTypeCreate
    def __init__(self, input_type: _Optional[_Union[InputTypeCreate, _Mapping]] = ...) -> None: ...

class CreateInputTypeResponse(_message.Message):
    __slots__ = ["input_type"]
    INPUT_TYPE_FIELD_NUMBER: _ClassVar[int]
    input_type: InputType
    def __init__(self, input_type: _Optional[_Union[InputType, _Mapping]] = ...) -> None: ...

class DeleteInputTypeRequest(_message.Message):
    __slots__ = ["etag", "input_type_uuid"]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    INPUT_TYPE_UUID_FIELD_NUMBER: _ClassVar[int]
    etag: str
    input_type_uuid: str
    def __init__(self, input_type_uuid: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class DeleteInputTypeResponse(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class GetInputTypeRequest(_message.Message):
    __slots__ = ["input_type_uuid"]
    INPUT_TYPE_UUID_FIELD_NUMBER: _ClassVar[int]
    input_type_uuid: str
    def __init__(self, input_type_uuid: _Optional[str] = ...) -> None: ...

class GetInputTypeResponse(_message.Message):
    __slots__ = ["input_type"]
    INPUT_TYPE_FIELD_NUMBER: _ClassVar[int]
    input_type: InputType
    def __init__(self, input_type: _Optional[_Union[InputType, _Mapping]] = ...) -> None: ...

class InputType(_message.Message):
    __slots__ = ["code", "constraints", "created_at", "data_type", "display_name", "etag", "is_localizable", "type_group_uuid", "updated_at", "uuid"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    CONSTRAINTS_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    DATA_TYPE_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    IS_LOCALIZABLE_FIELD_NUMBER: _ClassVar[int]
    TYPE_GROUP_UUID_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    code: str
    constraints: InputTypeConstraints
    created_at: _timestamp_pb2.Timestamp
    data_type: InputTypeDataType
    display_name: str
    etag: str
    is_localizable: bool
    type_group_uuid: str
    updated_at: _timestamp_pb2.Timestamp
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., type_group_uuid: _Optional[str] = ..., code: _Optional[str] = ..., display_name: _Optional[str] = ..., data_type: _Optional[_Union[InputTypeDataType, str]] = ..., is_localizable: bool = ..., constraints: _Optional[_Union[InputTypeConstraints, _Mapping]] = ..., etag: _Optional[str] = ...) -> None: ...

class InputTypeAllowedValues(_message.Message):
    __slots__ = ["values"]
    VALUES_FIELD_NUMBER: _ClassVar[int]
    values: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, values: _Optional[_Iterable[str]] = ...) -> None: ...

class InputTypeConstraints(_message.Message):
    __slots__ = ["allowed_values", "max", "max_length", "min", "min_length", "pattern"]
    ALLOWED_VALUES_FIELD_NUMBER: _ClassVar[int]
    MAX_FIELD_NUMBER: _ClassVar[int]
    MAX_LENGTH_FIELD_NUMBER: _ClassVar[int]
    MIN_FIELD_NUMBER: _ClassVar[int]
    MIN_LENGTH_FIELD_NUMBER: _ClassVar[int]
    PATTERN_FIELD_NUMBER: _ClassVar[int]
    allowed_values: InputTypeAllowedValues
    max: str
    max_length: int
    min: str
    min_length: int
    pattern: str
    def __init__(self, min_length: _Optional[int] = ..., max_length: _Optional[int] = ..., min: _Optional[str] = ..., max: _Optional[str] = ..., pattern: _Optional[str] = ..., allowed_values: _Optional[_Union[InputTypeAllowedValues, _Mapping]] = ...) -> None: ...

class InputTypeConstraintsPatch(_message.Message):
    __slots__ = ["allowed_values", "max", "max_length", "min", "min_length", "pattern", "update_mask"]
    ALLOWED_VALUES_FIELD_NUMBER: _ClassVar[int]
    MAX_FIELD_NUMBER: _ClassVar[int]
    MAX_LENGTH_FIELD_NUMBER: _ClassVar[int]
    MIN_FIELD_NUMBER: _ClassVar[int]
    MIN_LENGTH_FIELD_NUMBER: _ClassVar[int]
    PATTERN_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    allowed_values: InputTypeAllowedValues
    max: str
    max_length: int
    min: str
    min_length: int
    pattern: str
    update_mask: _field_mask_pb2.FieldMask
    def __init__(self, min_length: _Optional[int] = ..., max_length: _Optional[int] = ..., min: _Optional[str] = ..., max: _Optional[str] = ..., pattern: _Optional[str] = ..., allowed_values: _Optional[_Union[InputTypeAllowedValues, _Mapping]] = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ...) -> None: ...

class InputTypeCreate(_message.Message):
    __slots__ = ["code", "constraints", "data_type", "display_name", "is_localizable", "type_group_uuid"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    CONSTRAINTS_FIELD_NUMBER: _ClassVar[int]
    DATA_TYPE_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    IS_LOCALIZABLE_FIELD_NUMBER: _ClassVar[int]
    TYPE_GROUP_UUID_FIELD_NUMBER: _ClassVar[int]
    code: str
    constraints: InputTypeConstraints
    data_type: InputTypeDataType
    display_name: str
    is_localizable: bool
    type_group_uuid: str
    def __init__(self, type_group_uuid: _Optional[str] = ..., code: _Optional[str] = ..., display_name: _Optional[str] = ..., data_type: _Optional[_Union[InputTypeDataType, str]] = ..., is_localizable: bool = ..., constraints: _Optional[_Union[InputTypeConstraints, _Mapping]] = ...) -> None: ...

class InputTypeUpdate(_message.Message):
    __slots__ = ["code", "constraints", "data_type", "display_name", "etag", "is_localizable", "type_group_uuid", "update_mask", "uuid"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    CONSTRAINTS_FIELD_NUMBER: _ClassVar[int]
    DATA_TYPE_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    IS_LOCALIZABLE_FIELD_NUMBER: _ClassVar[int]
    TYPE_GROUP_UUID_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    code: str
    constraints: InputTypeConstraintsPatch
    data_type: InputTypeDataType
    display_name: str
    etag: str
    is_localizable: bool
    type_group_uuid: str
    update_mask: _field_mask_pb2.FieldMask
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., type_group_uuid: _Optional[str] = ..., code: _Optional[str] = ..., display_name: _Optional[str] = ..., data_type: _Optional[_Union[InputTypeDataType, str]] = ..., is_localizable: bool = ..., constraints: _Optional[_Union[InputTypeConstraintsPatch, _Mapping]] = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ..., etag: _Optional[str] = ...) -> None: ...

class ListInputTypesRequest(_message.Message):
    __slots__ = ["code", "codes", "created_at", "cursor", "data_types", "display_name", "display_names", "is_localizable", "order_by", "page", "size", "type_group_uuids", "updated_at", "uuids"]
    CODES_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    DATA_TYPES_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAMES_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    IS_LOCALIZABLE_FIELD_NUMBER: _ClassVar[int]
    ORDER_BY_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    TYPE_GROUP_UUIDS_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUIDS_FIELD_NUMBER: _ClassVar[int]
    code: _common_pb2.StringFilter
    codes: _common_pb2.StringsFilter
    created_at: _common_pb2.TimeFilter
    cursor: str
    data_types: _common_pb2.StringsFilter
    display_name: _common_pb2.StringFilter
    display_names: _common_pb2.StringsFilter
    is_localizable: _common_pb2.BoolFilter
    order_by: _containers.RepeatedCompositeFieldContainer[_common_pb2.OrderBy]
    page: int
    size: int
    type_group_uuids: _common_pb2.StringsFilter
    updated_at: _common_pb2.TimeFilter
    uuids: _common_pb2.StringsFilter
    def __init__(self, uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., type_group_uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., codes: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., code: _Optional[_Union[_common_pb2.StringFilter, _Mapping]] = ..., display_names: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., display_name: _Optional[_Union[_common_pb2.StringFilter, _Mapping]] = ..., data_types: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., is_localizable: _Optional[_Union[_common_pb2.BoolFilter, _Mapping]] = ..., created_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., updated_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., page: _Optional[int] = ..., size: _Optional[int] = ..., cursor: _Optional[str] = ..., order_by: _Optional[_Iterable[_Union[_common_pb2.OrderBy, _Mapping]]] = ...) -> None: ...

class ListInputTypesResponse(_message.Message):
    __slots__ = ["items", "pagination"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PAGINATION_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[InputType]
    pagination: _common_pb2.Pagination
    def __init__(self, items: _Optional[_Iterable[_Union[InputType, _Mapping]]] = ..., pagination: _Optional[_Union[_common_pb2.Pagination, _Mapping]] = ...) -> None: ...

class UpdateInputTypeRequest(_message.Message):
    __slots__ = ["input_type", "input_type_uuid"]
    INPUT_TYPE_FIELD_NUMBER: _ClassVar[int]
    INPUT_TYPE_UUID_FIELD_NUMBER: _ClassVar[int]
    input_type: InputTypeUpdate
    input_type_uuid: str
    def __init__(self, input_type_uuid: _Optional[str] = ..., input_type: _Optional[_Union[InputTypeUpdate, _Mapping]] = ...) -> None: ...

class UpdateInputTypeResponse(_message.Message):
    __slots__ = ["input_type"]
    INPUT_TYPE_FIELD_NUMBER: _ClassVar[int]
    input_type: InputType
    def __init__(self, input_type: _Optional[_Union[InputType, _Mapping]] = ...) -> None: ...

class InputTypeDataType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
