import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { FormErrors } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { useI18n } from "~/i18n/i18n";

/**
 * The confirmation step of a destructive action (inside its dialog): what will happen,
 * the hidden fields that name the target, a danger button and a way back.
 */
export function ConfirmForm({
  action,
  intent,
  fields,
  submitLabel,
  pendingText,
  cancelTo,
  error,
  errorId,
  children,
}: {
  action?: string;
  intent: string;
  fields: Record<string, string | number | ReadonlyArray<string | number>>;
  submitLabel: string;
  pendingText?: string;
  cancelTo: string;
  error?: string;
  errorId?: string;
  children: ReactNode;
}) {
  const { t, message } = useI18n();
  return (
    <Form method="post" action={action} preventScrollReset>
      {Object.entries(fields).flatMap(([name, value]) =>
        (Array.isArray(value) ? value : [value]).map((one) => <input key={`${name}-${one}`} type="hidden" name={name} value={one} />),
      )}
      {children}
      <FormErrors id={errorId} errors={error ? [message(error)] : []} />
      <div className="form-actions">
        <SubmitButton
          name="intent"
          value={intent}
          className="button button--danger"
          pendingText={pendingText ?? t("admin.common.deleting")}
        >
          {submitLabel}
        </SubmitButton>
        <Link to={cancelTo} className="button button--secondary" preventScrollReset>
          {t("admin.common.cancel")}
        </Link>
      </div>
    </Form>
  );
}
