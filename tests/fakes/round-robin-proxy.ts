/**
 * A small HTTP load balancer on 127.0.0.1: each request goes to the next of its backends
 * in turn (round robin), as any proxy in front of several app instances would send it,
 * with X-Forwarded-For and X-Forwarded-Proto added (start the app with TRUST_PROXY=1).
 * A backend that does not answer (stopped, killed) is skipped for the next one.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export type RoundRobinProxy = {
  url: string;
  /** the instances behind it (their base URLs), e.g. once they have started */
  setBackends: (backends: string[]) => void;
  /** which backend (its index) answered each request, in order */
  answeredBy: number[];
  /** no more requests to this backend (an instance leaving) */
  remove: (index: number) => void;
  close: () => Promise<void>;
};

export async function startRoundRobinProxy(backends: string[], options: { keepForwardedFor?: boolean } = {}): Promise<RoundRobinProxy> {
  let targets = backends.map((backend) => new URL(backend));
  const removed = new Set<number>();
  const answeredBy: number[] = [];
  let next = 0;

  const forward = (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer, tried: number) => {
    const live = targets.map((_, index) => index).filter((index) => !removed.has(index));
    if (!live.length || tried >= targets.length) {
      res.writeHead(502).end("no backend answered");
      return;
    }
    const index = live[next++ % live.length];
    const target = targets[index];
    const upstream = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: {
          ...req.headers,
          host: req.headers.host,
          // the client's address, after the ones a client sent (as nginx's $proxy_add_x_forwarded_for) when kept
          "x-forwarded-for": [
            options.keepForwardedFor ? req.headers["x-forwarded-for"] : undefined,
            req.socket.remoteAddress ?? "127.0.0.1",
          ]
            .filter(Boolean)
            .join(", "),
          "x-forwarded-proto": (options.keepForwardedFor && req.headers["x-forwarded-proto"]) || "http",
        },
      },
      (answer) => {
        answeredBy.push(index);
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(res);
      },
    );
    // a backend that is down: the next one answers (the body was read in full, so it can be sent again)
    upstream.on("error", () => {
      if (!res.headersSent) forward(req, res, body, tried + 1);
      else res.destroy();
    });
    upstream.end(body);
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => forward(req, res, Buffer.concat(chunks), 0));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    answeredBy,
    setBackends: (urls) => {
      targets = urls.map((backend) => new URL(backend));
      removed.clear();
    },
    remove: (index) => removed.add(index),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
