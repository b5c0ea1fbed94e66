// Bearer authentication: catalogd takes a JWT (claims tenant_id and scope) in the authorization header
// of every call, on every protocol (gRPC metadata, Connect and gRPC-Web headers).
import type { Interceptor } from "@connectrpc/connect";

/**
 * A bearer token: the token itself, or a function the SDK calls before every request, so that an
 * application can refresh an expiring token (return a cached one until it is about to expire, then
 * fetch a new one). The function's promise may reject; the call then fails with that error.
 */
export type TokenSource = string | (() => string | Promise<string>);

/** An interceptor that sets `authorization: Bearer <token>` on every request. */
export function bearerAuth(token: TokenSource): Interceptor {
  return (next) => async (req) => {
    const value = typeof token === "function" ? await token() : token;
    req.header.set("authorization", `Bearer ${value}`);
    return next(req);
  };
}

/** The options every transport factory of this SDK takes besides Connect's own. */
export interface AuthOptions {
  /** The bearer token (or a function returning one); without it, calls go out unauthenticated. */
  token?: TokenSource;
}

// withAuth puts the bearer interceptor in front of the caller's own interceptors: theirs then see
// (and may log or replace) the header it set.
export function withAuth(token: TokenSource | undefined, interceptors: readonly Interceptor[] = []): Interceptor[] {
  return token === undefined ? [...interceptors] : [bearerAuth(token), ...interceptors];
}
