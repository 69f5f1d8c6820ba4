/**
 * The one mailer: SMTP when SMTP_URL is set, otherwise every message is written as an
 * .eml file to $DATA_DIR/outbox/ and its subject logged. HTML and text bodies always.
 *
 * Account mail (codes, notices) goes through queueMail(): the request answers at once,
 * in the same time whatever is mailed (or not), and the send happens after the answer,
 * its failure logged. A stop (SIGTERM) waits for the queue: flushMail().
 *
 * Campaign mail goes through sendBulkMail(): its own pool of EMAIL_CONNECTIONS
 * connections (a campaign never holds up a sign-up code), per-message headers and
 * Message-ID, and failures sorted into permanent (the address is refused: 5xx) and
 * temporary (4xx, the relay unreachable or refusing us) for the campaign sender.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import nodemailer, { type Transporter, type TransportOptions } from "nodemailer";
import { domainToASCII } from "node:url";
import libmime from "libmime";
import { escapeHtml } from "~/lib/text";
import { DEFAULT_MAIL_FROM, getEnv } from "~/lib/env.server";
import { DEFAULT_SITE_NAME } from "~/schemas/site-settings";
import { loadSettings } from "./site-settings.server";
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

/** Without SMTP_URL: the message as an .eml file in the outbox; answers its name. */
function writeToOutbox(info: unknown): string {
  const env = getEnv();
  fs.mkdirSync(env.OUTBOX_DIR, { recursive: true });
  const name = `${new Date().toISOString().replace(/[:.]/g, "-")}-${crypto.randomBytes(4).toString("hex")}.eml`;
  fs.writeFileSync(path.join(env.OUTBOX_DIR, name), (info as { message: Buffer }).message);
  return name;
}

/**
 * The sender of mail: MAIL_FROM; left at its default ("Site <no-reply@localhost>"), the
 * site's name takes the place of "Site", so mail says who sent it. Pure: campaign mail
 * builds it from the site's name its run was given (the sending thread reads no settings).
 */
export function senderFor(siteName: string): string {
  const from = getEnv().MAIL_FROM;
  if (from !== DEFAULT_MAIL_FROM) return from;
  const name = siteName.trim() || DEFAULT_SITE_NAME;
  return `"${name.replace(/["\\]/g, "\\$&")}" <${parseMailbox(from).address}>`;
}

/** The sender of the site's own mail (codes, alerts): senderFor() the site's name setting. */
export async function mailFrom(): Promise<string> {
  if (getEnv().MAIL_FROM !== DEFAULT_MAIL_FROM) return getEnv().MAIL_FROM;
  return senderFor((await loadSettings()).site_name ?? "");
}

export async function sendMail(mail: Mail): Promise<void> {
  const env = getEnv();
  const info = await getTransporter().sendMail({ from: await mailFrom(), ...mail });
  if (!env.SMTP_URL) {
    log.info(`mail to outbox/${writeToOutbox(info)}: "${mail.subject}"`);
  } else {
    log.info(`mail sent: "${mail.subject}"`);
  }
}

// ---------------------------------------------------------------- campaign mail

export type BulkMail = {
  to: { name: string; address: string };
  subject: string;
  text: string;
  html: string;
  /** e.g. List-Unsubscribe and List-Unsubscribe-Post */
  headers: Record<string, string>;
  /** `<id@host>`: the same for a message sent again, so mailboxes can tell */
  messageId: string;
  /** the sender (senderFor() the site's name); MAIL_FROM when not given */
  from?: string;
};

/** A campaign message the relay did not take: `permanent` for this address, else worth retrying. */
export class BulkMailError extends Error {
  constructor(
    public kind: "permanent" | "temporary",
    message: string,
    public responseCode?: number,
  ) {
    super(message);
    this.name = "BulkMailError";
  }
}

// 5xx answers about us rather than the recipient (authentication required, failed or
// too weak): the relay's problem, retried like an outage, never the address's fault
const RELAY_5XX = new Set([530, 534, 535, 538]);

