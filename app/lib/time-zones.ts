/**
 * Scheduled times in the admin's time zone (issue 39; docs/decisions/048): typed and shown
 * in a zone (the browser's, kept in the `tz` cookie, else the site's `time_zone` setting),
 * stored in UTC. Client-safe: Intl only, no zone data of our own.
 */

export const TIME_ZONE_COOKIE = "tz";
export const DEFAULT_TIME_ZONE = "UTC";

const UTC_NAMES = new Set(["UTC", "Etc/UTC", "Etc/GMT", "GMT", "Etc/Universal", "Universal", "UCT", "Etc/UCT", "Zulu", "Etc/Zulu"]);

/** A zone's name as the back office writes it: UTC's many names are "UTC". */
export function canonicalZone(zone: string): string {
  return UTC_NAMES.has(zone) ? "UTC" : zone;
}

/** An IANA time zone Intl knows ("Asia/Shanghai", "UTC"); names are at most 64 characters. */
export function isTimeZone(value: unknown): value is string {
  if (typeof value !== "string" || value.length === 0 || value.length > 64 || !/^[A-Za-z0-9_+\-/]+$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat("en", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

const partsFormats = new Map<string, Intl.DateTimeFormat>();
function partsFormat(zone: string): Intl.DateTimeFormat {
  let format = partsFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    partsFormats.set(zone, format);
  }
  return format;
}

/** The wall clock in `zone` at an instant: [year, month, day, hour, minute]. */
function wallClock(time: number, zone: string): number[] {
  const parts = Object.fromEntries(
    partsFormat(zone)
      .formatToParts(new Date(time))
      .map((part) => [part.type, part.value]),
  );
  return [Number(parts.year), Number(parts.month), Number(parts.day), Number(parts.hour) % 24, Number(parts.minute), Number(parts.second)];
}

/** How far `zone` is ahead of UTC at an instant, in minutes (Asia/Shanghai: 480). */
export function zoneOffsetMinutes(zone: string, time: number): number {
  const [year, month, day, hour, minute, second] = wallClock(time, zone);
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  return Math.round((asUtc - Math.floor(time / 1000) * 1000) / 60_000);
}

const pad = (value: number) => String(value).padStart(2, "0");

/** A stored instant as a datetime-local value in `zone` ("2026-12-08T14:10"); "" for none. */
export function toZonedInput(iso: string | null | undefined, zone: string): string {
  if (!iso) return "";
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return "";
  const [year, month, day, hour, minute] = wallClock(time, zone);
  return `${year}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}`;
}

/**
 * A datetime-local value typed in `zone` ("2026-12-08T14:10") with its offset there
 * ("2026-12-08T14:10+08:00"), which the schemas read as that instant; a value that is not
 * a zone-less local time is answered as it is (the schema says what is wrong with it).
 */
export function withZoneOffset(local: string, zone: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(local.trim());
  if (!match) return local;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0));
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  // the offset at the instant meant; once more at the result, for a time near a change of offset
  let offset = zoneOffsetMinutes(zone, wall);
  offset = zoneOffsetMinutes(zone, wall - offset * 60_000);
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(offset);
  return `${local.trim().replace(" ", "T")}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** "UTC+8", "UTC−3:30", "UTC": a zone's offset at an instant, for its label. */
export function offsetLabel(zone: string, time = Date.now()): string {
  const offset = zoneOffsetMinutes(zone, time);
  if (offset === 0) return "UTC";
  const abs = Math.abs(offset);
  return `UTC${offset < 0 ? "−" : "+"}${Math.floor(abs / 60)}${abs % 60 ? `:${pad(abs % 60)}` : ""}`;
}

/** "Asia/Shanghai, UTC+8" (the zone named, with its offset now); "UTC" alone for UTC. */
export function zoneLabel(zone: string, time = Date.now()): string {
  return canonicalZone(zone) === "UTC" ? "UTC" : `${zone}, ${offsetLabel(zone, time)}`;
}

/** An instant as the back office writes it in `zone`: "2026-12-08 14:10 Asia/Shanghai" ("… UTC" in UTC). */
export function formatInZone(iso: string | null | undefined, zone: string, fallback = "—"): string {
  const local = toZonedInput(iso, zone);
  if (!local) return fallback;
  return `${local.replace("T", " ")} ${canonicalZone(zone)}`;
}
