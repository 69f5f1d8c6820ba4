/**
 * The loader and action of the two back-office product lists (/admin/products for local
 * products, /admin/external-products for imported ones, docs/product/admin.md 2, 8, 9): search,
 * page sizes, delete one with a confirmation step, and bulk delete (choose, confirm,
 * delete), each checked on the server.
 */
import { ApiError, notFound, nullIfNotFound } from "~/lib/api.server";
import { listReturnTo } from "~/lib/list-address";
import { can, sidebarRules } from "~/lib/permissions";
import { requireAdmin, requireMore } from "~/services/permissions.server";
import { redirectWithToast } from "~/lib/toast.server";
import { adminProductListQuerySchema, productSelectionSchema } from "~/schemas/catalogue";
import { ADMIN_EXTERNAL_PAGE_SIZE, ADMIN_LOCAL_PAGE_SIZE } from "~/schemas/catalogue-rules";
import { CATALOGUE_MESSAGES as M } from "~/schemas/catalogue-messages";
import { listingStatesOf } from "~/services/listing-watch.server";
import { productPath } from "~/services/catalogue/common.server";
import { deleteProductByAdmin, deleteProductsByAdmin, getProduct, listCatalogue } from "~/services/catalogue/products.server";
import { categoriesForStorefront } from "~/services/catalogue/categories.server";
import { idOf } from "~/lib/ids";
import { readLanguage, translateMessage, translatorFor } from "~/i18n/i18n.server";

export type ProductListKind = "local" | "external";

export const PRODUCT_LISTS = {
  local: { path: "/admin/products", defaultLimit: ADMIN_LOCAL_PAGE_SIZE, isExternal: false },
  external: { path: "/admin/external-products", defaultLimit: ADMIN_EXTERNAL_PAGE_SIZE, isExternal: true },
} as const;

/** Query parameters that only open a dialog; links and redirects drop them. */
const DIALOG_PARAMS = ["modal", "productId"];

async function requireProductManager(request: Request) {
  const actor = await requireAdmin(request);
  if (!sidebarRules.products(actor.access))
    throw new Response("You do not have permission to manage products.", { status: 403, statusText: "Forbidden" });
  return actor;
}

export async function productListLoader(request: Request, kind: ProductListKind) {
  const { access } = await requireProductManager(request);
  const url = new URL(request.url);
  const query = adminProductListQuerySchema(PRODUCT_LISTS[kind].defaultLimit).parse(Object.fromEntries(url.searchParams));
  const [page, categories] = await Promise.all([
    listCatalogue(
      {
        page: query.page,
        limit: query.limit,
        q: query.q,
        isExternal: PRODUCT_LISTS[kind].isExternal,
        unavailableOnly: kind === "external" && query.listing === "unavailable",
      },
      access,
    ),
    categoriesForStorefront(access),
  ]);
  const categoryNames = new Map(categories.map((category) => [category.id, category.name]));
  const listings = kind === "external" ? await listingStatesOf(page.items.map((product) => product.id)) : new Map();
  const allowed = {
    create: can(access, "product.create"),
    edit: can(access, "product.edit"),
    delete: can(access, "product.delete"),
    qc: sidebarRules.qc(access),
  };

  let confirmDelete: { id: number; name: string } | null = null;
  if (url.searchParams.get("modal") === "delete" && allowed.delete) {
    const id = idOf(url.searchParams.get("productId"));
    if (id !== null) {
      const product = await nullIfNotFound(getProduct(id));
      if (product && product.isExternal === PRODUCT_LISTS[kind].isExternal) confirmDelete = { id: product.id, name: product.name };
    }
  }

  return {
    kind,
    query,
    allowed,
    confirmDelete,
    list: {
      totalItems: page.totalItems,
      totalPages: page.totalPages,
      currentPage: page.page,
      items: page.items.map((product) => ({
        id: product.id,
        name: product.name,
        thumbnail: product.images[0] ?? null,
        priceCny: product.priceCny,
        categoryName: product.categoryId ? (categoryNames.get(product.categoryId) ?? null) : null,
        platform: product.platform,
        itemId: product.platformItemId,
        shopName: product.shopName,
        viewCount: product.viewCount,
        qcCount: product.qcCount,
        listing: (() => {
          const state = listings.get(product.id);
          return state ? { status: state.status, checkedAt: state.checkedAt, since: state.unavailableSince, reports: state.reports } : null;
        })(),
        showInListing: product.showInListing,
        createdAt: product.createdAt,
        url: productPath(product),
      })),
    },
  };
}

