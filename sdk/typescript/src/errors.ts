// The errors of catalogd as a client sees them. Every failure the service reports carries, besides
// the gRPC code and message, google.rpc details (server/apierr): an ErrorInfo (reason = the stable
// API error code such as VALIDATION_FAILED, domain "catalogd", metadata = the error's meta as strings),
// a BadRequest with one field violation per bad field when there are any, and the meta once more as a
// google.protobuf.Struct with its JSON types intact. Connect, gRPC and gRPC-Web all deliver them;
// ConnectError keeps them as undecoded Any values, which CatalogError decodes.
import { toJson, type JsonObject } from "@bufbuild/protobuf";
import { StructSchema } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import { BadRequestSchema, ErrorInfoSchema } from "./gen/google/rpc/error_details_pb.js";

/** The ErrorInfo domain of catalogd's own errors. */
export const errorDomain = "catalogd";

/** One rejected field: `code`, `[2].code` (bulk item 2), `codes[eq]` (a list filter). */
export interface FieldViolation {
  field: string;
  description: string;
}

// The HTTP status the REST API answers each reason with (DESIGN.md "HTTP conventions"), so that code
// written against the REST problem documents can keep switching on the same numbers.
const reasonStatus: Readonly<Record<string, number>> = {
  VALIDATION_FAILED: 400,
  MALFORMED_REQUEST: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  ALREADY_EXISTS: 409,
  INVALID_TRANSITION: 409,
  IN_USE: 409,
  REQUIREMENTS_NOT_MET: 409,
  LIMIT_EXCEEDED: 409,
  UPLOAD_VERIFICATION_FAILED: 409,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
};

// Without a catalogd reason (the error arose in the client, a proxy or the transport), the status is
// the one the REST gateway gives a bare gRPC status of that code.
function codeStatus(code: Code): number {
  switch (code) {
    case Code.InvalidArgument:
      return 400;
    case Code.Unauthenticated:
      return 401;
    case Code.PermissionDenied:
      return 403;
    case Code.NotFound:
    case Code.Unimplemented:
      return 404;
    case Code.AlreadyExists:
      return 409;
    case Code.ResourceExhausted:
      return 413;
    case Code.Unavailable:
    case Code.Canceled:
    case Code.DeadlineExceeded:
      return 503;
    default:
      return 500;
  }
}

/**
 * A failed call, decoded: build it with `CatalogError.from(caught)`.
 *
 * `reason` is the stable API error code (VALIDATION_FAILED, NOT_FOUND, INVALID_TRANSITION, …, the
 * `code` of the REST problem document); it is "" when the error did not come from catalogd (a
 * network failure, a deadline, a proxy): then only `code` and `status` say what happened.
 */
export class CatalogError extends Error {
  override name = "CatalogError";
  /** The gRPC status code (Connect's Code enum: Code.InvalidArgument, Code.NotFound, …). */
  readonly code: Code;
  /** The HTTP status the REST API answers the same failure with (400, 404, 409, …). */
  readonly status: number;
  /** The API error code from google.rpc.ErrorInfo, e.g. "VALIDATION_FAILED"; "" when none. */
  readonly reason: string;
  /** The ErrorInfo domain: "catalogd" for the service's own errors, "" when there is none. */
  readonly domain: string;
  /** The human-readable detail (the status message, without Connect's "[code]" prefix). */
  readonly detail: string;
  /** ErrorInfo.metadata: the error's meta with every value as a string (JSON text for non-strings). */
  readonly metadata: Readonly<Record<string, string>>;
  /**
   * The error's meta with its JSON types (e.g. INVALID_TRANSITION: currentStatus, a string, and
   * allowedTransitions, an array): from the google.protobuf.Struct detail, else `metadata`.
   */
  readonly meta: JsonObject;
  /** google.rpc.BadRequest's field violations, in the server's order. */
  readonly fieldViolations: readonly FieldViolation[];
  /** The ConnectError this was decoded from (headers and trailers in `.metadata`). */
  readonly connectError: ConnectError;

  private constructor(err: ConnectError) {
    const infos = err.findDetails(ErrorInfoSchema);
    const info = infos.find((i) => i.domain === errorDomain) ?? infos[0];
    const reason = info?.reason ?? "";
    super(`${reason || Code[err.code] || "Unknown"}: ${err.rawMessage}`, { cause: err });
    this.connectError = err;
    this.code = err.code;
    this.reason = reason;
    this.domain = info?.domain ?? "";
    this.detail = err.rawMessage;
    this.status = reasonStatus[reason] ?? codeStatus(err.code);
    this.metadata = { ...(info?.metadata ?? {}) };
    this.fieldViolations = err
      .findDetails(BadRequestSchema)
      .flatMap((br) => br.fieldViolations.map((v) => ({ field: v.field, description: v.description })));
    const typed = err.findDetails(StructSchema)[0];
    const json = typed === undefined ? undefined : toJson(StructSchema, typed);
    this.meta = isObject(json) ? json : { ...this.metadata };
  }

  /**
   * Decodes anything a client call threw: a ConnectError as the service sent it, or any other value
   * (as Connect's ConnectError.from does: an aborted fetch becomes Code.Canceled, anything else
   * Code.Unknown). A CatalogError is returned as is.
   */
  static from(reason: unknown): CatalogError {
    if (reason instanceof CatalogError) return reason;
    return new CatalogError(ConnectError.from(reason));
  }

  /** The first violation of a field, e.g. `err.violation("code")?.description`. */
  violation(field: string): FieldViolation | undefined {
    return this.fieldViolations.find((v) => v.field === field);
  }
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
