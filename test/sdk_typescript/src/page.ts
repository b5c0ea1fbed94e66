// The script of a page that uses the packed SDK's browser entry ("@catalogd/sdk/web"), bundled by
// esbuild for the browser and loaded by headless Chromium from an origin other than catalogd's (so every
// call is a CORS request). It runs the attribute flow over Connect and over gRPC-Web, then POSTs what
// happened to /result on its own origin: {"steps": ["ok connect create: …", …], "error": "…"}.
//
// Query parameters: base (catalogd's HTTP base URL), token (a bearer token with every scope).
import { AttributeService, AttributeStatus, AttributeTransition, CatalogError, Code, createClient } from "@catalogd/sdk";
import { connectTransport, grpcWebTransport } from "@catalogd/sdk/web";
import { publishedAttributeNames } from "./readme/browser.js";

const params = new URLSearchParams(location.search);
const base = params.get("base") ?? "";
const token = params.get("token") ?? "";
const steps: string[] = [];

class Mismatch extends Error {}

// show writes a value as JSON for a message (messages hold bigint: Timestamp.seconds).
function show(v: unknown): string {
  return JSON.stringify(v, (_, x: unknown) => (typeof x === "bigint" ? x.toString() : x)) ?? "undefined";
}

function expect(cond: boolean, what: string): asserts cond {
  if (!cond) throw new Mismatch(what);
}

async function failure(call: Promise<unknown>): Promise<CatalogError> {
  try {
    await call;
  } catch (e) {
    return CatalogError.from(e);
  }
  throw new Mismatch("the call succeeded");
}

async function flow(protocol: "connect" | "grpc-web"): Promise<void> {
  const transport = protocol === "connect" ? connectTransport({ baseUrl: base, token }) : grpcWebTransport({ baseUrl: base, token });
  const attributes = createClient(AttributeService, transport);
  const code = `web-${protocol}`;
  let step = "";
  const ok = (detail: string) => steps.push(`ok ${protocol} ${step}: ${detail}`);
  try {
    step = "create";
    const { attribute } = await attributes.createAttribute({ attribute: { code, displayName: `Web ${protocol}` } });
    expect(attribute !== undefined && attribute.code === code && attribute.status === AttributeStatus.DRAFT,
      `created ${show(attribute?.code)} in ${attribute ? AttributeStatus[attribute.status] : "?"}`);
    ok(attribute.uuid);

    step = "list";
    const listed = await attributes.listAttributes({ codes: { eq: [code] } });
    expect(listed.items.length === 1 && listed.items[0]?.uuid === attribute.uuid && listed.pagination?.totalItems === 1,
      `codes[eq]=${code}: ${show(listed.items.map((a) => a.code))}`);
    ok("1 of 1");

    step = "transition";
    const moved = await attributes.transitionAttribute({ attributeUuid: attribute.uuid, transition: AttributeTransition.PUBLISH });
    expect(moved.attribute?.status === AttributeStatus.PUBLISHED, `after publish: ${moved.attribute?.status}`);
    const names = await publishedAttributeNames(base, async () => token, protocol);
    expect(names.includes(`Web ${protocol}`), `README's publishedAttributeNames: ${show(names)}`);
    ok(names.join(", "));

    step = "get-error";
    const missing = await failure(attributes.getAttribute({ attributeUuid: "0190aaaa-0000-7000-8000-000000000000" }));
    expect(missing.reason === "NOT_FOUND" && missing.domain === "catalogd" && missing.code === Code.NotFound && missing.status === 404,
      `unknown uuid: ${missing.reason} ${missing.domain} ${Code[missing.code]} ${missing.status}: ${missing.message}`);
    const invalid = await failure(attributes.createAttribute({ attribute: { code: "" } }));
    expect(invalid.reason === "VALIDATION_FAILED" && invalid.violation("code")?.description === "is required",
      `empty code: ${invalid.reason} ${show(invalid.fieldViolations)}`);
    const transition = await failure(attributes.transitionAttribute({ attributeUuid: attribute.uuid, transition: AttributeTransition.RESTORE }));
    expect(transition.reason === "INVALID_TRANSITION" && transition.meta["currentStatus"] === "published",
      `restore from published: ${transition.reason} ${show(transition.meta)}`);
    ok("NOT_FOUND, VALIDATION_FAILED code, INVALID_TRANSITION");
  } catch (e) {
    const what = e instanceof Mismatch ? e.message : e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    throw new Error(`${protocol} ${step}: ${what}`);
  }
}

async function main(): Promise<string> {
  expect(base !== "" && token !== "", "the page needs ?base=…&token=…");
  expect(new URL(base).origin !== location.origin, `the page's origin ${location.origin} is catalogd's: no CORS is exercised`);
  await flow("connect");
  await flow("grpc-web");
  return "";
}

function report(error: string): void {
  void fetch("/result", { method: "POST", body: JSON.stringify({ steps, error }) });
}

main().then(report, (e: unknown) => report(e instanceof Error ? e.message : String(e)));
