/**
 * The one place that reads Remix's server build from outside Remix (docs/architecture.md
 * "Where framework internals are touched"): the front (server/front.ts) runs a few
 * routes' loaders directly. A move to React Router 7 changes this file, not its callers.
 */
import type { ServerBuild } from "@remix-run/node";

export type { ServerBuild };

export type LoaderCall = { request: Request; params: Record<string, string>; context: Record<string, unknown> };

/** Whether the build has route `routeId` at `path`, with a loader. */
export function hasRouteLoader(build: ServerBuild, routeId: string, path: string): { ok: true } | { ok: false; found: string | null } {
  const route = build.routes[routeId];
  if (route?.module.loader && route.path === path) return { ok: true };
  return { ok: false, found: route ? (route.path ?? "") : null };
}

/** Runs route `routeId`'s loader as Remix would for a GET, and answers a Response (data becomes JSON). */
export async function runRouteLoader(build: ServerBuild, routeId: string, call: LoaderCall): Promise<Response> {
  const loader = build.routes[routeId]?.module.loader;
  if (!loader) throw new Error(`route ${routeId} has no loader in the build`);
  const result: unknown = await loader({ ...call, context: call.context as never });
  return result instanceof Response ? result : Response.json(result);
}
