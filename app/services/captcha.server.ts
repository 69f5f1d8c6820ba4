/** Image captchas: server-checked, single use, expiring after 5 minutes. */
import crypto from "node:crypto";
import { getDb } from "~/lib/db.server";
import { insertCaptcha, takeCaptcha } from "~/models/captcha.server";
import { keyedHash, safeEqual } from "./crypto.server";

const CAPTCHA_TTL_MS = 5 * 60_000;

export type Captcha = { captchaId: string; svg: string };

export async function createCaptcha(): Promise<Captcha> {
  // loaded with the first captcha, not with the server (its font parser: issue 37)
  const { default: svgCaptcha } = await import("svg-captcha");
  const { text, data } = svgCaptcha.create({
    size: 5,
    noise: 2,
    color: false,
    background: "#f3f4f6",
    ignoreChars: "0oO1ilI",
  });
  const captchaId = crypto.randomUUID();
  await insertCaptcha(getDb(), {
    id: captchaId,
    answerHash: keyedHash(`captcha:${text.toLowerCase()}`),
    expiresAt: new Date(Date.now() + CAPTCHA_TTL_MS).toISOString(),
  });
  return { captchaId, svg: data };
}

/** Checks an answer (case-insensitive). The captcha is used up either way. */
export async function checkCaptcha(captchaId: string | undefined, answer: string | undefined): Promise<boolean> {
  if (!captchaId || !answer) return false;
  const stored = await takeCaptcha(getDb(), captchaId);
  if (!stored) return false;
  return safeEqual(stored, keyedHash(`captcha:${answer.trim().toLowerCase()}`));
}
