/**
 * A fake of the public exchange-rate files on 127.0.0.1: /primary.json and /backup.json
 * answer `{"date", "cny": {"usd": ...}}` (units per 1 CNY), or fail as a test tells them.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export type RateFileBehaviour = { status?: number; body?: unknown };

export type FakeRates = {
  url: string;
  primaryUrl: string;
  backupUrl: string;
  /** requests seen per path */
  hits: Record<string, number>;
  set: (path: "primary" | "backup", behaviour: RateFileBehaviour) => void;
  close: () => Promise<void>;
};

export function rateFile(perCny: Record<string, number>, date = "2026-11-23") {
  return { date, cny: perCny };
}

export async function startFakeRates(): Promise<FakeRates> {
  const behaviours: Record<string, RateFileBehaviour> = {
    primary: { body: rateFile({ usd: 0.14, eur: 0.13, gbp: 0.11, jpy: 21.5, krw: 200, aud: 0.21, cad: 0.19, brl: 0.76, php: 8.1 }) },
    backup: { body: rateFile({ usd: 0.15, eur: 0.125, gbp: 0.1, jpy: 22, krw: 210, aud: 0.22, cad: 0.2 }) },
  };
  const hits: Record<string, number> = {};
  const server = http.createServer((req, res) => {
    const name = (req.url ?? "").replace(/^\/|\.json.*$/g, "");
    hits[name] = (hits[name] ?? 0) + 1;
    const behaviour = behaviours[name];
    if (!behaviour) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(behaviour.status ?? 200, { "Content-Type": "application/json" });
    res.end(typeof behaviour.body === "string" ? behaviour.body : JSON.stringify(behaviour.body ?? {}));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    primaryUrl: `${url}/primary.json`,
    backupUrl: `${url}/backup.json`,
    hits,
    set: (path, behaviour) => {
      behaviours[path] = behaviour;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
