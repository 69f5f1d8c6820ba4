import "@remix-run/node";

declare module "@remix-run/node" {
  interface AppLoadContext {
    /** The client's address (X-Forwarded-For only when TRUST_PROXY is set). */
    clientIp: string;
    /** Nonce of this response's Content-Security-Policy. */
    cspNonce: string;
  }
  interface Future {
    v3_singleFetch: true;
  }
}
