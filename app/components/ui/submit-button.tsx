import { useNavigation } from "@remix-run/react";
import type { ButtonHTMLAttributes } from "react";
import { useT } from "~/i18n/i18n";

/**
 * A submit button that shows a pending state while its own form is being sent (with
 * JavaScript); without JavaScript it is a plain submit button.
 */
export function SubmitButton({
  children,
  pendingText,
  name,
  value,
  className,
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { pendingText?: string }) {
  const t = useT();
  const navigation = useNavigation();
  const pending =
    navigation.state === "submitting" && (name === undefined || navigation.formData?.get(String(name)) === String(value ?? ""));
  return (
    <button
      type="submit"
      name={name}
      value={value}
      className={className}
      aria-disabled={pending || undefined}
      onClick={(event) => {
        // a second click while sending would post twice
        if (pending) event.preventDefault();
      }}
      {...rest}
    >
      {pending ? (pendingText ?? t("common.working")) : children}
    </button>
  );
}
