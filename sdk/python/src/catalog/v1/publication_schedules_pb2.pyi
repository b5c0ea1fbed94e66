from catalog.v1 import common_pb2 as _common_pb2
from catalog.v1 import options_pb2 as _options_pb2
from catalog.v1 import product_publications_pb2 as _product_publications_pb2
from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import field_mask_pb2 as _field_mask_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor
PUBLICATION_SCHEDULE_STATUS_CANCELLED: PublicationScheduleStatus
PUBLICATION_SCHEDULE_STATUS_EXECUTED: PublicationScheduleStatus
PUBLICATION_SCHEDULE_STATUS_FAILED: PublicationScheduleStatus
PUBLICATION_SCHEDULE_STATUS_PENDING: PublicationScheduleStatus
PUBLICATION_SCHEDULE_STATUS_UNSPECIFIED: PublicationScheduleStatus
PUBLICATION_SCHEDULE_TRANSITION_CANCEL: PublicationScheduleTransition
PUBLICATION_SCHEDULE_TRANSITION_UNSPECIFIED: PublicationScheduleTransition

class BulkCreatePublicationSchedulesRequest(_message.Message):
    __slots__ = ["items", "product_uuid", "publication_uuid"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    PUBLICATION_UUID_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[PublicationScheduleCreate]
    product_uuid: str
    publication_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., publication_uuid: _Optional[str] = ..., items: _Optional[_Iterable[_Union[PublicationScheduleCreate, _Mapping]]] = ...) -> None: ...

class BulkCreatePublicationSchedulesResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[PublicationSchedule]
    def __init__(self, items: _Optional[_Iterable[_Union[PublicationSchedule, _Mapping]]] = ...) -> None: ...

class BulkTransitionPublicationSchedulesRequest(_message.Message):
    __slots__ = ["etags", "product_uuid", "publication_uuid", "transition", "uuids"]
    class EtagsEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ETAGS_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    PUBLICATION_UUID_FIELD_NUMBER: _ClassVar[int]
    TRANSITION_FIELD_NUMBER: _ClassVar[int]
    UUIDS_FIELD_NUMBER: _ClassVar[int]
    etags: _containers.ScalarMap[str, str]
    product_uuid: str
    publication_uuid: str
    transition: PublicationScheduleTransition
    uuids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, product_uuid: _Optional[str] = ..., publication_uuid: _Optional[str] = ..., transition: _Optional[_Union[PublicationScheduleTransition, str]] = ..., uuids: _Optional[_Iterable[str]] = ..., etags: _Optional[_Mapping[str, str]] = ...) -> None: ...

class BulkTransitionPublicationSchedulesResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[PublicationSchedule]
    def __init__(self, items: _Optional[_Iterable[_Union[PublicationSchedule, _Mapping]]] = ...) -> None: ...

class BulkUpdatePublicationSchedulesRequest(_message.Message):
    __slots__ = ["items", "product_uuid", "publication_uuid"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    PUBLICATION_UUID_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[PublicationScheduleUpdate]
    product_uuid: str
    publication_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., publication_uuid: _Optional[str] = ..., items: _Optional[_Iterable[_Union[PublicationScheduleUpdate, _Mapping]]] = ...) -> None: ...

class BulkUpdatePublicationSchedulesResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[PublicationSchedule]
    def __init__(self, items: _Optional[_Iterable[_Union[PublicationSchedule, _Mapping]]] = ...) -> None: ...

class CreatePublicationScheduleRequest(_message.Message):
    __slots__ = ["product_uuid", "publication_schedule", "publication_uuid"]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    PUBLICATION_SCHEDULE_FIELD_NUMBER: _ClassVar[int]
    PUBLICATION_UUID_FIELD_NUMBER: _ClassVar[int]
    product_uuid: str
    publication_schedule: PublicationScheduleCreate
    publication_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., publication_uuid: _Optional[str] = ..., publication_schedule: _Optional[_Union[PublicationScheduleCreate, _Mapping]] = ...) -> None: ...

class CreatePublicationScheduleResponse(_message.Message):
    __slots__ = ["publication_schedule"]
    PUBLICATION_SCHEDULE_FIELD_NUMBER: _ClassVar[int]
    publication_schedule: PublicationSchedule
    def __init__(self, publication_schedule: _Optional[_Union[PublicationSchedule, _Mapping]] = ...) -> None: ...

