/**
 * The built-in HTML templates shipped with the product (docs/product/admin.md 3: name,
 * displayName, description, type). Each is a starting point: previewed with sample
 * values, and copied into a new editable template with one click.
 *
 * Layouts are tables with inline styles (what mail clients render alike), 600 px wide
 * at most and fluid below, with the unsubscribe link in the footer.
 */

export type HtmlTemplate = {
  name: string;
  displayName: string;
  description: string;
  type: "welcome" | "newsletter" | "promotion" | "announcement";
  subject: string;
  html: string;
  text: string;
};

const frame = (accent: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>{{siteName}}</title></head>
<body style="margin:0;padding:0;background:#f4f4f1">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f4f1"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;border:1px solid #dcdcd8;border-radius:8px;font-family:system-ui,-apple-system,'Segoe UI',Roboto,'PingFang SC','Microsoft YaHei',sans-serif;color:#1c1c1e">
<tr><td style="padding:20px 28px;border-bottom:4px solid ${accent}"><a href="{{siteUrl}}" style="color:#1c1c1e;text-decoration:none;font-size:20px;font-weight:700">{{siteName}}</a></td></tr>
${body}
<tr><td style="padding:18px 28px;border-top:1px solid #ececea;color:#5f6368;font-size:12px;line-height:1.5">
You receive this e-mail because you have an account at <a href="{{siteUrl}}" style="color:#5f6368">{{siteName}}</a>.
<a href="{{unsubscribeUrl}}" style="color:#5f6368">Unsubscribe</a> with one click.
</td></tr>
</table></td></tr></table>
</body></html>`;

const button = (accent: string, label: string) =>
  `<p style="margin:24px 0"><a href="{{siteUrl}}" style="display:inline-block;background:${accent};color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:600">${label}</a></p>`;

const textFooter =
  "\n\n--\nYou receive this e-mail because you have an account at {{siteName}} ({{siteUrl}}).\nUnsubscribe: {{unsubscribeUrl}}\n";

export const HTML_TEMPLATES: readonly HtmlTemplate[] = [
  {
    name: "welcome",
    displayName: "Welcome",
    description: "Greets a new shopper and shows where to start: search, categories and QC photos.",
    type: "welcome",
    subject: "Welcome to {{siteName}}, {{userName}}",
    html: frame(
      "#0f766e",
      `<tr><td style="padding:28px">
<h1 style="font-size:24px;margin:0 0 16px">Welcome, {{userName}}!</h1>
<p style="margin:0 0 12px;line-height:1.6">Thanks for joining {{siteName}}. Find products on Weidian, Taobao, Tmall and 1688, compare prices in your currency and check real QC photos before you buy through your agent.</p>
<ul style="margin:0 0 12px;padding-left:20px;line-height:1.8"><li>Search by name, or paste a marketplace link</li><li>Save products to your collections</li><li>Upload QC photos to help other shoppers</li></ul>
${button("#0f766e", "Start browsing")}
</td></tr>`,
    ),
    text: `Welcome, {{userName}}!\n\nThanks for joining {{siteName}}. Find products on Weidian, Taobao, Tmall and 1688, compare prices in your currency and check real QC photos before you buy through your agent.\n\n- Search by name, or paste a marketplace link\n- Save products to your collections\n- Upload QC photos to help other shoppers\n\nStart browsing: {{siteUrl}}${textFooter}`,
  },
  {
    name: "newsletter",
    displayName: "Newsletter",
    description: "A monthly round-up: a lead story and three short items.",
    type: "newsletter",
    subject: "{{siteName}} monthly: what's new",
    html: frame(
      "#1d4ed8",
      `<tr><td style="padding:28px">
<p style="margin:0 0 8px;color:#5f6368;font-size:13px;text-transform:uppercase;letter-spacing:1px">Newsletter</p>
<h1 style="font-size:22px;margin:0 0 16px">Hi {{userName}}, here is what's new</h1>
<h2 style="font-size:17px;margin:20px 0 6px">This month's most viewed</h2>
<p style="margin:0 0 12px;line-height:1.6">Write the lead story here: the products shoppers looked at most, with a sentence on each.</p>
<h2 style="font-size:17px;margin:20px 0 6px">New QC photos</h2>
<p style="margin:0 0 12px;line-height:1.6">A short note on fresh QC galleries.</p>
<h2 style="font-size:17px;margin:20px 0 6px">From the blog</h2>
<p style="margin:0 0 12px;line-height:1.6">A link or two to the latest guides.</p>
${button("#1d4ed8", "Read more")}
</td></tr>`,
    ),
    text: `Hi {{userName}}, here is what's new\n\nThis month's most viewed\nWrite the lead story here: the products shoppers looked at most, with a sentence on each.\n\nNew QC photos\nA short note on fresh QC galleries.\n\nFrom the blog\nA link or two to the latest guides.\n\nRead more: {{siteUrl}}${textFooter}`,
  },
  {
    name: "promotion",
    displayName: "Promotion",
    description: "One offer, one button: a sale, a coupon code or a featured collection.",
    type: "promotion",
    subject: "{{userName}}, a deal picked for you at {{siteName}}",
    html: frame(
      "#c2410c",
      `<tr><td style="padding:28px;text-align:center">
<h1 style="font-size:26px;margin:0 0 12px">This week only</h1>
<p style="margin:0 0 12px;line-height:1.6">Hi {{userName}}, describe the offer here in one or two sentences.</p>
<p style="margin:16px auto;display:inline-block;border:2px dashed #c2410c;border-radius:6px;padding:10px 18px;font-size:20px;font-weight:700;letter-spacing:2px">CODE</p>
${button("#c2410c", "See the offer")}
</td></tr>`,
    ),
    text: `This week only\n\nHi {{userName}}, describe the offer here in one or two sentences.\n\nCode: CODE\n\nSee the offer: {{siteUrl}}${textFooter}`,
  },
  {
    name: "announcement",
    displayName: "Announcement",
    description: "A plain notice: a new feature, a change to the service, or news about the site.",
    type: "announcement",
    subject: "News from {{siteName}}",
    html: frame(
      "#4b5563",
      `<tr><td style="padding:28px">
<h1 style="font-size:22px;margin:0 0 16px">Something new at {{siteName}}</h1>
<p style="margin:0 0 12px;line-height:1.6">Hello {{userName}},</p>
<p style="margin:0 0 12px;line-height:1.6">Write the announcement here. Keep it short: what changes, when, and what the reader should do, if anything.</p>
<p style="margin:0 0 12px;line-height:1.6">Thank you for using {{siteName}}.</p>
${button("#4b5563", "Visit the site")}
</td></tr>`,
    ),
    text: `Something new at {{siteName}}\n\nHello {{userName}},\n\nWrite the announcement here. Keep it short: what changes, when, and what the reader should do, if anything.\n\nThank you for using {{siteName}}.\n\nVisit the site: {{siteUrl}}${textFooter}`,
  },
];

export function findHtmlTemplate(name: string): HtmlTemplate | undefined {
  return HTML_TEMPLATES.find((template) => template.name === name);
}
