// A client flow against a live catalogd, written only against the types that openapi-typescript
// generates from the served /openapi.json (src/schema.d.ts, made at test time). It type-checks with
// `tsc --strict` and uses no cast, no `any` and no ts-ignore: where the document is wrong, it does not
// compile or it fails at run time.
//
// Environment: CATALOGD_BASE_URL (e.g. http://127.0.0.1:8080) and CATALOGD_TOKEN (a bearer JWT with
// catalog:read and catalog:write for a fresh tenant). Each finished step prints "ok <step>"; the first
// mismatch prints "FAIL <step>: <what>" and exits 1.
import createClient, { type Middleware } from "openapi-fetch";
import type { components, paths } from "./schema.js";

type Schemas = components["schemas"];
type Attribute = Schemas["AttributeHydratedResponse"];
type AttributeContent = Schemas["AttributeContentResponse"];
// The attribute as create, bulk and lifecycle answer it: without contentUuids and contents.
type AttributeAnswer = Schemas["AttributeResponse"];
type Locale = Schemas["Locale"];
type Problem = Schemas["Problem"];

// ---- Type-level assertions: these lines stop compiling when the document changes the shape. ----

// Exact type equality (distinguishes `string` from `string | null` and from `string | undefined`).
type Equal<X, Y> = (<T>() => T extends X ? 1 : 2) extends <T>() => T extends Y ? 1 : 2 ? true : false;
// Is<X, Y, "what"> is `true` when X is exactly Y, else the message, so that the compiler's error
// reads: Type '"Attribute.removedAt: want string | null"' does not satisfy the constraint 'true'.
type Is<X, Y, Msg extends string> = Equal<X, Y> extends true ? true : Msg;
type Assert<T extends true> = T;

type AttributeCreateBody = NonNullable<paths["/v1/attributes"]["post"]["requestBody"]>["content"]["application/json"];
type TransitionBody = NonNullable<
  paths["/v1/attributes/{attributeUuid}/actions/lifecycle"]["patch"]["requestBody"]
>["content"]["application/json"];
type ContentCreateBody = NonNullable<
  paths["/v1/attributes/{attributeUuid}/contents"]["post"]["requestBody"]
>["content"]["application/json"];
type ListQuery = NonNullable<paths["/v1/attributes"]["get"]["parameters"]["query"]>;

type Status = "draft" | "published" | "unpublished" | "removed";
type Transition = "publish" | "unpublish" | "remove" | "restore";

export type TypeChecks = [
  // Nullable response fields are present and typed `| null` (the wire always sends them, null when
  // empty).
  Assert<Is<Attribute["removedAt"], string | null, "Attribute.removedAt: want string | null">>,
  Assert<Is<Attribute["contentUuids"], string[] | null, "Attribute.contentUuids: want string[] | null">>,
  Assert<Is<Attribute["contents"], AttributeContent[] | null, "Attribute.contents: want AttributeContent[] | null">>,
  Assert<Is<AttributeContent["description"], string | null, "AttributeContent.description: want string | null">>,
  // Create, bulk and lifecycle answers have no contentUuids and contents keys at all (the spec).
  Assert<Is<Extract<keyof AttributeAnswer, "contentUuids" | "contents">, never, "AttributeResponse: want no contentUuids or contents">>,
  Assert<Is<AttributeAnswer["removedAt"], string | null, "AttributeResponse.removedAt: want string | null">>,
  // Non-nullable response fields are required and never null.
  Assert<Is<Attribute["uuid"], string, "Attribute.uuid: want string">>,
  Assert<Is<Attribute["code"], string, "Attribute.code: want string">>,
  Assert<Is<Attribute["displayName"], string, "Attribute.displayName: want string">>,
  Assert<Is<Attribute["createdAt"], string, "Attribute.createdAt: want string">>,
  Assert<Is<Attribute["status"], Status, "Attribute.status: want the four AttributeStatus values">>,
  Assert<Is<Locale["isDefault"], boolean, "Locale.isDefault: want boolean">>,
  // The problem document: a stable code and a plain array of field violations.
  Assert<Is<Problem["errors"], Schemas["ProblemFieldViolation"][], "Problem.errors: want ProblemFieldViolation[]">>,
  Assert<Is<Problem["errors"][number]["field"], string, "ProblemFieldViolation.field: want string">>,
  Assert<Is<Problem["status"], number, "Problem.status: want number">>,
  // Request bodies: what the service requires is required and not nullable (a missing or null
  // `code`, `transition`, `localeUuid` or `displayName` is 400 "is required" on the wire).
  Assert<Is<AttributeCreateBody["code"], string, "POST /v1/attributes body code: want string (required)">>,
  Assert<Is<TransitionBody["transition"], Transition, "lifecycle body transition: want AttributeTransition (required)">>,
  Assert<Is<ContentCreateBody["localeUuid"], string, "POST …/contents body localeUuid: want string (required)">>,
  Assert<Is<ContentCreateBody["displayName"], string, "POST …/contents body displayName: want string (required)">>,
  // The bracketed list parameters keep their literal names; plural filters are arrays.
  Assert<Is<ListQuery["statuses[eq]"], Status[] | undefined, "GET /v1/attributes statuses[eq]: want AttributeStatus[]">>,
  Assert<Is<ListQuery["code[contains]"], string | undefined, "GET /v1/attributes code[contains]: want string">>,
  Assert<
    Is<ListQuery["include[contents]"], boolean | undefined, "GET /v1/attributes include[contents]: want boolean">
  >,
];