class DeletePublicationScheduleRequest(_message.Message):
    __slots__ = ["etag", "product_uuid", "publication_uuid", "schedule_uuid"]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    PUBLICATION_UUID_FIELD_NUMBER: _ClassVar[int]
    SCHEDULE_UUID_FIELD_NUMBER: _ClassVar[int]
    etag: str
    product_uuid: str
    publication_uuid: str
    schedule_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., publication_uuid: _Optional[str] = ..., schedule_uuid: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class DeletePublicationScheduleResponse(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class GetPublicationScheduleRequest(_message.Message):
    __slots__ = ["product_uuid", "publication_uuid", "schedule_uuid"]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    PUBLICATION_UUID_FIELD_NUMBER: _ClassVar[int]
    SCHEDULE_UUID_FIELD_NUMBER: _ClassVar[int]
    product_uuid: str
    publication_uuid: str
    schedule_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., publication_uuid: _Optional[str] = ..., schedule_uuid: _Optional[str] = ...) -> None: ...

class GetPublicationScheduleResponse(_message.Message):
    __slots__ = ["publication_schedule"]
    PUBLICATION_SCHEDULE_FIELD_NUMBER: _ClassVar[int]
    publication_schedule: PublicationSchedule
    def __init__(self, publication_schedule: _Optional[_Union[PublicationSchedule, _Mapping]] = ...) -> None: ...

class ListPublicationSchedulesRequest(_message.Message):
    __slots__ = ["created_at", "cursor", "order_by", "page", "product_uuid", "publication_uuid", "scheduled_at", "size", "status", "transitions", "updated_at", "uuids"]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    ORDER_BY_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    PUBLICATION_UUID_FIELD_NUMBER: _ClassVar[int]
    SCHEDULED_AT_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    TRANSITIONS_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUIDS_FIELD_NUMBER: _ClassVar[int]
    created_at: _common_pb2.TimeFilter
    cursor: str
    order_by: _containers.RepeatedCompositeFieldContainer[_common_pb2.OrderBy]
    page: int
    product_uuid: str
    publication_uuid: str
    scheduled_at: _common_pb2.TimeFilter
    size: int
    status: _common_pb2.StringsFilter
    transitions: _common_pb2.StringsFilter
    updated_at: _common_pb2.TimeFilter
    uuids: _common_pb2.StringsFilter
    def __init__(self, product_uuid: _Optional[str] = ..., publication_uuid: _Optional[str] = ..., uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., status: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., transitions: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., scheduled_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., created_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., updated_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., page: _Optional[int] = ..., size: _Optional[int] = ..., cursor: _Optional[str] = ..., order_by: _Optional[_Iterable[_Union[_common_pb2.OrderBy, _Mapping]]] = ...) -> None: ...