/** Sorts a nodemailer failure: 5xx for the address is permanent; 4xx, connection and auth failures are temporary. */
export function classifyMailError(error: unknown): BulkMailError {
  const failure = error as { message?: string; responseCode?: number; code?: string; response?: string };
  const code = typeof failure.responseCode === "number" ? failure.responseCode : undefined;
  const text = (failure.response || failure.message || String(error)).replace(/\s+/g, " ").trim().slice(0, 500);
  const permanent = code !== undefined && code >= 500 && code < 600 && failure.code !== "EAUTH" && !RELAY_5XX.has(code);
  return new BulkMailError(
    permanent ? "permanent" : "temporary",
    failure.code && !text.includes(failure.code) ? `${failure.code}: ${text}` : text,
    code,
  );
}

let bulkTransporter: Transporter | undefined;

function getBulkTransporter(): Transporter {
  if (bulkTransporter) return bulkTransporter;
  const env = getEnv();
  bulkTransporter = env.SMTP_URL
    ? nodemailer.createTransport({
        url: env.SMTP_URL,
        pool: true,
        maxConnections: env.EMAIL_CONNECTIONS,
        // a connection carries many messages before it is renewed
        maxMessages: 1000,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
      } as TransportOptions)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return bulkTransporter;
}

/**
 * MAIL_FROM read as a mailbox: `Name <address>`, `"Name" <address>` or a bare address
 * (anything else is taken as the address itself).
 */
export function parseMailbox(from: string): { name: string; address: string } {
  const named = /^\s*(?:"((?:[^"\\]|\\.)*)"|([^<]*?))\s*<\s*([^<>\s]+)\s*>\s*$/.exec(from);
  if (named) return { name: (named[1] ?? named[2] ?? "").replace(/\\(.)/g, "$1").trim(), address: named[3] };
  return { name: "", address: from.trim() };
}

/** The envelope sender: the address of MAIL_FROM. */
let sender: { from: string; address: string; header: string } | undefined;
function senderOf(from: string) {
  if (sender?.from !== from) {
    const { name, address } = parseMailbox(from);
    sender = { from, address, header: formatAddress(name, address) };
  }
  return sender;
}

