from catalog.v1 import common_pb2 as _common_pb2
from catalog.v1 import options_pb2 as _options_pb2
from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import field_mask_pb2 as _field_mask_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor
WEBHOOK_DELIVERY_STATUS_DELIVERED: WebhookDeliveryStatus
WEBHOOK_DELIVERY_STATUS_FAILED: WebhookDeliveryStatus
WEBHOOK_DELIVERY_STATUS_PENDING: WebhookDeliveryStatus
WEBHOOK_DELIVERY_STATUS_UNSPECIFIED: WebhookDeliveryStatus
WEBHOOK_SUBSCRIPTION_STATUS_ACTIVE: WebhookSubscriptionStatus
WEBHOOK_SUBSCRIPTION_STATUS_INACTIVE: WebhookSubscriptionStatus
WEBHOOK_SUBSCRIPTION_STATUS_SUSPENDED: WebhookSubscriptionStatus
WEBHOOK_SUBSCRIPTION_STATUS_UNSPECIFIED: WebhookSubscriptionStatus
WEBHOOK_SUBSCRIPTION_TRANSITION_ACTIVATE: WebhookSubscriptionTransition
WEBHOOK_SUBSCRIPTION_TRANSITION_DEACTIVATE: WebhookSubscriptionTransition
WEBHOOK_SUBSCRIPTION_TRANSITION_UNSPECIFIED: WebhookSubscriptionTransition

class BulkCreateWebhookSubscriptionEventTypesRequest(_message.Message):
    __slots__ = ["items", "uuid"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[WebhookSubscriptionEventTypeCreate]
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., items: _Optional[_Iterable[_Union[WebhookSubscriptionEventTypeCreate, _Mapping]]] = ...) -> None: ...

class BulkCreateWebhookSubscriptionEventTypesResponse(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[WebhookSubscriptionEventType]
    def __init__(self, items: _Optional[_Iterable[_Union[WebhookSubscriptionEventType, _Mapping]]] = ...) -> None: ...

class CreateWebhookSubscriptionEventTypeRequest(_message.Message):
    __slots__ = ["subscription_event_type", "uuid"]
    SUBSCRIPTION_EVENT_TYPE_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    subscription_event_type: WebhookSubscriptionEventTypeCreate
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., subscription_event_type: _Optional[_Union[WebhookSubscriptionEventTypeCreate, _Mapping]] = ...) -> None: ...

class CreateWebhookSubscriptionEventTypeResponse(_message.Message):
    __slots__ = ["subscription_event_type"]
    SUBSCRIPTION_EVENT_TYPE_FIELD_NUMBER: _ClassVar[int]
    subscription_event_type: WebhookSubscriptionEventType
    def __init__(self, subscription_event_type: _Optional[_Union[WebhookSubscriptionEventType, _Mapping]] = ...) -> None: ...

class CreateWebhookSubscriptionRequest(_message.Message):
    __slots__ = ["webhook_subscription"]
    WEBHOOK_SUBSCRIPTION_FIELD_NUMBER: _ClassVar[int]
    webhook_subscription: WebhookSubscriptionCreate
    def __init__(self, webhook_subscription: _Optional[_Union[WebhookSubscriptionCreate, _Mapping]] = ...) -> None: ...

class CreateWebhookSubscriptionResponse(_message.Message):
    __slots__ = ["webhook_subscription"]
    WEBHOOK_SUBSCRIPTION_FIELD_NUMBER: _ClassVar[int]
    webhook_subscription: WebhookSubscription
    def __init__(self, webhook_subscription: _Optional[_Union[WebhookSubscription, _Mapping]] = ...) -> None: ...

