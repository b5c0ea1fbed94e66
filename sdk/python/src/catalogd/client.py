"""A gRPC channel to catalogd with the bearer token on every call.

catalogd takes a JWT (claims tenant_id and scope) as ``authorization: Bearer <token>`` metadata on
every call. With TLS the token goes through gRPC call credentials (a metadata plugin), the way gRPC
means it to. gRPC refuses call credentials on a plaintext channel (so that a token is never sent in
the clear by accident), yet a local catalogd (``catalogd serve``, ``catalogd mock``) speaks plaintext:
there an interceptor sets the header instead.
"""

from __future__ import annotations

import ipaddress
import threading
from typing import (
    Any,
    Callable,
    Dict,
    Iterator,
    NamedTuple,
    Optional,
    Sequence,
    Tuple,
    TypeVar,
    Union,
)

import grpc

__all__ = ["Client", "TokenSource", "connect", "is_loopback"]

#: A bearer token: the token itself, or a function the SDK calls before every request, so that an
#: application can refresh an expiring token (return a cached one until it is about to expire, then
#: fetch a new one). An exception it raises fails the call.
TokenSource = Union[str, Callable[[], str]]

#: gRPC metadata as grpcio takes it.
Metadata = Sequence[Tuple[str, Union[str, bytes]]]

S = TypeVar("S")

_AUTHORIZATION = "authorization"


def _header(token: TokenSource) -> str:
    value = token() if callable(token) else token
    if not isinstance(value, str) or not value or any(c.isspace() for c in value):
        # A header value with a line break would be refused by grpcio deep inside the call; say why.
        raise ValueError("the bearer token must be a non-empty string without whitespace")
    return "Bearer " + value


class _BearerPlugin(grpc.AuthMetadataPlugin):
    """Call credentials: the token as metadata, for TLS channels."""

    def __init__(self, token: TokenSource) -> None:
        self._token = token

    def __call__(self, context: grpc.AuthMetadataContext, callback: grpc.AuthMetadataPluginCallback) -> None:
        try:
            header = _header(self._token)
        except Exception as e:  # reported to grpcio, which fails the call with it
            callback((), e)
            return
        callback(((_AUTHORIZATION, header),), None)


class _CallDetails(NamedTuple):
    method: str
    timeout: Optional[float]
    metadata: Optional[Metadata]
    credentials: Optional[grpc.CallCredentials]
    wait_for_ready: Optional[bool]
    compression: Optional[grpc.Compression]


class _Details(_CallDetails, grpc.ClientCallDetails):
    """grpc.ClientCallDetails as a value (grpcio ships the interface only)."""


class _BearerInterceptor(
    grpc.UnaryUnaryClientInterceptor,
    grpc.UnaryStreamClientInterceptor,
    grpc.StreamUnaryClientInterceptor,
    grpc.StreamStreamClientInterceptor,
):
    """The token as metadata, for plaintext channels. A call that already carries an authorization
    header (given in its own metadata) keeps it: catalogd refuses a call with two."""

    def __init__(self, token: TokenSource) -> None:
        self._token = token

    def _details(self, details: grpc.ClientCallDetails) -> grpc.ClientCallDetails:
        metadata = list(getattr(details, "metadata", None) or ())
        if not any(k.lower() == _AUTHORIZATION for k, _ in metadata):
            metadata.append((_AUTHORIZATION, _header(self._token)))
        return _Details(
            details.method,
            getattr(details, "timeout", None),
            metadata,
            getattr(details, "credentials", None),
            getattr(details, "wait_for_ready", None),
            getattr(details, "compression", None),
        )

    def intercept_unary_unary(self, continuation: Any, client_call_details: grpc.ClientCallDetails, request: Any) -> Any:
        return continuation(self._details(client_call_details), request)

    def intercept_unary_stream(self, continuation: Any, client_call_details: grpc.ClientCallDetails, request: Any) -> Any:
        return continuation(self._details(client_call_details), request)

    def intercept_stream_unary(
        self, continuation: Any, client_call_details: grpc.ClientCallDetails, request_iterator: Iterator[Any]
    ) -> Any:
        return continuation(self._details(client_call_details), request_iterator)

    def intercept_stream_stream(
        self, continuation: Any, client_call_details: grpc.ClientCallDetails, request_iterator: Iterator[Any]
    ) -> Any:
        return continuation(self._details(client_call_details), request_iterator)


