import { describe, expect, it } from "vitest";
import { formatInZone, isTimeZone, offsetLabel, toZonedInput, withZoneOffset, zoneLabel, zoneOffsetMinutes } from "./time-zones";

describe("time zones", () => {
  it("knows IANA zones and refuses anything else", () => {
    expect(isTimeZone("Asia/Shanghai")).toBe(true);
    expect(isTimeZone("UTC")).toBe(true);
    expect(isTimeZone("America/Argentina/Buenos_Aires")).toBe(true);
    expect(isTimeZone("Mars/Olympus")).toBe(false);
    expect(isTimeZone("")).toBe(false);
    expect(isTimeZone("Asia/Shanghai; drop")).toBe(false);
    expect(isTimeZone(42)).toBe(false);
  });

  it("types 14:10 in Shanghai as 06:10 UTC, and shows it back as 14:10", () => {
    const typed = withZoneOffset("2026-12-08T14:10", "Asia/Shanghai");
    expect(typed).toBe("2026-12-08T14:10+08:00");
    expect(new Date(typed).toISOString()).toBe("2026-12-08T06:10:00.000Z");
    expect(toZonedInput("2026-12-08T06:10:00.000Z", "Asia/Shanghai")).toBe("2026-12-08T14:10");
    expect(formatInZone("2026-12-08T06:10:00.000Z", "Asia/Shanghai")).toBe("2026-12-08 14:10 Asia/Shanghai");
    expect(formatInZone("2026-12-08T06:10:00.000Z", "UTC")).toBe("2026-12-08 06:10 UTC");
    expect(zoneOffsetMinutes("Asia/Shanghai", Date.parse("2026-12-08T06:10:00Z"))).toBe(480);
  });

  it("follows summer time, on both sides of the change", () => {
    // New York: UTC−5 in winter, UTC−4 in summer (8 March 2026 at 2:00 the clocks go forward)
    expect(withZoneOffset("2026-01-15T09:00", "America/New_York")).toBe("2026-01-15T09:00-05:00");
    expect(withZoneOffset("2026-07-15T09:00", "America/New_York")).toBe("2026-07-15T09:00-04:00");
    expect(new Date(withZoneOffset("2026-03-08T12:00", "America/New_York")).toISOString()).toBe("2026-03-08T16:00:00.000Z");
    expect(toZonedInput("2026-03-08T16:00:00.000Z", "America/New_York")).toBe("2026-03-08T12:00");
    // half-hour zones
    expect(withZoneOffset("2026-05-01T10:00", "Asia/Kolkata")).toBe("2026-05-01T10:00+05:30");
    expect(offsetLabel("Asia/Kolkata")).toBe("UTC+5:30");
    expect(zoneLabel("Asia/Shanghai")).toBe("Asia/Shanghai, UTC+8");
    expect(zoneLabel("UTC")).toBe("UTC");
  });

  it("leaves what is not a zone-less local time as it is", () => {
    expect(withZoneOffset("2026-12-08T14:10Z", "Asia/Shanghai")).toBe("2026-12-08T14:10Z");
    expect(withZoneOffset("tomorrow", "Asia/Shanghai")).toBe("tomorrow");
    expect(toZonedInput(null, "UTC")).toBe("");
  });
});