class DeleteWebhookSubscriptionEventTypeRequest(_message.Message):
    __slots__ = ["etag", "event_type_uuid", "uuid"]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    EVENT_TYPE_UUID_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    etag: str
    event_type_uuid: str
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., event_type_uuid: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class DeleteWebhookSubscriptionEventTypeResponse(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class DeleteWebhookSubscriptionRequest(_message.Message):
    __slots__ = ["etag", "uuid"]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    etag: str
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class DeleteWebhookSubscriptionResponse(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class GetWebhookDeliveryRequest(_message.Message):
    __slots__ = ["delivery_uuid", "uuid"]
    DELIVERY_UUID_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    delivery_uuid: str
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., delivery_uuid: _Optional[str] = ...) -> None: ...

class GetWebhookDeliveryResponse(_message.Message):
    __slots__ = ["webhook_delivery"]
    WEBHOOK_DELIVERY_FIELD_NUMBER: _ClassVar[int]
    webhook_delivery: WebhookDelivery
    def __init__(self, webhook_delivery: _Optional[_Union[WebhookDelivery, _Mapping]] = ...) -> None: ...

class GetWebhookSubscriptionRequest(_message.Message):
    __slots__ = ["uuid"]
    UUID_FIELD_NUMBER: _ClassVar[int]
    uuid: str
    def __init__(self, uuid: _Optional[str] = ...) -> None: ...

class GetWebhookSubscriptionResponse(_message.Message):
    __slots__ = ["webhook_subscription"]
    WEBHOOK_SUBSCRIPTION_FIELD_NUMBER: _ClassVar[int]
    webhook_subscription: WebhookSubscription
    def __init__(self, webhook_subscription: _Optional[_Union[WebhookSubscription, _Mapping]] = ...) -> None: ...

class ListWebhookDeliveriesRequest(_message.Message):
    __slots__ = ["created_at", "cursor", "event_types", "order_by", "page", "size", "statuses", "updated_at", "uuid", "uuids"]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    EVENT_TYPES_FIELD_NUMBER: _ClassVar[int]
    ORDER_BY_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    STATUSES_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUIDS_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    created_at: _common_pb2.TimeFilter
    cursor: str
    event_types: _common_pb2.StringsFilter
    order_by: _containers.RepeatedCompositeFieldContainer[_common_pb2.OrderBy]
    page: int
    size: int
    statuses: _common_pb2.StringsFilter
    updated_at: _common_pb2.TimeFilter
    uuid: str
    uuids: _common_pb2.StringsFilter
    def __init__(self, uuid: _Optional[str] = ..., uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., statuses: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., event_types: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., created_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., updated_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., page: _Optional[int] = ..., size: _Optional[int] = ..., cursor: _Optional[str] = ..., order_by: _Optional[_Iterable[_Union[_common_pb2.OrderBy, _Mapping]]] = ...) -> None: ...

class ListWebhookDeliveriesResponse(_message.Message):
    __slots__ = ["items", "pagination"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PAGINATION_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[WebhookDelivery]
    pagination: _common_pb2.Pagination
    def __init__(self, items: _Optional[_Iterable[_Union[WebhookDelivery, _Mapping]]] = ..., pagination: _Optional[_Union[_common_pb2.Pagination, _Mapping]] = ...) -> None: ...

class ListWebhookDeliveryAttemptsRequest(_message.Message):
    __slots__ = ["cursor", "delivery_uuid", "order_by", "page", "size", "uuid"]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    DELIVERY_UUID_FIELD_NUMBER: _ClassVar[int]
    ORDER_BY_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    cursor: str
    delivery_uuid: str
    order_by: _containers.RepeatedCompositeFieldContainer[_common_pb2.OrderBy]
    page: int
    size: int
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., delivery_uuid: _Optional[str] = ..., page: _Optional[int] = ..., size: _Optional[int] = ..., cursor: _Optional[str] = ..., order_by: _Optional[_Iterable[_Union[_common_pb2.OrderBy, _Mapping]]] = ...) -> None: ...

class ListWebhookDeliveryAttemptsResponse(_message.Message):
    __slots__ = ["items", "pagination"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PAGINATION_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[WebhookDeliveryAttempt]
    pagination: _common_pb2.Pagination
    def __init__(self, items: _Optional[_Iterable[_Union[WebhookDeliveryAttempt, _Mapping]]] = ..., pagination: _Optional[_Union[_common_pb2.Pagination, _Mapping]] = ...) -> None: ...

class ListWebhookEventTypesRequest(_message.Message):
    __slots__ = ["cursor", "is_deprecated", "name", "names", "order_by", "page", "size", "uuids"]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    IS_DEPRECATED_FIELD_NUMBER: _ClassVar[int]
    NAMES_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    ORDER_BY_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    UUIDS_FIELD_NUMBER: _ClassVar[int]
    cursor: str
    is_deprecated: _common_pb2.BoolFilter
    name: _common_pb2.StringFilter
    names: _common_pb2.StringsFilter
    order_by: _containers.RepeatedCompositeFieldContainer[_common_pb2.OrderBy]
    page: int
    size: int
    uuids: _common_pb2.StringsFilter
    def __init__(self, uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., names: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., name: _Optional[_Union[_common_pb2.StringFilter, _Mapping]] = ..., is_deprecated: _Optional[_Union[_common_pb2.BoolFilter, _Mapping]] = ..., page: _Optional[int] = ..., size: _Optional[int] = ..., cursor: _Optional[str] = ..., order_by: _Optional[_Iterable[_Union[_common_pb2.OrderBy, _Mapping]]] = ...) -> None: ...

class ListWebhookEventTypesResponse(_message.Message):
    __slots__ = ["items", "pagination"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PAGINATION_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[WebhookEventType]
    pagination: _common_pb2.Pagination
    def __init__(self, items: _Optional[_Iterable[_Union[WebhookEventType, _Mapping]]] = ..., pagination: _Optional[_Union[_common_pb2.Pagination, _Mapping]] = ...) -> None: ...

class ListWebhookSubscriptionEventTypesRequest(_message.Message):
    __slots__ = ["cursor", "names", "order_by", "page", "size", "uuid"]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    NAMES_FIELD_NUMBER: _ClassVar[int]
    ORDER_BY_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    cursor: str
    names: _common_pb2.StringsFilter
    order_by: _containers.RepeatedCompositeFieldContainer[_common_pb2.OrderBy]
    page: int
    size: int
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., names: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., page: _Optional[int] = ..., size: _Optional[int] = ..., cursor: _Optional[str] = ..., order_by: _Optional[_Iterable[_Union[_common_pb2.OrderBy, _Mapping]]] = ...) -> None: ...

class ListWebhookSubscriptionEventTypesResponse(_message.Message):
    __slots__ = ["items", "pagination"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PAGINATION_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[WebhookSubscriptionEventType]
    pagination: _common_pb2.Pagination
    def __init__(self, items: _Optional[_Iterable[_Union[WebhookSubscriptionEventType, _Mapping]]] = ..., pagination: _Optional[_Union[_common_pb2.Pagination, _Mapping]] = ...) -> None: ...

class ListWebhookSubscriptionsRequest(_message.Message):
    __slots__ = ["created_at", "cursor", "display_name", "order_by", "page", "size", "statuses", "target_url", "updated_at", "uuids"]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    ORDER_BY_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    STATUSES_FIELD_NUMBER: _ClassVar[int]
    TARGET_URL_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUIDS_FIELD_NUMBER: _ClassVar[int]
    created_at: _common_pb2.TimeFilter
    cursor: str
    display_name: _common_pb2.StringFilter
    order_by: _containers.RepeatedCompositeFieldContainer[_common_pb2.OrderBy]
    page: int
    size: int
    statuses: _common_pb2.StringsFilter
    target_url: _common_pb2.StringFilter
    updated_at: _common_pb2.TimeFilter
    uuids: _common_pb2.StringsFilter
    def __init__(self, uuids: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., statuses: _Optional[_Union[_common_pb2.StringsFilter, _Mapping]] = ..., display_name: _Optional[_Union[_common_pb2.StringFilter, _Mapping]] = ..., target_url: _Optional[_Union[_common_pb2.StringFilter, _Mapping]] = ..., created_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., updated_at: _Optional[_Union[_common_pb2.TimeFilter, _Mapping]] = ..., page: _Optional[int] = ..., size: _Optional[int] = ..., cursor: _Optional[str] = ..., order_by: _Optional[_Iterable[_Union[_common_pb2.OrderBy, _Mapping]]] = ...) -> None: ...

class ListWebhookSubscriptionsResponse(_message.Message):
    __slots__ = ["items", "pagination"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PAGINATION_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[WebhookSubscription]
    pagination: _common_pb2.Pagination
    def __init__(self, items: _Optional[_Iterable[_Union[WebhookSubscription, _Mapping]]] = ..., pagination: _Optional[_Union[_common_pb2.Pagination, _Mapping]] = ...) -> None: ...

class RedeliverWebhookDeliveryRequest(_message.Message):
    __slots__ = ["delivery_uuid", "uuid"]
    DELIVERY_UUID_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    delivery_uuid: str
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., delivery_uuid: _Optional[str] = ...) -> None: ...

class RedeliverWebhookDeliveryResponse(_message.Message):
    __slots__ = ["webhook_delivery"]
    WEBHOOK_DELIVERY_FIELD_NUMBER: _ClassVar[int]
    webhook_delivery: WebhookDelivery
    def __init__(self, webhook_delivery: _Optional[_Union[WebhookDelivery, _Mapping]] = ...) -> None: ...

class RotateWebhookSubscriptionSecretRequest(_message.Message):
    __slots__ = ["uuid"]
    UUID_FIELD_NUMBER: _ClassVar[int]
    uuid: str
    def __init__(self, uuid: _Optional[str] = ...) -> None: ...

class RotateWebhookSubscriptionSecretResponse(_message.Message):
    __slots__ = ["webhook_subscription"]
    WEBHOOK_SUBSCRIPTION_FIELD_NUMBER: _ClassVar[int]
    webhook_subscription: WebhookSubscription
    def __init__(self, webhook_subscription: _Optional[_Union[WebhookSubscription, _Mapping]] = ...) -> None: ...

class TransitionWebhookSubscriptionRequest(_message.Message):
    __slots__ = ["etag", "transition", "uuid"]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    TRANSITION_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    etag: str
    transition: WebhookSubscriptionTransition
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., transition: _Optional[_Union[WebhookSubscriptionTransition, str]] = ..., etag: _Optional[str] = ...) -> None: ...

class TransitionWebhookSubscriptionResponse(_message.Message):
    __slots__ = ["webhook_subscription"]
    WEBHOOK_SUBSCRIPTION_FIELD_NUMBER: _ClassVar[int]
    webhook_subscription: WebhookSubscription
    def __init__(self, webhook_subscription: _Optional[_Union[WebhookSubscription, _Mapping]] = ...) -> None: ...

class UpdateWebhookSubscriptionRequest(_message.Message):
    __slots__ = ["uuid", "webhook_subscription"]
    UUID_FIELD_NUMBER: _ClassVar[int]
    WEBHOOK_SUBSCRIPTION_FIELD_NUMBER: _ClassVar[int]
    uuid: str
    webhook_subscription: WebhookSubscriptionUpdate
    def __init__(self, uuid: _Optional[str] = ..., webhook_subscription: _Optional[_Union[WebhookSubscriptionUpdate, _Mapping]] = ...) -> None: ...

class UpdateWebhookSubscriptionResponse(_message.Message):
    __slots__ = ["webhook_subscription"]
    WEBHOOK_SUBSCRIPTION_FIELD_NUMBER: _ClassVar[int]
    webhook_subscription: WebhookSubscription
    def __init__(self, webhook_subscription: _Optional[_Union[WebhookSubscription, _Mapping]] = ...) -> None: ...

class WebhookDelivery(_message.Message):
    __slots__ = ["attempts", "created_at", "etag", "event_type", "event_uuid", "last_status_code", "payload", "scheduled_at", "status", "subscription_uuid", "updated_at", "uuid"]
    ATTEMPTS_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    EVENT_TYPE_FIELD_NUMBER: _ClassVar[int]
    EVENT_UUID_FIELD_NUMBER: _ClassVar[int]
    LAST_STATUS_CODE_FIELD_NUMBER: _ClassVar[int]
    PAYLOAD_FIELD_NUMBER: _ClassVar[int]
    SCHEDULED_AT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    SUBSCRIPTION_UUID_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    attempts: int
    created_at: _timestamp_pb2.Timestamp
    etag: str
    event_type: str
    event_uuid: str
    last_status_code: int
    payload: _struct_pb2.Struct
    scheduled_at: _timestamp_pb2.Timestamp
    status: WebhookDeliveryStatus
    subscription_uuid: str
    updated_at: _timestamp_pb2.Timestamp
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., subscription_uuid: _Optional[str] = ..., event_uuid: _Optional[str] = ..., event_type: _Optional[str] = ..., payload: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., status: _Optional[_Union[WebhookDeliveryStatus, str]] = ..., attempts: _Optional[int] = ..., last_status_code: _Optional[int] = ..., scheduled_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., etag: _Optional[str] = ...) -> None: ...

class WebhookDeliveryAttempt(_message.Message):
    __slots__ = ["created_at", "delivery_uuid", "error", "response_body", "response_time_ms", "status_code", "uuid"]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    DELIVERY_UUID_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    RESPONSE_BODY_FIELD_NUMBER: _ClassVar[int]
    RESPONSE_TIME_MS_FIELD_NUMBER: _ClassVar[int]
    STATUS_CODE_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    created_at: _timestamp_pb2.Timestamp
    delivery_uuid: str
    error: str
    response_body: str
    response_time_ms: int
    status_code: int
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., delivery_uuid: _Optional[str] = ..., status_code: _Optional[int] = ..., response_body: _Optional[str] = ..., response_time_ms: _Optional[int] = ..., error: _Optional[str] = ...) -> None: ...

