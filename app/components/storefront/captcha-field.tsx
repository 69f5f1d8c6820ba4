import { Field } from "~/components/ui/field";
import { useT } from "~/i18n/i18n";

/** The name of the button that asks for another image (the form comes back with what was typed, and nothing is tried). */
export const NEW_CAPTCHA = "newCaptcha";

/** The captcha image (server-made SVG) with its answer field and hidden id. */
export function CaptchaField({ captcha, errors }: { captcha: { captchaId: string; svg: string }; errors?: string[] }) {
  const t = useT();
  return (
    <Field id="captchaText" label={t("shop.captcha.label")} errors={errors} hint={t("shop.captcha.hint")}>
      <div className="captcha">
        <div className="captcha__image" role="img" aria-label={t("shop.captcha.image")} dangerouslySetInnerHTML={{ __html: captcha.svg }} />
        <input type="hidden" name="captchaId" value={captcha.captchaId} />
        <input
          id="captchaText"
          name="captchaText"
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          required
          aria-invalid={errors?.length ? true : undefined}
          aria-describedby="captchaText-hint captchaText-error"
        />
      </div>
    </Field>
  );
}

/**
 * "New image", for a captcha one cannot read: a plain submit of the same form (works without
 * JavaScript), which the page's action answers with a fresh image and the typed values. The
 * page puts it after its own submit button: Enter submits with the first one, never this.
 */
export function NewCaptchaButton() {
  const t = useT();
  return (
    <button type="submit" name={NEW_CAPTCHA} value="1" className="button--link captcha__new" formNoValidate>
      {t("shop.captcha.newImage")}
    </button>
  );
}
