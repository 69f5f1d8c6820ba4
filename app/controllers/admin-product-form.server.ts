/**
 * The loader and action of the back-office product form (/admin/products/new and
 * /admin/products/:id/edit; docs/product/admin.md 2, 4, 5, 8, 9). One multipart form does
 * everything without JavaScript:
 * - the SKU grid's "add row" and "remove row" are conform intents (the form comes back
 *   with the row added or removed, nothing saved);
 * - "apply to all SKUs" sets every row's price (the bulk price, or the product price)
 *   and stock (the bulk stock, or 100 when that is 0 or empty), nothing saved;
 * - chosen image files are stored whatever the button, their addresses added to the
 *   images field, each failure named with its file ('n/m images uploaded');
 * - the import box fills the form from a marketplace link or id, nothing saved;
 * - "save" validates and creates or updates, the errors classified as docs/product/admin.md 8.
 */
import { probablySameItems } from "~/services/catalogue/same-item.server";
import { getDb } from "~/lib/db.server";
import { linkedQcUrls } from "~/models/qc.server";
import { parseWithZod } from "@conform-to/zod/v4";
import { ApiError, orPageNotFound, pageId } from "~/lib/api.server";
import { PRODUCT_FORM_FILE_STREAM_BYTES, PRODUCT_FORM_MAX_FILES } from "~/lib/body-limits.server";
import { requireAdmin } from "~/services/permissions.server";
import { redirectWithToast } from "~/lib/toast.server";
import { productInputSchema } from "~/schemas/catalogue";
import { PLATFORM_LABELS, PRODUCT_IMAGE_MAX_BYTES, SKUS_MAX, type Platform } from "~/schemas/catalogue-rules";
import { CATALOGUE_MESSAGES as M } from "~/schemas/catalogue-messages";
import type { SubmissionResult } from "@conform-to/react";
import { createProduct, getProduct, updateProductByAdmin } from "~/services/catalogue/products.server";
import { categoriesForStorefront } from "~/services/catalogue/categories.server";
import { IMPORT_MESSAGES } from "~/schemas/marketplace-rules";
import { listingStatesOf, priceHistoryOf, reportsOf } from "~/services/listing-watch.server";
import { readPastedLink } from "~/marketplace/agent-links.server";
import { readLanguage, translateMessage, translatorFor } from "~/i18n/i18n.server";
import type { Translate } from "~/i18n/i18n";
import { crawlItem } from "~/marketplace/crawl.server";
import { FetchFailed, ItemNotFound, type CrawledProduct } from "~/marketplace/crawl-adapter.server";
import { FetchRefused } from "~/marketplace/fetch.server";
import { resolveShortLink } from "~/marketplace/short-links.server";
import { isUploadedFile, sentFileName, storeImage, withMultipart } from "~/services/uploads.server";

export type ProductFormMode = { kind: "create" } | { kind: "edit"; id: number };

export const BULK_STOCK_DEFAULT = 100;

const FORM_MESSAGES = {
  invalid: M.formInvalid,
  permission: "You do not have permission to do this. Please contact an administrator.",
  // the 404 page's words; the form's own notices are in the catalogues (admin.productForm.*)
  notFound: (id: number) => `Product ${id} does not exist (找不到).`,
};

/** The id of /admin/products/:id/edit, or the invalid-id page. */
export const productIdParam = (value: string | undefined): number => pageId(value, `Invalid product id: ${value ?? ""}`);

const productOrNotFound = (id: number) => orPageNotFound(getProduct(id), FORM_MESSAGES.notFound(id));

const permissionFor = (mode: ProductFormMode) => ({
  permission: mode.kind === "create" ? ("product.create" as const) : ("product.edit" as const),
});

