import { describe, expect, it } from "vitest";
import { classifyMailError, composeBulkMail, parseMailbox, senderFor } from "./mailer.server";

describe("classifyMailError", () => {
  it("a 5xx about the recipient is permanent, with the SMTP answer", () => {
    const error = classifyMailError({
      code: "EENVELOPE",
      responseCode: 550,
      response: "550 5.1.1 <x@example.test>: No such user",
      message: "Can't send mail",
    });
    expect(error).toMatchObject({ kind: "permanent", responseCode: 550 });
    expect(error.message).toContain("550 5.1.1");
    expect(classifyMailError({ code: "EMESSAGE", responseCode: 554, response: "554 rejected" }).kind).toBe("permanent");
  });

  it("4xx answers, connection failures and the relay refusing us (auth) are temporary", () => {
    expect(classifyMailError({ code: "EMESSAGE", responseCode: 451, response: "451 4.7.1 try later" }).kind).toBe("temporary");
    expect(classifyMailError({ code: "ECONNECTION", message: "connect ECONNREFUSED 127.0.0.1:2525" })).toMatchObject({
      kind: "temporary",
      message: "ECONNECTION: connect ECONNREFUSED 127.0.0.1:2525",
    });
    expect(classifyMailError({ code: "ETIMEDOUT", message: "Timeout" }).kind).toBe("temporary");
    expect(classifyMailError({ code: "EAUTH", responseCode: 535, response: "535 Authentication failed" }).kind).toBe("temporary");
    expect(classifyMailError({ code: "EENVELOPE", responseCode: 530, response: "530 Authentication required" }).kind).toBe("temporary");
    expect(classifyMailError(new Error("socket hang up")).kind).toBe("temporary");
  });
});

describe("composeBulkMail", () => {
  const link = "http://shop.example:3000/unsubscribe?token=123.abcdefghijklmnopqrstuv";
  const mail = {
    to: { name: '王小明 "Ming"', address: "ming@例子.example" },
    subject: `本周新品 QC 照片 — ${"a long subject that goes on ".repeat(5)}`,
    text: "你好 Ming,\nnew QC photos.\n\nUnsubscribe: " + link,
    html: `<p>你好 <b>Ming</b></p><p>${"<i>new QC photos</i> ".repeat(30)}</p><a href="${link}">Unsubscribe</a>`,
    headers: { "List-Unsubscribe": `<${link}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
    messageId: "<campaign-1.run-2.user-3@shop.example>",
  };

  it("makes a message mail readers parse back exactly: encoded words, folded lines, both parts", async () => {
    const { simpleParser } = await import("mailparser");
    const raw = composeBulkMail(mail, "QC 商城 <news@shop.example>", new Date("2026-11-24T10:00:00Z"));
    const text = raw.toString("utf8");
    expect(text.split("\r\n").every((line) => line.length <= 998)).toBe(true);
    expect(
      text
        .split("\r\n")
        .filter((line) => !line.startsWith("List-Unsubscribe"))
        .every((line) => line.length <= 78),
    ).toBe(true);
    expect(text).not.toMatch(/[^\r]\n/);
    const parsed = await simpleParser(raw);
    expect(parsed.subject).toBe(mail.subject.trim()); // header values are read without their trailing space
    expect(parsed.from?.value).toEqual([{ name: "QC 商城", address: "news@shop.example" }]);
    // the domain goes as punycode (readers show it decoded)
    expect(text).toContain("<ming@xn--fsqu00a.example>");
    expect(parsed.to && !Array.isArray(parsed.to) ? parsed.to.value : null).toEqual([
      { name: '王小明 "Ming"', address: "ming@例子.example" },
    ]);
    expect(parsed.messageId).toBe(mail.messageId);
    expect(parsed.date?.toISOString()).toBe("2026-11-24T10:00:00.000Z");
    expect(parsed.text).toBe(mail.text);
    expect(parsed.html).toBe(mail.html);
    expect(parsed.headerLines.find((h) => h.key === "list-unsubscribe-post")?.line).toBe(
      "List-Unsubscribe-Post: List-Unsubscribe=One-Click",
    );
    expect(parsed.headerLines.find((h) => h.key === "list-unsubscribe")?.line.replace(/\r\n /, " ")).toBe(`List-Unsubscribe: <${link}>`);
  });

  it("quotes a plain name with specials and leaves an ordinary one alone", async () => {
    const { simpleParser } = await import("mailparser");
    const quoted = await simpleParser(
      composeBulkMail({ ...mail, to: { name: "Doe, John (admin)", address: "john@example.com" } }, "Site <no-reply@localhost>"),
    );
    expect(quoted.to && !Array.isArray(quoted.to) ? quoted.to.value : null).toEqual([
      { name: "Doe, John (admin)", address: "john@example.com" },
    ]);
    const raw = composeBulkMail({ ...mail, to: { name: "john_doe", address: "john@example.com" } }, "Site <no-reply@localhost>").toString();
    expect(raw).toContain("\r\nTo: john_doe <john@example.com>\r\n");
    expect(raw).toMatch(/^From: Site <no-reply@localhost>\r\n/);
  });
});

describe("parseMailbox", () => {
  it.each([
    ["Site <no-reply@localhost>", { name: "Site", address: "no-reply@localhost" }],
    ['"QC Finder, Mail" <news@shop.example>', { name: "QC Finder, Mail", address: "news@shop.example" }],
    ['"Say \\"hi\\"" <a@b.example>', { name: 'Say "hi"', address: "a@b.example" }],
    ["淘宝代购 <shop@example.cn>", { name: "淘宝代购", address: "shop@example.cn" }],
    ["<bare@example.com>", { name: "", address: "bare@example.com" }],
    ["  plain@example.com ", { name: "", address: "plain@example.com" }],
  ])("%s", (from, expected) => {
    expect(parseMailbox(from)).toEqual(expected);
  });
});

describe("senderFor", () => {
  it("puts the site's name in the place of 'Site' while MAIL_FROM is left at its default", () => {
    expect(process.env.MAIL_FROM ?? "").toBe("");
    expect(senderFor('Kicks "Co"')).toBe('"Kicks \\"Co\\"" <no-reply@localhost>');
    expect(senderFor("  ")).toBe('"QC Finder" <no-reply@localhost>');
    expect(parseMailbox(senderFor("Kicks"))).toEqual({ name: "Kicks", address: "no-reply@localhost" });
  });
});