// ---- Run-time checks ----

class Mismatch extends Error {}

function expect(cond: boolean, what: string): asserts cond {
  if (!cond) throw new Mismatch(what);
}

// Structural equality of JSON values (object key order does not matter).
function same(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i]));
  }
  if (typeof a === "object" && a !== null && typeof b === "object" && b !== null) {
    const ea = Object.entries(a);
    const mb = new Map(Object.entries(b));
    return ea.length === mb.size && ea.every(([k, v]) => mb.has(k) && same(v, mb.get(k)));
  }
  return a === b;
}

function expectEqual<T>(got: T, want: T, what: string): void {
  if (!same(got, want)) throw new Mismatch(`${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

function checkAttribute(a: Attribute | AttributeAnswer, what: string): void {
  expect(UUID.test(a.uuid), `${what}: uuid ${a.uuid} is not a lowercase uuid`);
  expect(TIMESTAMP.test(a.createdAt), `${what}: createdAt ${a.createdAt} is not six-digit UTC`);
  expect(TIMESTAMP.test(a.updatedAt), `${what}: updatedAt ${a.updatedAt} is not six-digit UTC`);
  if (a.removedAt !== null) {
    expect(TIMESTAMP.test(a.removedAt), `${what}: removedAt ${a.removedAt} is not six-digit UTC`);
  }
  expect(a.code.length >= 1 && a.code.length <= 100, `${what}: code length ${a.code.length}`);
}

function env(name: string): string {
  const v = process.env[name];
  if (v === undefined || v === "") {
    console.error(`FAIL setup: environment variable ${name} is not set`);
    process.exit(2);
  }
  return v;
}

const baseUrl = env("CATALOGD_BASE_URL");
const token = env("CATALOGD_TOKEN");

// Every request URL the client sent, to check how it serialized the query.
const sent: string[] = [];

const bearer: Middleware = {
  onRequest({ request }) {
    request.headers.set("Authorization", `Bearer ${token}`);
    sent.push(`${request.method} ${request.url}`);
    return request;
  },
};

// Every response carries X-Request-Id (the document declares it on every response).
const requestIds: Middleware = {
  onResponse({ request, response }) {
    const id = response.headers.get("X-Request-Id");
    expect(id !== null && UUID.test(id), `${request.method} ${request.url}: X-Request-Id ${id}`);
    return response;
  },
};

// Plural filters are repeated parameters (`statuses[eq]=draft&statuses[eq]=published`): form style,
// exploded. That is openapi-fetch's default too; it is spelled out because the service depends on it.
const client = createClient<paths>({
  baseUrl,
  querySerializer: { array: { style: "form", explode: true } },
});
client.use(bearer, requestIds);

// The same API with no token: 401.
const anonymous = createClient<paths>({ baseUrl });
anonymous.use(requestIds);

let step = "setup";
let steps = 0;
function done(name: string, detail: string): void {
  steps++;
  console.log(`ok ${name}: ${detail}`);
}

function problem(p: Problem, what: string): string {
  return `${what}: ${p.status} ${p.code} ${p.detail}`;
}

// A problem document's common fields agree with its response.
function checkProblem(p: Problem, response: Response, what: string): void {
  expectEqual(response.headers.get("Content-Type"), "application/problem+json", `${what}: content type`);
  expectEqual(p.status, response.status, `${what}: problem status`);
  expect(p.type.startsWith("urn:catalogd:problem:"), `${what}: problem type ${p.type}`);
  expect(p.title.length > 0 && p.detail.length > 0, `${what}: empty title or detail`);
  expectEqual(p.requestId, response.headers.get("X-Request-Id") ?? undefined, `${what}: requestId`);
}

async function main(): Promise<void> {
  const suffix = Date.now().toString(36);

  step = "create-locale";
  let locale: Locale;
  {
    const { data, error, response } = await client.POST("/v1/locales", {
      body: { code: "en-US", displayName: "English (US)" },
    });
    expect(data !== undefined, error ? problem(error, "create locale") : "create locale: no body");
    expectEqual(response.status, 201, "create locale status");
    expectEqual(data.code, "en-US", "locale code");
    expectEqual(data.isDefault, true, "first locale is the default");
    expectEqual(response.headers.get("Location"), `/v1/locales/${data.uuid}`, "locale Location");
    locale = data;
    done(step, `locale ${data.uuid} (${data.code}, default)`);
  }

  step = "create-attributes";
  const created: AttributeAnswer[] = [];
  const wanted: [string, string][] = [
    [`ts-color-${suffix}`, "Color"],
    [`ts-colorway-${suffix}`, "Colorway"],
    [`ts-colorful-${suffix}`, "Colorful"],
    [`ts-size-${suffix}`, "Size"],
  ];
  for (const [code, displayName] of wanted) {
    const { data, error, response } = await client.POST("/v1/attributes", { body: { code, displayName } });
    expect(data !== undefined, error ? problem(error, `create ${code}`) : `create ${code}: no body`);
    expectEqual(response.status, 201, `create ${code} status`);
    checkAttribute(data, `create ${code}`);
    expectEqual(data.code, code, "code");
    expectEqual(data.displayName, displayName, "displayName");
    expectEqual(data.status, "draft", "a new attribute's status");
    expectEqual(data.removedAt, null, "a new attribute's removedAt");
    expect(!("contentUuids" in data) && !("contents" in data), `create ${code}: the answer carries contentUuids or contents`);
    expectEqual(response.headers.get("Location"), `/v1/attributes/${data.uuid}`, "attribute Location");
    created.push(data);
  }
  const [color, colorway, colorful, size] = created;
  expect(
    color !== undefined && colorway !== undefined && colorful !== undefined && size !== undefined,
    "four attributes",
  );
  done(step, created.map((a) => a.code).join(", "));

  step = "create-content";
  let content: AttributeContent;
  {
    const { data, error, response } = await client.POST("/v1/attributes/{attributeUuid}/contents", {
      params: { path: { attributeUuid: color.uuid } },
      body: { localeUuid: locale.uuid, displayName: "Colour", description: "The main colour of the product." },
    });
    expect(data !== undefined, error ? problem(error, "create content") : "create content: no body");
    expectEqual(response.status, 201, "create content status");
    expectEqual(data.attributeUuid, color.uuid, "content attributeUuid");
    expectEqual(data.localeUuid, locale.uuid, "content localeUuid");
    expectEqual(data.displayName, "Colour", "content displayName");
    expectEqual(data.description, "The main colour of the product.", "content description");
    expect(TIMESTAMP.test(data.createdAt), `content createdAt ${data.createdAt}`);
    content = data;
    done(step, `content ${data.uuid} of ${color.code} in ${locale.code}`);
  }

  step = "transition";
  {
    // publish: draft → published (colorway); colorful goes published → unpublished.
    const moves: [AttributeAnswer, Transition, Status][] = [
      [colorway, "publish", "published"],
      [colorful, "publish", "published"],
      [colorful, "unpublish", "unpublished"],
    ];
    for (const [a, transition, want] of moves) {
      const { data, error, response } = await client.PATCH("/v1/attributes/{attributeUuid}/actions/lifecycle", {
        params: { path: { attributeUuid: a.uuid } },
        body: { transition },
      });
      expect(data !== undefined, error ? problem(error, `${transition} ${a.code}`) : `${transition}: no body`);
      expectEqual(response.status, 200, `${transition} status`);
      checkAttribute(data, `${transition} ${a.code}`);
      expectEqual(data.uuid, a.uuid, `${transition} uuid`);
      expectEqual(data.status, want, `status after ${transition}`);
      expectEqual(data.removedAt, null, `removedAt after ${transition}`);
    }
    done(step, `publish ${colorway.code} → published; ${colorful.code} → published → unpublished`);
  }

  step = "list-filtered";
  {
    const at = sent.length;
    const { data, error, response } = await client.GET("/v1/attributes", {
      params: {
        query: {
          "code[contains]": `COLOR`,
          "statuses[eq]": ["draft", "published"],
          "code[order]": "asc",
          size: 10,
        },
      },
    });
    expect(data !== undefined, error ? problem(error, "list") : "list: no body");
    expectEqual(response.status, 200, "list status");
    // The query went out with the literal names and the plural filter repeated.
    const url = new URL((sent[at] ?? "").replace(/^GET /, ""));
    expectEqual(url.searchParams.getAll("statuses[eq]"), ["draft", "published"], "statuses[eq] on the wire");
    expectEqual(url.searchParams.get("code[contains]"), "COLOR", "code[contains] on the wire");
    // color (draft) and colorway (published) match; colorful is unpublished, size does not contain "color".
    expectEqual(
      data.items.map((a) => a.code),
      [color.code, colorway.code],
      "codes listed (code[contains] is case-insensitive, statuses[eq] an any-of)",
    );
    for (const a of data.items) {
      checkAttribute(a, "list item");
      expectEqual(a.contentUuids, null, "list item contentUuids without include");
      expectEqual(a.contents, null, "list item contents without expand");
    }
    expectEqual(data.pagination, { page: 1, size: 10, totalItems: 2, totalPages: 1, nextCursor: null }, "pagination");
    done(step, `${url.search} → ${data.items.length} of ${data.pagination.totalItems}`);
  }

  step = "get-include-expand";
  {
    const { data, error, response } = await client.GET("/v1/attributes/{attributeUuid}", {
      params: { path: { attributeUuid: color.uuid }, query: { "include[contents]": true, "expand[contents]": true } },
    });
    expect(data !== undefined, error ? problem(error, "get") : "get: no body");
    expectEqual(response.status, 200, "get status");
    checkAttribute(data, "get");
    expect(data.contentUuids !== null, "contentUuids with include[contents]=true is null");
    expectEqual(data.contentUuids, [content.uuid], "contentUuids with include[contents]=true");
    expect(data.contents !== null, "contents with expand[contents]=true is null");
    const [first, ...rest] = data.contents;
    expect(first !== undefined && rest.length === 0, `contents: want one entry, got ${data.contents.length}`);
    expectEqual(first.uuid, content.uuid, "expanded content uuid");
    expectEqual(first.localeUuid, locale.uuid, "expanded content localeUuid");
    expectEqual(first.displayName, "Colour", "expanded content displayName");
    expectEqual(first.description, content.description, "expanded content description");
    done(step, `contentUuids [${data.contentUuids.join(", ")}], contents[0].displayName ${first.displayName}`);
  }

  step = "publish";
  {
    const { data, error, response } = await client.PATCH("/v1/attributes/{attributeUuid}/actions/lifecycle", {
      params: { path: { attributeUuid: color.uuid } },
      body: { transition: "publish" },
    });
    expect(data !== undefined, error ? problem(error, "publish") : "publish: no body");
    expectEqual(response.status, 200, "publish status");
    expectEqual(data.status, "published", "status after publish");
    expect(data.updatedAt >= color.updatedAt, "updatedAt moved back");
    done(step, `${data.code} ${color.status} → ${data.status}`);
  }

  step = "remove";
  {
    // remove sets removedAt: the nullable field carries a string now.
    const { data, error, response } = await client.PATCH("/v1/attributes/{attributeUuid}/actions/lifecycle", {
      params: { path: { attributeUuid: size.uuid } },
      body: { transition: "remove" },
    });
    expect(data !== undefined, error ? problem(error, "remove") : "remove: no body");
    expectEqual(response.status, 200, "remove status");
    expectEqual(data.status, "removed", "status after remove");
    expect(data.removedAt !== null, "removedAt after remove is null");
    expect(TIMESTAMP.test(data.removedAt), `removedAt ${data.removedAt}`);
    done(step, `${data.code} removedAt ${data.removedAt}`);
  }

  step = "invalid-transition";
  {
    // unpublish is allowed only from published: size is removed.
    const { data, error, response } = await client.PATCH("/v1/attributes/{attributeUuid}/actions/lifecycle", {
      params: { path: { attributeUuid: size.uuid } },
      body: { transition: "unpublish" },
    });
    expectEqual(data, undefined, "unpublish of a removed attribute returned a body");
    expect(error !== undefined, "no problem document");
    expectEqual(response.status, 409, "invalid transition status");
    checkProblem(error, response, "invalid transition");
    expectEqual(error.code, "INVALID_TRANSITION", "problem code");
    const meta = error.meta;
    expect(meta !== undefined, "INVALID_TRANSITION without meta");
    expectEqual(meta["currentStatus"], "removed", "meta.currentStatus");
    expectEqual(meta["allowedTransitions"], ["restore"], "meta.allowedTransitions");
    done(step, `${error.code}: ${error.detail}`);
  }

  step = "validation-error";
  {
    const { data, error, response } = await client.POST("/v1/attributes", { body: { code: "c".repeat(101) } });
    expectEqual(data, undefined, "a 101-character code was accepted");
    expect(error !== undefined, "no problem document");
    expectEqual(response.status, 400, "validation status");
    checkProblem(error, response, "validation");
    expectEqual(error.code, "VALIDATION_FAILED", "problem code");
    expectEqual(
      error.errors.map((e) => e.field),
      ["code"],
      "errors[].field",
    );
    expect(error.errors.every((e) => e.message.length > 0), "an errors[] entry without a message");
    done(step, `${error.code}: ${error.errors.map((e) => `${e.field} ${e.message}`).join("; ")}`);
  }

  step = "unauthenticated";
  {
    const { data, error, response } = await anonymous.GET("/v1/attributes/{attributeUuid}", {
      params: { path: { attributeUuid: color.uuid } },
    });
    expectEqual(data, undefined, "a request without a token got a body");
    expect(error !== undefined, "no problem document");
    expectEqual(response.status, 401, "status without a token");
    checkProblem(error, response, "unauthenticated");
    expectEqual(error.code, "UNAUTHENTICATED", "problem code");
    done(step, `${error.code}`);
  }

  step = "delete";
  {
    const { data, error, response } = await client.DELETE("/v1/attributes/{attributeUuid}", {
      params: { path: { attributeUuid: color.uuid } },
    });
    expect(error === undefined, error ? problem(error, "delete") : "");
    expectEqual(response.status, 204, "delete status");
    expectEqual(data, undefined, "delete body");
    const again = await client.GET("/v1/attributes/{attributeUuid}", {
      params: { path: { attributeUuid: color.uuid } },
    });
    expectEqual(again.response.status, 404, "get after delete");
    expect(again.error !== undefined, "no problem document after delete");
    checkProblem(again.error, again.response, "get after delete");
    expectEqual(again.error.code, "NOT_FOUND", "problem code after delete");
    done(step, `${color.code} 204, then GET 404 ${again.error.code}`);
  }

  console.log(`client-flow: ${steps} steps passed`);
}

main().catch((e: unknown) => {
  if (e instanceof Mismatch) {
    console.error(`FAIL ${step}: ${e.message}`);
  } else {
    console.error(`FAIL ${step}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  }
  process.exit(1);
});
