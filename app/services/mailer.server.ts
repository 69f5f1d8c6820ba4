/**
 * The one mailer: SMTP when SMTP_URL is set, otherwise every message is written as an
 * .eml file to $DATA_DIR/outbox/ and its subject logged. HTML and text bodies always.
 *
 * Account mail (codes, notices) goes through queueMail(): the request answers at once,
 * in the same time whatever is mailed (or not), and the send happens after the answer,
 * its failure logged. A stop (SIGTERM) waits for the queue: flushMail().
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import nodemailer, { type Transporter, type TransportOptions } from "nodemailer";
import { getEnv } from "~/lib/env.server";
import { log } from "~/lib/log.server";

export type Mail = { to: string; subject: string; text: string; html: string };

/** SMTP connections (and queued mails sent side by side). */
const MAIL_CONCURRENCY = 3;

let transporter: Transporter | undefined;

function getTransporter(): Transporter {
  if (transporter) return transporter;
  const env = getEnv();
  transporter = env.SMTP_URL
    ? nodemailer.createTransport({
        url: env.SMTP_URL,
        // connections are kept and reused: a burst of code mails does not open one each
        pool: true,
        maxConnections: MAIL_CONCURRENCY,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 20_000,
      } as TransportOptions)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return transporter;
}

export async function sendMail(mail: Mail): Promise<void> {
  const env = getEnv();
  const info = await getTransporter().sendMail({ from: env.MAIL_FROM, ...mail });
  if (!env.SMTP_URL) {
    fs.mkdirSync(env.OUTBOX_DIR, { recursive: true });
    const name = `${new Date().toISOString().replace(/[:.]/g, "-")}-${crypto.randomBytes(4).toString("hex")}.eml`;
    fs.writeFileSync(path.join(env.OUTBOX_DIR, name), (info as unknown as { message: Buffer }).message);
    log.info(`mail to outbox/${name}: "${mail.subject}"`);
  } else {
    log.info(`mail sent: "${mail.subject}"`);
  }
}

const queue: Mail[] = [];
let draining: Promise<void> | undefined;

async function drain(): Promise<void> {
  // the answer goes out first: sending starts after the current request's work
  await new Promise((resolve) => setImmediate(resolve));
  const worker = async () => {
    for (let mail = queue.shift(); mail; mail = queue.shift()) {
      try {
        await sendMail(mail);
      } catch (error) {
        log.error(`mail "${mail.subject}" could not be sent: ${(error as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: MAIL_CONCURRENCY }, worker));
}

function startDraining() {
  draining = drain().finally(() => {
    draining = undefined;
    // a mail queued while the last send was finishing
    if (queue.length) startDraining();
  });
}

/** Hands a mail to the background sender (in order, a few at a time). */
export function queueMail(mail: Mail): void {
  queue.push(mail);
  if (!draining) startDraining();
}

/** Waits until the queue is empty (or `timeoutMs` passed). */
export async function flushMail(timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (draining && Date.now() < deadline) {
    await Promise.race([draining, new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now())))]);
  }
}

/** A graceful stop: queued mail goes out (10 s at most), then the SMTP connections close. */
export async function closeMail(): Promise<void> {
  await flushMail();
  transporter?.close();
  transporter = undefined;
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** A plain, readable mail layout: heading, paragraphs, an optional big code and link. */
export function renderMail(input: {
  siteName: string;
  heading: string;
  paragraphs: string[];
  code?: string;
  link?: { href: string; label: string };
  footer?: string;
}): { text: string; html: string } {
  const text = [
    input.heading,
    "",
    ...input.paragraphs.flatMap((p) => [p, ""]),
    ...(input.code ? [`Code: ${input.code}`, ""] : []),
    ...(input.link ? [`${input.link.label}: ${input.link.href}`, ""] : []),
    `— ${input.siteName}`,
    ...(input.footer ? ["", input.footer] : []),
  ].join("\n");
  const html = `<!doctype html><html><body style="margin:0;padding:24px;background:#f7f7f5;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1c1c1e">
<div style="max-width:480px;margin:0 auto;background:#fff;border:1px solid #dcdcd8;border-radius:8px;padding:24px">
<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(input.heading)}</h1>
${input.paragraphs.map((p) => `<p style="margin:0 0 12px;line-height:1.5">${escapeHtml(p)}</p>`).join("\n")}
${input.code ? `<p style="font-size:32px;font-weight:700;letter-spacing:6px;margin:16px 0;font-family:ui-monospace,monospace">${escapeHtml(input.code)}</p>` : ""}
${input.link ? `<p style="margin:16px 0"><a href="${escapeHtml(input.link.href)}" style="background:#0f766e;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none;font-weight:600">${escapeHtml(input.link.label)}</a></p>` : ""}
<p style="margin:16px 0 0;color:#5f6368;font-size:13px">— ${escapeHtml(input.siteName)}</p>
${input.footer ? `<p style="margin:8px 0 0;color:#5f6368;font-size:12px">${escapeHtml(input.footer)}</p>` : ""}
</div></body></html>`;
  return { text, html };
}
