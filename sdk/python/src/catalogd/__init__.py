"""catalogd: the hand-written part of catalogd's Python SDK.

The messages and stubs are generated (``catalog.v1.<family>_pb2`` and ``_pb2_grpc``, one module pair
per proto file); this package adds only what generated code cannot do: a channel with the bearer
token on every call (:func:`connect`) and decoded errors (:class:`CatalogError`).
"""

from catalogd.client import Client, TokenSource, connect, is_loopback
from catalogd.errors import ERROR_DOMAIN, STATUS_DETAILS_KEY, CatalogError, FieldViolation

__all__ = [
    "ERROR_DOMAIN",
    "STATUS_DETAILS_KEY",
    "CatalogError",
    "Client",
    "FieldViolation",
    "TokenSource",
    "connect",
    "is_loopback",
]
__version__ = "1.0.0"
