import { Field } from "~/components/ui/field";
import { useT } from "~/i18n/i18n";

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
