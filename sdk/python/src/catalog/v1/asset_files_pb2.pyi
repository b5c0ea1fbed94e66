from catalog.v1 import common_pb2 as _common_pb2
from catalog.v1 import options_pb2 as _options_pb2
from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

ASSET_FILE_KIND_ORIGINAL: AssetFileKind
ASSET_FILE_KIND_THUMBNAIL: AssetFileKind
ASSET_FILE_KIND_UNSPECIFIED: AssetFileKind
ASSET_FILE_KIND_WEB_OPTIMIZED: AssetFileKind
ASSET_FILE_STATUS_FAILED: AssetFileStatus
ASSET_FILE_STATUS_PENDING: AssetFileStatus
ASSET_FILE_STATUS_UNSPECIFIED: AssetFileStatus
ASSET_FILE_STATUS_UPLOADED: AssetFileStatus
DESCRIPTOR: _descriptor.FileDescriptor

class AssetFile(_message.Message):
    __slots__ = ["asset_uuid", "checksum_sha256", "content_type", "created_at", "download_url", "etag", "failure_reason", "file_name", "height", "kind", "size_bytes", "source_file_uuid", "status", "updated_at", "upload_expires_at", "uuid", "width"]
    ASSET_UUID_FIELD_NUMBER: _ClassVar[int]
    CHECKSUM_SHA256_FIELD_NUMBER: _ClassVar[int]
    CONTENT_TYPE_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    DOWNLOAD_URL_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    FAILURE_REASON_FIELD_NUMBER: _ClassVar[int]
    FILE_NAME_FIELD_NUMBER: _ClassVar[int]
    HEIGHT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    SIZE_BYTES_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FILE_UUID_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UPLOAD_EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    WIDTH_FIELD_NUMBER: _ClassVar[int]
    asset_uuid: str
    checksum_sha256: str
    content_type: str
    created_at: _timestamp_pb2.Timestamp
    download_url: str
    etag: str
    failure_reason: str
    file_name: str
    height: int
    kind: AssetFileKind
    size_bytes: int
    source_file_uuid: str
    status: AssetFileStatus
    updated_at: _timestamp_pb2.Timestamp
    upload_expires_at: _timestamp_pb2.Timestamp
    uuid: str
    width: int
    def __init__(self, uuid: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., asset_uuid: _Optional[str] = ..., kind: _Optional[_Union[AssetFileKind, str]] = ..., status: _Optional[_Union[AssetFileStatus, str]] = ..., file_name: _Optional[str] = ..., content_type: _Optional[str] = ..., size_bytes: _Optional[int] = ..., checksum_sha256: _Optional[str] = ..., width: _Optional[int] = ..., height: _Optional[int] = ..., download_url: _Optional[str] = ..., upload_expires_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., source_file_uuid: _Optional[str] = ..., failure_reason: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class AssetFileUpload(_message.Message):
    __slots__ = ["expires_at", "file", "upload_headers", "upload_method", "upload_url"]
    class UploadHeadersEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    FILE_FIELD_NUMBER: _ClassVar[int]
    UPLOAD_HEADERS_FIELD_NUMBER: _ClassVar[int]
    UPLOAD_METHOD_FIELD_NUMBER: _ClassVar[int]
    UPLOAD_URL_FIELD_NUMBER: _ClassVar[int]
    expires_at: _timestamp_pb2.Timestamp
    file: AssetFile
    upload_headers: _containers.ScalarMap[str, str]
    upload_method: str
    upload_url: str
    def __init__(self, file: _Optional[_Union[AssetFile, _Mapping]] = ..., upload_url: _Optional[str] = ..., upload_method: _Optional[str] = ..., upload_headers: _Optional[_Mapping[str, str]] = ..., expires_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class AssetFileUploadComplete(_message.Message):
    __slots__ = ["asset_uuid", "file_uuid"]
    ASSET_UUID_FIELD_NUMBER: _ClassVar[int]
    FILE_UUID_FIELD_NUMBER: _ClassVar[int]
    asset_uuid: str
    file_uuid: str
    def __init__(self, asset_uuid: _Optional[str] = ..., file_uuid: _Optional[str] = ...) -> None: ...

class AssetFileUploadInitiate(_message.Message):
    __slots__ = ["asset_uuid", "checksum_sha256", "content_type", "file_name", "kind", "size_bytes"]
    ASSET_UUID_FIELD_NUMBER: _ClassVar[int]
    CHECKSUM_SHA256_FIELD_NUMBER: _ClassVar[int]
    CONTENT_TYPE_FIELD_NUMBER: _ClassVar[int]
    FILE_NAME_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    SIZE_BYTES_FIELD_NUMBER: _ClassVar[int]
    asset_uuid: str
    checksum_sha256: str
    content_type: str
    file_name: str
    kind: AssetFileKind
    size_bytes: int
    def __init__(self, asset_uuid: _Optional[str] = ..., kind: _Optional[_Union[AssetFileKind, str]] = ..., file_name: _Optional[str] = ..., content_type: _Optional[str] = ..., size_bytes: _Optional[int] = ..., checksum_sha256: _Optional[str] = ...) -> None: ...

class BulkCompleteAssetFileUploadsRequest(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[AssetFileUploadComplete]
    def __init__(self, items: _Optional[_Iterable[_Union[AssetFileUploadComplete, _Mapping]]] = ...) -> None: ...

class BulkCompleteAssetFileUploadsResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[AssetFile]
    def __init__(self, items: _Optional[_Iterable[_Union[AssetFile, _Mapping]]] = ...) -> None: ...

class BulkInitiateAssetFileUploadsRequest(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[AssetFileUploadInitiate]
    def __init__(self, items: _Optional[_Iterable[_Union[AssetFileUploadInitiate, _Mapping]]] = ...) -> None: ...

class BulkInitiateAssetFileUploadsResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[AssetFileUpload]
    def __init__(self, items: _Optional[_Iterable[_Union[AssetFileUpload, _Mapping]]] = ...) -> None: ...

class CompleteAssetFileUploadRequest(_message.Message):
    __slots__ = ["asset_uuid", "file_uuid"]
    ASSET_UUID_FIELD_NUMBER: _ClassVar[int]
    FILE_UUID_FIELD_NUMBER: _ClassVar[int]
    asset_uuid: str
    file_uuid: str
    def __init__(self, asset_uuid: _Optional[str] = ..., file_uuid: _Optional[str] = ...) -> None: ...

class CompleteAssetFileUploadResponse(_message.Message):
    __slots__ = ["file"]
    FILE_FIELD_NUMBER: _ClassVar[int]
    file: AssetFile
    def __init__(self, file: _Optional[_Union[AssetFile, _Mapping]] = ...) -> None: ...

class DeleteAssetFileRequest(_message.Message):
    __slots__ = ["asset_uuid", "etag", "file_uuid"]
    ASSET_UUID_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    FILE_UUID_FIELD_NUMBER: _ClassVar[int]
    asset_uuid: str
    etag: str
    file_uuid: str
    def __init__(self, asset_uuid: _Optional[str] = ..., file_uuid: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class DeleteAssetFileResponse(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class GetAssetFileRequest(_message.Message):
    __slots__ = ["asset_uuid", "file_uuid"]
    ASSET_UUID_FIELD_NUMBER: _ClassVar[int]
    FILE_UUID_FIELD_NUMBER: _ClassVar[int]
    asset_uuid: str
    file_uuid: str
    def __init__(self, asset_uuid: _Optional[str] = ..., file_uuid: _Optional[str] = ...) -> None: ...

class GetAssetFileResponse(_message.Message):
    __slots__ = ["file"]
    FILE_FIELD_NUMBER: _ClassVar[int]
    file: AssetFile
    def __init__(self, file: _Optional[_Union[AssetFile, _Mapping]] = ...) -> None: ...

class InitiateAssetFileUploadRequest(_message.Message):
    __slots__ = ["asset_uuid", "upload"]
    ASSET_UUID_FIELD_NUMBER: _ClassVar[int]
    UPLOAD_FIELD_NUMBER: _ClassVar[int]
    asset_uuid: str
    upload: AssetFileUploadInitiate
    def __init__(self, asset_uuid: _Optional[str] = ..., upload: _Optional[_Union[AssetFileUploadInitiate, _Mapping]] = ...) -> None: ...

class InitiateAssetFileUploadResponse(_message.Message):
    __slots__ = ["upload"]
    UPLOAD_FIELD_NUMBER: _ClassVar[int]
    upload: AssetFileUpload
    def __init__(self, upload: _Optional[_Union[AssetFileUpload, _Mapping]] = ...) -> None: ...

class ListAssetFilesRequest(_message.Message):
    __slots__ = ["asset_uuid", "content_types", "created_at", "cursor", "file_name", "kinds", "order_by", "page", "size", "source_file_uuids", "statuses", "updated_at", "uuids"]
    ASSET_UUID_FIELD_NUMBER: _ClassVar[int]
    CONTENT_TYPES_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    FILE_NAME_FIELD_NUMBER: _ClassVar[int]
    KINDS_FIELD_NUMBER: _ClassVar[int]
    ORDER_BY_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FILE_UUIDS_FIELD_NUMBER: _ClassVar[int]
    STATUSES_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUIDS_FIELD_NUMBER: _ClassVar[int]
    asset_uuid: str
    content_types: _common_pb2.StringsFilter
    created_at: _common_pb2.TimeFilter
    cursor: str
    file_name: _common_pb2.StringFilter
    kinds: _common_pb2.StringsFilter
    order_by: _containers.RepeatedCompositeFieldContainer[_common_pb2.OrderBy]
    page: int
    size: int
    source_file_uuids: _common_pb2.StringsFilter
    statuses: _common_pb2.StringsFilter
    updated_at: _common_pb2.TimeFilter
    uuids: _common_pb2.StringsFilter
    def __init__(self, asset_uuid: _Optional[str] = ..., uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., kinds: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., statuses: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., file_name: _Optional[_Union[_common_pb2.StringFilter, _Mapping]] = ..., content_types: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., source_file_uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., created_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., updated_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., page: _Optional[int] = ..., size: _Optional[int] = ..., cursor: _Optional[str] = ..., order_by: _Optional[_Iterable[_Union[_common_pb2.OrderBy, _Mapping]]] = ...) -> None: ...

class ListAssetFilesResponse(_message.Message):
    __slots__ = ["items", "pagination"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PAGINATION_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[AssetFile]
    pagination: _common_pb2.Pagination
    def __init__(self, items: _Optional[_Iterable[_Union[AssetFile, _Mapping]]] = ..., pagination: _Optional[_Union[_common_pb2.Pagination, _Mapping]] = ...) -> None: ...

class AssetFileKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class AssetFileStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
