"""The errors of catalogd as a client sees them.

Every failure the service reports carries, besides the gRPC code and message, google.rpc details
(server/apierr): an ErrorInfo (reason = the stable API error code such as VALIDATION_FAILED, domain
"catalogd", metadata = the error's meta as strings), a BadRequest with one field violation per bad
field when there are any, and the meta once more as a google.protobuf.Struct with its JSON types
intact. They travel as a google.rpc.Status in the binary trailer ``grpc-status-details-bin``, which
grpcio hands over undecoded; :meth:`CatalogError.from_rpc_error` decodes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Optional, Tuple

import grpc
from google.protobuf import json_format, struct_pb2
from google.protobuf.message import DecodeError
from google.rpc import error_details_pb2, status_pb2

__all__ = ["CatalogError", "FieldViolation", "ERROR_DOMAIN", "STATUS_DETAILS_KEY"]

#: The ErrorInfo domain of catalogd's own errors.
ERROR_DOMAIN = "catalogd"

#: The trailer that carries the google.rpc.Status with the details.
STATUS_DETAILS_KEY = "grpc-status-details-bin"

# The HTTP status the REST API answers each reason with (DESIGN.md "HTTP conventions"), so that code
# written against the REST problem documents can keep switching on the same numbers.
_REASON_STATUS: Mapping[str, int] = {
    "VALIDATION_FAILED": 400,
    "MALFORMED_REQUEST": 400,
    "UNAUTHENTICATED": 401,
    "FORBIDDEN": 403,
    "NOT_FOUND": 404,
    "METHOD_NOT_ALLOWED": 405,
    "REQUEST_TIMEOUT": 408,
    "ALREADY_EXISTS": 409,
    "INVALID_TRANSITION": 409,
    "IN_USE": 409,
    "REQUIREMENTS_NOT_MET": 409,
    "LIMIT_EXCEEDED": 409,
    "UPLOAD_VERIFICATION_FAILED": 409,
    "PRECONDITION_FAILED": 412,
    "PAYLOAD_TOO_LARGE": 413,
    "UNSUPPORTED_MEDIA_TYPE": 415,
    "RATE_LIMITED": 429,
    "INTERNAL": 500,
    "UNAVAILABLE": 503,
}

# Without a catalogd reason (the error arose in the client, a proxy or the transport), the status is
# the one the REST gateway gives a bare gRPC status of that code.
_CODE_STATUS: Mapping[grpc.StatusCode, int] = {
    grpc.StatusCode.INVALID_ARGUMENT: 400,
    grpc.StatusCode.UNAUTHENTICATED: 401,
    grpc.StatusCode.PERMISSION_DENIED: 403,
    grpc.StatusCode.NOT_FOUND: 404,
    grpc.StatusCode.UNIMPLEMENTED: 404,
    grpc.StatusCode.ALREADY_EXISTS: 409,
    grpc.StatusCode.RESOURCE_EXHAUSTED: 413,
    grpc.StatusCode.UNAVAILABLE: 503,
    grpc.StatusCode.CANCELLED: 503,
    grpc.StatusCode.DEADLINE_EXCEEDED: 503,
}


@dataclass(frozen=True)
class FieldViolation:
    """One rejected field: ``code``, ``[2].code`` (bulk item 2), ``codes[eq]`` (a list filter)."""

    field: str
    description: str


class CatalogError(grpc.RpcError):
    """A failed call, decoded: ``CatalogError.from_rpc_error(caught)``.

    It is a ``grpc.RpcError``, so handlers written for plain grpcio keep catching it; unlike
    grpcio's own error, ``code`` is an attribute, not a method.

    ``reason`` is the stable API error code (VALIDATION_FAILED, NOT_FOUND, INVALID_TRANSITION, …,
    the ``code`` of the REST problem document); it is "" when the error did not come from catalogd
    (a network failure, a deadline, a proxy): then only ``code`` and ``status`` say what happened.
    """

    #: The gRPC status code (grpc.StatusCode.INVALID_ARGUMENT, …).
    code: grpc.StatusCode
    #: The HTTP status the REST API answers the same failure with (400, 404, 409, …).
    status: int
    #: The API error code from google.rpc.ErrorInfo, e.g. "VALIDATION_FAILED"; "" when none.
    reason: str
    #: The ErrorInfo domain: "catalogd" for the service's own errors, "" when there is none.
    domain: str
    #: The human-readable detail (the status message).
    detail: str
    #: ErrorInfo.metadata: the error's meta with every value as a string (JSON text for non-strings).
    metadata: Dict[str, str]
    #: The error's meta with its JSON types (INVALID_TRANSITION: currentStatus, a string, and
    #: allowedTransitions, a list): from the google.protobuf.Struct detail, else ``metadata``.
    meta: Dict[str, Any]
    #: google.rpc.BadRequest's field violations, in the server's order.
    field_violations: Tuple[FieldViolation, ...]
    #: The decoded google.rpc.Status, None when the call carried none.
    rpc_status: Optional[status_pb2.Status]

    def __init__(
        self,
        code: grpc.StatusCode,
        detail: str,
        rpc_status: Optional[status_pb2.Status] = None,
    ) -> None:
        infos: List[error_details_pb2.ErrorInfo] = []
        violations: List[FieldViolation] = []
        typed: Optional[Dict[str, Any]] = None
        for any_detail in rpc_status.details if rpc_status is not None else ():
            if any_detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                error_info = error_details_pb2.ErrorInfo()
                any_detail.Unpack(error_info)
                infos.append(error_info)
            elif any_detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
                bad = error_details_pb2.BadRequest()
                any_detail.Unpack(bad)
                violations.extend(FieldViolation(v.field, v.description) for v in bad.field_violations)
            elif any_detail.Is(struct_pb2.Struct.DESCRIPTOR) and typed is None:
                st = struct_pb2.Struct()
                any_detail.Unpack(st)
                typed = json_format.MessageToDict(st)
        # catalogd's own ErrorInfo; another domain's (a proxy's) only when there is none of ours.
        ours = [i for i in infos if i.domain == ERROR_DOMAIN]
        candidates = ours or infos
        info = candidates[0] if candidates else None

        self.code = code
        self.detail = detail
        self.rpc_status = rpc_status
        self.reason = info.reason if info is not None else ""
        self.domain = info.domain if info is not None else ""
        self.metadata = dict(info.metadata) if info is not None else {}
        self.meta = typed if typed else dict(self.metadata)
        self.field_violations = tuple(violations)
        self.status = _REASON_STATUS[self.reason] if self.reason in _REASON_STATUS else _CODE_STATUS.get(code, 500)
        super().__init__(f"{self.reason or code.name}: {detail}")

    @classmethod
    def from_rpc_error(cls, err: BaseException) -> CatalogError:
        """Decodes what a stub call raised.

        A grpc.RpcError of a finished call (what blocking stub calls raise) is read with its
        trailers; a CatalogError is returned as is; anything else becomes UNKNOWN with its text.
        """
        if isinstance(err, CatalogError):
            return err
        code_fn = getattr(err, "code", None)
        if not isinstance(err, grpc.RpcError) or not callable(code_fn):
            out = cls(grpc.StatusCode.UNKNOWN, str(err))
            out.__cause__ = err
            return out
        code = code_fn()
        if not isinstance(code, grpc.StatusCode):
            code = grpc.StatusCode.UNKNOWN
        details_fn = getattr(err, "details", None)
        detail = details_fn() if callable(details_fn) else None
        trailers_fn = getattr(err, "trailing_metadata", None)
        trailers = trailers_fn() if callable(trailers_fn) else None
        out = cls(code, detail or "", _status_from_trailers(trailers, code))
        out.__cause__ = err
        return out

    def violation(self, field: str) -> Optional[FieldViolation]:
        """The first violation of a field, e.g. ``err.violation("code").description``."""
        return next((v for v in self.field_violations if v.field == field), None)

    def __repr__(self) -> str:
        return (
            f"CatalogError(code={self.code.name}, reason={self.reason!r}, detail={self.detail!r}, "
            f"field_violations={list(self.field_violations)!r}, meta={self.meta!r})"
        )


def _status_from_trailers(trailers: Any, code: grpc.StatusCode) -> Optional[status_pb2.Status]:
    """The google.rpc.Status of the details trailer; None when there is none or it does not decode
    or disagrees with the call's code (then it is not this call's status: a proxy's, say)."""
    for key, value in trailers or ():
        if key != STATUS_DETAILS_KEY or not isinstance(value, (bytes, bytearray)):
            continue
        try:
            st = status_pb2.Status.FromString(bytes(value))
        except DecodeError:  # a malformed trailer must not hide the error it came with
            return None
        return st if st.code == code.value[0] else None
    return None
