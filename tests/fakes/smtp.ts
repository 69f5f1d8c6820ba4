/**
 * A real SMTP server (smtp-server) on 127.0.0.1 that keeps every message it receives,
 * so tests can read the mail the app really sent. No auth, no TLS: start the app with
 * SMTP_URL=smtp://127.0.0.1:<port>.
 *
 * It can misbehave like a real relay: answer slowly, refuse everything with a 4xx or 5xx,
 * refuse one address (RCPT TO) with a 5xx, or go down (connections dropped, the port
 * closed) and come back on the same port.
 */
import type { AddressInfo } from "node:net";
import { simpleParser, type AddressObject } from "mailparser";
import { SMTPServer } from "smtp-server";

export type ReceivedMail = {
  /** Envelope recipients (RCPT TO), lower-cased. */
  to: string[];
  /** Envelope sender (MAIL FROM). */
  from: string;
  subject: string;
  text: string;
  html: string;
  /** The To: header as written in the message. */
  toHeader: string;
  /** Header lines as written, by lower-case name (the first of each). */
  headers: Record<string, string>;
  messageId: string;
  receivedAt: number;
};

export type FakeSmtp = {
  port: number;
  /** smtp://127.0.0.1:<port>, ready for SMTP_URL. */
  url: string;
  messages: ReceivedMail[];
  /** Messages sent to one address (envelope recipient), oldest first. */
  mailTo: (to: string) => ReceivedMail[];
  /** Waits for a message to `to` that arrived after `since` (default: any time). */
  waitForMail: (to: string, options?: { subjectIncludes?: string; timeoutMs?: number; since?: number }) => Promise<ReceivedMail>;
  /** The 6-digit code of the newest message to `to` (throws when there is none). */
  lastCode: (to: string) => string;
  /**
   * How the server answers from now on: `delayMs` before accepting each message (a slow
   * relay), or `reject` with an SMTP status (a relay that refuses: 4xx or 5xx).
   */
  behave: (behaviour: SmtpBehaviour) => void;
  /** Drops every connection and stops listening: the app sees connection refused. */
  down: () => Promise<void>;
  /** Listens again on the same port. */
  up: () => Promise<void>;
  close: () => Promise<void>;
};

const addressText = (value: AddressObject | AddressObject[] | undefined) =>
  value === undefined ? "" : Array.isArray(value) ? value.map((v) => v.text).join(", ") : value.text;

/** The six-digit code of a mail: the one the subject and the body agree on, else the first in the body. */
export function extractCode(mail: Pick<ReceivedMail, "subject" | "text">): string | null {
  const pattern = /(?<!\d)\d{6}(?!\d)/g;
  const inText: string[] = mail.text.match(pattern) ?? [];
  const inSubject: string[] = mail.subject.match(pattern) ?? [];
  return inText.find((code) => inSubject.includes(code)) ?? inText[0] ?? inSubject[0] ?? null;
}

export type SmtpBehaviour = {
  delayMs?: number;
  /** keep the message, then wait this long before answering 250 (a crash in between leaves the sender unsure) */
  answerDelayMs?: number;
  reject?: { code: number; message: string };
  /** RCPT TO answers for some addresses (lower case), e.g. 550 for a mailbox that does not exist */
  refuseRecipients?: Record<string, { code: number; message: string }>;
};

export async function startFakeSmtp(): Promise<FakeSmtp> {
  const messages: ReceivedMail[] = [];
  let behaviour: SmtpBehaviour = {};
  const makeServer = () => {
    const server = new SMTPServer({
      secure: false,
      disabledCommands: ["STARTTLS"],
      authOptional: true,
      // plain-text AUTH is accepted whatever the credentials (SMTP_URL with user:pass works too)
      allowInsecureAuth: true,
      onAuth(auth, _session, callback) {
        callback(null, { user: auth.username ?? "test" });
      },
      onRcptTo(address, _session, callback) {
        const refusal = behaviour.refuseRecipients?.[address.address.toLowerCase()];
        if (refusal) return callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
        callback();
      },
      logger: false,
      banner: "fake smtp for tests",
      size: 10 * 1024 * 1024,
      onData(stream, session, callback) {
        const { delayMs = 0, answerDelayMs = 0, reject } = behaviour;
        simpleParser(stream)
          .then(async (parsed) => {
            if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
            if (reject) {
              callback(Object.assign(new Error(reject.message), { responseCode: reject.code }));
              return;
            }
            const headers: Record<string, string> = {};
            for (const { key, line } of parsed.headerLines) headers[key] ??= line.slice(line.indexOf(":") + 1).trim();
            messages.push({
              to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
              subject: parsed.subject ?? "",
              text: parsed.text ?? "",
              html: typeof parsed.html === "string" ? parsed.html : "",
              toHeader: addressText(parsed.to),
              headers,
              messageId: parsed.messageId ?? "",
              receivedAt: Date.now(),
            });
            if (answerDelayMs) await new Promise((resolve) => setTimeout(resolve, answerDelayMs));
            callback();
          })
          .catch((error: Error) => callback(error));
      },
    });
    server.on("error", () => {
      // a client dropping its connection must not crash the test process
    });
    return server;
  };
  const listen = (server: SMTPServer, port: number) =>
    new Promise<void>((resolve, reject) => {
      server.server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.server.off("error", reject);
        resolve();
      });
    });
  let server = makeServer();
  let running = true;
  await listen(server, 0);
  const { port } = server.server.address() as AddressInfo;
  const stop = () =>
    new Promise<void>((resolve) => {
      running = false;
      const connections = (server as unknown as { connections: Set<{ close: () => void; _socket?: { destroy: () => void } }> }).connections;
      server.server.close(() => resolve());
      for (const connection of connections) {
        connection._socket?.destroy();
        connection.close();
      }
    });

  const mailTo = (to: string) => messages.filter((m) => m.to.includes(to.toLowerCase()));

  async function waitForMail(
    to: string,
    options: { subjectIncludes?: string; timeoutMs?: number; since?: number } = {},
  ): Promise<ReceivedMail> {
    const deadline = Date.now() + (options.timeoutMs ?? 10_000);
    for (;;) {
      const found = mailTo(to)
        .filter((m) => m.receivedAt >= (options.since ?? 0))
        .filter((m) => !options.subjectIncludes || m.subject.includes(options.subjectIncludes))
        .at(-1);
      if (found) return found;
      if (Date.now() > deadline) {
        const seen = messages.map((m) => `${m.to.join(",")}: ${m.subject}`).join("\n  ");
        throw new Error(
          `no mail to ${to}${options.subjectIncludes ? ` about "${options.subjectIncludes}"` : ""}; received:\n  ${seen || "(none)"}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  function lastCode(to: string): string {
    const mail = mailTo(to).at(-1);
    if (!mail) throw new Error(`no mail to ${to}`);
    const code = extractCode(mail);
    if (!code) throw new Error(`the last mail to ${to} ("${mail.subject}") holds no 6-digit code`);
    return code;
  }

  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    mailTo,
    waitForMail,
    lastCode,
    behave: (next) => {
      behaviour = next;
    },
    down: async () => {
      if (running) await stop();
    },
    up: async () => {
      if (running) return;
      server = makeServer();
      await listen(server, port);
      running = true;
    },
    close: async () => {
      if (running) await stop();
    },
  };
}
