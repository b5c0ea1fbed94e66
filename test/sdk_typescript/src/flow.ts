// The attribute flow of an application that uses the packed SDK from Node, against a live catalogd,
// over one protocol: `node dist/flow.js grpc` (the gRPC port) or `node dist/flow.js connect` (Connect
// on the HTTP port). It imports only the SDK's public entry points.
//
// Environment: CATALOGD_GRPC_URL and CATALOGD_URL (the two ports' base URLs), CATALOGD_TOKEN (every
// scope, a fresh tenant), CATALOGD_READONLY_TOKEN (catalog:read only, same tenant). Each finished step
// prints "ok <step>: …"; the first mismatch prints "FAIL <step>: <what>" and exits 1.
import {
  AttributeStatus,
  AttributeTransition,
  CatalogError,
  Code,
  createCatalogClient,
  timestampDate,
  type Attribute,
  type Transport,
} from "@catalogd/sdk";
import { connectTransport, grpcTransport } from "@catalogd/sdk/node";

const protocol = process.argv[2];
if (protocol !== "grpc" && protocol !== "connect") {
  console.error("usage: node dist/flow.js grpc|connect");
  process.exit(2);
}

function env(name: string): string {
  const v = process.env[name];
  if (!v) {
    console.error(`${name} is not set`);
    process.exit(2);
  }
  return v;
}

class Mismatch extends Error {}

// show writes a value as JSON for a message (messages hold bigint: Timestamp.seconds).
function show(v: unknown): string {
  return JSON.stringify(v, (_, x: unknown) => (typeof x === "bigint" ? x.toString() : x)) ?? "undefined";
}

function expect(cond: boolean, what: string): asserts cond {
  if (!cond) throw new Mismatch(what);
}

function same(a: unknown, b: unknown): boolean {
  return show(a) === show(b);
}

const uuidRE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let step = "";
async function run(name: string, body: () => Promise<string>): Promise<void> {
  step = name;
  const detail = await body();
  console.log(`ok ${name}: ${detail}`);
}

// The error a call must fail with, decoded.
async function failure(call: Promise<unknown>): Promise<CatalogError> {
  try {
    await call;
  } catch (e) {
    return CatalogError.from(e);
  }
  throw new Mismatch("the call succeeded");
}

function transport(token: string | (() => Promise<string>)): Transport {
  return protocol === "grpc"
    ? grpcTransport({ baseUrl: env("CATALOGD_GRPC_URL"), token })
    : connectTransport({ baseUrl: env("CATALOGD_URL"), token });
}

// The token is a function, as an application that refreshes its token would give it: the SDK must ask
// it before every call.
let tokenCalls = 0;
const fullToken = env("CATALOGD_TOKEN");
const catalog = createCatalogClient(
  transport(async () => {
    tokenCalls++;
    return fullToken;
  }),
);
let calls = 0;
// counted wraps a call of the full-scope client (the token function must see each one).
function counted<T>(p: Promise<T>): Promise<T> {
  calls++;
  return p;
}

function attr(a: Attribute | undefined, what: string): Attribute {
  expect(a !== undefined, `${what}: the response has no attribute`);
  return a;
}

