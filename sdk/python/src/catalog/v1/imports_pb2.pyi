from catalog.v1 import common_pb2 as _common_pb2
from catalog.v1 import options_pb2 as _options_pb2
from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor
IMPORT_FORMAT_CSV: ImportFormat
IMPORT_FORMAT_NDJSON: ImportFormat
IMPORT_FORMAT_UNSPECIFIED: ImportFormat
IMPORT_LINE_STATUS_FAILED: ImportLineStatus
IMPORT_LINE_STATUS_UNSPECIFIED: ImportLineStatus
IMPORT_STATUS_AWAITING_UPLOAD: ImportStatus
IMPORT_STATUS_CANCELLED: ImportStatus
IMPORT_STATUS_COMPLETED: ImportStatus
IMPORT_STATUS_FAILED: ImportStatus
IMPORT_STATUS_QUEUED: ImportStatus
IMPORT_STATUS_RUNNING: ImportStatus
IMPORT_STATUS_UNSPECIFIED: ImportStatus
IMPORT_TRANSITION_CANCEL: ImportTransition
IMPORT_TRANSITION_START: ImportTransition
IMPORT_TRANSITION_UNSPECIFIED: ImportTransition

class CreateImportRequest(_message.Message):
    __slots__ = []
    IMPORT_FIELD_NUMBER: _ClassVar[int]
    def __init__(self, **kwargs) -> None: ...

class CreateImportResponse(_message.Message):
    __slots__ = ["upload"]
    UPLOAD_FIELD_NUMBER: _ClassVar[int]
    upload: ImportUpload
    def __init__(self, upload: _Optional[_Union[ImportUpload, _Mapping]] = ...) -> None: ...

class GetImportLineRequest(_message.Message):
    __slots__ = ["import_uuid", "line_uuid"]
    IMPORT_UUID_FIELD_NUMBER: _ClassVar[int]
    LINE_UUID_FIELD_NUMBER: _ClassVar[int]
    import_uuid: str
    line_uuid: str
    def __init__(self, import_uuid: _Optional[str] = ..., line_uuid: _Optional[str] = ...) -> None: ...

class GetImportLineResponse(_message.Message):
    __slots__ = ["import_line"]
    IMPORT_LINE_FIELD_NUMBER: _ClassVar[int]
    import_line: ImportLine
    def __init__(self, import_line: _Optional[_Union[ImportLine, _Mapping]] = ...) -> None: ...

class GetImportRequest(_message.Message):
    __slots__ = ["import_uuid"]
    IMPORT_UUID_FIELD_NUMBER: _ClassVar[int]
    import_uuid: str
    def __init__(self, import_uuid: _Optional[str] = ...) -> None: ...

class GetImportResponse(_message.Message):
    __slots__ = []
    IMPORT_FIELD_NUMBER: _ClassVar[int]
    def __init__(self, **kwargs) -> None: ...

