import type { ReactNode } from "react";
import { useI18n } from "~/i18n/i18n";

/** A list of error messages tied to a field by id (announced by screen readers). */
export function ErrorList({ id, errors }: { id?: string; errors?: string[] | null }) {
  // a service's or schema's words, said in the reader's language
  const { message } = useI18n();
  const list = errors?.filter(Boolean).map(message) ?? [];
  return (
    <div id={id} className="field__error" aria-live="polite">
      {list.length === 1 ? (
        list[0]
      ) : list.length > 1 ? (
        <ul>
          {list.map((error) => (
            <li key={error}>{error}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** A labelled field with hint and errors; the input comes from conform's getInputProps. */
export function Field({
  label,
  id,
  errors,
  hint,
  children,
}: {
  label: ReactNode;
  id: string;
  errors?: string[] | null;
  hint?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {hint ? (
        <span className="field__hint" id={`${id}-hint`}>
          {hint}
        </span>
      ) : null}
      <ErrorList id={`${id}-error`} errors={errors} />
    </div>
  );
}

/** Errors that concern the whole form. */
export function FormErrors({ id, errors }: { id?: string; errors?: string[] | null }) {
  const { message } = useI18n();
  const list = errors?.filter(Boolean).map(message) ?? [];
  if (list.length === 0) return <div id={id} aria-live="polite" />;
  return (
    <div id={id} className="form-errors" role="alert">
      {list.map((error) => (
        <p key={error}>{error}</p>
      ))}
    </div>
  );
}
