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
EXPORT_FORMAT_CSV: ExportFormat
EXPORT_FORMAT_NDJSON: ExportFormat
EXPORT_FORMAT_UNSPECIFIED: ExportFormat
EXPORT_STATUS_CANCELLED: ExportStatus
EXPORT_STATUS_COMPLETED: ExportStatus
EXPORT_STATUS_FAILED: ExportStatus
EXPORT_STATUS_QUEUED: ExportStatus
EXPORT_STATUS_RUNNING: ExportStatus
EXPORT_STATUS_UNSPECIFIED: ExportStatus
EXPORT_TRANSITION_CANCEL: ExportTransition
EXPORT_TRANSITION_UNSPECIFIED: ExportTransition

class CreateExportRequest(_message.Message):
    __slots__ = ["export"]
    EXPORT_FIELD_NUMBER: _ClassVar[int]
    export: ExportCreate
    def __init__(self, export: _Optional[_Union[ExportCreate, _Mapping]] = ...) -> None: ...

class CreateExportResponse(_message.Message):
    __slots__ = ["export"]
    EXPORT_FIELD_NUMBER: _ClassVar[int]
    export: Export
    def __init__(self, export: _Optional[_Union[Export, _Mapping]] = ...) -> None: ...

class Export(_message.Message):
    __slots__ = ["checksum_sha256", "created_at", "download_url", "etag", "failure_reason", "finished_at", "format", "gzip", "item_count", "product_filter", "size_bytes", "started_at", "status", "types", "updated_at", "uuid"]
    CHECKSUM_SHA256_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    DOWNLOAD_URL_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    FAILURE_REASON_FIELD_NUMBER: _ClassVar[int]
    FINISHED_AT_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    GZIP_FIELD_NUMBER: _ClassVar[int]
    ITEM_COUNT_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_FILTER_FIELD_NUMBER: _ClassVar[int]
    SIZE_BYTES_FIELD_NUMBER: _ClassVar[int]
    STARTED_AT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    TYPES_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    checksum_sha256: str
    created_at: _timestamp_pb2.Timestamp
    download_url: str
    etag: str
    failure_reason: str
    finished_at: _timestamp_pb2.Timestamp
    format: ExportFormat
    gzip: bool
    item_count: int
    product_filter: ProductFilter
    size_bytes: int
    started_at: _timestamp_pb2.Timestamp
    status: ExportStatus
    types: _containers.RepeatedScalarFieldContainer[str]
    updated_at: _timestamp_pb2.Timestamp
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., format: _Optional[_Union[ExportFormat, str]] = ..., types: _Optional[_Iterable[str]] = ..., product_filter: _Optional[_Union[ProductFilter, _Mapping]] = ..., gzip: bool = ..., status: _Optional[_Union[ExportStatus, str]] = ..., item_count: _Optional[int] = ..., size_bytes: _Optional[int] = ..., checksum_sha256: _Optional[str] = ..., download_url: _Optional[str] = ..., started_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., finished_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., failure_reason: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class ExportCreate(_message.Message):
    __slots__ = ["format", "gzip", "product_filter", "types"]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    GZIP_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_FILTER_FIELD_NUMBER: _ClassVar[int]
    TYPES_FIELD_NUMBER: _ClassVar[int]
    format: ExportFormat
    gzip: bool
    product_filter: ProductFilter
    types: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, format: _Optional[_Union[ExportFormat, str]] = ..., types: _Optional[_Iterable[str]] = ..., product_filter: _Optional[_Union[ProductFilter, _Mapping]] = ..., gzip: bool = ...) -> None: ...

class GetExportRequest(_message.Message):
    __slots__ = ["export_uuid"]
    EXPORT_UUID_FIELD_NUMBER: _ClassVar[int]
    export_uuid: str
    def __init__(self, export_uuid: _Optional[str] = ...) -> None: ...

class GetExportResponse(_message.Message):
    __slots__ = ["export"]
    EXPORT_FIELD_NUMBER: _ClassVar[int]
    export: Export
    def __init__(self, export: _Optional[_Union[Export, _Mapping]] = ...) -> None: ...

class ListExportsRequest(_message.Message):
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

