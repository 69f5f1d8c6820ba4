import { describe, expect, it } from "vitest";
import { fillVariables, htmlToText, renderMessage } from "./email-template";
import { decodeEntities, escapeHtml } from "./text";

const builtins = {
  userName: `Ann <b>"O'Neil"</b> & co`,
  email: "ann@example.test",
  siteName: "QC & Co",
  siteUrl: "https://shop.example",
  unsubscribeUrl: "https://shop.example/unsubscribe?token=1.abc&x=1",
};

describe("fillVariables", () => {
  it("escapes values in HTML, keeps them in text, keeps the subject on one line, leaves unknown names", () => {
    const values = { name: `<script>alert("x")</script> & 'y'`, other: "a\r\nb" };
    expect(fillVariables("<p>{{name}}</p>", values, "html")).toBe(
      "<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;</p>",
    );
    expect(fillVariables("{{ name }}!", values, "text")).toBe(`<script>alert("x")</script> & 'y'!`);
    expect(fillVariables("Hi {{other}}", values, "subject")).toBe("Hi a b");
    expect(fillVariables("{{missing}} {{toString}} {{constructor}}", values, "text")).toBe("{{missing}} {{toString}} {{constructor}}");
  });
});

describe("htmlToText", () => {
  it("keeps paragraphs, list items and links, drops head, style and script, decodes entities", () => {
    const html = `<!doctype html><html><head><title>T</title><style>p{color:red}</style></head><body>
      <h1>Sale&nbsp;now</h1><p>Everything &amp; more <a href="https://x.example/a?b=1&amp;c=2">here</a>.</p>
      <ul><li>One</li><li>Two</li></ul><script>alert(1)</script><p><a href="https://y.example">https://y.example</a><br>Line&#33;</p></body></html>`;
    expect(htmlToText(html)).toBe(
      "Sale now\n\nEverything & more here (https://x.example/a?b=1&c=2).\n\n- One\n- Two\n\nhttps://y.example\nLine!",
    );
  });

  it("decodes numeric and named entities and leaves unknown ones", () => {
    expect(decodeEntities("&#x4e2d;&#25991; &lt;&gt; &bogus;")).toBe("中文 <> &bogus;");
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  });
});

describe("renderMessage", () => {
  it("fills every part; built-in names win over a template's own; the text part is made from the HTML when missing", () => {
    const message = renderMessage(
      {
        subject: "Hi {{userName}} from {{siteName}}",
        html: '<p>{{promo}} for {{userName}}</p><a href="{{unsubscribeUrl}}">stop</a>',
        text: null,
        variables: { promo: "<10% off>", userName: "not me" },
      },
      builtins,
    );
    expect(message.subject).toBe(`Hi Ann <b>"O'Neil"</b> & co from QC & Co`);
    expect(message.html).toBe(
      '<p>&lt;10% off&gt; for Ann &lt;b&gt;&quot;O&#39;Neil&quot;&lt;/b&gt; &amp; co</p><a href="https://shop.example/unsubscribe?token=1.abc&amp;x=1">stop</a>',
    );
    expect(message.text).toBe(`<10% off> for Ann <b>"O'Neil"</b> & co\n\nstop (https://shop.example/unsubscribe?token=1.abc&x=1)`);
  });

  it("adds the unsubscribe link to a part that has none, before </body> in a full document", () => {
    const message = renderMessage({ subject: "S", html: "<html><body><p>Hello</p></body></html>", text: "Hello {{userName}}" }, builtins);
    expect(message.html).toMatch(
      /<p>Hello<\/p><p [^>]*>You receive this e-mail because you have an account at QC &amp; Co\. <a href="https:\/\/shop\.example\/unsubscribe\?token=1\.abc&amp;x=1"[^>]*>Unsubscribe<\/a><\/p><\/body><\/html>$/,
    );
    expect(message.text).toBe(`Hello Ann <b>"O'Neil"</b> & co\n\n--\nUnsubscribe: https://shop.example/unsubscribe?token=1.abc&x=1`);
  });
});
