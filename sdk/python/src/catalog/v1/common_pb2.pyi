from catalog.v1 import options_pb2 as _options_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor
SORT_DIRECTION_ASC: SortDirection
SORT_DIRECTION_DESC: SortDirection
SORT_DIRECTION_UNSPECIFIED: SortDirection

class BoolFilter(_message.Message):
    __slots__ = ["eq"]
    EQ_FIELD_NUMBER: _ClassVar[int]
    eq: bool
    def __init__(self, eq: bool = ...) -> None: ...

class IntFilter(_message.Message):
    __slots__ = ["eq", "max", "min"]
    EQ_FIELD_NUMBER: _ClassVar[int]
    MAX_FIELD_NUMBER: _ClassVar[int]
    MIN_FIELD_NUMBER: _ClassVar[int]
    eq: int
    max: int
    min: int
    def __init__(self, eq: _Optional[int] = ..., min: _Optional[int] = ..., max: _Optional[int] = ...) -> None: ...

class OrderBy(_message.Message):
    __slots__ = ["direction", "field"]
    DIRECTION_FIELD_NUMBER: _ClassVar[int]
    FIELD_FIELD_NUMBER: _ClassVar[int]
    direction: SortDirection
    field: str
    def __init__(self, field: _Optional[str] = ..., direction: _Optional[_Union[SortDirection, str]] = ...) -> None: ...

class Pagination(_message.Message):
    __slots__ = ["next_cursor", "page", "size", "total_items", "total_pages"]
    NEXT_CURSOR_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    TOTAL_ITEMS_FIELD_NUMBER: _ClassVar[int]
    TOTAL_PAGES_FIELD_NUMBER: _ClassVar[int]
    next_cursor: str
    page: int
    size: int
    total_items: int
    total_pages: int
    def __init__(self, page: _Optional[int] = ..., size: _Optional[int] = ..., total_items: _Optional[int] = ..., total_pages: _Optional[int] = ..., next_cursor: _Optional[str] = ...) -> None: ...

class StringFilter(_message.Message):
    __slots__ = ["contains", "ends", "starts"]
    CONTAINS_FIELD_NUMBER: _ClassVar[int]
    ENDS_FIELD_NUMBER: _ClassVar[int]
    STARTS_FIELD_NUMBER: _ClassVar[int]
    contains: str
    ends: str
    starts: str
    def __init__(self, contains: _Optional[str] = ..., starts: _Optional[str] = ..., ends: _Optional[str] = ...) -> None: ...

class StringsFilter(_message.Message):
    __slots__ = ["eq"]
    EQ_FIELD_NUMBER: _ClassVar[int]
    eq: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, eq: _Optional[_Iterable[str]] = ...) -> None: ...

class TimeFilter(_message.Message):
    __slots__ = ["eq", "max", "min"]
    EQ_FIELD_NUMBER: _ClassVar[int]
    MAX_FIELD_NUMBER: _ClassVar[int]
    MIN_FIELD_NUMBER: _ClassVar[int]
    eq: _timestamp_pb2.Timestamp
    max: _timestamp_pb2.Timestamp
    min: _timestamp_pb2.Timestamp
    def __init__(self, eq: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., min: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., max: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class UuidList(_message.Message):
    __slots__ = ["values"]
    VALUES_FIELD_NUMBER: _ClassVar[int]
    values: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, values: _Optional[_Iterable[str]] = ...) -> None: ...

class SortDirection(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