class Import(_message.Message):
    __slots__ = ["bytes_read", "checksum_sha256", "created_at", "created_count", "dry_run", "etag", "failed_count", "failure_reason", "file_name", "finished_at", "format", "lines_read", "size_bytes", "started_at", "status", "unchanged_count", "updated_at", "updated_count", "uuid"]
    BYTES_READ_FIELD_NUMBER: _ClassVar[int]
    CHECKSUM_SHA256_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    CREATED_COUNT_FIELD_NUMBER: _ClassVar[int]
    DRY_RUN_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    FAILED_COUNT_FIELD_NUMBER: _ClassVar[int]
    FAILURE_REASON_FIELD_NUMBER: _ClassVar[int]
    FILE_NAME_FIELD_NUMBER: _ClassVar[int]
    FINISHED_AT_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    LINES_READ_FIELD_NUMBER: _ClassVar[int]
    SIZE_BYTES_FIELD_NUMBER: _ClassVar[int]
    STARTED_AT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    UNCHANGED_COUNT_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UPDATED_COUNT_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    bytes_read: int
    checksum_sha256: str
    created_at: _timestamp_pb2.Timestamp
    created_count: int
    dry_run: bool
    etag: str
    failed_count: int
    failure_reason: str
    file_name: str
    finished_at: _timestamp_pb2.Timestamp
    format: ImportFormat
    lines_read: int
    size_bytes: int
    started_at: _timestamp_pb2.Timestamp
    status: ImportStatus
    unchanged_count: int
    updated_at: _timestamp_pb2.Timestamp
    updated_count: int
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., format: _Optional[_Union[ImportFormat, str]] = ..., dry_run: bool = ..., file_name: _Optional[str] = ..., size_bytes: _Optional[int] = ..., checksum_sha256: _Optional[str] = ..., status: _Optional[_Union[ImportStatus, str]] = ..., bytes_read: _Optional[int] = ..., lines_read: _Optional[int] = ..., created_count: _Optional[int] = ..., updated_count: _Optional[int] = ..., unchanged_count: _Optional[int] = ..., failed_count: _Optional[int] = ..., started_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., finished_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., failure_reason: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class ImportCreate(_message.Message):
    __slots__ = ["checksum_sha256", "content", "dry_run", "file_name", "format", "size_bytes"]
    CHECKSUM_SHA256_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    DRY_RUN_FIELD_NUMBER: _ClassVar[int]
    FILE_NAME_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    SIZE_BYTES_FIELD_NUMBER: _ClassVar[int]
    checksum_sha256: str
    content: bytes
    dry_run: bool
    file_name: str
    format: ImportFormat
    size_bytes: int
    def __init__(self, format: _Optional[_Union[ImportFormat, str]] = ..., dry_run: bool = ..., file_name: _Optional[str] = ..., size_bytes: _Optional[int] = ..., checksum_sha256: _Optional[str] = ..., content: _Optional[bytes] = ...) -> None: ...

class ImportLine(_message.Message):
    __slots__ = ["code", "created_at", "errors", "etag", "import_uuid", "line", "status", "type", "updated_at", "uuid"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    ERRORS_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    IMPORT_UUID_FIELD_NUMBER: _ClassVar[int]
    LINE_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    code: str
    created_at: _timestamp_pb2.Timestamp
    errors: _containers.RepeatedCompositeFieldContainer[ImportLineError]
    etag: str
    import_uuid: str
    line: int
    status: ImportLineStatus
    type: str
    updated_at: _timestamp_pb2.Timestamp
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., import_uuid: _Optional[str] = ..., line: _Optional[int] = ..., type: _Optional[str] = ..., code: _Optional[str] = ..., status: _Optional[_Union[ImportLineStatus, str]] = ..., errors: _Optional[_Iterable[_Union[ImportLineError, _Mapping]]] = ..., etag: _Optional[str] = ...) -> None: ...

