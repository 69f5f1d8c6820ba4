/**
 * Reading mail the e2e server sent: without SMTP_URL every message is an .eml file in
 * $DATA_DIR/outbox (the product's own fallback), so tests read the codes from there.
 */
import fs from "node:fs";
import path from "node:path";
import { expect } from "@playwright/test";

const outbox = () => path.join(process.env.E2E_DATA_DIR!, "outbox");

function mailsTo(email: string): Array<{ file: string; raw: string }> {
  if (!fs.existsSync(outbox())) return [];
  return fs
    .readdirSync(outbox())
    .sort()
    .map((file) => ({ file, raw: fs.readFileSync(path.join(outbox(), file), "utf8") }))
    .filter(({ raw }) => new RegExp(`^To: .*${email.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`, "mi").test(raw));
}

/** Waits for a new mail to `email` with a 6-digit code in its subject and returns the code. */
export async function latestCode(email: string, after = 0): Promise<string> {
  let code = "";
  await expect
    .poll(() => {
      const mails = mailsTo(email);
      if (mails.length <= after) return "";
      const subject = /^Subject: (.*)$/m.exec(mails[mails.length - 1].raw)?.[1] ?? "";
      code = /\b(\d{6})\b/.exec(subject)?.[1] ?? "";
      return code;
    })
    .toMatch(/^\d{6}$/);
  return code;
}

export function mailCount(email: string): number {
  return mailsTo(email).length;
}

/** The address of the link labelled `label` in the latest mail to `email` (its HTML part). */
export async function mailLink(email: string, label: string): Promise<string> {
  const mails = mailsTo(email);
  expect(mails.length, `a mail to ${email}`).toBeGreaterThan(0);
  const { simpleParser } = await import("mailparser");
  const html = (await simpleParser(mails[mails.length - 1].raw)).html || "";
  for (const match of html.matchAll(/<a\b[^>]*href="([^"]+)"[^>]*>([\s\S]*?)<\/a>/g)) {
    if (match[2].replace(/<[^>]+>/g, "").trim() === label) return match[1].replace(/&amp;/g, "&");
  }
  throw new Error(`no link "${label}" in the latest mail to ${email}`);
}
