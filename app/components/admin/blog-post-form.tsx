/**
 * The post editor (create and edit; app/controllers/admin-blog-post-form.server.ts). A plain
 * multipart form: the body is a <textarea> of HTML that works without JavaScript; with
 * JavaScript the rich-text editor (its own chunk, loaded only here) takes it over.
 * Buttons: "Save draft", "Publish now" and "Save" (keeps the chosen status).
 */
import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from "react";
import { Field, FormErrors } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import type { PostFormValues } from "~/controllers/admin-blog-post-form.server";
import type { PostStatus } from "~/schemas/blog-rules";
import { useI18n, useT } from "~/i18n/i18n";
import { TimeZoneField, useZonedTime } from "~/components/admin/time-zone";
import { postStatusLabel } from "./labels";

// `.client`: the server build holds an empty module instead, so the server never loads
// tiptap (about 25 MB of memory; the editor is only ever rendered in the browser, mounted)
const RichTextEditor = lazy(() => import("./rich-text-editor.client"));

/** The body's field: the textarea, and with JavaScript the editor over it. */
function ContentField({
  id,
  name,
  defaultValue,
  errors,
  errorId,
}: {
  id: string;
  name: string;
  defaultValue: string;
  errors?: string[];
  errorId: string;
}) {
  const { t, message } = useI18n();
  const textarea = useRef<HTMLTextAreaElement>(null);
  const [mounted, setMounted] = useState(false);
  const [ready, setReady] = useState(false);
  useEffect(() => setMounted(true), []);
  const onReady = useCallback(() => setReady(true), []);
  return (
    <div className="field rich-editor-field">
      <label htmlFor={id} id={`${id}-label`}>
        {t("admin.blogPost.content")}
      </label>
      <textarea
        ref={textarea}
        id={id}
        name={name}
        defaultValue={defaultValue}
        rows={16}
        className="rich-editor__plain"
        hidden={ready}
        aria-describedby={`${id}-hint ${errorId}`}
        aria-invalid={errors?.length ? true : undefined}
      />
      {mounted && textarea.current ? (
        <Suspense fallback={null}>
          <RichTextEditor textarea={textarea.current} label={t("admin.blogPost.content")} onReady={onReady} />
        </Suspense>
      ) : null}
      <span className="field__hint" id={`${id}-hint`}>
        {ready ? t("admin.blogPost.contentHintEditor") : t("admin.blogPost.contentHintHtml")}
      </span>
      <div id={errorId} className="field__error" aria-live="polite">
        {errors?.map(message).join(" ")}
      </div>
    </div>
  );
}

export type PostFormData = {
  mode: { kind: "create" } | { kind: "edit"; id: number };
  categories: Array<{ id: number; name: string; depth: number }>;
  statuses: PostStatus[];
  values: PostFormValues;
};

type FieldNames = { [K in keyof PostFormValues]: string };

