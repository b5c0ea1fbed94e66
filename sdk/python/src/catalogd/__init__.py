"""catalogd: the hand-written part of catalogd's Python SDK.

The messages and stubs are generated (``catalog.v1.<family>_pb2`` and ``_pb2_grpc``, one module pair
per proto file); this package adds only what generated code cannot do: a channel with the bearer
token on every call (:func:`connect`), decoded errors (:class:`CatalogError`), webhooks
(``catalogd.webhooks``) and whole files in and out (``catalogd.transfers``: :func:`import_file`,
:func:`export_to`).
"""

from catalogd.client import Client, TokenSource, connect, is_loopback
from catalogd.errors import ERROR_DOMAIN, STATUS_DETAILS_KEY, CatalogError, FieldViolation
from catalogd.transfers import export_to, import_file

__all__ = [
    "ERROR_DOMAIN",
    "STATUS_DETAILS_KEY",
    "CatalogError",
    "Client",
    "FieldViolation",
    "TokenSource",
    "connect",
    "export_to",
    "import_file",
    "is_loopback",
]
__version__ = "1.0.0"