class WebhookEventType(_message.Message):
    __slots__ = ["created_at", "deprecated_at", "description", "name", "sunset_at", "updated_at", "uuid"]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    DEPRECATED_AT_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    SUNSET_AT_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    created_at: _timestamp_pb2.Timestamp
    deprecated_at: _timestamp_pb2.Timestamp
    description: str
    name: str
    sunset_at: _timestamp_pb2.Timestamp
    updated_at: _timestamp_pb2.Timestamp
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., name: _Optional[str] = ..., description: _Optional[str] = ..., deprecated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., sunset_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class WebhookSubscription(_message.Message):
    __slots__ = ["consecutive_failures", "created_at", "display_name", "etag", "request_timeout_ms", "secret", "status", "suspended_at", "target_url", "updated_at", "uuid"]
    CONSECUTIVE_FAILURES_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    REQUEST_TIMEOUT_MS_FIELD_NUMBER: _ClassVar[int]
    SECRET_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    SUSPENDED_AT_FIELD_NUMBER: _ClassVar[int]
    TARGET_URL_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    consecutive_failures: int
    created_at: _timestamp_pb2.Timestamp
    display_name: str
    etag: str
    request_timeout_ms: int
    secret: str
    status: WebhookSubscriptionStatus
    suspended_at: _timestamp_pb2.Timestamp
    target_url: str
    updated_at: _timestamp_pb2.Timestamp
    uuid: str
    def __init__(self, uuid: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., status: _Optional[_Union[WebhookSubscriptionStatus, str]] = ..., display_name: _Optional[str] = ..., target_url: _Optional[str] = ..., request_timeout_ms: _Optional[int] = ..., secret: _Optional[str] = ..., consecutive_failures: _Optional[int] = ..., suspended_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., etag: _Optional[str] = ...) -> None: ...

