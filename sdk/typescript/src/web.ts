// @catalogd/sdk/web: transports for browsers (fetch), with bearer auth: Connect or gRPC-Web to
// catalogd's HTTP port (CATALOG_HTTP_ADDR, default 127.0.0.1:8080). A page on another origin needs
// that origin in catalogd's CATALOG_CORS_ALLOWED_ORIGINS. Imports nothing of Node.
import type { Transport } from "@connectrpc/connect";
import {
  createConnectTransport,
  createGrpcWebTransport,
  type ConnectTransportOptions,
  type GrpcWebTransportOptions,
} from "@connectrpc/connect-web";
import { withAuth, type AuthOptions } from "./auth.js";

/** Options of connectTransport: Connect's (connect-web) ConnectTransportOptions plus `token`. */
export type ConnectOptions = ConnectTransportOptions & AuthOptions;

/** Options of grpcWebTransport: Connect's GrpcWebTransportOptions plus `token`. */
export type GrpcWebOptions = GrpcWebTransportOptions & AuthOptions;

/** The Connect protocol over fetch, e.g. `connectTransport({ baseUrl: "https://catalog.example.com", token })`. */
export function connectTransport(options: ConnectOptions): Transport {
  const { token, interceptors, ...rest } = options;
  return createConnectTransport({ ...rest, interceptors: withAuth(token, interceptors) });
}

/** gRPC-Web over fetch, e.g. `grpcWebTransport({ baseUrl: "https://catalog.example.com", token })`. */
export function grpcWebTransport(options: GrpcWebOptions): Transport {
  const { token, interceptors, ...rest } = options;
  return createGrpcWebTransport({ ...rest, interceptors: withAuth(token, interceptors) });
}
