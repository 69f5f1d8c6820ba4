const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * "24 Nov 2026" in English, "2026年11月24日" in Chinese, Intl's short date in the others (UTC: the same on the server and in
 * every browser, so a hydrated page shows what was rendered); "" when not a date.
 */
export function dayText(iso: string | null | undefined, language: string = "en"): string {
  if (!iso) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  if (language.startsWith("zh")) return `${date.getUTCFullYear()}年${date.getUTCMonth() + 1}月${date.getUTCDate()}日`;
  if (language === "en") return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
  return dayFormat(language).format(date);
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();
/** "7 déc. 2026", "7. Dez. 2026": the storefront's other languages as Intl writes them (UTC). */
function dayFormat(language: string): Intl.DateTimeFormat {
  let format = dayFormats.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(language, { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
    dayFormats.set(language, format);
  }
  return format;
}
