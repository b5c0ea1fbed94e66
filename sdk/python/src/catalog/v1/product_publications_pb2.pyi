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
PRODUCT_PUBLICATION_STATUS_DRAFT: ProductPublicationStatus
PRODUCT_PUBLICATION_STATUS_PUBLISHED: ProductPublicationStatus
PRODUCT_PUBLICATION_STATUS_UNPUBLISHED: ProductPublicationStatus
PRODUCT_PUBLICATION_STATUS_UNSPECIFIED: ProductPublicationStatus
PRODUCT_PUBLICATION_TRANSITION_PUBLISH: ProductPublicationTransition
PRODUCT_PUBLICATION_TRANSITION_UNPUBLISH: ProductPublicationTransition
PRODUCT_PUBLICATION_TRANSITION_UNSPECIFIED: ProductPublicationTransition

class BulkCreateProductPublicationsRequest(_message.Message):
    __slots__ = ["items", "product_uuid"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductPublicationCreate]
    product_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., items: _Optional[_Iterable[_Union[ProductPublicationCreate, _Mapping]]] = ...) -> None: ...

class BulkCreateProductPublicationsResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductPublication]
    def __init__(self, items: _Optional[_Iterable[_Union[ProductPublication, _Mapping]]] = ...) -> None: ...

class BulkTransitionProductPublicationsRequest(_message.Message):
    __slots__ = ["etags", "product_uuid", "transition", "uuids"]
    class EtagsEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ETAGS_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    TRANSITION_FIELD_NUMBER: _ClassVar[int]
    UUIDS_FIELD_NUMBER: _ClassVar[int]
    etags: _containers.ScalarMap[str, str]
    product_uuid: str
    transition: ProductPublicationTransition
    uuids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, product_uuid: _Optional[str] = ..., transition: _Optional[_Union[ProductPublicationTransition, str]] = ..., uuids: _Optional[_Iterable[str]] = ..., etags: _Optional[_Mapping[str, str]] = ...) -> None: ...

class BulkTransitionProductPublicationsResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductPublication]
    def __init__(self, items: _Optional[_Iterable[_Union[ProductPublication, _Mapping]]] = ...) -> None: ...

class CreateProductPublicationRequest(_message.Message):
    __slots__ = ["product_publication", "product_uuid"]
    PRODUCT_PUBLICATION_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    product_publication: ProductPublicationCreate
    product_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., product_publication: _Optional[_Union[ProductPublicationCreate, _Mapping]] = ...) -> None: ...

class CreateProductPublicationResponse(_message.Message):
    __slots__ = ["product_publication"]
    PRODUCT_PUBLICATION_FIELD_NUMBER: _ClassVar[int]
    product_publication: ProductPublication
    def __init__(self, product_publication: _Optional[_Union[ProductPublication, _Mapping]] = ...) -> None: ...

class DeleteProductPublicationRequest(_message.Message):
    __slots__ = ["etag", "product_uuid", "publication_uuid"]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    PUBLICATION_UUID_FIELD_NUMBER: _ClassVar[int]
    etag: str
    product_uuid: str
    publication_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., publication_uuid: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class DeleteProductPublicationResponse(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class GetProductPublicationReadinessRequest(_message.Message):
    __slots__ = ["product_uuid", "publication_uuid"]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    PUBLICATION_UUID_FIELD_NUMBER: _ClassVar[int]
    product_uuid: str
    publication_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., publication_uuid: _Optional[str] = ...) -> None: ...

class GetProductPublicationReadinessResponse(_message.Message):
    __slots__ = ["missing", "ready"]
    MISSING_FIELD_NUMBER: _ClassVar[int]
    READY_FIELD_NUMBER: _ClassVar[int]
    missing: _containers.RepeatedCompositeFieldContainer[ReadinessMissing]
    ready: bool
    def __init__(self, ready: bool = ..., missing: _Optional[_Iterable[_Union[ReadinessMissing, _Mapping]]] = ...) -> None: ...

class GetProductPublicationRequest(_message.Message):
    __slots__ = ["product_uuid", "publication_uuid"]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    PUBLICATION_UUID_FIELD_NUMBER: _ClassVar[int]
    product_uuid: str
    publication_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., publication_uuid: _Optional[str] = ...) -> None: ...

