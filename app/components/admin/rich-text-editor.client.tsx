/**
 * The post editor's rich-text area (tiptap), loaded lazily by blog-post-form.tsx and only
 * in the browser: it takes over a <textarea> that already works without JavaScript,
 * starts from its HTML and writes its HTML back into it on every change, so the form
 * posts the same field either way. The server sanitises whatever arrives.
 *
 * Never imported by a public page (tests/integration/bundle.test.ts checks the build).
 */
import Image from "@tiptap/extension-image";
import { EditorContent, useEditor, type Editor } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import { useEffect, useRef, useState } from "react";
import { useI18n, type Translate } from "~/i18n/i18n";

type Props = {
  /** the textarea the editor enhances (it stays in the form, hidden) */
  textarea: HTMLTextAreaElement;
  label: string;
  onReady: () => void;
};

const HEADINGS = [1, 2, 3, 4, 5, 6] as const;

function ToolbarButton({
  editor,
  label,
  active,
  run,
  disabled,
  children,
}: {
  editor: Editor;
  label: string;
  active?: boolean;
  run: (editor: Editor) => void;
  disabled?: boolean;
  children: string;
}) {
  return (
    <button
      type="button"
      className={active ? "rich-editor__button rich-editor__button--on" : "rich-editor__button"}
      aria-label={label}
      title={label}
      aria-pressed={active === undefined ? undefined : active}
      disabled={disabled}
      onMouseDown={(event) => event.preventDefault()}
      onClick={() => run(editor)}
    >
      {children}
    </button>
  );
}

/** Asks for a link address; an empty answer removes the link. */
function editLink(editor: Editor, t: Translate) {
  const previous = (editor.getAttributes("link").href as string | undefined) ?? "https://";
  const href = window.prompt(t("admin.editor.linkPrompt"), previous);
  if (href === null) return;
  if (!href.trim() || href.trim() === "https://") editor.chain().focus().extendMarkRange("link").unsetLink().run();
  else editor.chain().focus().extendMarkRange("link").setLink({ href: href.trim() }).run();
}

function insertImageByAddress(editor: Editor, t: Translate) {
  const src = window.prompt(t("admin.editor.imagePrompt"), "https://");
  if (!src || src.trim() === "https://") return;
  const alt = window.prompt(t("admin.editor.altPrompt"), "") ?? "";
  editor.chain().focus().setImage({ src: src.trim(), alt }).run();
}

