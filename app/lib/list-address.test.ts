import { describe, expect, it } from "vitest";
import { listAddress, listReturnTo } from "./list-address";

const post = (url: string) => new Request(`http://127.0.0.1${url}`, { method: "POST" });

describe("a back-office list's addresses", () => {
  it("drops the parameters that only open a dialog, and Remix's ?index", () => {
    expect(
      listAddress("/admin/products", new URLSearchParams("q=shoe&page=2&modal=delete&productId=4&index"), ["modal", "productId"]),
    ).toBe("/admin/products?q=shoe&page=2");
    expect(listAddress("/admin/products", new URLSearchParams("modal=delete"), ["modal"], { page: "3" })).toBe("/admin/products?page=3");
  });

  it("goes back to the list address the form named: its search and page kept, its dialog closed", () => {
    expect(
      listReturnTo(
        "/admin/categories?q=bag&page=2&modal=delete&categoryId=9",
        "/admin/categories",
        ["modal", "categoryId"],
        post("/admin/categories?index"),
      ),
    ).toBe("/admin/categories?q=bag&page=2");
  });

  it("never goes to another page or site: the list as the request addressed it instead", () => {
    const request = post("/admin/products?index&page=4");
    for (const returnTo of [
      "//evil.example/admin/products",
      "https://evil.example/admin/products",
      "/admin/users?page=2",
      "/admin/products/9/edit",
      "admin/products",
      null,
      7,
    ]) {
      expect(listReturnTo(returnTo, "/admin/products", ["modal"], request), String(returnTo)).toBe("/admin/products?page=4");
    }
  });
});
