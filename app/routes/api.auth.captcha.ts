import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed, ok } from "~/lib/api.server";
import { createCaptcha } from "~/services/captcha.server";
import { limitCaptchaIssuing } from "~/services/rate-limit.server";

/** GET /api/auth/captcha → {captchaId, svg} (single use, 5 minutes; 30 per 10 minutes per address). */
export const loader = ({ context }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    await limitCaptchaIssuing(context.clientIp);
    const captcha = await createCaptcha();
    return ok({ ...captcha, data: captcha }, { headers: { "Cache-Control": "no-store" } });
  });

export const action = () => methodNotAllowed(["GET"]);
