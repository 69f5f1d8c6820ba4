import { describe, expect, it } from "vitest";
import { nextOccurrence, occurrence } from "./campaign-sender.server";

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe("recurring occurrences", () => {
  it("steps a day or a week at a time from the first run", () => {
    const anchor = at("2026-11-24T09:30:00.000Z");
    expect(iso(occurrence(anchor, "daily", 3))).toBe("2026-11-27T09:30:00.000Z");
    expect(iso(occurrence(anchor, "weekly", 2))).toBe("2026-12-08T09:30:00.000Z");
  });

  it("keeps the day of the month, or the month's last day when it has fewer", () => {
    const anchor = at("2026-01-31T08:00:00.000Z");
    expect([1, 2, 3, 12, 13].map((k) => iso(occurrence(anchor, "monthly", k)))).toEqual([
      "2026-02-28T08:00:00.000Z",
      "2026-03-31T08:00:00.000Z",
      "2026-04-30T08:00:00.000Z",
      "2027-01-31T08:00:00.000Z",
      "2027-02-28T08:00:00.000Z",
    ]);
    expect(iso(occurrence(at("2027-12-29T00:00:00.000Z"), "monthly", 2))).toBe("2028-02-29T00:00:00.000Z");
  });

  it("finds the first occurrence after a time: one catch-up, never a burst of missed runs", () => {
    const anchor = at("2026-11-01T10:00:00.000Z");
    expect(iso(nextOccurrence(anchor, "daily", at("2026-11-24T12:00:00.000Z")))).toBe("2026-11-25T10:00:00.000Z");
    expect(iso(nextOccurrence(anchor, "daily", at("2026-11-24T10:00:00.000Z")))).toBe("2026-11-25T10:00:00.000Z");
    expect(iso(nextOccurrence(anchor, "weekly", at("2026-11-24T12:00:00.000Z")))).toBe("2026-11-29T10:00:00.000Z");
    expect(iso(nextOccurrence(anchor, "monthly", at("2027-03-15T00:00:00.000Z")))).toBe("2027-04-01T10:00:00.000Z");
    // a first run still to come is itself the next
    expect(nextOccurrence(anchor, "monthly", at("2026-10-01T00:00:00.000Z"))).toBe(anchor);
  });
});
