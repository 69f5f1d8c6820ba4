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
import { POST_STATUS_LABELS, type PostStatus } from "~/schemas/blog-rules";

const RichTextEditor = lazy(() => import("./rich-text-editor"));

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
  const textarea = useRef<HTMLTextAreaElement>(null);
  const [mounted, setMounted] = useState(false);
  const [ready, setReady] = useState(false);
  useEffect(() => setMounted(true), []);
  const onReady = useCallback(() => setReady(true), []);
  return (
    <div className="field rich-editor-field">
      <label htmlFor={id} id={`${id}-label`}>
        Content
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
          <RichTextEditor textarea={textarea.current} label="Content" onReady={onReady} />
        </Suspense>
      ) : null}
      <span className="field__hint" id={`${id}-hint`}>
        {ready
          ? "Headings 1–6, lists, quotes, code, links and images. Reading time is worked out from the words."
          : "HTML: <p>, <h1>–<h6>, <strong>, <em>, <ul>/<ol>, <blockquote>, <a href>, <img src> (uploads or https). Anything else is removed when saved."}
      </span>
      <div id={errorId} className="field__error" aria-live="polite">
        {errors?.join(" ")}
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
  const { values } = data;
  const [form, fields] = useForm<FieldNames>({
    id: data.mode.kind === "edit" ? `edit-post-${data.mode.id}` : "new-post",
    lastResult,
    defaultValue: { ...values, is_featured: values.is_featured ? "on" : "", is_pinned: values.is_pinned ? "on" : "" },
  });
  const featuredImage = String(fields.featured_image.initialValue ?? values.featured_image ?? "");
  const saveLabel = data.mode.kind === "create" ? "Create post" : "Save";
  return (
    <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="blog-post-form">
      {/* Enter in a field saves with the chosen status: the first submit button is the default one */}
      <button type="submit" name="intent" value="save" className="visually-hidden" tabIndex={-1} aria-hidden="true">
        {saveLabel}
      </button>
      <FormErrors id={form.errorId} errors={[...(fatal ? [fatal] : []), ...(form.errors ?? [])]} />

      <div className="blog-post-form__grid">
        <div className="blog-post-form__main">
          <section className="card">
            <Field id={fields.title.id} label="Title" errors={fields.title.errors}>
              <input {...getInputProps(fields.title, { type: "text" })} maxLength={200} className="blog-post-form__title" />
            </Field>
            <Field
              id={fields.slug.id}
              label="Slug"
              errors={fields.slug.errors}
              hint="The address: /blog/<slug>. Leave empty to make it from the title."
            >
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
              label="Excerpt (optional)"
              errors={fields.excerpt.errors}
              hint="Shown in lists and feeds; the beginning of the post when empty."
            >
              <textarea {...getTextareaProps(fields.excerpt)} rows={3} maxLength={1000} />
            </Field>
          </section>

          <section className="card" aria-labelledby="post-seo">
            <h2 id="post-seo">Search engines</h2>
            <Field
              id={fields.meta_title.id}
              label="Meta title (optional)"
              errors={fields.meta_title.errors}
              hint="The page title; the post's title when empty."
            >
              <input {...getInputProps(fields.meta_title, { type: "text" })} maxLength={200} />
            </Field>
            <Field
              id={fields.meta_description.id}
              label="Meta description (optional)"
              errors={fields.meta_description.errors}
              hint="The summary search engines show; the excerpt when empty."
            >
              <textarea {...getTextareaProps(fields.meta_description)} rows={2} maxLength={500} />
            </Field>
          </section>
        </div>

        <div className="blog-post-form__side">
          <section className="card" aria-labelledby="post-publish">
            <h2 id="post-publish">Publishing</h2>
            <Field id={fields.status.id} label="Status" errors={fields.status.errors}>
              <select {...getSelectProps(fields.status)}>
                {data.statuses.map((status) => (
                  <option key={status} value={status}>
                    {POST_STATUS_LABELS[status]}
                  </option>
                ))}
              </select>
            </Field>
            <Field
              id={fields.published_at.id}
              label="Publish at (UTC)"
              errors={fields.published_at.errors}
              hint="Published with a later time: scheduled, it goes live by itself then. Empty: when published."
            >
              <input {...getInputProps(fields.published_at, { type: "datetime-local" })} />
            </Field>
            <label className="admin-check">
              <input type="checkbox" name={fields.is_featured.name} defaultChecked={values.is_featured} /> Featured
            </label>
            <label className="admin-check">
              <input type="checkbox" name={fields.is_pinned.name} defaultChecked={values.is_pinned} /> Pinned to the top
            </label>
            <div className="form-actions blog-post-form__actions">
              <SubmitButton name="intent" value="draft" className="button button--secondary" pendingText="Saving…">
                Save draft
              </SubmitButton>
              <SubmitButton name="intent" value="publish" className="button button--accent" pendingText="Publishing…">
                Publish now
              </SubmitButton>
              <SubmitButton name="intent" value="save" className="button" pendingText="Saving…">
                {saveLabel}
              </SubmitButton>
            </div>
          </section>

          <section className="card" aria-labelledby="post-filing">
            <h2 id="post-filing">Category and tags</h2>
            <Field id={fields.category_id.id} label="Category" errors={fields.category_id.errors}>
              <select {...getSelectProps(fields.category_id)}>
                <option value="">No category</option>
                {data.categories.map((category) => (
                  <option key={category.id} value={category.id}>
                    {`${"— ".repeat(category.depth)}${category.name}`}
                  </option>
                ))}
              </select>
            </Field>
            <Field id={fields.tags.id} label="Tags" errors={fields.tags.errors} hint="Separated by commas.">
              <input {...getInputProps(fields.tags, { type: "text" })} autoComplete="off" />
            </Field>
          </section>

          <section className="card" aria-labelledby="post-image">
            <h2 id="post-image">Featured image</h2>
            {featuredImage ? (
              <img src={featuredImage} alt="Current featured image" className="blog-post-form__image" width={320} height={180} />
            ) : null}
            <Field
              id={fields.featured_image.id}
              label="Image address"
              errors={fields.featured_image.errors}
              hint="An upload of this site or an https address."
            >
              <input {...getInputProps(fields.featured_image, { type: "text" })} />
            </Field>
            <div className="field">
              <label htmlFor={`${form.id}-featured-upload`}>Upload an image</label>
              <input
                id={`${form.id}-featured-upload`}
                type="file"
                name="featured_upload"
                accept="image/jpeg,image/png,image/webp,image/gif"
              />
              <span className="field__hint">JPG, PNG, WEBP or GIF, up to 10 MB; stored when you save.</span>
            </div>
            {featuredImage ? (
              <label className="admin-check">
                <input type="checkbox" name="remove_featured_image" /> Remove the featured image
              </label>
            ) : null}
          </section>

          <section className="card" aria-labelledby="post-reading">
            <h2 id="post-reading">Reading time</h2>
            <Field
              id={fields.reading_time.id}
              label="Minutes (optional)"
              errors={fields.reading_time.errors}
              hint="Empty: the words ÷ 200, rounded up."
            >
              <input {...getInputProps(fields.reading_time, { type: "number" })} min={1} step={1} inputMode="numeric" />
            </Field>
          </section>
          <p>
            <Link to="/admin/blog/posts">← All posts</Link>
          </p>
        </div>
      </div>
    </Form>
  );
}
