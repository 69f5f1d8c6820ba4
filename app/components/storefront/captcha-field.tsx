import { Field } from "~/components/ui/field";

/** The captcha image (server-made SVG) with its answer field and hidden id. */
export function CaptchaField({ captcha, errors }: { captcha: { captchaId: string; svg: string }; errors?: string[] }) {
  return (
    <Field id="captchaText" label="Characters in the image" errors={errors} hint="Not case-sensitive.">
      <div className="captcha">
        <div className="captcha__image" role="img" aria-label="Captcha image" dangerouslySetInnerHTML={{ __html: captcha.svg }} />
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