export async function productFormLoader(request: Request, mode: ProductFormMode) {
  const { access } = await requireAdmin(request, permissionFor(mode));
  const categories = (await categoriesForStorefront(access)).map((category) => ({
    id: category.id,
    name: category.name,
    parentId: category.parentId,
  }));
  if (mode.kind === "create") return { mode, categories, product: null, listing: null, sameItems: [] };
  const product = await productOrNotFound(mode.id);
  const watched = product.isExternal && product.platform && product.platformItemId;
  const sameItems = (await probablySameItems(product.id)).map((item) => ({
    id: item.product.id,
    name: item.product.name,
    priceCny: item.product.priceCny,
    platform: item.product.platform,
    image: item.product.images[0] ?? null,
    score: item.score,
    decision: item.decision,
  }));
  const [state, history, reports] = watched
    ? await Promise.all([
        listingStatesOf([product.id]).then((states) => states.get(product.id) ?? null),
        priceHistoryOf(product.id),
        reportsOf(product.id),
      ])
    : [null, [], []];
  return {
    mode,
    categories,
    listing: watched ? { state, history, reports } : null,
    sameItems,
    product: {
      id: product.id,
      name: product.name,
      description: product.description ?? "",
      price_cny: product.priceCny === null ? "" : String(product.priceCny),
      category_id: product.categoryId ? String(product.categoryId) : "",
      main_images: product.images.join(", "),
      qc_images: (await linkedQcUrls(getDb(), product.id)).join(", "),
      platform: product.platform ?? "",
      platform_item_id: product.platformItemId ?? "",
      original_url: product.originalUrl ?? "",
      isExternal: product.isExternal,
      url: product.platform && product.platformItemId ? `/${product.platform}/${product.platformItemId}` : `/product/${product.id}`,
      skus: product.skus.map((sku) => ({
        id: String(sku.id),
        sku_name: sku.name,
        sku_price: String(sku.priceCny),
        sku_stock: String(sku.stock),
        sku_thumbnail_url: sku.thumbnailUrl ?? "",
      })),
    },
  };
}

/** The indexes of the SKU rows a form holds (skus[0].sku_name, skus[1]...). */
function skuIndexes(form: FormData): number[] {
  const indexes = new Set<number>();
  for (const key of form.keys()) {
    const match = /^skus\[(\d+)\]\./.exec(key);
    if (match) indexes.add(Number(match[1]));
  }
  return [...indexes].sort((a, b) => a - b);
}

/** "Apply to all SKUs": every row gets the bulk price (or the product price) and the bulk stock (or 100 when 0 or empty). */
function applyBulk(form: FormData): void {
  const bulkPrice = String(form.get("bulk_price") ?? "").trim() || String(form.get("price_cny") ?? "").trim() || "0";
  const stock = String(form.get("bulk_stock") ?? "").trim();
  const bulkStock = !stock || Number(stock) === 0 ? String(BULK_STOCK_DEFAULT) : stock;
  for (const index of skuIndexes(form)) {
    form.set(`skus[${index}].sku_price`, bulkPrice);
    form.set(`skus[${index}].sku_stock`, bulkStock);
  }
}

type UploadOutcome = { urls: string[]; failures: string[]; total: number };

/** The reader's translator, and a service's message in the reader's language. */
type Say = { t: Translate; say: (text: string) => string };

async function storeChosenImages(form: FormData, ownerId: number, { say }: Say): Promise<UploadOutcome> {
  const files = form.getAll("upload").filter((value) => isUploadedFile(value) && value.size > 0);
  const outcome: UploadOutcome = { urls: [], failures: [], total: files.length };
  for (const file of files) {
    if (!isUploadedFile(file)) continue;
    try {
      const stored = await storeImage(
        file,
        "products",
        ownerId,
        { notImage: M.imageNotImage, tooLarge: M.imageTooLarge },
        PRODUCT_IMAGE_MAX_BYTES,
      );
      outcome.urls.push(stored.url);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      outcome.failures.push(`${sentFileName(file)}: ${say(error.message)}`);
    }
  }
  form.delete("upload");
  if (outcome.urls.length) {
    const current = String(form.get("main_images") ?? "").trim();
    form.set("main_images", [current, ...outcome.urls].filter(Boolean).join(", "));
  }
  return outcome;
}

function uploadSummary(outcome: UploadOutcome, { t }: Say): { notice: string | null; failures: string[] } {
  if (outcome.total === 0) return { notice: null, failures: [] };
  if (outcome.urls.length === 0) return { notice: t("admin.productForm.allUploadsFailed"), failures: outcome.failures };
  return { notice: t("admin.productForm.uploaded", { done: outcome.urls.length, total: outcome.total }), failures: outcome.failures };
}

/**
 * The import box: reads the link or id, fetches the item, and writes it into the form's
 * fields (name, price, images, description, marketplace, item id, link, SKUs). A bare
 * 10–12 digit number is tried on Weidian, then 1688.
 */
