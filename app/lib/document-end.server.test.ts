import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { DocumentEndLast } from "./document-end.server";

const through = (chunks: string[]) => text(Readable.from(chunks.map((chunk) => Buffer.from(chunk))).pipe(new DocumentEndLast()));

describe("DocumentEndLast", () => {
  const page = "<!doctype html><html><body><p>耐克</p></body></html><script>a()</script><!--$--><script>b()</script><!--/$-->";
  const moved = "<!doctype html><html><body><p>耐克</p><script>a()</script><!--$--><script>b()</script><!--/$--></body></html>";

  it("moves what follows </body></html> before it, however the chunks split the text", async () => {
    expect(await through([page])).toBe(moved);
    for (let split = 1; split < page.length; split++)
      expect(await through([page.slice(0, split), page.slice(split)]), `split at ${split}`).toBe(moved);
    expect(await through([...page])).toBe(moved);
  });

  it("leaves a document without anything after its end, or without an end, as it was", async () => {
    expect(await through(["<html><body>x</body></html>"])).toBe("<html><body>x</body></html>");
    expect(await through(["<html><body>cut off", " here"])).toBe("<html><body>cut off here");
  });

  it("keeps multi-byte characters split across chunks whole", async () => {
    const bytes = Buffer.from(page);
    const chunks = [bytes.subarray(0, 33), bytes.subarray(33)];
    const out = await text(Readable.from(chunks).pipe(new DocumentEndLast()));
    expect(out).toBe(moved);
  });
});
