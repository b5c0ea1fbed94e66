// @catalogd/sdk/node: transports for Node.js, with bearer auth. gRPC goes to catalogd's gRPC port
// (CATALOG_GRPC_ADDR, default 127.0.0.1:9090) over HTTP/2; Connect goes to its HTTP port
// (CATALOG_HTTP_ADDR, default 127.0.0.1:8080), which also serves REST.
import type { Transport } from "@connectrpc/connect";
import {
  createConnectTransport,
  createGrpcTransport,
  type ConnectTransportOptions,
  type GrpcTransportOptions,
} from "@connectrpc/connect-node";
import { withAuth, type AuthOptions } from "./auth.js";

/** Options of grpcTransport: Connect's GrpcTransportOptions plus `token`. */
export type GrpcOptions = GrpcTransportOptions & AuthOptions;

/**
 * Options of connectTransport: Connect's ConnectTransportOptions plus `token`; `httpVersion` defaults
 * to "1.1" (give "2" for HTTP/2 without TLS, h2c).
 */
export type ConnectOptions = (
  | (Omit<Extract<ConnectTransportOptions, { httpVersion: "1.1" }>, "httpVersion"> & { httpVersion?: "1.1" })
  | Extract<ConnectTransportOptions, { httpVersion: "2" }>
) &
  AuthOptions;

/** gRPC over HTTP/2 to catalogd's gRPC port, e.g. `grpcTransport({ baseUrl: "http://127.0.0.1:9090", token })`. */
export function grpcTransport(options: GrpcOptions): Transport {
  const { token, interceptors, ...rest } = options;
  return createGrpcTransport({ ...rest, interceptors: withAuth(token, interceptors) });
}

/** The Connect protocol to catalogd's HTTP port, e.g. `connectTransport({ baseUrl: "http://127.0.0.1:8080", token })`. */
export function connectTransport(options: ConnectOptions): Transport {
  const { token, interceptors, ...rest } = options;
  const auth = withAuth(token, interceptors);
  if (rest.httpVersion === "2") {
    return createConnectTransport({ ...rest, httpVersion: "2", interceptors: auth });
  }
  return createConnectTransport({ ...rest, httpVersion: "1.1", interceptors: auth });
}