export default function RichTextEditor({ textarea, label, onReady }: Props) {
  const { t, message } = useI18n();
  const [uploading, setUploading] = useState(false);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const editor = useEditor({
    // rendered in the browser only: the server sent the textarea
    immediatelyRender: false,
    shouldRerenderOnTransaction: true,
    extensions: [
      StarterKit.configure({
        heading: { levels: [...HEADINGS] },
        link: { openOnClick: false, autolink: true, defaultProtocol: "https", protocols: ["mailto", "tel"] },
      }),
      Image.configure({ inline: false, allowBase64: false }),
    ],
    content: textarea.value,
    editorProps: {
      attributes: { class: "rich-editor__content prose", "aria-label": label, role: "textbox", "aria-multiline": "true" },
    },
    onUpdate: ({ editor: current }) => {
      textarea.value = current.isEmpty ? "" : current.getHTML();
    },
  });

  useEffect(() => {
    if (editor) onReady();
  }, [editor, onReady]);

  if (!editor) return null;

  const level = HEADINGS.find((n) => editor.isActive("heading", { level: n }));

  async function upload(file: File) {
    if (!editor) return;
    setUploading(true);
    setUploadError(null);
    try {
      const body = new FormData();
      body.append("image", file);
      const response = await fetch("/api/blog/images", { method: "POST", body, headers: { Accept: "application/json" } });
      const json = (await response.json()) as { data?: { url: string }; message?: string };
      if (!response.ok || !json.data) throw new Error(json.message ?? t("admin.editor.uploadFailed"));
      editor.chain().focus().setImage({ src: json.data.url, alt: "" }).run();
    } catch (error) {
      setUploadError(message((error as Error).message));
    } finally {
      setUploading(false);
      if (fileInput.current) fileInput.current.value = "";
    }
  }

  return (
    <div className="rich-editor">
      <div className="rich-editor__toolbar" role="toolbar" aria-label={t("admin.editor.formatting")}>
        <select
          aria-label={t("admin.editor.textStyle")}
          value={level ? String(level) : "p"}
          onChange={(event) => {
            const value = event.currentTarget.value;
            if (value === "p") editor.chain().focus().setParagraph().run();
            else
              editor
                .chain()
                .focus()
                .setHeading({ level: Number(value) as (typeof HEADINGS)[number] })
                .run();
          }}
        >
          <option value="p">{t("admin.editor.paragraph")}</option>
          {HEADINGS.map((n) => (
            <option key={n} value={n}>
              {t("admin.editor.heading", { n })}
            </option>
          ))}
        </select>
        <ToolbarButton
          editor={editor}
          label={t("admin.editor.bold")}
          active={editor.isActive("bold")}
          run={(e) => e.chain().focus().toggleBold().run()}
        >
          B
        </ToolbarButton>
        <ToolbarButton
          editor={editor}
          label={t("admin.editor.italic")}
          active={editor.isActive("italic")}
          run={(e) => e.chain().focus().toggleItalic().run()}
        >
          I
        </ToolbarButton>
        <ToolbarButton
          editor={editor}
          label={t("admin.editor.underline")}
          active={editor.isActive("underline")}
          run={(e) => e.chain().focus().toggleUnderline().run()}
        >
          U
        </ToolbarButton>
        <ToolbarButton
          editor={editor}
          label={t("admin.editor.strike")}
          active={editor.isActive("strike")}
          run={(e) => e.chain().focus().toggleStrike().run()}
        >
          S
        </ToolbarButton>
        <ToolbarButton
          editor={editor}
          label={t("admin.editor.inlineCode")}
          active={editor.isActive("code")}
          run={(e) => e.chain().focus().toggleCode().run()}
        >
          {"</>"}
        </ToolbarButton>
        <ToolbarButton
          editor={editor}
          label={t("admin.editor.bulleted")}
          active={editor.isActive("bulletList")}
          run={(e) => e.chain().focus().toggleBulletList().run()}
        >
          {`• ${t("admin.editor.list")}`}
        </ToolbarButton>
        <ToolbarButton
          editor={editor}
          label={t("admin.editor.numbered")}
          active={editor.isActive("orderedList")}
          run={(e) => e.chain().focus().toggleOrderedList().run()}
        >
          {`1. ${t("admin.editor.list")}`}
        </ToolbarButton>
        <ToolbarButton
          editor={editor}
          label={t("admin.editor.quote")}
          active={editor.isActive("blockquote")}
          run={(e) => e.chain().focus().toggleBlockquote().run()}
        >
          ❝
        </ToolbarButton>
        <ToolbarButton
          editor={editor}
          label={t("admin.editor.codeBlock")}
          active={editor.isActive("codeBlock")}
          run={(e) => e.chain().focus().toggleCodeBlock().run()}
        >
          {"{ }"}
        </ToolbarButton>
        <ToolbarButton editor={editor} label={t("admin.editor.rule")} run={(e) => e.chain().focus().setHorizontalRule().run()}>
          ―
        </ToolbarButton>
        <ToolbarButton editor={editor} label={t("admin.editor.link")} active={editor.isActive("link")} run={(e) => editLink(e, t)}>
          {t("admin.editor.link")}
        </ToolbarButton>
        <ToolbarButton editor={editor} label={t("admin.editor.imageFromAddress")} run={(e) => insertImageByAddress(e, t)}>
          {t("admin.editor.image")}
        </ToolbarButton>
        <button type="button" className="rich-editor__button" disabled={uploading} onClick={() => fileInput.current?.click()}>
          {uploading ? t("admin.qc.uploading") : t("admin.editor.uploadImage")}
        </button>
        <input
          ref={fileInput}
          type="file"
          accept="image/jpeg,image/png,image/webp,image/gif"
          hidden
          // not part of the form: sent on its own to /api/blog/images
          form="__none__"
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            if (file) void upload(file);
          }}
        />
        <ToolbarButton
          editor={editor}
          label={t("admin.editor.undo")}
          disabled={!editor.can().undo()}
          run={(e) => e.chain().focus().undo().run()}
        >
          ↶
        </ToolbarButton>
        <ToolbarButton
          editor={editor}
          label={t("admin.editor.redo")}
          disabled={!editor.can().redo()}
          run={(e) => e.chain().focus().redo().run()}
        >
          ↷
        </ToolbarButton>
      </div>
      {uploadError ? (
        <p className="field__error" role="alert">
          {uploadError}
        </p>
      ) : null}
      <EditorContent editor={editor} />
    </div>
  );
}