async function importIntoForm(
  form: FormData,
  { t }: Say,
): Promise<{ importNotice: string | null; importError: string | null; importLink: string }> {
  const text = String(form.get("import_link") ?? "")
    .trim()
    .slice(0, 2000);
  // a failed import keeps the link in its box
  const failed = (importError: string) => ({ importNotice: null, importError, importLink: text });
  if (!text) return failed(IMPORT_MESSAGES.required);
  let reading = await readPastedLink(text);
  if (reading.kind === "short") {
    // a short link is a supported format: one that leads to no item is an empty result (check
    // the link); one whose service does not answer is a failed fetch (docs/product/admin.md 5, 8)
    let unreachable = false;
    const resolved = await resolveShortLink(reading.url).catch((error: unknown) => {
      unreachable = !(error instanceof FetchRefused);
      return null;
    });
    if (!resolved) return failed(unreachable ? IMPORT_MESSAGES.fetchFailed : IMPORT_MESSAGES.empty);
    reading = { kind: "item", ...resolved, via: "link" };
  }
  if (reading.kind === "unresolvable") return failed(IMPORT_MESSAGES.unresolvable);
  if (reading.kind !== "item" && reading.kind !== "number") return failed(IMPORT_MESSAGES.unsupported);
  const tries: Platform[] = reading.kind === "item" ? [reading.platform] : reading.candidates;
  let item: CrawledProduct | null = null;
  let fetchFailed = false;
  for (const platform of tries) {
    try {
      item = await crawlItem(platform, reading.itemId);
      break;
    } catch (error) {
      if (error instanceof FetchFailed) fetchFailed = true;
      else if (!(error instanceof ItemNotFound)) throw error;
    }
  }
  if (!item) return failed(fetchFailed ? IMPORT_MESSAGES.fetchFailed : IMPORT_MESSAGES.empty);
  if (!item.title.trim()) return failed(IMPORT_MESSAGES.empty);
  form.set("name", item.title.slice(0, 255));
  form.set("price_cny", item.priceCny === null ? "" : String(item.priceCny));
  form.set("description", item.description.join("\n\n"));
  form.set("main_images", item.images.join(", "));
  form.set("platform", item.platform);
  form.set("platform_item_id", item.itemId);
  form.set("original_url", item.originalUrl);
  for (const key of [...form.keys()]) if (key.startsWith("skus[")) form.delete(key);
  item.skus.slice(0, SKUS_MAX).forEach((sku, index) => {
    form.set(`skus[${index}].sku_name`, sku.name.slice(0, 100));
    form.set(`skus[${index}].sku_price`, String(sku.priceCny));
    form.set(`skus[${index}].sku_stock`, String(sku.stock));
    form.set(`skus[${index}].sku_thumbnail_url`, sku.thumbnailUrl ?? "");
  });
  form.delete("import_link");
  const filled = { platform: PLATFORM_LABELS[item.platform], itemId: item.itemId, shop: item.shopName ?? "" };
  const importNotice = item.shopName ? t("admin.productForm.importedWithShop", filled) : t("admin.productForm.imported", filled);
  return { importNotice, importError: null, importLink: "" };
}

/** What a save's failure tells the admin (docs/product/admin.md 8). */
function classify(error: ApiError, mode: ProductFormMode, form: FormData, { t, say }: Say): string {
  const text = `${error.code ?? ""} ${error.message}`;
  if (error.status === 409 || /already exists|duplicate|重复/i.test(text)) {
    const platform = String(form.get("platform") ?? "") as Platform;
    return t("admin.productForm.duplicate", {
      platform: PLATFORM_LABELS[platform] ?? platform,
      itemId: String(form.get("platform_item_id") ?? ""),
    });
  }
  if (error.status === 400 || /validation|验证/i.test(text)) return say(FORM_MESSAGES.invalid);
  if (error.status === 401 || error.status === 403 || /authoriz|权限/i.test(text)) return say(FORM_MESSAGES.permission);
  if (mode.kind === "edit" && (error.status === 404 || /not found|找不到/i.test(text)) && !error.errors?.length)
    return t("admin.productForm.notFound", { id: mode.id });
  return t("admin.productForm.saveFailed", { reason: say(error.message) });
}

/**
 * Every answer of the form that is not a save: the form as the server left it (an import,
 * the bulk tools, stored images, a row added or removed, errors) and a new `formKey`. The
 * page draws the form anew under that key, so with JavaScript the fields show exactly what
 * the server answered (an uncontrolled field would keep what was typed) and the file
 * input is empty again (a file is never sent twice). The intent is already applied to the
 * values: it is not handed on to be applied again.
 */
function answer<T extends { result: SubmissionResult<string[]> | undefined }>(outcome: T): T & { formKey: string } {
  const result = outcome.result ? { ...outcome.result, intent: undefined } : undefined;
  return { ...outcome, result, formKey: crypto.randomUUID() };
}