/** Whether a product exists and belongs to this list (local or external). */
async function isOfList(id: number, kind: ProductListKind): Promise<boolean> {
  const product = await nullIfNotFound(getProduct(id));
  return product !== null && product.isExternal === PRODUCT_LISTS[kind].isExternal;
}

export type BulkConfirmation = { ids: number[]; names: string[]; missing: number };
export type ProductListActionData =
  { intent: "bulk-confirm"; confirm: BulkConfirmation } | { intent: "bulk-confirm" | "bulk-delete" | "delete"; error: string };

const idsOf = (formData: FormData) => formData.getAll("ids").map(String);

export async function productListAction(request: Request, kind: ProductListKind): Promise<Response | ProductListActionData> {
  // who is asking, before the form is read
  const actor = await requireProductManager(request);
  const formData = await request.formData();
  const intent = formData.get("intent");
  const back = listReturnTo(formData.get("returnTo"), PRODUCT_LISTS[kind].path, DIALOG_PARAMS, request);
  const external = kind === "external";
  // the notices in the reader's language (the services' words are the /api's)
  const language = readLanguage(request);
  const t = translatorFor(language);
  const say = (text: string) => translateMessage(language, text);

  if (intent === "delete") {
    requireMore(actor, { permission: "product.delete" });
    const id = idOf(formData.get("productId"));
    try {
      if (id === null) throw notFound(M.productNotFound);
      // each list deletes its own kind: a forged post naming the other kind's product changes nothing
      if (!(await isOfList(id, kind))) throw notFound(M.productNotFound);
      await deleteProductByAdmin(id, actor);
    } catch (error) {
      if (error instanceof ApiError)
        return {
          intent,
          error: external
            ? t("admin.products.externalDeleteFailed", { reason: say(error.message) })
            : `${say(M.productDeleteFailed)}: ${say(error.message)}`,
        };
      throw error;
    }
    return redirectWithToast(back, { message: say(external ? M.externalDeleted : M.productDeleted) });
  }

  if (intent === "bulk-confirm" || intent === "bulk-delete") {
    requireMore(actor, { permission: "product.delete" });
    const parsed = productSelectionSchema.safeParse({ ids: idsOf(formData) });
    if (!parsed.success) return { intent, error: parsed.error.issues[0]?.message ?? M.productsNoneSelected };
    const ids = [...new Set(parsed.data.ids)];
    if (intent === "bulk-confirm") {
      const found = (await Promise.all(ids.map((id) => nullIfNotFound(getProduct(id))))).filter(
        (product): product is NonNullable<typeof product> => product !== null && product.isExternal === PRODUCT_LISTS[kind].isExternal,
      );
      if (found.length === 0) return { intent, error: M.productsNoneSelected };
      return {
        intent,
        confirm: {
          ids: found.map((product) => product.id),
          names: found.map((product) => product.name),
          missing: ids.length - found.length,
        },
      };
    }
    const own = (await Promise.all(ids.map(async (id) => ((await isOfList(id, kind)) ? id : null)))).filter((id) => id !== null);
    const outcome = await deleteProductsByAdmin(own, actor);
    // the other kind's products count as not found
    for (const id of ids) if (!own.includes(id)) outcome.failed.push({ id, reason: M.productNotFound });
    if (outcome.deleted === 0) {
      const reason = outcome.failed[0]?.reason ?? M.productNotFound;
      return redirectWithToast(back, {
        type: "error",
        message: external
          ? t("admin.products.externalBulkDeleteFailed", { reason: say(reason) })
          : `${say(M.productDeleteFailed)}: ${say(reason)}`,
      });
    }
    const summary = external
      ? t("admin.products.externalBulkDeleted", { count: outcome.deleted })
      : t("admin.products.bulkDeleted", { count: outcome.deleted });
    const failures = outcome.failed.length ? ` (${t("admin.products.notFoundCount", { count: outcome.failed.length })})` : "";
    return redirectWithToast(back, { message: summary + failures });
  }

  throw new Response("Unknown action", { status: 400 });
}
