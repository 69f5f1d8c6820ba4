/**
 * The browser's router renders the page again after Remix discovers routes only when they
 * change what the current address matches (patches/@remix-run+router+1.23.3.patch, the
 * browser's copy `dist/router.js`): Remix discovers the routes of the links a page shows
 * just after it hydrates, and rendering the whole page again for them was a long task
 * after every hydration (docs/performance.md, "Lighthouse, December"). Checked on the
 * file the browser bundle takes, with a router in memory.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

type RouteObject = { id: string; path?: string; index?: boolean; children?: RouteObject[]; loader?: () => unknown };
type Router = {
  initialize(): Router;
  subscribe(listener: (state: { matches: Array<{ route: { id: string } }> }) => void): () => void;
  patchRoutes(parentId: string | null, children: RouteObject[]): void;
  navigate(to: string): Promise<void>;
  readonly state: { matches: Array<{ route: { id: string } }>; navigation: { state: string } };
  readonly routes: RouteObject[];
  dispose(): void;
};

const require = createRequire(import.meta.url);
// the ES module the browser bundle takes ("module" in the package), not the server's CommonJS copy
const browserFile = path.join(path.dirname(require.resolve("@remix-run/router/package.json")), "dist", "router.js");
const { createRouter, createMemoryHistory } = (await import(pathToFileURL(browserFile).href)) as {
  createRouter: (init: object) => Router;
  createMemoryHistory: (options: { initialEntries: string[] }) => unknown;
};

function routerAt(address: string): { router: Router; renders: () => number } {
  const routes: RouteObject[] = [
    {
      id: "root",
      path: "/",
      children: [
        { id: "home", index: true },
        { id: "product", path: "p/:id" },
      ],
    },
  ];
  const router = createRouter({
    routes,
    history: createMemoryHistory({ initialEntries: [address] }),
    hydrationData: { loaderData: {} },
    future: { v7_partialHydration: true },
  }).initialize();
  let renders = 0;
  router.subscribe(() => {
    renders += 1;
  });
  return { router, renders: () => renders };
}

describe("routes discovered after hydration", () => {
  it("the file under test is the patched one", async () => {
    const fs = await import("node:fs");
    expect(fs.readFileSync(browserFile, "utf8")).toContain("the page renders again only when");
  });

  it("routes elsewhere are added without a render, and a navigation to them finds them", async () => {
    const { router, renders } = routerAt("/p/1");
    router.patchRoutes("root", [{ id: "category", path: "category/:id" }]);
    router.patchRoutes("root", [{ id: "blog", path: "blog" }]);
    expect(renders()).toBe(0);
    expect(router.state.matches.map((match) => match.route.id)).toEqual(["root", "product"]);
    expect(JSON.stringify(router.routes)).toContain("category/:id");

    await router.navigate("/category/7");
    expect(renders()).toBeGreaterThan(0);
    expect(router.state.matches.map((match) => match.route.id)).toEqual(["root", "category"]);
    router.dispose();
  });

  it("a route that changes what the current address matches renders at once", () => {
    const { router, renders } = routerAt("/p/new");
    // a more specific route for the address the page is at
    router.patchRoutes("root", [{ id: "new-product", path: "p/new" }]);
    expect(renders()).toBe(1);
    router.dispose();
  });
});
