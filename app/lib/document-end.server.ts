/**
 * What React writes after the document's `</body></html>` goes before it. Remix renders its
 * single-fetch data scripts beside the document, so React streams them after `</html>`,
 * where HTML allows nothing ("Stray start tag script" in the Nu Html Checker, issue 37);
 * browsers put them at the end of the body anyway, so moving them there changes no DOM:
 * the page becomes valid and hydrates as before.
 */
import { Transform, type TransformCallback } from "node:stream";

const END = Buffer.from("</body></html>");

export class DocumentEndLast extends Transform {
  /** the last bytes seen, which may be the start of END split across chunks */
  #held: Buffer = Buffer.alloc(0);
  #found = false;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (this.#found) return callback(null, chunk);
    const data = this.#held.length ? Buffer.concat([this.#held, chunk]) : chunk;
    const at = data.indexOf(END);
    if (at !== -1) {
      this.#found = true;
      this.#held = Buffer.alloc(0);
      if (at > 0) this.push(data.subarray(0, at));
      const after = data.subarray(at + END.length);
      return callback(null, after.length ? after : undefined);
    }
    const keep = Math.min(END.length - 1, data.length);
    this.#held = Buffer.from(data.subarray(data.length - keep));
    callback(null, data.length > keep ? data.subarray(0, data.length - keep) : undefined);
  }

  override _flush(callback: TransformCallback): void {
    if (this.#held.length) this.push(this.#held);
    if (this.#found) this.push(END);
    callback();
  }
}