class ListExportsResponse(_message.Message):
    __slots__ = ["items", "pagination"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PAGINATION_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[Export]
    pagination: _common_pb2.Pagination
    def __init__(self, items: _Optional[_Iterable[_Union[Export, _Mapping]]] = ..., pagination: _Optional[_Union[_common_pb2.Pagination, _Mapping]] = ...) -> None: ...

class ProductFilter(_message.Message):
    __slots__ = ["attribute_uuids", "brand_uuids", "category_tree_uuids", "category_uuids", "codes", "family_uuids", "kinds", "not_ready_channel_uuids", "parent_uuids", "published_channel_uuids", "ready_channel_uuids", "statuses", "tag_uuids", "term_uuids", "uuids"]
    ATTRIBUTE_UUIDS_FIELD_NUMBER: _ClassVar[int]
    BRAND_UUIDS_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_TREE_UUIDS_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_UUIDS_FIELD_NUMBER: _ClassVar[int]
    CODES_FIELD_NUMBER: _ClassVar[int]
    FAMILY_UUIDS_FIELD_NUMBER: _ClassVar[int]
    KINDS_FIELD_NUMBER: _ClassVar[int]
    NOT_READY_CHANNEL_UUIDS_FIELD_NUMBER: _ClassVar[int]
    PARENT_UUIDS_FIELD_NUMBER: _ClassVar[int]
    PUBLISHED_CHANNEL_UUIDS_FIELD_NUMBER: _ClassVar[int]
    READY_CHANNEL_UUIDS_FIELD_NUMBER: _ClassVar[int]
    STATUSES_FIELD_NUMBER: _ClassVar[int]
    TAG_UUIDS_FIELD_NUMBER: _ClassVar[int]
    TERM_UUIDS_FIELD_NUMBER: _ClassVar[int]
    UUIDS_FIELD_NUMBER: _ClassVar[int]
    attribute_uuids: _containers.RepeatedScalarFieldContainer[str]
    brand_uuids: _containers.RepeatedScalarFieldContainer[str]
    category_tree_uuids: _containers.RepeatedScalarFieldContainer[str]
    category_uuids: _containers.RepeatedScalarFieldContainer[str]
    codes: _containers.RepeatedScalarFieldContainer[str]
    family_uuids: _containers.RepeatedScalarFieldContainer[str]
    kinds: _containers.RepeatedScalarFieldContainer[str]
    not_ready_channel_uuids: _containers.RepeatedScalarFieldContainer[str]
    parent_uuids: _containers.RepeatedScalarFieldContainer[str]
    published_channel_uuids: _containers.RepeatedScalarFieldContainer[str]
    ready_channel_uuids: _containers.RepeatedScalarFieldContainer[str]
    statuses: _containers.RepeatedScalarFieldContainer[str]
    tag_uuids: _containers.RepeatedScalarFieldContainer[str]
    term_uuids: _containers.RepeatedScalarFieldContainer[str]
    uuids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, uuids: _Optional[_Iterable[str]] = ..., codes: _Optional[_Iterable[str]] = ..., statuses: _Optional[_Iterable[str]] = ..., kinds: _Optional[_Iterable[str]] = ..., family_uuids: _Optional[_Iterable[str]] = ..., parent_uuids: _Optional[_Iterable[str]] = ..., brand_uuids: _Optional[_Iterable[str]] = ..., category_uuids: _Optional[_Iterable[str]] = ..., category_tree_uuids: _Optional[_Iterable[str]] = ..., tag_uuids: _Optional[_Iterable[str]] = ..., attribute_uuids: _Optional[_Iterable[str]] = ..., term_uuids: _Optional[_Iterable[str]] = ..., published_channel_uuids: _Optional[_Iterable[str]] = ..., ready_channel_uuids: _Optional[_Iterable[str]] = ..., not_ready_channel_uuids: _Optional[_Iterable[str]] = ...) -> None: ...

class TransitionExportRequest(_message.Message):
    __slots__ = ["etag", "export_uuid", "transition"]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    EXPORT_UUID_FIELD_NUMBER: _ClassVar[int]
    TRANSITION_FIELD_NUMBER: _ClassVar[int]
    etag: str
    export_uuid: str
    transition: ExportTransition
    def __init__(self, export_uuid: _Optional[str] = ..., transition: _Optional[_Union[ExportTransition, str]] = ..., etag: _Optional[str] = ...) -> None: ...

class TransitionExportResponse(_message.Message):
    __slots__ = ["export"]
    EXPORT_FIELD_NUMBER: _ClassVar[int]
    export: Export
    def __init__(self, export: _Optional[_Union[Export, _Mapping]] = ...) -> None: ...

class ExportFormat(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class ExportStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class ExportTransition(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
