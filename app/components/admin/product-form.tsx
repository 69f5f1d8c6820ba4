/**
 * The back-office product form (create and edit; app/controllers/admin-product-form.server.ts).
 * A plain multipart form: the SKU grid's add and remove buttons are conform intents (done
 * in the browser with JavaScript when no image files wait to be sent, by the server
 * otherwise), the import box, the bulk tools and the image files go to the server, "Save"
 * validates and saves there. Whatever the server answers is what the form then shows: it
 * is drawn anew under the answer's `formKey` (values, errors, an empty file input).
 */
import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form, Link, useNavigation } from "@remix-run/react";
import { useRef, type ReactNode } from "react";
import { ErrorList, Field, FormErrors } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { NEW_SKU, PLATFORMS } from "~/schemas/catalogue-rules";
import { platformLabel } from "./labels";
import { useI18n } from "~/i18n/i18n";

/**
 * The bulk tools ("apply to all") from 2 SKUs, where applying to all first saves typing
 * (issue 39; the spec had them from 6); three columns from 7 (docs/product/admin.md 9).
 */
const BULK_TOOLS_FROM = 2;
const COLUMNS_FROM = 7;

/** A new SKU row's name: "new model", then "new model 2", … the first no row has (names are unique in a product). */
export function freshSkuName(names: ReadonlyArray<string | undefined>): string {
  const taken = new Set(names.map((name) => (name ?? "").trim().toLowerCase()));
  if (!taken.has(NEW_SKU.sku_name)) return NEW_SKU.sku_name;
  for (let n = 2; ; n++) if (!taken.has(`${NEW_SKU.sku_name} ${n}`)) return `${NEW_SKU.sku_name} ${n}`;
}

type SkuValues = { id?: string; sku_name: string; sku_price: string; sku_stock: string; sku_thumbnail_url?: string };
export type ProductFormValues = {
  name: string;
  description: string;
  price_cny: string;
  category_id: string;
  main_images: string;
  qc_images: string;
  platform: string;
  platform_item_id: string;
  original_url: string;
  skus: SkuValues[];
};

export type ProductFormOutcome = {
  result?: SubmissionResult<string[]>;
  uploadNotice: string | null;
  uploadFailures: string[];
  fatal: string | null;
  /** the import box's result (docs/product/admin.md 5, 8), and the link a failed import keeps */
  importNotice?: string | null;
  importError?: string | null;
  importLink?: string;
  /** new with every answer: the form is drawn anew with what the server answered */
  formKey?: string;
};

/**
 * The import box (docs/product/admin.md 2): a link or id from Weidian, Taobao, Tmall or 1688 (or
 * an agent's link) fills the form from the marketplace; nothing is saved until "Save".
 * Inside the product form: its button posts the whole form with intent=import.
 */
export function ProductImportBox({ outcome }: { outcome?: ProductFormOutcome }) {
  const { t, message } = useI18n();
  return (
    <section className="card product-import" aria-labelledby="product-import-title">
      <h2 id="product-import-title">{t("admin.productForm.importTitle")}</h2>
      <p className="muted">{t("admin.productForm.importHelp")}</p>
      <div className="site-search">
        <label htmlFor="import-link" className="visually-hidden">
          {t("admin.productForm.importLabel")}
        </label>
        <input
          id="import-link"
          name="import_link"
          type="text"
          defaultValue={outcome?.importLink ?? ""}
          inputMode="url"
          autoComplete="off"
          placeholder="https://weidian.com/item.html?itemID=…"
          aria-describedby="import-message"
          onKeyDown={(event) => {
            // Enter here imports (the form's default button would save)
            if (event.key !== "Enter") return;
            event.preventDefault();
            event.currentTarget.parentElement?.querySelector<HTMLButtonElement>('button[value="import"]')?.click();
          }}
        />
        <SubmitButton name="intent" value="import" pendingText={t("admin.productForm.importing")} formNoValidate>
          {t("admin.productForm.import")}
        </SubmitButton>
      </div>
      <div id="import-message" aria-live="polite">
        {outcome?.importError ? (
          <p className="notice notice--error" role="alert">
            {message(outcome.importError)}
          </p>
        ) : outcome?.importNotice ? (
          <p className="notice notice--success" role="status">
            {message(outcome.importNotice)}
          </p>
        ) : null}
      </div>
    </section>
  );
}

