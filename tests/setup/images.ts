/** Image files for upload tests, made on the spot (no fixtures to keep in the repository). */
import zlib from "node:zlib";
import sharp from "sharp";

let shade = 0;

/** A small photo-like JPEG (a gradient, so it is not trivially compressible). */
export async function jpeg(width = 96, height = 72): Promise<Buffer> {
  shade = (shade + 37) % 200;
  const channels = 3;
  const pixels = Buffer.alloc(width * height * channels);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * channels;
      pixels[i] = (x * 255) / width;
      pixels[i + 1] = (y * 255) / height;
      pixels[i + 2] = shade;
    }
  }
  return sharp(pixels, { raw: { width, height, channels } }).jpeg({ quality: 85 }).toBuffer();
}

export async function png(width = 64, height = 64): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 60, b: 90 } } })
    .png()
    .toBuffer();
}

export async function gif(): Promise<Buffer> {
  return sharp({ create: { width: 16, height: 16, channels: 3, background: { r: 0, g: 0, b: 255 } } })
    .gif()
    .toBuffer();
}

/** A JPEG that carries EXIF: a camera, an owner and GPS coordinates. */
export async function jpegWithExif(): Promise<Buffer> {
  return sharp(await jpeg(120, 90))
    .withExif({
      IFD0: { Make: "LeakyCam", Model: "Secret Model 9", Artist: "Warehouse Worker 42", Copyright: "PRIVATE-EXIF-MARKER" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "22/1 32/1 0/1", GPSLongitudeRef: "E", GPSLongitude: "114/1 3/1 0/1" },
    })
    .jpeg()
    .toBuffer();
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/**
 * A decompression bomb: a complete, valid PNG of `side` × `side` grey pixels (144
 * megapixels at the default; 144 MB decoded) that is a few hundred KB on disk, because
 * every pixel is zero.
 */
export async function pngBomb(side = 12_000): Promise<Buffer> {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  const row = Buffer.alloc(side + 1); // the filter byte and the pixels, all zero
  const rowsPerWrite = Math.max(1, Math.floor((4 << 20) / row.length));
  const block = Buffer.concat(Array.from({ length: rowsPerWrite }, () => row));
  const deflate = zlib.createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on("data", (part: Buffer) => parts.push(part));
  const done = new Promise<void>((resolve, reject) => {
    deflate.on("end", resolve);
    deflate.on("error", reject);
  });
  for (let rows = 0; rows < side; rows += rowsPerWrite) {
    const take = Math.min(rowsPerWrite, side - rows);
    const data = take === rowsPerWrite ? block : block.subarray(0, take * row.length);
    if (!deflate.write(data)) await new Promise((resolve) => deflate.once("drain", resolve));
  }
  deflate.end();
  await done;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", Buffer.concat(parts)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** Bytes that are not an image at all. */
export const notAnImage = Buffer.from("These are notes about the seller, not a photo.\n");
