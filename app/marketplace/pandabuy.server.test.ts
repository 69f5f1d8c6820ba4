import { describe, expect, it } from "vitest";
import { readMarketplaceInput } from "./links";
import { decryptPandabuy, pandabuyDecoder } from "./pandabuy.server";

// a real shared link (tests/fixtures/link-corpus.json names its source)
const ENCRYPTED =
  "PJ9emDFVd3v76X25eDSVqIb3mLH4Md7zsyLlOTWmhLylMKdL6gbFKJ94ysL%2FSI3tYF1YOL6lhXMdRWOn3qm5FSOGuAaHx4uHPsYpA1hNETE3aRnXLdfh3RnL5vyVxk2ezXnQ8DWAgYzbSSdI";

describe("Pandabuy's encrypted links", () => {
  it("decrypt to the marketplace link they carry", () => {
    expect(decryptPandabuy(decodeURIComponent(ENCRYPTED))).toBe(
      "https://www.taobao.com/list/item/674680652328.htm?spm=a21wu.10013406.taglist-content.10.1d9865ebWR4RYC",
    );
  });

  it("are read as the item, on pandabuy.com only", () => {
    expect(readMarketplaceInput(`https://www.pandabuy.com/product?url=${ENCRYPTED}&utm_source=url`, [], [pandabuyDecoder])).toEqual({
      kind: "item",
      platform: "taobao",
      itemId: "674680652328",
      via: "agent",
    });
    expect(readMarketplaceInput(`https://pandabuy.example/product?url=${ENCRYPTED}`, [], [pandabuyDecoder]).kind).toBe("unsupported");
  });

  it("answer null for what is not one: another prefix, a broken value, a wrong digit", () => {
    expect(decryptPandabuy("https://weidian.com/item.html?itemID=1")).toBeNull();
    expect(decryptPandabuy("PJ9eAAAA")).toBeNull();
    expect(decryptPandabuy(decodeURIComponent(ENCRYPTED).replace(/^PJ9/, "PJ3"))).toBeNull();
  });
});