export function BlogPostForm({
  data,
  lastResult,
  fatal,
}: {
  data: PostFormData;
  lastResult?: SubmissionResult<string[]>;
  fatal?: string | null;
}) {
  const t = useT();
  const { message } = useI18n();
  const { label: zoneLabel } = useZonedTime();
  const { values } = data;
  const [form, fields] = useForm<FieldNames>({
    id: data.mode.kind === "edit" ? `edit-post-${data.mode.id}` : "new-post",
    lastResult,
    defaultValue: { ...values, is_featured: values.is_featured ? "on" : "", is_pinned: values.is_pinned ? "on" : "" },
  });
  const featuredImage = String(fields.featured_image.initialValue ?? values.featured_image ?? "");
  const saveLabel = data.mode.kind === "create" ? t("admin.blogPost.create") : t("admin.common.save");
  return (
    <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="blog-post-form">
      {/* Enter in a field saves with the chosen status: the first submit button is the default one */}
      <button type="submit" name="intent" value="save" className="visually-hidden" tabIndex={-1} aria-hidden="true">
        {saveLabel}
      </button>
      <FormErrors id={form.errorId} errors={[...(fatal ? [message(fatal)] : []), ...(form.errors ?? []).map(message)]} />

      <div className="blog-post-form__grid">
        <div className="blog-post-form__main">
          <section className="card">
            <Field id={fields.title.id} label={t("admin.blogPost.title")} errors={fields.title.errors}>
              <input {...getInputProps(fields.title, { type: "text" })} maxLength={200} className="blog-post-form__title" />
            </Field>
            <Field id={fields.slug.id} label={t("admin.blogPost.slug")} errors={fields.slug.errors} hint={t("admin.blogPost.slugHint")}>
              <input {...getInputProps(fields.slug, { type: "text" })} maxLength={120} autoComplete="off" />
            </Field>
            <ContentField
              id={fields.content.id}
              name={fields.content.name}
              defaultValue={String(fields.content.initialValue ?? "")}
              errors={fields.content.errors}
              errorId={fields.content.errorId}
            />
            <Field
              id={fields.excerpt.id}
              label={t("admin.blogPost.excerpt")}
              errors={fields.excerpt.errors}
              hint={t("admin.blogPost.excerptHint")}
            >
              <textarea {...getTextareaProps(fields.excerpt)} rows={3} maxLength={1000} />
            </Field>
          </section>

          <section className="card" aria-labelledby="post-seo">
            <h2 id="post-seo">{t("admin.blogPost.searchEngines")}</h2>
            <Field
              id={fields.meta_title.id}
              label={t("admin.blogPost.metaTitle")}
              errors={fields.meta_title.errors}
              hint={t("admin.blogPost.metaTitleHint")}
            >
              <input {...getInputProps(fields.meta_title, { type: "text" })} maxLength={200} />
            </Field>
            <Field
              id={fields.meta_description.id}
              label={t("admin.blogPost.metaDescription")}
              errors={fields.meta_description.errors}
              hint={t("admin.blogPost.metaDescriptionHint")}
            >
              <textarea {...getTextareaProps(fields.meta_description)} rows={2} maxLength={500} />
            </Field>
          </section>
        </div>

        <div className="blog-post-form__side">
          <section className="card" aria-labelledby="post-publish">
            <h2 id="post-publish">{t("admin.blogPost.publishing")}</h2>
            <Field id={fields.status.id} label={t("admin.blogPost.status")} errors={fields.status.errors}>
              <select {...getSelectProps(fields.status)}>
                {data.statuses.map((status) => (
                  <option key={status} value={status}>
                    {postStatusLabel(t, status)}
                  </option>
                ))}
              </select>
            </Field>
            <Field
              id={fields.published_at.id}
              label={t("admin.blogPost.publishAt", { zone: zoneLabel })}
              errors={fields.published_at.errors}
              hint={t("admin.blogPost.publishAtHint")}
            >
              <input {...getInputProps(fields.published_at, { type: "datetime-local" })} />
              <TimeZoneField />
            </Field>
            <label className="admin-check">
              <input type="checkbox" name={fields.is_featured.name} defaultChecked={values.is_featured} /> {t("admin.blogPost.featured")}
            </label>
            <label className="admin-check">
              <input type="checkbox" name={fields.is_pinned.name} defaultChecked={values.is_pinned} /> {t("admin.blogPost.pinned")}
            </label>
            <div className="form-actions blog-post-form__actions">
              <SubmitButton name="intent" value="draft" className="button button--secondary" pendingText={t("admin.common.saving")}>
                {t("admin.blogPost.saveDraft")}
              </SubmitButton>
              <SubmitButton name="intent" value="publish" className="button button--accent" pendingText={t("admin.blogPost.publishing2")}>
                {t("admin.blogPost.publishNow")}
              </SubmitButton>
              <SubmitButton name="intent" value="save" className="button" pendingText={t("admin.common.saving")}>
                {saveLabel}
              </SubmitButton>
            </div>
          </section>

          <section className="card" aria-labelledby="post-filing">
            <h2 id="post-filing">{t("admin.blogPost.categoryAndTags")}</h2>
            <Field id={fields.category_id.id} label={t("admin.blogPost.category")} errors={fields.category_id.errors}>
              <select {...getSelectProps(fields.category_id)}>
                <option value="">{t("admin.productForm.noCategory")}</option>
                {data.categories.map((category) => (
                  <option key={category.id} value={category.id}>
                    {`${"— ".repeat(category.depth)}${category.name}`}
                  </option>
                ))}
              </select>
            </Field>
            <Field id={fields.tags.id} label={t("admin.blogPost.tags")} errors={fields.tags.errors} hint={t("admin.blogPost.tagsHint")}>
              <input {...getInputProps(fields.tags, { type: "text" })} autoComplete="off" />
            </Field>
          </section>

          <section className="card" aria-labelledby="post-image">
            <h2 id="post-image">{t("admin.blogPost.featuredImage")}</h2>
            {featuredImage ? (
              <img src={featuredImage} alt={t("admin.blogPost.currentImage")} className="blog-post-form__image" width={320} height={180} />
            ) : null}
            <Field
              id={fields.featured_image.id}
              label={t("admin.blogPost.imageAddress")}
              errors={fields.featured_image.errors}
              hint={t("admin.blogPost.imageAddressHint")}
            >
              <input {...getInputProps(fields.featured_image, { type: "text" })} />
            </Field>
            <div className="field">
              <label htmlFor={`${form.id}-featured-upload`}>{t("admin.blogPost.uploadImage")}</label>
              <input
                id={`${form.id}-featured-upload`}
                type="file"
                name="featured_upload"
                accept="image/jpeg,image/png,image/webp,image/gif"
              />
              <span className="field__hint">{t("admin.blogPost.uploadHint")}</span>
            </div>
            {featuredImage ? (
              <label className="admin-check">
                <input type="checkbox" name="remove_featured_image" /> {t("admin.blogPost.removeImage")}
              </label>
            ) : null}
          </section>

          <section className="card" aria-labelledby="post-reading">
            <h2 id="post-reading">{t("admin.blogPost.readingTime")}</h2>
            <Field
              id={fields.reading_time.id}
              label={t("admin.blogPost.minutes")}
              errors={fields.reading_time.errors}
              hint={t("admin.blogPost.minutesHint")}
            >
              <input {...getInputProps(fields.reading_time, { type: "number" })} min={1} step={1} inputMode="numeric" />
            </Field>
          </section>
          <p>
            <Link to="/admin/blog/posts">← {t("admin.blogPost.allPosts")}</Link>
          </p>
        </div>
      </div>
    </Form>
  );
}
