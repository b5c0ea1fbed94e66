// @catalogd/sdk/webhooks: receiving catalogd's webhooks. Verifier checks a delivery's Standard
// Webhooks signature and timestamp (with Web Crypto: Node.js 20+, browsers, edge runtimes);
// Coalescer turns a burst of events about one entity into one fetch of its current state, as the
// interface specification's "Consumer guidance" describes. No dependency of its own.
//
// A delivery carries the headers webhook-id (the delivery's uuid: the same on every retry of that
// delivery), webhook-timestamp (Unix seconds, set per attempt), webhook-signature ("v1,<base64>",
// several separated by spaces) and X-Webhook-Event-Type; the body is a thin JSON object of the uuids
// that fetch the current state, e.g. {"productUuid":"…"}.

/** Seconds a delivery's webhook-timestamp may be from the receiver's clock, either way. */
export const DEFAULT_TOLERANCE_SECONDS = 5 * 60;
/** The specification's example debounce, in milliseconds. */
export const DEFAULT_DEBOUNCE_MS = 2000;

/** Why a delivery was refused. */
export type RefusalReason = "missing_headers" | "timestamp" | "signature";

/** A refused delivery: answer it 4xx (catalogd retries it later). */
export class WebhookVerificationError extends Error {
  readonly reason: RefusalReason;
  constructor(reason: RefusalReason, message: string) {
    super(message);
    this.name = "WebhookVerificationError";
    this.reason = reason;
  }
}

/** A verified webhook. */
export interface Delivery {
  /** webhook-id: the delivery's uuid (stable across retries). */
  readonly id: string;
  /** webhook-timestamp of this attempt, Unix seconds. */
  readonly timestamp: number;
  /** X-Webhook-Event-Type, e.g. "product.updated" ("" when absent). */
  readonly eventType: string;
  /** The raw body. */
  readonly body: Uint8Array;
  /** The thin payload's string values by key (e.g. productUuid). */
  payload(): Record<string, string>;
}

/**
 * Request headers: a Fetch API Headers, or a plain object such as Node's IncomingHttpHeaders (names
 * are matched case-insensitively).
 */
export type HeaderSource = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

export interface VerifierOptions {
  /** The accepted distance between webhook-timestamp and now, in seconds (default 300). */
  toleranceSeconds?: number;
  /** The receiver's clock, in milliseconds since the epoch (default Date.now). */
  now?: () => number;
}