type ProductFormProps = {
  id: string;
  defaults: ProductFormValues | null;
  categories: Array<{ id: number; name: string; parentId: number | null }>;
  outcome?: ProductFormOutcome;
  submitLabel: string;
  cancelTo: string;
  importBox?: ReactNode;
};

/** The form, drawn anew for every answer of the server (see the file's comment). */
export function ProductForm(props: ProductFormProps) {
  return <ProductFormFields key={props.outcome?.formKey ?? "loaded"} {...props} />;
}

function ProductFormFields({ id, defaults, categories, outcome, submitLabel, cancelTo, importBox }: ProductFormProps) {
  const { t, message } = useI18n();
  const navigation = useNavigation();
  const uploadInput = useRef<HTMLInputElement>(null);
  // while an answer is awaited nothing more is sent: a second press would send the same
  // state again (two "Add SKU" presses would add one row, files would go twice)
  const busy = navigation.state === "submitting";
  /** Rows are added and removed here, at once, unless image files wait to be sent with the press. */
  const inBrowser = () => !uploadInput.current?.files?.length;
  const [form, fields] = useForm<ProductFormValues>({
    id,
    lastResult: outcome?.result,
    // the server's answer is the form's starting point (its keys then match its rows)
    defaultValue: (outcome?.result?.initialValue as ProductFormValues | undefined) ?? defaults ?? { skus: [] },
  });
  const skus = fields.skus.getFieldList();
  const newSku = { ...NEW_SKU, sku_name: freshSkuName(skus.map((sku) => sku.getFieldset().sku_name.value)) };
  // the server sends the list back as a list, the edit page as one text
  const imagesValue = fields.main_images.initialValue as string | string[] | undefined;
  const imagesText = Array.isArray(imagesValue) ? imagesValue.join(", ") : (imagesValue ?? "");
  const qcValue = fields.qc_images.initialValue as string | string[] | undefined;
  const qcText = Array.isArray(qcValue) ? qcValue.join(", ") : (qcValue ?? "");
  const imageList = imagesText
    .split(",")
    .map((url) => url.trim())
    .filter(Boolean);
  const topCategories = categories.filter((category) => category.parentId === null);
  const childrenOf = (parentId: number) => categories.filter((category) => category.parentId === parentId);

  return (
    <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="product-form" aria-busy={busy || undefined}>
      <fieldset className="product-form__body" disabled={busy}>
        {/* Enter in a field saves: the first submit button is the default one, not "Remove" */}
        <button type="submit" className="visually-hidden" tabIndex={-1} aria-hidden="true">
          {submitLabel}
        </button>
        {importBox}
        <FormErrors id={form.errorId} errors={[...(outcome?.fatal ? [message(outcome.fatal)] : []), ...(form.errors ?? []).map(message)]} />
        {outcome?.uploadNotice ? (
          <div className={outcome.uploadFailures.length ? "notice notice--warning" : "notice notice--success"} role="status">
            <p>
              <strong>{message(outcome.uploadNotice)}</strong>
            </p>
            {outcome.uploadFailures.length ? (
              <ul>
                {outcome.uploadFailures.map((failure) => (
                  <li key={failure}>{message(failure)}</li>
                ))}
              </ul>
            ) : null}
          </div>
        ) : null}

        <section className="card" aria-labelledby={`${id}-basics`}>
          <h2 id={`${id}-basics`}>{t("admin.productForm.product")}</h2>
          <Field id={fields.name.id} label={t("admin.productForm.name")} errors={fields.name.errors} hint={t("admin.productForm.nameHint")}>
            <input {...getInputProps(fields.name, { type: "text" })} maxLength={255} />
          </Field>
          <Field id={fields.description.id} label={t("admin.productForm.description")} errors={fields.description.errors}>
            <textarea {...getTextareaProps(fields.description)} rows={5} />
          </Field>
          <div className="admin-form-grid">
            <Field id={fields.price_cny.id} label={t("admin.productForm.price")} errors={fields.price_cny.errors}>
              <input {...getInputProps(fields.price_cny, { type: "number" })} min={0} step="0.01" inputMode="decimal" />
            </Field>
            <Field id={fields.category_id.id} label={t("admin.productForm.category")} errors={fields.category_id.errors}>
              <select {...getSelectProps(fields.category_id)}>
                <option value="">{t("admin.productForm.noCategory")}</option>
                {topCategories.map((top) => (
                  <optgroup key={top.id} label={top.name}>
                    <option value={top.id}>{top.name}</option>
                    {childrenOf(top.id).map((child) => (
                      <option key={child.id} value={child.id}>
                        {`${top.name} › ${child.name}`}
                      </option>
                    ))}
                  </optgroup>
                ))}
              </select>
            </Field>
          </div>
        </section>

        <section className="card" aria-labelledby={`${id}-images`}>
          <h2 id={`${id}-images`}>{t("admin.productForm.images")}</h2>
          <Field
            id={fields.main_images.id}
            label={t("admin.productForm.imageAddresses")}
            errors={fields.main_images.errors}
            hint={t("admin.productForm.imageAddressesHint")}
          >
            <textarea {...getTextareaProps(fields.main_images)} defaultValue={imagesText} rows={3} />
          </Field>
          {imageList.length ? (
            <ul className="product-form__images" aria-label={t("admin.productForm.currentImages")}>
              {imageList.map((url, index) => (
                <li key={`${url}-${index}`}>
                  <img
                    src={url}
                    alt={index === 0 ? t("admin.productForm.thumbnail") : t("admin.productForm.imageN", { n: index + 1 })}
                    width={72}
                    height={72}
                    loading="lazy"
                  />
                </li>
              ))}
            </ul>
          ) : null}
          <div className="field">
            <label htmlFor={`${id}-upload`}>{t("admin.productForm.uploadImages")}</label>
            <input
              ref={uploadInput}
              id={`${id}-upload`}
              type="file"
              name="upload"
              multiple
              accept="image/jpeg,image/png,image/webp,image/gif"
            />
            <span className="field__hint">{t("admin.productForm.uploadHint")}</span>
          </div>
          <Field
            id={fields.qc_images.id}
            label={t("admin.productForm.qcAddresses")}
            errors={fields.qc_images.errors}
            hint={t("admin.productForm.qcAddressesHint")}
          >
            <textarea {...getTextareaProps(fields.qc_images)} defaultValue={qcText} rows={2} />
          </Field>
        </section>

        <section className="card" aria-labelledby={`${id}-marketplace`}>
          <h2 id={`${id}-marketplace`}>{t("admin.productForm.marketplace")}</h2>
          <div className="admin-form-grid">
            <Field id={fields.platform.id} label={t("admin.productForm.platform")} errors={fields.platform.errors}>
              <select {...getSelectProps(fields.platform)}>
                <option value="">{t("admin.productForm.none")}</option>
                {PLATFORMS.map((platform) => (
                  <option key={platform} value={platform}>
                    {platformLabel(t, platform)}
                  </option>
                ))}
              </select>
            </Field>
            <Field id={fields.platform_item_id.id} label={t("admin.productForm.platformItemId")} errors={fields.platform_item_id.errors}>
              <input {...getInputProps(fields.platform_item_id, { type: "text" })} maxLength={40} autoComplete="off" />
            </Field>
          </div>
          <Field id={fields.original_url.id} label={t("admin.productForm.originalUrl")} errors={fields.original_url.errors}>
            <input {...getInputProps(fields.original_url, { type: "url" })} placeholder="https://" />
          </Field>
        </section>

        <section className="card" aria-labelledby={`${id}-skus`}>
          <h2 id={`${id}-skus`}>
            {t("admin.productForm.skus")} <span className="admin-badge admin-badge--count">{skus.length}</span>
          </h2>
          <ErrorList id={`${fields.skus.id}-error`} errors={fields.skus.errors} />
          {skus.length >= BULK_TOOLS_FROM ? (
            <fieldset className="admin-fieldset sku-bulk">
              <legend>{t("admin.productForm.bulkLegend")}</legend>
              <div className="admin-form-grid">
                <div className="field">
                  <label htmlFor={`${id}-bulk-price`}>{t("admin.productForm.bulkPrice")}</label>
                  <input id={`${id}-bulk-price`} name="bulk_price" type="number" min={0} step="0.01" inputMode="decimal" />
                </div>
                <div className="field">
                  <label htmlFor={`${id}-bulk-stock`}>{t("admin.productForm.bulkStock")}</label>
                  <input id={`${id}-bulk-stock`} name="bulk_stock" type="number" min={0} step={1} inputMode="numeric" />
                </div>
              </div>
              <button type="submit" name="bulk" value="apply" className="button button--secondary" formNoValidate>
                {t("admin.productForm.bulkApply")}
              </button>
            </fieldset>
          ) : null}
          {skus.length === 0 ? <p className="muted">{t("admin.productForm.noSkus")}</p> : null}
          <ol className={skus.length >= COLUMNS_FROM ? "sku-grid sku-grid--columns" : "sku-grid"}>
            {skus.map((sku, index) => {
              const row = sku.getFieldset();
              return (
                <li key={sku.key} className="sku-grid__row">
                  {row.id.initialValue ? <input type="hidden" name={row.id.name} value={String(row.id.initialValue)} /> : null}
                  <Field id={row.sku_name.id} label={t("admin.productForm.skuName", { n: index + 1 })} errors={row.sku_name.errors}>
                    <input {...getInputProps(row.sku_name, { type: "text" })} maxLength={200} />
                  </Field>
                  <Field id={row.sku_price.id} label={t("admin.productForm.skuPrice")} errors={row.sku_price.errors}>
                    <input {...getInputProps(row.sku_price, { type: "number" })} min={0} step="0.01" inputMode="decimal" />
                  </Field>
                  <Field id={row.sku_stock.id} label={t("admin.productForm.skuStock")} errors={row.sku_stock.errors}>
                    <input {...getInputProps(row.sku_stock, { type: "number" })} min={0} step={1} inputMode="numeric" />
                  </Field>
                  <Field id={row.sku_thumbnail_url.id} label={t("admin.productForm.skuThumbnail")} errors={row.sku_thumbnail_url.errors}>
                    <input {...getInputProps(row.sku_thumbnail_url, { type: "text" })} />
                  </Field>
                  <button
                    {...form.remove.getButtonProps({ name: fields.skus.name, index })}
                    onClick={(event) => {
                      if (!inBrowser()) return;
                      event.preventDefault();
                      form.remove({ name: fields.skus.name, index });
                    }}
                    className="button button--secondary button--small"
                    aria-label={t("admin.productForm.removeSku", { n: index + 1 })}
                    formNoValidate
                  >
                    {t("admin.common.remove")}
                  </button>
                </li>
              );
            })}
          </ol>
          <button
            {...form.insert.getButtonProps({ name: fields.skus.name, defaultValue: newSku })}
            onClick={(event) => {
              if (!inBrowser()) return;
              event.preventDefault();
              form.insert({ name: fields.skus.name, defaultValue: newSku });
            }}
            className="button button--secondary"
            formNoValidate
          >
            {t("admin.productForm.addSku")}
          </button>
        </section>

        <div className="form-actions product-form__actions">
          <SubmitButton className="button" pendingText={t("admin.common.saving")}>
            {submitLabel}
          </SubmitButton>
          <Link to={cancelTo} className="button button--secondary">
            {t("admin.common.cancel")}
          </Link>
        </div>
      </fieldset>
    </Form>
  );
}