/** `Name <address>` for a header: a plain name as is, one with specials quoted, one with non-ASCII as an encoded word. */
function formatAddress(name: string, address: string): string {
  const at = address.lastIndexOf("@");
  const ascii = at > 0 ? `${address.slice(0, at)}@${domainToASCII(address.slice(at + 1)) || address.slice(at + 1)}` : address;
  if (!name.trim()) return `<${ascii}>`;
  const shown = /[^\x20-\x7e]/.test(name)
    ? libmime.encodeWord(name, "Q", 52)
    : /^[A-Za-z0-9 !#$%&'*+/=?^_`{|}~-]+$/.test(name)
      ? name
      : `"${name.replace(/["\\]/g, "\\$&")}"`;
  return `${shown} <${ascii}>`;
}

const CRLF = "\r\n";
const base64Lines = (text: string) =>
  Buffer.from(text, "utf8")
    .toString("base64")
    .replace(/.{76}(?=.)/g, `$&${CRLF}`);
const boundaryPrefix = crypto.randomBytes(6).toString("hex");
let boundaryCount = 0;

/**
 * A campaign message as MIME: headers (values that are not plain ASCII as encoded words,
 * long lines folded, as nodemailer folds them), then multipart/alternative with the text
 * and HTML parts in base64. Written out directly: a tenth of the CPU of building it with
 * nodemailer's composer (0.03 against 0.3 ms), which on two cores is CPU the site keeps.
 */
export function composeBulkMail(mail: BulkMail, from: string, date = new Date()): Buffer {
  const boundary = `--_qc_${boundaryPrefix}_${(boundaryCount++).toString(36)}`;
  const header = (name: string, value: string) => libmime.foldLines(`${name}: ${value}`, 76);
  const lines = [
    header("From", senderOf(from).header),
    header("To", formatAddress(mail.to.name, mail.to.address)),
    header("Subject", libmime.encodeWords(mail.subject.replace(/[\r\n]+/g, " "), "Q", 52)),
    `Message-ID: ${mail.messageId}`,
    `Date: ${date.toUTCString().replace(/GMT$/, "+0000")}`,
    "MIME-Version: 1.0",
    // header values the sender writes itself (ASCII: links and fixed words)
    ...Object.entries(mail.headers).map(([name, value]) =>
      name.length + value.length + 2 > 76 ? `${name}:${CRLF} ${value}` : `${name}: ${value}`,
    ),
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    "",
    `--${boundary}`,
    "Content-Type: text/plain; charset=utf-8",
    "Content-Transfer-Encoding: base64",
    "",
    base64Lines(mail.text),
    `--${boundary}`,
    "Content-Type: text/html; charset=utf-8",
    "Content-Transfer-Encoding: base64",
    "",
    base64Lines(mail.html),
    `--${boundary}--`,
    "",
  ];
  return Buffer.from(lines.join(CRLF), "utf8");
}

/**
 * Sends one campaign message; throws BulkMailError. It is handed over as one buffer:
 * streamed, nodemailer writes a message to the socket a line at a time, and those writes
 * cost a quarter of the sender's CPU.
 */
export async function sendBulkMail(mail: BulkMail): Promise<void> {
  const from = mail.from ?? getEnv().MAIL_FROM;
  let info: unknown;
  try {
    const raw = composeBulkMail(mail, from);
    info = await getBulkTransporter().sendMail({
      envelope: { from: senderOf(from).address, to: [mail.to.address] },
      raw,
      messageId: mail.messageId,
    });
  } catch (error) {
    throw classifyMailError(error);
  }
  if (!getEnv().SMTP_URL) log.debug(`campaign mail to outbox/${writeToOutbox(info)}: "${mail.subject}"`);
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
  bulkTransporter?.close();
  bulkTransporter = undefined;
}

/** A plain, readable mail layout: heading, paragraphs, an optional big code and link. */
export function renderMail(input: {
  siteName: string;
  heading: string;
  paragraphs: string[];
  code?: string;
  /** the word before the code in the text part ("Code", in the mail's language) */
  codeLabel?: string;
  link?: { href: string; label: string };
  footer?: string;
  /** the closing line ("— {site}", in the mail's language) */
  signOff?: string;
}): { text: string; html: string } {
  const signOff = input.signOff ?? `— ${input.siteName}`;
  const text = [
    input.heading,
    "",
    ...input.paragraphs.flatMap((p) => [p, ""]),
    ...(input.code ? [`${input.codeLabel ?? "Code"}: ${input.code}`, ""] : []),
    ...(input.link ? [`${input.link.label}: ${input.link.href}`, ""] : []),
    signOff,
    ...(input.footer ? ["", input.footer] : []),
  ].join("\n");
  const html = `<!doctype html><html><body style="margin:0;padding:24px;background:#f7f7f5;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1c1c1e">
<div style="max-width:480px;margin:0 auto;background:#fff;border:1px solid #dcdcd8;border-radius:8px;padding:24px">
<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(input.heading)}</h1>
${input.paragraphs.map((p) => `<p style="margin:0 0 12px;line-height:1.5">${escapeHtml(p)}</p>`).join("\n")}
${input.code ? `<p style="font-size:32px;font-weight:700;letter-spacing:6px;margin:16px 0;font-family:ui-monospace,monospace">${escapeHtml(input.code)}</p>` : ""}
${input.link ? `<p style="margin:16px 0"><a href="${escapeHtml(input.link.href)}" style="background:#0f766e;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none;font-weight:600">${escapeHtml(input.link.label)}</a></p>` : ""}
<p style="margin:16px 0 0;color:#5f6368;font-size:13px">${escapeHtml(signOff)}</p>
${input.footer ? `<p style="margin:8px 0 0;color:#5f6368;font-size:12px">${escapeHtml(input.footer)}</p>` : ""}
</div></body></html>`;
  return { text, html };
}