const base64Re = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function fromBase64(s: string): Uint8Array<ArrayBuffer> | undefined {
  if (!base64Re.test(s)) return undefined;
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function toBase64(b: Uint8Array): string {
  let bin = "";
  for (const x of b) bin += String.fromCharCode(x);
  return btoa(bin);
}

function header(h: HeaderSource, name: string): string {
  if (typeof (h as Headers).get === "function") return (h as Headers).get(name) ?? "";
  for (const [k, v] of Object.entries(h as Record<string, string | readonly string[] | undefined>)) {
    if (k.toLowerCase() === name && v !== undefined) return typeof v === "string" ? v : v.join(", ");
  }
  return "";
}

const encoder = new TextEncoder();

/** Checks deliveries signed with one subscription secret ("whsec_" followed by base64). */
export class Verifier {
  readonly #key: Promise<CryptoKey>;
  readonly #tolerance: number;
  readonly #now: () => number;

  constructor(secret: string, options: VerifierOptions = {}) {
    const raw = secret.startsWith("whsec_") ? fromBase64(secret.slice("whsec_".length)) : undefined;
    if (raw === undefined || raw.length === 0) throw new TypeError("the secret must be whsec_ followed by base64");
    this.#key = crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
    this.#tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
    this.#now = options.now ?? Date.now;
  }

  #signed(id: string, timestamp: string, body: Uint8Array): Uint8Array<ArrayBuffer> {
    const prefix = encoder.encode(`${id}.${timestamp}.`);
    const data = new Uint8Array(prefix.length + body.length);
    data.set(prefix);
    data.set(body, prefix.length);
    return data;
  }

  /** The signature header value "v1,<base64>" (for tests of a receiver). */
  async sign(id: string, timestampSeconds: number, body: Uint8Array | string): Promise<string> {
    const b = typeof body === "string" ? encoder.encode(body) : body;
    const mac = await crypto.subtle.sign("HMAC", await this.#key, this.#signed(id, String(timestampSeconds), b));
    return "v1," + toBase64(new Uint8Array(mac));
  }

  /**
   * Checks a delivery's headers against its raw body (the bytes received: a string is taken as their
   * UTF-8): the timestamp within the tolerance window, and at least one "v1," signature equal to the
   * HMAC-SHA256 of "id.timestamp.body" (Web Crypto's verify, which compares in constant time).
   * Rejects with a WebhookVerificationError.
   */
  async verify(headers: HeaderSource, body: Uint8Array | string): Promise<Delivery> {
    const id = header(headers, "webhook-id");
    const ts = header(headers, "webhook-timestamp");
    const sigs = header(headers, "webhook-signature");
    if (id === "" || ts === "" || sigs === "") {
      throw new WebhookVerificationError("missing_headers", "missing webhook-id, webhook-timestamp or webhook-signature");
    }
    if (!/^[0-9]+$/.test(ts)) throw new WebhookVerificationError("timestamp", `webhook-timestamp ${JSON.stringify(ts)} is not Unix seconds`);
    const sent = Number(ts);
    if (Math.abs(this.#now() / 1000 - sent) > this.#tolerance) {
      throw new WebhookVerificationError("timestamp", "webhook-timestamp outside the tolerance window");
    }
    const raw = typeof body === "string" ? encoder.encode(body) : body;
    const data = this.#signed(id, ts, raw);
    const key = await this.#key;
    let ok = false;
    for (const sig of sigs.split(" ")) {
      if (!sig.startsWith("v1,")) continue;
      const mac = fromBase64(sig.slice(3));
      // Every candidate is checked: the time taken does not depend on which one matched.
      if (mac !== undefined && (await crypto.subtle.verify("HMAC", key, mac, data))) ok = true;
    }
    if (!ok) throw new WebhookVerificationError("signature", "no valid signature");
    const eventType = header(headers, "x-webhook-event-type");
    return {
      id,
      timestamp: sent,
      eventType,
      body: raw,
      payload(): Record<string, string> {
        const v: unknown = JSON.parse(new TextDecoder().decode(raw));
        if (typeof v !== "object" || v === null || Array.isArray(v)) throw new TypeError("the webhook payload is not a JSON object");
        const out: Record<string, string> = {};
        for (const [k, x] of Object.entries(v)) if (typeof x === "string") out[k] = x;
        return out;
      },
    };
  }
}

export interface CoalescerOptions {
  /** The debounce per entity, in milliseconds (default 2000). */
  debounceMs?: number;
  /** Called with a fetch's error (default console.error); the coalescing goes on. */
  onError?: (error: unknown, key: string) => void;
  /** The timers (default the global setTimeout and clearTimeout; tests pass controllable ones). */
  setTimeout?: (fn: () => void, ms: number) => unknown;
  clearTimeout?: (handle: unknown) => void;
}

interface Entity {
  timer: unknown;
  fetching: boolean;
  pending: boolean;
}

/**
 * Coalesces bursts of events per entity, as the specification's "Consumer guidance" describes: each
 * event for an entity (re)starts its debounce timer; when it expires, one fetch of the entity is made;
 * events arriving during that fetch mark the entity pending, and one further fetch follows the current
 * one (however many events arrived during it). An entity is never fetched twice at once. fetch(key)
 * reads the entity's current state (for a product, GET /v1/products/{productUuid} with include[x] and
 * expand[x]=true); a 404 is the current state of a deleted entity.
 */
export class Coalescer {
  readonly #fetch: (key: string) => Promise<void> | void;
  readonly #debounce: number;
  readonly #onError: (error: unknown, key: string) => void;
  readonly #set: (fn: () => void, ms: number) => unknown;
  readonly #clear: (handle: unknown) => void;
  readonly #entities = new Map<string, Entity>();
  #closed = false;

  constructor(fetch: (key: string) => Promise<void> | void, options: CoalescerOptions = {}) {
    this.#fetch = fetch;
    this.#debounce = options.debounceMs ?? DEFAULT_DEBOUNCE_MS;
    this.#onError = options.onError ?? ((error, key) => console.error(`webhook coalescer: fetch of ${key}:`, error));
    this.#set = options.setTimeout ?? ((fn, ms) => setTimeout(fn, ms));
    this.#clear = options.clearTimeout ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
  }

  /** Records an event for the entity key (for a product, its uuid). */
  signal(key: string): void {
    if (this.#closed) return;
    let e = this.#entities.get(key);
    if (e === undefined) {
      e = { timer: undefined, fetching: false, pending: false };
      this.#entities.set(key, e);
    }
    if (e.fetching) {
      e.pending = true;
      return;
    }
    if (e.timer !== undefined) this.#clear(e.timer);
    const entity = e;
    const timer: unknown = this.#set(() => void this.#expire(key, entity, timer), this.#debounce);
    e.timer = timer;
  }

  async #expire(key: string, e: Entity, timer: unknown): Promise<void> {
    if (this.#closed || e.timer !== timer || e.fetching) return;
    e.timer = undefined;
    e.fetching = true;
    for (;;) {
      try {
        await this.#fetch(key);
      } catch (error) {
        this.#onError(error, key);
      }
      if (e.pending && !this.#closed) {
        e.pending = false;
        continue;
      }
      e.fetching = false;
      if (this.#entities.get(key) === e) this.#entities.delete(key);
      return;
    }
  }

  /** Drops the entities still waiting for their timer; signals after it are ignored. */
  close(): void {
    this.#closed = true;
    for (const e of this.#entities.values()) if (e.timer !== undefined) this.#clear(e.timer);
    this.#entities.clear();
  }
}
