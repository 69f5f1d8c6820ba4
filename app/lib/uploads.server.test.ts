import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveUploadPath } from "./uploads.server";

const root = "/srv/uploads";

describe("resolveUploadPath", () => {
  it("maps ordinary paths inside the folder", () => {
    expect(resolveUploadPath(root, "/avatars/a.webp")).toBe(path.join(root, "avatars", "a.webp"));
    expect(resolveUploadPath(root, "/qc/%E4%B8%AD.jpg")).toBe(path.join(root, "qc", "中.jpg"));
  });

  it.each([
    "/../secrets.json",
    "/avatars/../../secrets.json",
    "/%2e%2e/secrets.json",
    "/%2E%2E%2Fsecrets.json",
    "/%252e%252e/secrets.json",
    "/..%5csecrets.json",
    "//etc/passwd",
    "/%2Fetc%2Fpasswd",
    "/C:/windows/win.ini",
    "/a/%00.jpg",
    "/.hidden",
    "/",
    "",
    "/%E0%A4%A",
  ])("refuses %s", (raw) => {
    expect(resolveUploadPath(root, raw)).toBeNull();
  });
});