class ListPublicationSchedulesResponse(_message.Message):
    __slots__ = ["items", "pagination"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PAGINATION_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[PublicationSchedule]
    pagination: _common_pb2.Pagination
    def __init__(self, items: _Optional[_Iterable[_Union[PublicationSchedule, _Mapping]]] = ..., pagination: _Optional[_Union[_common_pb2.Pagination, _Mapping]] = ...) -> None: ...

class PublicationSchedule(_message.Message):
    __slots__ = ["created_at", "etag", "executed_at", "failure_code", "failure_reason", "product_uuid", "publication_uuid", "scheduled_at", "status", "transition", "updated_at", "uuid"]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    EXECUTED_AT_FIELD_NUMBER: _ClassVar[int]
    FAILURE_CODE_FIELD_NUMBER: _ClassVar[int]
    FAILURE_REASON_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    PUBLICATION_UUID_FIELD_NUMBER: _ClassVar[int]
    SCHEDULED_AT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    TRANSITION_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    created_at: _timestamp_pb2.Timestamp
    etag: str
    executed_at: _timestamp_pb2.Timestamp
    failure_code: str
    failure_reason: str
    product_uuid: str
    publication_uuid: str
    scheduled_at: _timestamp_pb2.Timestamp
    status: PublicationScheduleStatus
    transition: _product_publications_pb2.ProductPublicationTransition
    updated_at: _timestamp_pb2.Timestamp
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., product_uuid: _Optional[str] = ..., publication_uuid: _Optional[str] = ..., transition: _Optional[_Union[_product_publications_pb2.ProductPublicationTransition, str]] = ..., scheduled_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., status: _Optional[_Union[PublicationScheduleStatus, str]] = ..., executed_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., failure_code: _Optional[str] = ..., failure_reason: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class PublicationScheduleCreate(_message.Message):
    __slots__ = ["scheduled_at", "transition"]
    SCHEDULED_AT_FIELD_NUMBER: _ClassVar[int]
    TRANSITION_FIELD_NUMBER: _ClassVar[int]
    scheduled_at: _timestamp_pb2.Timestamp
    transition: _product_publications_pb2.ProductPublicationTransition
    def __init__(self, transition: _Optional[_Union[_product_publications_pb2.ProductPublicationTransition, str]] = ..., scheduled_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class PublicationScheduleUpdate(_message.Message):
    __slots__ = ["etag", "scheduled_at", "transition", "update_mask", "uuid"]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    SCHEDULED_AT_FIELD_NUMBER: _ClassVar[int]
    TRANSITION_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    etag: str
    scheduled_at: _timestamp_pb2.Timestamp
    transition: _product_publications_pb2.ProductPublicationTransition
    update_mask: _field_mask_pb2.FieldMask
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., transition: _Optional[_Union[_product_publications_pb2.ProductPublicationTransition, str]] = ..., scheduled_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ..., etag: _Optional[str] = ...) -> None: ...

class TransitionPublicationScheduleRequest(_message.Message):
    __slots__ = ["etag", "product_uuid", "publication_uuid", "schedule_uuid", "transition"]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    PUBLICATION_UUID_FIELD_NUMBER: _ClassVar[int]
    SCHEDULE_UUID_FIELD_NUMBER: _ClassVar[int]
    TRANSITION_FIELD_NUMBER: _ClassVar[int]
    etag: str
    product_uuid: str
    publication_uuid: str
    schedule_uuid: str
    transition: PublicationScheduleTransition
    def __init__(self, product_uuid: _Optional[str] = ..., publication_uuid: _Optional[str] = ..., schedule_uuid: _Optional[str] = ..., transition: _Optional[_Union[PublicationScheduleTransition, str]] = ..., etag: _Optional[str] = ...) -> None: ...

class TransitionPublicationScheduleResponse(_message.Message):
    __slots__ = ["publication_schedule"]
    PUBLICATION_SCHEDULE_FIELD_NUMBER: _ClassVar[int]
    publication_schedule: PublicationSchedule
    def __init__(self, publication_schedule: _Optional[_Union[PublicationSchedule, _Mapping]] = ...) -> None: ...

class UpdatePublicationScheduleRequest(_message.Message):
    __slots__ = ["product_uuid", "publication_schedule", "publication_uuid", "schedule_uuid"]
    PRODUCT_UUID_FIELD_NUMBER: _ClassVar[int]
    PUBLICATION_SCHEDULE_FIELD_NUMBER: _ClassVar[int]
    PUBLICATION_UUID_FIELD_NUMBER: _ClassVar[int]
    SCHEDULE_UUID_FIELD_NUMBER: _ClassVar[int]
    product_uuid: str
    publication_schedule: PublicationScheduleUpdate
    publication_uuid: str
    schedule_uuid: str
    def __init__(self, product_uuid: _Optional[str] = ..., publication_uuid: _Optional[str] = ..., schedule_uuid: _Optional[str] = ..., publication_schedule: _Optional[_Union[PublicationScheduleUpdate, _Mapping]] = ...) -> None: ...

class UpdatePublicationScheduleResponse(_message.Message):
    __slots__ = ["publication_schedule"]
    PUBLICATION_SCHEDULE_FIELD_NUMBER: _ClassVar[int]
    publication_schedule: PublicationSchedule
    def __init__(self, publication_schedule: _Optional[_Union[PublicationSchedule, _Mapping]] = ...) -> None: ...

class PublicationScheduleStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class PublicationScheduleTransition(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
