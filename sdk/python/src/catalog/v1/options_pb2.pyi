from google.protobuf import descriptor_pb2 as _descriptor_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Optional as _Optional

DESCRIPTOR: _descriptor.FileDescriptor
JSON_ARRAY_FIELD_NUMBER: _ClassVar[int]
LIST_FIELD_NUMBER: _ClassVar[int]
REQUIRED_SCOPE_FIELD_NUMBER: _ClassVar[int]
RULES_FIELD_NUMBER: _ClassVar[int]
json_array: _descriptor.FieldDescriptor
list: _descriptor.FieldDescriptor
required_scope: _descriptor.FieldDescriptor
rules: _descriptor.FieldDescriptor

class FieldRules(_message.Message):
    __slots__ = ["format", "json_number", "max_items", "max_len", "maximum", "min_items", "min_len", "minimum", "required"]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    JSON_NUMBER_FIELD_NUMBER: _ClassVar[int]
    MAXIMUM_FIELD_NUMBER: _ClassVar[int]
    MAX_ITEMS_FIELD_NUMBER: _ClassVar[int]
    MAX_LEN_FIELD_NUMBER: _ClassVar[int]
    MINIMUM_FIELD_NUMBER: _ClassVar[int]
    MIN_ITEMS_FIELD_NUMBER: _ClassVar[int]
    MIN_LEN_FIELD_NUMBER: _ClassVar[int]
    REQUIRED_FIELD_NUMBER: _ClassVar[int]
    format: str
    json_number: bool
    max_items: int
    max_len: int
    maximum: int
    min_items: int
    min_len: int
    minimum: int
    required: bool
    def __init__(self, required: bool = ..., min_len: _Optional[int] = ..., max_len: _Optional[int] = ..., format: _Optional[str] = ..., min_items: _Optional[int] = ..., max_items: _Optional[int] = ..., minimum: _Optional[int] = ..., maximum: _Optional[int] = ..., json_number: bool = ...) -> None: ...

class ListOptions(_message.Message):
    __slots__ = ["order_fields"]
    ORDER_FIELDS_FIELD_NUMBER: _ClassVar[int]
    order_fields: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, order_fields: _Optional[_Iterable[str]] = ...) -> None: ...
