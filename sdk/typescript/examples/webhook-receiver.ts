// A receiver of catalogd's product webhooks (@catalogd/sdk/webhooks), on node:http.
//
// It verifies each delivery's Standard Webhooks signature (and its timestamp within 5 minutes), and
// coalesces each burst of events about a product into one fetch of the product's current state (the
// specification's "Consumer guidance": a 2 s debounce per product, one fetch, one more when events
// arrived during it). It prints one JSON object per line: {"listening":…}, then {"delivery":…} for
// each verified delivery and {"fetched":…} for each fetch.
//
// catalogd refuses loopback targets unless it runs with CATALOG_WEBHOOK_ALLOW_PRIVATE_TARGETS=true:
//
//   CATALOG_WEBHOOK_ALLOW_PRIVATE_TARGETS=true make run
//   CATALOG_URL=http://localhost:8080 TOKEN=… WEBHOOK_SECRET=whsec_… npx tsx webhook-receiver.ts
//
// and subscribe http://127.0.0.1:8081/ to product.updated. LISTEN (default 127.0.0.1:8081;
// 127.0.0.1:0 picks a free port) and DEBOUNCE_MS (default 2000) change the defaults: the same
// settings and lines as the Go and Python receivers.
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { Coalescer, Verifier, WebhookVerificationError } from "@catalogd/sdk/webhooks";

const base = process.env["CATALOG_URL"] || "http://localhost:8080";
const token = process.env["TOKEN"] ?? "";
// What a product fetch includes and expands, as the specification's guidance names it.
const expand = ["productAssets", "productAttributes", "productCategories", "productTags"];

const emit = (line: object): void => {
  process.stdout.write(JSON.stringify(line) + "\n");
};

const verifier = new Verifier(process.env["WEBHOOK_SECRET"] ?? "");

// One fetch of a product's current state after a burst of events about it.
const products = new Coalescer(
  async (productUuid) => {
    const query = expand.map((x) => `include[${x}]=true&expand[${x}]=true`).join("&");
    const res = await fetch(`${base}/v1/products/${encodeURIComponent(productUuid)}?${query}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    const text = await res.text();
    let product: unknown = null;
    try {
      product = JSON.parse(text);
    } catch {
      // not JSON: printed as null
    }
    emit({ fetched: productUuid, status: res.status, product });
  },
  {
    debounceMs: Number(process.env["DEBOUNCE_MS"] || 2000),
    onError: (error, productUuid) => emit({ fetched: productUuid, error: String(error) }),
  },
);

async function readBody(req: IncomingMessage): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const server = createServer((req, res) => {
  void (async () => {
    try {
      // The raw bytes are what was signed: verify before parsing.
      const delivery = await verifier.verify(req.headers, await readBody(req));
      const payload = delivery.payload();
      emit({ delivery: delivery.id, type: delivery.eventType, payload });
      const productUuid = payload["productUuid"];
      if (productUuid) products.signal(productUuid); // any event about a product: fetch its state
      res.writeHead(204).end();
    } catch (error) {
      // Refused (catalogd retries it later) or not a JSON object.
      res.writeHead(error instanceof WebhookVerificationError ? 401 : 400).end(String(error));
    }
  })();
});

const [host, port] = (process.env["LISTEN"] || "127.0.0.1:8081").split(/:(?=[0-9]+$)/);
server.listen(Number(port), host, () => {
  const a = server.address() as AddressInfo;
  emit({ listening: `http://${a.address}:${a.port}/` });
});