def is_loopback(target: str) -> bool:
    """Whether a gRPC target names this machine: localhost, 127.0.0.0/8, ::1, or a unix socket."""
    t = target
    if t.startswith(("unix:", "unix-abstract:")):
        return True
    for scheme in ("dns:///", "dns:", "ipv4:", "ipv6:"):
        if t.startswith(scheme):
            t = t[len(scheme):]
            break
    if "/" in t:  # dns://authority/host:port
        t = t.rsplit("/", 1)[1]
    if t.startswith("["):
        host = t[1:].split("]", 1)[0]
    elif t.count(":") == 1:
        host = t.split(":", 1)[0]
    else:
        host = t  # no port, or a bare IPv6 address
    if host.lower() in ("localhost", "localhost.", "ip6-localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class Client:
    """A channel to catalogd and the stubs of its services.

    ``client.stub(AttributeServiceStub)`` returns that service's stub (one per class, made on first
    use); every generated ``*ServiceStub`` of ``catalog.v1.*_pb2_grpc`` works. Close the client
    when done, or use it as a context manager.
    """

    def __init__(self, channel: grpc.Channel) -> None:
        self.channel = channel
        self._stubs: Dict[Any, Any] = {}
        self._lock = threading.Lock()

    def stub(self, stub_class: Callable[[grpc.Channel], S]) -> S:
        """The stub of a service on this client's channel, e.g.
        ``client.stub(attributes_pb2_grpc.AttributeServiceStub).ListAttributes(request)``."""
        with self._lock:
            stub = self._stubs.get(stub_class)
            if stub is None:
                stub = self._stubs[stub_class] = stub_class(self.channel)
            return stub

    def close(self) -> None:
        """Closes the channel; calls in flight are cancelled."""
        self.channel.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def connect(
    target: str,
    token: Optional[TokenSource] = None,
    *,
    tls: Union[bool, grpc.ChannelCredentials, None] = None,
    options: Sequence[Tuple[str, Any]] = (),
    interceptors: Sequence[Any] = (),
) -> Client:
    """Opens a channel to catalogd's gRPC port, e.g. ``connect("localhost:9090", token)``.

    target: host:port of the gRPC server (catalogd's CATALOG_GRPC_ADDR, default 127.0.0.1:9090), or
        any gRPC target (``dns:///catalog.example.com:443``, ``unix:/run/catalogd.sock``).
    token: the bearer token, or a function returning it before each call; None sends no token (only
        health checks and reflection answer without one).
    tls: True for TLS with the system's root certificates, a grpc.ChannelCredentials for anything else
        (``grpc.ssl_channel_credentials(root_certificates=...)``), False for plaintext. The default,
        None, is plaintext for a loopback target (localhost, 127.0.0.1, [::1], unix sockets) and TLS
        for every other, so that a token never crosses a network in the clear unless asked to.
    options: grpcio channel options, e.g. ``[("grpc.max_receive_message_length", 16 << 20)]``.
    interceptors: grpcio client interceptors of the caller's; they run after the bearer one and see
        its header (on plaintext channels; with TLS the token is added below every interceptor).
    """
    if isinstance(token, str):
        _header(token)  # a malformed token fails here, not at the first call
    if tls is None:
        tls = not is_loopback(target)
    if tls is True:
        tls = grpc.ssl_channel_credentials()
    channel: grpc.Channel
    if isinstance(tls, grpc.ChannelCredentials):
        creds = tls
        if token is not None:
            creds = grpc.composite_channel_credentials(tls, grpc.metadata_call_credentials(_BearerPlugin(token)))
        channel = grpc.secure_channel(target, creds, options=list(options))
        if interceptors:
            channel = grpc.intercept_channel(channel, *interceptors)
    elif tls is False:
        channel = grpc.insecure_channel(target, options=list(options))
        chain = ([_BearerInterceptor(token)] if token is not None else []) + list(interceptors)
        if chain:
            channel = grpc.intercept_channel(channel, *chain)
    else:
        raise TypeError(f"tls must be a bool, a grpc.ChannelCredentials or None, not {type(tls).__name__}")
    return Client(channel)
