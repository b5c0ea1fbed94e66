// Unit tests of @catalogd/sdk/webhooks (node:test), run by webhooks_test.go on the packed SDK: the
// Verifier on the Standard Webhooks specification's example, the Coalescer on timers the test fires.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Coalescer, Verifier, WebhookVerificationError, type RefusalReason } from "@catalogd/sdk/webhooks";

const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const id = "msg_p5jXN8AQM9LWM0D4loKWxJek";
const ts = 1614265330;
const body = '{"test": 2432232314}';
const sig = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";

const headers = (over: Record<string, string | undefined> = {}): Record<string, string | undefined> => ({
  "webhook-id": id,
  "webhook-timestamp": String(ts),
  "webhook-signature": sig,
  "x-webhook-event-type": "product.updated",
  ...over,
});
const verifier = (nowSeconds = ts, toleranceSeconds = 300): Verifier =>
  new Verifier(secret, { now: () => nowSeconds * 1000, toleranceSeconds });

async function refused(p: Promise<unknown>, reason: RefusalReason): Promise<void> {
  await assert.rejects(p, (e: unknown) => e instanceof WebhookVerificationError && e.reason === reason);
}

test("the specification's example verifies and signs", async () => {
  const d = await verifier().verify(headers(), body);
  assert.equal(d.id, id);
  assert.equal(d.timestamp, ts);
  assert.equal(d.eventType, "product.updated");
  assert.equal(new TextDecoder().decode(d.body), body);
  assert.equal(await verifier().sign(id, ts, body), sig);
  // A Fetch API Headers, and bytes.
  const h = new Headers();
  for (const [k, v] of Object.entries(headers())) if (v !== undefined) h.set(k, v);
  assert.equal((await verifier().verify(h, new TextEncoder().encode(body))).id, id);
  const pb = '{"productUuid":"p1","n":3}';
  const pd = await verifier().verify(headers({ "webhook-signature": await verifier().sign(id, ts, pb) }), pb);
  assert.deepEqual(pd.payload(), { productUuid: "p1" });
});

test("one valid signature among several is enough", async () => {
  for (const s of [`v1,AAAA ${sig}`, `v2,xyz ${sig} v1,bm90IGl0`, `v1a,abc ${sig}`]) {
    await verifier().verify(headers({ "webhook-signature": s }), body);
  }
});

test("refusals", async () => {
  const v = verifier(ts + 1);
  await refused(v.verify(headers(), '{"test": 2432232315}'), "signature");
  await refused(v.verify(headers({ "webhook-id": "msg_other" }), body), "signature");
  await refused(v.verify(headers({ "webhook-timestamp": String(ts + 1) }), body), "signature");
  await refused(v.verify(headers({ "webhook-signature": "v2," + sig.slice(3) }), body), "signature");
  await refused(v.verify(headers({ "webhook-signature": "v1,%%%" }), body), "signature");
  await refused(v.verify(headers({ "webhook-signature": undefined }), body), "missing_headers");
  await refused(v.verify(headers({ "webhook-id": "" }), body), "missing_headers");
  await refused(v.verify(headers({ "webhook-timestamp": "1614265330.5" }), body), "timestamp");
});

test("the timestamp window", async () => {
  await verifier(ts + 300).verify(headers(), body);
  await verifier(ts - 300).verify(headers(), body);
  await refused(verifier(ts + 301).verify(headers(), body), "timestamp"); // too old: a replay
  await refused(verifier(ts - 301).verify(headers(), body), "timestamp"); // too far in the future
  await verifier(ts + 3600, 7200).verify(headers(), body);
  await refused(verifier(ts + 61, 60).verify(headers(), body), "timestamp");
});