async function main(): Promise<void> {
  const code = `color-${protocol}`;
  let localeUuid = "";
  let color: Attribute | undefined;
  let size: Attribute | undefined;
  let contentUuid = "";

  await run("create-locale", async () => {
    const { locale } = await counted(catalog.locale.createLocale({ locale: { code: "de-DE", displayName: "Deutsch" } }));
    expect(locale !== undefined && uuidRE.test(locale.uuid), `locale ${show(locale)}`);
    expect(locale.code === "de-DE" && locale.isDefault, `locale code ${locale.code}, isDefault ${locale.isDefault}`);
    localeUuid = locale.uuid;
    return locale.uuid;
  });

  await run("create-attribute", async () => {
    const a = attr((await counted(catalog.attribute.createAttribute({ attribute: { code, displayName: "Color" } }))).attribute, "create");
    expect(uuidRE.test(a.uuid), `uuid ${a.uuid}`);
    expect(a.code === code && a.displayName === "Color", `code ${a.code}, displayName ${a.displayName}`);
    expect(a.status === AttributeStatus.DRAFT, `status ${AttributeStatus[a.status]}, want DRAFT`);
    expect(a.createdAt !== undefined && a.removedAt === undefined, "createdAt missing or removedAt set");
    const age = Date.now() - timestampDate(a.createdAt).getTime();
    expect(age > -60_000 && age < 60_000, `createdAt ${timestampDate(a.createdAt).toISOString()} is not now`);
    color = a;
    return `${a.code} ${a.uuid}`;
  });
  expect(color !== undefined, "no attribute");
  const colorUuid = color.uuid;

  await run("create-content", async () => {
    const { attributeContent: c } = await counted(
      catalog.attributeContent.createAttributeContent({
        attributeUuid: colorUuid,
        attributeContent: { localeUuid, displayName: "Farbe", description: "Die Farbe" },
      }),
    );
    expect(c !== undefined && uuidRE.test(c.uuid), `content ${show(c)}`);
    expect(
      c.attributeUuid === colorUuid && c.localeUuid === localeUuid && c.displayName === "Farbe" && c.description === "Die Farbe",
      `content ${c.attributeUuid} ${c.localeUuid} ${c.displayName} ${c.description}`,
    );
    contentUuid = c.uuid;
    return c.uuid;
  });

  await run("get-with-contents", async () => {
    const a = attr(
      (await counted(catalog.attribute.getAttribute({ attributeUuid: colorUuid, include: { contents: true }, expand: { contents: true } })))
        .attribute,
      "get",
    );
    expect(same(a.contentUuids?.values, [contentUuid]), `contentUuids ${show(a.contentUuids?.values)}`);
    const items = a.contents?.items ?? [];
    expect(items.length === 1 && items[0]?.displayName === "Farbe" && items[0]?.localeUuid === localeUuid,
      `contents ${show(items.map((i) => i.displayName))}`);
    return `${items.length} content`;
  });

  await run("list-filtered", async () => {
    size = attr((await counted(catalog.attribute.createAttribute({ attribute: { code: "size" } }))).attribute, "create size");
    expect(size.displayName === "size", `displayName defaults to the code: ${size.displayName}`);
    const byCode = await counted(catalog.attribute.listAttributes({ codes: { eq: [code] } }));
    expect(same(byCode.items.map((a) => a.uuid), [colorUuid]), `codes[eq]=${code}: ${show(byCode.items.map((a) => a.code))}`);
    expect(byCode.pagination?.totalItems === 1 && byCode.pagination.page === 1, `pagination ${show(byCode.pagination)}`);
    const starts = await counted(catalog.attribute.listAttributes({ code: { starts: "SI" } }));
    expect(same(starts.items.map((a) => a.code), ["size"]), `code[starts]=SI: ${show(starts.items.map((a) => a.code))}`);
    const drafts = await counted(catalog.attribute.listAttributes({ statuses: { eq: ["draft"] }, size: 1 }));
    expect(drafts.items.length === 1 && drafts.pagination?.totalItems === 2 && drafts.pagination.totalPages === 2,
      `statuses[eq]=draft, size 1: ${drafts.items.length} items, ${show(drafts.pagination)}`);
    return "codes[eq], code[starts], statuses[eq] with paging";
  });

  await run("transition", async () => {
    const published = attr(
      (await counted(catalog.attribute.transitionAttribute({ attributeUuid: colorUuid, transition: AttributeTransition.PUBLISH }))).attribute,
      "publish",
    );
    expect(published.status === AttributeStatus.PUBLISHED, `after publish: ${AttributeStatus[published.status]}`);
    const listed = await counted(catalog.attribute.listAttributes({ statuses: { eq: ["published"] } }));
    expect(same(listed.items.map((a) => a.code), [code]), `published: ${show(listed.items.map((a) => a.code))}`);
    const removed = attr(
      (await counted(catalog.attribute.transitionAttribute({ attributeUuid: colorUuid, transition: AttributeTransition.REMOVE }))).attribute,
      "remove",
    );
    expect(removed.status === AttributeStatus.REMOVED && removed.removedAt !== undefined, `after remove: ${AttributeStatus[removed.status]}`);
    const restored = attr(
      (await counted(catalog.attribute.transitionAttribute({ attributeUuid: colorUuid, transition: AttributeTransition.RESTORE }))).attribute,
      "restore",
    );
    expect(restored.status === AttributeStatus.DRAFT && restored.removedAt === undefined, `after restore: ${AttributeStatus[restored.status]}`);
    return "publish, remove, restore";
  });

  await run("invalid-transition", async () => {
    const err = await failure(
      counted(catalog.attribute.transitionAttribute({ attributeUuid: colorUuid, transition: AttributeTransition.UNPUBLISH })),
    );
    expect(err.reason === "INVALID_TRANSITION" && err.domain === "catalogd", `reason ${err.reason}, domain ${err.domain}: ${err.message}`);
    expect(err.code === Code.FailedPrecondition && err.status === 409, `code ${Code[err.code]}, status ${err.status}`);
    expect(err.meta["currentStatus"] === "draft" && same(err.meta["allowedTransitions"], ["publish", "remove"]),
      `meta ${show(err.meta)}`);
    expect(err.metadata["allowedTransitions"] === '["publish","remove"]', `metadata ${show(err.metadata)}`);
    expect(err.fieldViolations.length === 0, `field violations ${show(err.fieldViolations)}`);
    return err.detail;
  });

  await run("validation-error", async () => {
    const missing = await failure(counted(catalog.attribute.createAttribute({ attribute: { code: "" } })));
    expect(missing.reason === "VALIDATION_FAILED" && missing.code === Code.InvalidArgument && missing.status === 400,
      `empty code: ${missing.reason} ${Code[missing.code]} ${missing.status}`);
    expect(same(missing.fieldViolations, [{ field: "code", description: "is required" }]),
      `empty code: ${show(missing.fieldViolations)}`);
    const long = await failure(counted(catalog.attribute.createAttribute({ attribute: { code: "x".repeat(101) } })));
    expect(long.reason === "VALIDATION_FAILED" && long.fieldViolations.length === 1 && long.violation("code") !== undefined,
      `101-character code: ${long.reason} ${show(long.fieldViolations)}`);
    const bulk = await failure(counted(catalog.attribute.bulkCreateAttributes({ items: [{ code: "ok-one" }, { code: "" }, { code: "\u0007" }] })));
    const fields = bulk.fieldViolations.map((v) => v.field);
    expect(bulk.reason === "VALIDATION_FAILED" && same(fields, ["[1].code", "[2].code"]), `bulk: ${bulk.reason} ${show(bulk.fieldViolations)}`);
    expect(bulk.fieldViolations.every((v) => v.description !== ""), "a violation without a description");
    return `${long.violation("code")?.description}; ${fields.join(", ")}`;
  });

  await run("already-exists", async () => {
    const err = await failure(counted(catalog.attribute.createAttribute({ attribute: { code } })));
    expect(err.reason === "ALREADY_EXISTS" && err.code === Code.AlreadyExists && err.status === 409, `${err.reason} ${Code[err.code]} ${err.status}`);
    return err.detail;
  });

  await run("auth-errors", async () => {
    const bad = createCatalogClient(transport("not-a-jwt"));
    const unauth = await failure(bad.attribute.listAttributes({}));
    expect(unauth.reason === "UNAUTHENTICATED" && unauth.code === Code.Unauthenticated && unauth.status === 401,
      `bad token: ${unauth.reason} ${Code[unauth.code]} ${unauth.status}`);
    const reader = createCatalogClient(transport(env("CATALOGD_READONLY_TOKEN")));
    const listed = await reader.attribute.listAttributes({ codes: { eq: [code] } });
    expect(listed.items.length === 1, "the read-only token cannot read");
    const forbidden = await failure(reader.attribute.createAttribute({ attribute: { code: "nope" } }));
    expect(forbidden.reason === "FORBIDDEN" && forbidden.code === Code.PermissionDenied && forbidden.status === 403,
      `read-only token writes: ${forbidden.reason} ${Code[forbidden.code]} ${forbidden.status}`);
    return "UNAUTHENTICATED, FORBIDDEN";
  });

  await run("delete", async () => {
    expect(size !== undefined, "no second attribute");
    await counted(catalog.attribute.deleteAttribute({ attributeUuid: size.uuid }));
    await counted(catalog.attribute.deleteAttribute({ attributeUuid: colorUuid }));
    const gone = await failure(counted(catalog.attribute.getAttribute({ attributeUuid: colorUuid })));
    expect(gone.reason === "NOT_FOUND" && gone.code === Code.NotFound && gone.status === 404, `get after delete: ${gone.reason} ${gone.status}`);
    const left = await counted(catalog.attribute.listAttributes({}));
    expect(left.items.length === 0 && left.pagination?.totalItems === 0, `left: ${show(left.items.map((a) => a.code))}`);
    return "both attributes";
  });

  await run("token-function", async () => {
    expect(tokenCalls === calls, `the token function ran ${tokenCalls} times for ${calls} calls`);
    return `${tokenCalls} calls`;
  });
  console.log(`all steps passed over ${protocol}`);
}

main().catch((e: unknown) => {
  const what = e instanceof Mismatch ? e.message : e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  console.log(`FAIL ${step}: ${what}`);
  process.exit(1);
});
