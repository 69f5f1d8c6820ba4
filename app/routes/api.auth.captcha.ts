import { apiRoute, methodNotAllowed, ok } from "~/lib/api.server";
import { createCaptcha } from "~/services/captcha.server";

/** GET /api/auth/captcha → {captchaId, svg} (single use, 5 minutes). */
export const loader = () =>
  apiRoute(async () => {
    const captcha = await createCaptcha();
    return ok({ ...captcha, data: captcha }, { headers: { "Cache-Control": "no-store" } });
  });

export const action = () => methodNotAllowed(["GET"]);