class WebhookSubscriptionCreate(_message.Message):
    __slots__ = ["display_name", "request_timeout_ms", "target_url"]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    REQUEST_TIMEOUT_MS_FIELD_NUMBER: _ClassVar[int]
    TARGET_URL_FIELD_NUMBER: _ClassVar[int]
    display_name: str
    request_timeout_ms: int
    target_url: str
    def __init__(self, display_name: _Optional[str] = ..., target_url: _Optional[str] = ..., request_timeout_ms: _Optional[int] = ...) -> None: ...

class WebhookSubscriptionEventType(_message.Message):
    __slots__ = ["created_at", "etag", "name", "uuid", "webhook_event_type_uuid", "webhook_subscription_uuid"]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    WEBHOOK_EVENT_TYPE_UUID_FIELD_NUMBER: _ClassVar[int]
    WEBHOOK_SUBSCRIPTION_UUID_FIELD_NUMBER: _ClassVar[int]
    created_at: _timestamp_pb2.Timestamp
    etag: str
    name: str
    uuid: str
    webhook_event_type_uuid: str
    webhook_subscription_uuid: str
    def __init__(self, uuid: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., webhook_subscription_uuid: _Optional[str] = ..., webhook_event_type_uuid: _Optional[str] = ..., name: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class WebhookSubscriptionEventTypeCreate(_message.Message):
    __slots__ = ["webhook_event_type_uuid"]
    WEBHOOK_EVENT_TYPE_UUID_FIELD_NUMBER: _ClassVar[int]
    webhook_event_type_uuid: str
    def __init__(self, webhook_event_type_uuid: _Optional[str] = ...) -> None: ...

class WebhookSubscriptionUpdate(_message.Message):
    __slots__ = ["display_name", "etag", "request_timeout_ms", "target_url", "update_mask"]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    REQUEST_TIMEOUT_MS_FIELD_NUMBER: _ClassVar[int]
    TARGET_URL_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    display_name: str
    etag: str
    request_timeout_ms: int
    target_url: str
    update_mask: _field_mask_pb2.FieldMask
    def __init__(self, display_name: _Optional[str] = ..., target_url: _Optional[str] = ..., request_timeout_ms: _Optional[int] = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ..., etag: _Optional[str] = ...) -> None: ...

class WebhookSubscriptionStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class WebhookSubscriptionTransition(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class WebhookDeliveryStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
