"""A receiver of catalogd's product webhooks (catalogd.webhooks).

It verifies each delivery's Standard Webhooks signature (and its timestamp within 5 minutes), and
coalesces each burst of events about a product into one fetch of the product's current state (the
specification's "Consumer guidance": a 2 s debounce per product, one fetch, one more when events
arrived during it). It prints one JSON object per line: {"listening": ...}, then {"delivery": ...}
for each verified delivery and {"fetched": ...} for each fetch.

catalogd refuses loopback targets unless it runs with CATALOG_WEBHOOK_ALLOW_PRIVATE_TARGETS=true:

    CATALOG_WEBHOOK_ALLOW_PRIVATE_TARGETS=true make run
    CATALOG_URL=http://localhost:8080 TOKEN=... WEBHOOK_SECRET=whsec_... python3 webhook_receiver.py

and subscribe http://127.0.0.1:8081/ to product.updated. LISTEN (default 127.0.0.1:8081;
127.0.0.1:0 picks a free port) and DEBOUNCE_MS (default 2000) change the defaults: the same settings
and lines as the Go and TypeScript receivers.
"""

import json
import os
import sys
import threading
import urllib.error
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from catalogd.webhooks import Coalescer, Verifier, WebhookVerificationError

BASE = os.environ.get("CATALOG_URL", "http://localhost:8080")
TOKEN = os.environ.get("TOKEN", "")
# What a product fetch includes and expands, as the specification's guidance names it.
EXPAND = ["productAssets", "productAttributes", "productCategories", "productTags"]

_print_lock = threading.Lock()


def emit(obj):
    with _print_lock:
        print(json.dumps(obj), flush=True)


def fetch_product(product_uuid):
    """One fetch of a product's current state after a burst of events about it."""
    query = urllib.parse.urlencode([(f"{k}[{x}]", "true") for x in EXPAND for k in ("include", "expand")])
    req = urllib.request.Request(f"{BASE}/v1/products/{urllib.parse.quote(product_uuid)}?{query}",
                                 headers={"Authorization": f"Bearer {TOKEN}"})
    try:
        with urllib.request.urlopen(req, timeout=30) as res:
            status, body = res.status, res.read()
    except urllib.error.HTTPError as err:
        status, body = err.code, err.read()
    except OSError as err:
        emit({"fetched": product_uuid, "error": str(err)})
        return
    try:
        product = json.loads(body)
    except ValueError:
        product = None
    emit({"fetched": product_uuid, "status": status, "product": product})


verifier = Verifier(os.environ.get("WEBHOOK_SECRET", ""))
products = Coalescer(fetch_product, debounce=int(os.environ.get("DEBOUNCE_MS", "2000")) / 1000)


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        try:
            delivery = verifier.verify(self.headers, body)
            payload = delivery.payload()
        except (WebhookVerificationError, ValueError) as err:
            self.send_response(401)  # catalogd retries it later
            self.end_headers()
            self.wfile.write(str(err).encode())
            return
        emit({"delivery": delivery.id, "type": delivery.event_type, "payload": payload})
        if payload.get("productUuid"):
            products.signal(payload["productUuid"])  # any event about a product: fetch its state
        self.send_response(204)
        self.end_headers()

    def log_message(self, fmt, *args):  # keep stdout for the JSON lines
        sys.stderr.write("%s - %s\n" % (self.address_string(), fmt % args))


def main():
    host, _, port = os.environ.get("LISTEN", "127.0.0.1:8081").rpartition(":")
    server = ThreadingHTTPServer((host, int(port)), Handler)
    emit({"listening": "http://%s:%d/" % server.server_address[:2]})
    try:
        server.serve_forever()
    finally:
        products.close()


if __name__ == "__main__":
    main()
