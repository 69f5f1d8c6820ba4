/**
 * The server matches a request to its routes five times (docs/decisions/032): the patch of
 * @remix-run/router (patches/@remix-run+router+1.23.3.patch, applied by patch-package on
 * every install, the image's too) keeps each route tree's ranked branches and each path's
 * compiled pattern instead of rebuilding them at every matching; the patches of
 * @remix-run/react and react-router-dom keep the route trees a render builds, one per
 * build, so the router's kept ranking serves them too. Kept or not, a matching must find
 * the same routes: checked here on the app's own route tree (and every page test renders
 * through the kept trees).
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../setup/paths";

type BuildRoute = { id: string; parentId?: string; path?: string; index?: boolean; caseSensitive?: boolean };
type Route = { id: string; path?: string; index?: boolean; caseSensitive?: boolean; children?: Route[] };

const require = createRequire(import.meta.url);
const routerFile = require.resolve("@remix-run/router");
const { matchRoutes } = require("@remix-run/router") as {
  matchRoutes: (routes: Route[], location: string) => Array<{ route: Route; params: Record<string, string | undefined> }> | null;
};
const build = (await import(path.join(ROOT, "build", "index.js"))) as { routes: Record<string, BuildRoute> };

/** The route tree as Remix builds it from the manifest: a fresh one at each call. */
function routeTree(parentId: string | undefined = undefined): Route[] {
  return Object.values(build.routes)
    .filter((route) => route.parentId === parentId)
    .map((route) => ({
      id: route.id,
      path: route.path,
      index: route.index,
      caseSensitive: route.caseSensitive,
      children: route.index ? undefined : routeTree(route.id),
    }));
}

const PATHS = [
  "/",
  "/search",
  "/product/12",
  "/weidian/7400000123",
  "/1688/12345678",
  "/blog",
  "/blog/a-post",
  "/category/3",
  "/admin",
  "/admin/products",
  "/admin/products/5/edit",
  "/admin/users/9/edit",
  "/api/products/12",
  "/api/admin/users/3/roles/2",
  "/uploads/qc/a.jpg",
  "/no/such/page",
  "/ADMIN/Products",
  "/blog/",
];

const found = (routes: Route[], at: string) => matchRoutes(routes, at)?.map((match) => [match.route.id, match.params]) ?? null;

describe("route matching (patched @remix-run/router)", () => {
  it("is the patched router the server loads", () => {
    const source = fs.readFileSync(routerFile, "utf8");
    expect(source).toContain("rankedBranchesCache");
    expect(source).toContain("compiledPaths");
  });

  it("are the patched Remix and React Router the server renders with: their route trees made once per build", () => {
    // resolved as the server's build resolves them: @remix-run/react's CommonJS entry, and
    // react-router-dom/server from there
    const remixServer = path.join(path.dirname(require.resolve("@remix-run/react")), "server.js");
    expect(fs.readFileSync(remixServer, "utf8")).toContain("keptServerRoutesByManifest");
    const staticRouter = createRequire(remixServer).resolve("react-router-dom/server");
    expect(fs.readFileSync(staticRouter, "utf8")).toContain("keptDataRoutes");
  });

  it("finds the same routes with a kept tree as with a new one, at every address, again and again", () => {
    const kept = routeTree();
    const first = PATHS.map((at) => found(kept, at));
    expect(first.filter(Boolean).length).toBeGreaterThan(PATHS.length / 2);
    for (let round = 0; round < 3; round++) {
      for (const [index, at] of PATHS.entries()) {
        expect(found(kept, at), at).toEqual(first[index]);
        expect(found(routeTree(), at), at).toEqual(first[index]);
      }
    }
    // the routes a few addresses must reach, as Remix names them
    const leaf = (at: string) => matchRoutes(kept, at)?.at(-1)?.route.id;
    expect(leaf("/")).toBe("routes/_index");
    expect(leaf("/weidian/7400000123")).toBe("routes/$platform.$itemId");
    expect(leaf("/admin/products/5/edit")).toBe("routes/admin.products.$id.edit");
    expect(leaf("/no/such/page")).toBe("routes/$");
  });
});
