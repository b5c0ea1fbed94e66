"""Receiving catalogd's webhooks: signature verification and per-entity coalescing.

:class:`Verifier` checks a delivery's Standard Webhooks signature and timestamp; :class:`Coalescer`
turns a burst of events about one entity into one fetch of its current state, as the interface
specification's "Consumer guidance" describes. Only the standard library is used; the Coalescer
runs its fetches on threads (``threading.Timer``), so it suits ``http.server``'s
``ThreadingHTTPServer``, WSGI servers and any other threaded code.

A delivery carries the headers ``webhook-id`` (the delivery's uuid: the same on every retry of that
delivery), ``webhook-timestamp`` (Unix seconds, set per attempt), ``webhook-signature``
(``v1,<base64>``, several separated by spaces) and ``X-Webhook-Event-Type``; the body is a thin JSON
object of the uuids that fetch the current state, e.g. ``{"productUuid": "…"}``.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import threading
import time
from dataclasses import dataclass
from typing import Callable, Dict, Mapping, Optional

__all__ = [
    "DEFAULT_DEBOUNCE",
    "DEFAULT_TOLERANCE",
    "Coalescer",
    "Delivery",
    "Verifier",
    "WebhookVerificationError",
]

#: Seconds a delivery's ``webhook-timestamp`` may be from the receiver's clock, either way.
DEFAULT_TOLERANCE = 5 * 60
#: The specification's example debounce, in seconds.
DEFAULT_DEBOUNCE = 2.0


class WebhookVerificationError(Exception):
    """A refused delivery. ``reason`` is ``"missing_headers"``, ``"timestamp"`` or ``"signature"``."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True)
class Delivery:
    """A verified webhook."""

    id: str  #: ``webhook-id``: the delivery's uuid (stable across retries)
    timestamp: int  #: ``webhook-timestamp`` of this attempt, Unix seconds
    event_type: str  #: ``X-Webhook-Event-Type``, e.g. ``"product.updated"``
    body: bytes  #: the raw JSON payload

    def payload(self) -> Dict[str, str]:
        """The thin payload's string values by key (e.g. ``"productUuid"``)."""
        data = json.loads(self.body)
        if not isinstance(data, dict):
            raise ValueError("the webhook payload is not a JSON object")
        return {k: v for k, v in data.items() if isinstance(v, str)}


def _header(headers: Mapping[str, str], name: str) -> str:
    # http.server's message and most frameworks' headers are case-insensitive; a plain dict is not.
    value = headers.get(name)
    if value is None:
        for k, v in headers.items():
            if k.lower() == name:
                return v
        return ""
    return value


class Verifier:
    """Checks deliveries signed with one subscription secret (``whsec_`` followed by base64)."""

    def __init__(self, secret: str, tolerance: float = DEFAULT_TOLERANCE,
                 now: Callable[[], float] = time.time) -> None:
        if not secret.startswith("whsec_") or len(secret) == len("whsec_"):
            raise ValueError("the secret must be whsec_ followed by base64")
        try:
            self._key = base64.b64decode(secret[len("whsec_"):], validate=True)
        except (binascii.Error, ValueError):
            raise ValueError("the secret must be whsec_ followed by base64") from None
        self.tolerance = tolerance
        self.now = now

    def _mac(self, msg_id: str, timestamp: str, body: bytes) -> bytes:
        return hmac.new(self._key, msg_id.encode() + b"." + timestamp.encode() + b"." + body, hashlib.sha256).digest()

    def sign(self, msg_id: str, timestamp: int, body: bytes) -> str:
        """The signature header value ``v1,<base64>`` (for tests of a receiver)."""
        return "v1," + base64.b64encode(self._mac(msg_id, str(timestamp), body)).decode()

    def verify(self, headers: Mapping[str, str], body: bytes) -> Delivery:
        """Checks the headers of a delivery against its raw body: the timestamp within the tolerance
        window, and at least one ``v1,`` signature equal (compared in constant time) to the HMAC-SHA256
        of ``id.timestamp.body``. Raises :class:`WebhookVerificationError`."""
        msg_id = _header(headers, "webhook-id")
        ts = _header(headers, "webhook-timestamp")
        sigs = _header(headers, "webhook-signature")
        if not msg_id or not ts or not sigs:
            raise WebhookVerificationError(
                "missing_headers", "missing webhook-id, webhook-timestamp or webhook-signature")
        if not ts.isascii() or not ts.isdigit():
            raise WebhookVerificationError("timestamp", "webhook-timestamp %r is not Unix seconds" % ts)
        sent = int(ts)
        if abs(self.now() - sent) > self.tolerance:
            raise WebhookVerificationError("timestamp", "webhook-timestamp outside the tolerance window")
        want = self._mac(msg_id, ts, body)
        ok = False
        for sig in sigs.split():
            if not sig.startswith("v1,"):
                continue
            try:
                got = base64.b64decode(sig[3:], validate=True)
            except (binascii.Error, ValueError):
                continue
            if hmac.compare_digest(got, want):
                ok = True  # keep going: the time taken does not depend on which signature matched
        if not ok:
            raise WebhookVerificationError("signature", "no valid signature")
        return Delivery(id=msg_id, timestamp=sent, event_type=_header(headers, "x-webhook-event-type"), body=body)


