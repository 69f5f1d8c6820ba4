/**
 * The back office's time zone (app/lib/time-zones.ts): the zone the root loader chose for
 * this page (the browser's, else the site's), and the browser telling its own zone for the
 * next pages (the `tz` cookie, back office only). A form that takes a scheduled time names
 * its zone in a hidden `time_zone` field, so the time is read in the zone it was typed in.
 */
import { useRouteLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { canonicalZone, DEFAULT_TIME_ZONE, formatInZone, isTimeZone, TIME_ZONE_COOKIE, toZonedInput, zoneLabel } from "~/lib/time-zones";
import type { RootLoaderData } from "~/root";

export function useTimeZone(): string {
  return (useRouteLoaderData("root") as RootLoaderData | undefined)?.timeZone ?? DEFAULT_TIME_ZONE;
}

/** Formats stored instants in the page's zone ("2026-12-08 14:10 Asia/Shanghai"). */
export function useZonedTime() {
  const zone = useTimeZone();
  return {
    zone,
    label: zoneLabel(zone),
    format: (iso: string | null | undefined, fallback?: string) => formatInZone(iso, zone, fallback),
    input: (iso: string | null | undefined) => toZonedInput(iso, zone),
  };
}

/** Keeps the browser's zone in the `tz` cookie (a year, the back office only): the server shows the next pages in it. */
export function useBrowserTimeZone(shown: string): void {
  useEffect(() => {
    const zone = canonicalZone(Intl.DateTimeFormat().resolvedOptions().timeZone ?? "");
    if (!zone || zone === shown || !isTimeZone(zone)) return;
    document.cookie = `${TIME_ZONE_COOKIE}=${zone}; Path=/admin; Max-Age=31536000; SameSite=Lax`;
  }, [shown]);
}

/** The hidden field naming the zone a form's times are typed in. */
export function TimeZoneField() {
  return <input type="hidden" name="time_zone" value={useTimeZone()} />;
}
