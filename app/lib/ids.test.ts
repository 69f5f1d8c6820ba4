import { describe, expect, it } from "vitest";
import { idOf } from "./ids";

describe("idOf", () => {
  it.each([
    ["1", 1],
    ["42", 42],
    [42, 42],
    ["9007199254740991", 9007199254740991],
  ])("reads %j as %j", (value, id) => {
    expect(idOf(value)).toBe(id);
  });

  it.each([
    "",
    "0",
    "-1",
    "1.5",
    "1e3",
    " 1",
    "1 ",
    "0x10",
    "9007199254740993",
    "99999999999999999",
    "abc",
    null,
    undefined,
    0,
    -3,
    1.5,
    NaN,
    {},
    ["1"],
  ])("refuses %j", (value) => {
    expect(idOf(value)).toBeNull();
  });
});