class _Entity:
    __slots__ = ("timer", "fetching", "pending")

    def __init__(self) -> None:
        self.timer = None
        self.fetching = False
        self.pending = False


class Coalescer:
    """Coalesces bursts of events per entity, as the specification's "Consumer guidance" describes:
    each event for an entity (re)starts its debounce timer; when it expires, one fetch of the entity
    is made; events arriving during that fetch mark the entity pending, and one further fetch follows
    the current one (however many events arrived during it). An entity is never fetched twice at once.

    ``fetch(key)`` runs on the timer's thread and handles its own errors (a 404 is the current state
    of a deleted entity). ``timer`` makes the timers (``threading.Timer`` by default; tests pass a
    controllable one): ``timer(seconds, function)`` returns an object with ``start()`` and ``cancel()``.
    Thread-safe.
    """

    def __init__(self, fetch: Callable[[str], None], debounce: float = DEFAULT_DEBOUNCE,
                 timer: Optional[Callable[[float, Callable[[], None]], object]] = None) -> None:
        self._fetch = fetch
        self._debounce = debounce
        self._timer = timer or _daemon_timer
        self._lock = threading.Lock()
        self._entities: Dict[str, _Entity] = {}
        self._closed = False

    def signal(self, key: str) -> None:
        """Records an event for the entity ``key`` (for a product, its uuid)."""
        with self._lock:
            if self._closed:
                return
            e = self._entities.get(key)
            if e is None:
                e = self._entities[key] = _Entity()
            if e.fetching:
                e.pending = True
                return
            if e.timer is not None:
                e.timer.cancel()
            t = self._timer(self._debounce, lambda: self._expire(key, e, t))
            e.timer = t
            t.start()

    def _expire(self, key: str, e: _Entity, timer: object) -> None:
        with self._lock:
            # A cancelled timer may already be running: only the entity's current timer fetches.
            if self._closed or e.timer is not timer or e.fetching:
                return
            e.timer, e.fetching = None, True
        while True:
            try:
                self._fetch(key)
            finally:
                with self._lock:
                    again = e.pending and not self._closed
                    e.pending = False
                    if not again:
                        e.fetching = False
                        if self._entities.get(key) is e:
                            del self._entities[key]
            if not again:
                return

    def close(self) -> None:
        """Drops the entities still waiting for their timer; signals after it are ignored."""
        with self._lock:
            self._closed = True
            for e in self._entities.values():
                if e.timer is not None:
                    e.timer.cancel()
            self._entities.clear()


def _daemon_timer(seconds: float, function: Callable[[], None]) -> threading.Timer:
    t = threading.Timer(seconds, function)
    t.daemon = True
    return t