class ImportLineError(_message.Message):
    __slots__ = ["code", "field", "message"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    FIELD_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    code: str
    field: str
    message: str
    def __init__(self, field: _Optional[str] = ..., code: _Optional[str] = ..., message: _Optional[str] = ...) -> None: ...

class ImportUpload(_message.Message):
    __slots__ = ["expires_at", "upload_headers", "upload_method", "upload_url"]
    class UploadHeadersEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    IMPORT_FIELD_NUMBER: _ClassVar[int]
    UPLOAD_HEADERS_FIELD_NUMBER: _ClassVar[int]
    UPLOAD_METHOD_FIELD_NUMBER: _ClassVar[int]
    UPLOAD_URL_FIELD_NUMBER: _ClassVar[int]
    expires_at: _timestamp_pb2.Timestamp
    upload_headers: _containers.ScalarMap[str, str]
    upload_method: str
    upload_url: str
    def __init__(self, upload_url: _Optional[str] = ..., upload_method: _Optional[str] = ..., upload_headers: _Optional[_Mapping[str, str]] = ..., expires_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., **kwargs) -> None: ...

class ListImportLinesRequest(_message.Message):
    __slots__ = ["codes", "cursor", "import_uuid", "line", "order_by", "page", "size", "types", "uuids"]
    CODES_FIELD_NUMBER: _ClassVar[int]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    IMPORT_UUID_FIELD_NUMBER: _ClassVar[int]
    LINE_FIELD_NUMBER: _ClassVar[int]
    ORDER_BY_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    TYPES_FIELD_NUMBER: _ClassVar[int]
    UUIDS_FIELD_NUMBER: _ClassVar[int]
    codes: _common_pb2.StringsFilter
    cursor: str
    import_uuid: str
    line: _common_pb2.IntFilter
    order_by: _containers.RepeatedCompositeFieldContainer[_common_pb2.OrderBy]
    page: int
    size: int
    types: _common_pb2.StringsFilter
    uuids: _common_pb2.StringsFilter
    def __init__(self, import_uuid: _Optional[str] = ..., uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., line: _Optional[_Union[_common_pb2.IntFilter, _Mapping]] = ..., types: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., codes: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., page: _Optional[int] = ..., size: _Optional[int] = ..., cursor: _Optional[str] = ..., order_by: _Optional[_Iterable[_Union[_common_pb2.OrderBy, _Mapping]]] = ...) -> None: ...

class ListImportLinesResponse(_message.Message):
    __slots__ = ["items", "pagination"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PAGINATION_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ImportLine]
    pagination: _common_pb2.Pagination
    def __init__(self, items: _Optional[_Iterable[_Union[ImportLine, _Mapping]]] = ..., pagination: _Optional[_Union[_common_pb2.Pagination, _Mapping]] = ...) -> None: ...

class ListImportsRequest(_message.Message):
    __slots__ = ["created_at", "cursor", "formats", "order_by", "page", "size", "statuses", "updated_at", "uuids"]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    FORMATS_FIELD_NUMBER: _ClassVar[int]
    ORDER_BY_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    STATUSES_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUIDS_FIELD_NUMBER: _ClassVar[int]
    created_at: _common_pb2.TimeFilter
    cursor: str
    formats: _common_pb2.StringsFilter
    order_by: _containers.RepeatedCompositeFieldContainer[_common_pb2.OrderBy]
    page: int
    size: int
    statuses: _common_pb2.StringsFilter
    updated_at: _common_pb2.TimeFilter
    uuids: _common_pb2.StringsFilter
    def __init__(self, uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., statuses: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., formats: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., created_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., updated_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., page: _Optional[int] = ..., size: _Optional[int] = ..., cursor: _Optional[str] = ..., order_by: _Optional[_Iterable[_Union[_common_pb2.OrderBy, _Mapping]]] = ...) -> None: ...

class ListImportsResponse(_message.Message):
    __slots__ = ["items", "pagination"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PAGINATION_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[Import]
    pagination: _common_pb2.Pagination
    def __init__(self, items: _Optional[_Iterable[_Union[Import, _Mapping]]] = ..., pagination: _Optional[_Union[_common_pb2.Pagination, _Mapping]] = ...) -> None: ...

class TransitionImportRequest(_message.Message):
    __slots__ = ["etag", "import_uuid", "transition"]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    IMPORT_UUID_FIELD_NUMBER: _ClassVar[int]
    TRANSITION_FIELD_NUMBER: _ClassVar[int]
    etag: str
    import_uuid: str
    transition: ImportTransition
    def __init__(self, import_uuid: _Optional[str] = ..., transition: _Optional[_Union[ImportTransition, str]] = ..., etag: _Optional[str] = ...) -> None: ...

class TransitionImportResponse(_message.Message):
    __slots__ = []
    IMPORT_FIELD_NUMBER: _ClassVar[int]
    def __init__(self, **kwargs) -> None: ...

class ImportFormat(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class ImportStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class ImportTransition(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class ImportLineStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