export async function productFormAction(request: Request, mode: ProductFormMode) {
  // who is asking, before the form is read
  // (checked here too, before any chosen image is stored; the service decides again)
  const actor = await requireAdmin(request, permissionFor(mode));
  const { user } = actor;
  if (mode.kind === "edit") await productOrNotFound(mode.id);
  // what the form tells, in the reader's language (the services' words are the /api's)
  const language = readLanguage(request);
  const t = translatorFor(language);
  const reader: Say = { t, say: (text) => translateMessage(language, text) };

  const handle = async (form: FormData) => {
    // checked before anything reads the rows: parsing thousands of them is slow
    if (skuIndexes(form).length > SKUS_MAX) {
      return answer({
        result: undefined,
        fatal: `${reader.say(FORM_MESSAGES.invalid)} ${t("admin.productForm.atMostSkus", { max: SKUS_MAX })}`,
        uploadNotice: null,
        uploadFailures: [] as string[],
      });
    }
    const uploads = uploadSummary(await storeChosenImages(form, user.id, reader), reader);
    const importing = form.get("intent") === "import" ? await importIntoForm(form, reader) : null;
    if (form.get("bulk") === "apply") applyBulk(form);
    // the images field is one comma-separated text; the schema reads a list (conform makes
    // a single value a one-item list, so the split happens here)
    for (const field of ["main_images", "qc_images"]) {
      const urls = String(form.get(field) ?? "")
        .split(",")
        .map((url) => url.trim())
        .filter(Boolean);
      form.delete(field);
      for (const url of urls) form.append(field, url);
    }
    const submission = parseWithZod(form, { schema: productInputSchema });
    const extra = { uploadNotice: uploads.notice, uploadFailures: uploads.failures, fatal: null as string | null };

    // the import box, the bulk tools, or adding or removing a SKU row (a conform intent, no
    // status): the form comes back as changed, nothing saved
    if (importing) return answer({ result: { ...submission.reply(), error: {} }, ...extra, ...importing });
    if (form.get("bulk") === "apply") return answer({ result: { ...submission.reply(), error: {} }, ...extra });
    if (submission.status !== "success") {
      return answer({
        result: submission.status === "error" ? submission.reply({ formErrors: [FORM_MESSAGES.invalid] }) : submission.reply(),
        ...extra,
      });
    }

    // an image that could not be stored stops the save: the admin sees which, and chooses again
    if (uploads.failures.length)
      return answer({ result: submission.reply({ formErrors: [uploads.notice ?? t("admin.productForm.allUploadsFailed")] }), ...extra });

    // the grid is the whole list: no rows left means no SKUs
    const body = {
      ...submission.value,
      main_images: submission.value.main_images ?? [],
      qc_images: submission.value.qc_images ?? [],
      skus: submission.value.skus ?? [],
    };
    try {
      const saved = mode.kind === "create" ? await createProduct(body, actor) : await updateProductByAdmin(mode.id, body, actor);
      return redirectWithToast(saved.isExternal ? "/admin/external-products" : "/admin/products", {
        message: `${mode.kind === "create" ? t("admin.productForm.created", { name: saved.name }) : t("admin.productForm.updated", { name: saved.name })}${uploads.notice ? ` (${uploads.notice})` : ""}`,
      });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const fieldErrors: Record<string, string[]> = {};
      for (const fieldError of error.errors ?? []) (fieldErrors[fieldError.field] ??= []).push(fieldError.message);
      return answer({ result: submission.reply({ formErrors: [classify(error, mode, form, reader)], fieldErrors }), ...extra });
    }
  };

  const type = request.headers.get("Content-Type") ?? "";
  if (!type.toLowerCase().startsWith("multipart/form-data")) return handle(await request.formData());
  try {
    return await withMultipart(
      request,
      {
        maxFileBytes: PRODUCT_FORM_FILE_STREAM_BYTES,
        maxFiles: PRODUCT_FORM_MAX_FILES,
        // five fields a SKU row, and the rest of the form
        maxFields: SKUS_MAX * 5 + 50,
        messages: {
          fileTooLarge: reader.say(M.imageTooLarge),
          tooManyFiles: t("admin.productForm.tooManyFiles", { max: PRODUCT_FORM_MAX_FILES }),
        },
      },
      handle,
    );
  } catch (error) {
    // the body could not be read whole: nothing was stored, the form starts again from the saved product
    if (!(error instanceof ApiError)) throw error;
    const message = /too many fields/i.test(error.message)
      ? t("admin.productForm.atMostSkus", { max: SKUS_MAX })
      : reader.say(error.message);
    return answer({
      result: undefined,
      fatal: `${reader.say(FORM_MESSAGES.invalid)} ${message}`,
      uploadNotice: null,
      uploadFailures: [] as string[],
    });
  }
}