test("malformed secrets", () => {
  for (const s of ["", "whsec_", "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "whsec_%%%"]) {
    assert.throws(() => new Verifier(s), TypeError);
  }
});

// Timers the test fires by hand: no real time passes.
class Clock {
  #next = 1;
  timers = new Map<number, { fn: () => void; ms: number }>();
  created = 0;
  setTimeout = (fn: () => void, ms: number): unknown => {
    const h = this.#next++;
    this.timers.set(h, { fn, ms });
    this.created++;
    return h;
  };
  clearTimeout = (h: unknown): void => {
    this.timers.delete(h as number);
  };
  // Runs every live timer (their debounce expired) and lets the fetches they start settle.
  async fire(): Promise<void> {
    const live = [...this.timers.values()];
    this.timers.clear();
    for (const t of live) t.fn();
    await settle();
  }
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

test("a burst is one fetch, after the debounce", async () => {
  const clock = new Clock();
  const fetched: string[] = [];
  const c = new Coalescer((k) => void fetched.push(k), { debounceMs: 2000, setTimeout: clock.setTimeout, clearTimeout: clock.clearTimeout });
  for (let i = 0; i < 7; i++) c.signal("p1"); // each event restarts the timer
  assert.equal(clock.created, 7);
  assert.deepEqual([...clock.timers.values()].map((t) => t.ms), [2000]);
  await clock.fire();
  assert.deepEqual(fetched, ["p1"]);
  c.signal("p1"); // after the fetch, a new event starts a new debounce
  assert.equal(clock.timers.size, 1);
  await clock.fire();
  assert.deepEqual(fetched, ["p1", "p1"]);
});

test("entities are debounced separately", async () => {
  const clock = new Clock();
  const fetched: string[] = [];
  const c = new Coalescer((k) => void fetched.push(k), { setTimeout: clock.setTimeout, clearTimeout: clock.clearTimeout });
  c.signal("a");
  c.signal("b");
  c.signal("a");
  assert.equal(clock.timers.size, 2);
  await clock.fire();
  assert.deepEqual(fetched.sort(), ["a", "b"]);
});

test("events during a fetch: pending, one further fetch", async () => {
  const clock = new Clock();
  const fetched: string[] = [];
  let release: () => void = () => {};
  const c = new Coalescer(
    (k) => {
      fetched.push(k);
      if (fetched.length === 1) return new Promise<void>((resolve) => (release = resolve));
      return undefined;
    },
    { setTimeout: clock.setTimeout, clearTimeout: clock.clearTimeout },
  );
  c.signal("p");
  await clock.fire();
  assert.deepEqual(fetched, ["p"]); // in progress, held
  for (let i = 0; i < 5; i++) c.signal("p");
  assert.equal(clock.timers.size, 0); // no timer, no second fetch at once
  assert.deepEqual(fetched, ["p"]);
  release();
  await settle();
  assert.deepEqual(fetched, ["p", "p"]); // exactly one more
  assert.equal(clock.timers.size, 0);
  c.signal("p");
  await clock.fire();
  assert.deepEqual(fetched, ["p", "p", "p"]);
});

test("a failed fetch is reported and the coalescing goes on", async () => {
  const clock = new Clock();
  const errors: string[] = [];
  let n = 0;
  const c = new Coalescer(
    () => {
      if (++n === 1) throw new Error("boom");
    },
    { setTimeout: clock.setTimeout, clearTimeout: clock.clearTimeout, onError: (e, k) => errors.push(`${k}: ${String(e)}`) },
  );
  c.signal("p");
  await clock.fire();
  assert.deepEqual(errors, ["p: Error: boom"]);
  c.signal("p");
  await clock.fire();
  assert.equal(n, 2);
});

test("a cancelled timer that already ran does not fetch; close drops the waiting", async () => {
  const clock = new Clock();
  const fetched: string[] = [];
  const c = new Coalescer((k) => void fetched.push(k), { setTimeout: clock.setTimeout, clearTimeout: clock.clearTimeout });
  c.signal("p");
  const first = [...clock.timers.values()][0]!;
  c.signal("p");
  first.fn();
  await settle();
  assert.deepEqual(fetched, []);
  c.signal("q");
  const waiting = [...clock.timers.values()];
  c.close();
  c.signal("r");
  for (const t of waiting) t.fn();
  await settle();
  assert.deepEqual(fetched, []);
  assert.equal(clock.timers.size, 0);
});

test("the default timers", async () => {
  const got = await new Promise<string>((resolve) => new Coalescer((k) => resolve(k), { debounceMs: 1 }).signal("p"));
  assert.equal(got, "p");
});