class GetProductPublicationResponse(_message.Message):
    __slots__ = ["product_publication"]
    PRODUCT_PUBLICATION_FIELD_NUMBER: _ClassVar[int]
    product_publication: ProductPublication
    def __init__(self, product_publication: _Optional[_Union[ProductPublication, _Mapping]] = ...) -> None: ...

class ListProductPublicationsRequest(_message.Message):
    __slots__ = ["channel_uuids", "created_at", "cursor", "order_by", "page", "product_uuid", "size", "status", "updated_at", "uuids"]
    CHANNEL_UUIDS_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    ORDER_BY_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUIDS_FIELD_NUMBER: _ClassVar[int]
    channel_uuids: _common_pb2.StringsFilter
    created_at: _common_pb2.TimeFilter
    cursor: str
    order_by: _containers.RepeatedCompositeFieldContainer[_common_pb2.OrderBy]
    page: int
    product_uuid: str
    size: int
    status: _common_pb2.StringsFilter
    updated_at: _common_pb2.TimeFilter
    uuids: _common_pb2.StringsFilter
    def __init__(self, product_uuid: _Optional[str] = ..., uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., channel_uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., status: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., created_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., updated_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., page: _Optional[int] = ..., size: _Optional[int] = ..., cursor: _Optional[str] = ..., order_by: _Optional[_Iterable[_Union[_common_pb2.OrderBy, _Mapping]]] = ...) -> None: ...

class ListProductPublicationsResponse(_message.Message):
    __slots__ = ["items", "pagination"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PAGINATION_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductPublication]
    pagination: _common_pb2.Pagination
    def __init__(self, items: _Optional[_Iterable[_Union[ProductPublication, _Mapping]]] = ..., pagination: _Optional[_Union[_common_pb2.Pagination, _Mapping]] = ...) -> None: ...

class ProductPublication(_message.Message):
    __slots__ = ["channel_uuid", "created_at", "etag", "product_uuid", "published_at", "status", "updated_at", "uuid"]
    CHANNEL_UUID_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    PUBLISHED_AT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    channel_uuid: str
    created_at: _timestamp_pb2.Timestamp
    etag: str
    product_uuid: str
    published_at: _timestamp_pb2.Timestamp
    status: ProductPublicationStatus
    updated_at: _timestamp_pb2.Timestamp
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., product_uuid: _Optional[str] = ..., channel_uuid: _Optional[str] = ..., status: _Optional[_Union[ProductPublicationStatus, str]] = ..., published_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., etag: _Optional[str] = ...) -> None: ...

class ProductPublicationCreate(_message.Message):
    __slots__ = ["channel_uuid"]
    CHANNEL_UUID_FIELD_NUMBER: _ClassVar[int]
    channel_uuid: str
    def __init__(self, channel_uuid: _Optional[str] = ...) -> None: ...

class ProductPublicationList(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[ProductPublication]
    def __init__(self, items: _Optional[_Iterable[_Union[ProductPublication, _Mapping]]] = ...) -> None: ...

class ReadinessMissing(_message.Message):
    __slots__ = ["code", "detail", "kind", "locale_uuid", "uuid"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    LOCALE_UUID_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    code: str
    detail: str
    kind: str
    locale_uuid: str
    uuid: str
    def __init__(self, kind: _Optional[str] = ..., uuid: _Optional[str] = ..., code: _Optional[str] = ..., locale_uuid: _Optional[str] = ..., detail: _Optional[str] = ...) -> None: ...

class TransitionProductPublicationRequest(_message.Message):
    __slots__ = ["etag", "product_uuid", "publication_uuid", "transition"]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    PUBLICATION_UUID_FIELD_NUMBER: _ClassVar[int]
    TRANSITION_FIELD_NUMBER: _ClassVar[int]
    etag: str
    product_uuid: str
    publication_uuid: str
    transition: ProductPublicationTransition
    def __init__(self, product_uuid: _Optional[str] = ..., publication_uuid: _Optional[str] = ..., transition: _Optional[_Union[ProductPublicationTransition, str]] = ..., etag: _Optional[str] = ...) -> None: ...

class TransitionProductPublicationResponse(_message.Message):
    __slots__ = ["product_publication"]
    PRODUCT_PUBLICATION_FIELD_NUMBER: _ClassVar[int]
    product_publication: ProductPublication
    def __init__(self, product_publication: _Optional[_Union[ProductPublication, _Mapping]] = ...) -> None: ...

class ProductPublicationStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class ProductPublicationTransition(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
