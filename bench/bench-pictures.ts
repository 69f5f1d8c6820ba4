/**
 * `npx tsx bench/bench-pictures.ts DATA_DIR`: gives the pictures a bench database names (its
 * products' images, QC photos and blog covers, which the bench writes as addresses only) real files, so
 * that a browser measurement (Lighthouse, docs/performance.md) sees a shop whose pictures
 * exist: no 404 in its console, and the product page's largest picture as its LCP element.
 *
 * The files are the real photographs of tests/fixtures/photos/catalogue (their sources in
 * its SOURCES.md), resized once to 800 px (and 300 px for QC thumbnails) as WebP, then
 * hard-linked under every address: a few megabytes whatever the catalogue's size. Files
 * already there are left as they are.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import sharp from "sharp";

const dataDir = process.argv[2];
if (!dataDir || !fs.existsSync(path.join(dataDir, "app.db"))) {
  console.error("usage: npx tsx bench/bench-pictures.ts DATA_DIR (a bench database: DATA_DIR/app.db)");
  process.exit(1);
}
const photos = path.join(import.meta.dirname, "..", "tests", "fixtures", "photos", "catalogue");
const made = path.join(dataDir, "bench-pictures");
fs.mkdirSync(made, { recursive: true });
const sources: Array<{ full: string; thumb: string }> = [];
for (const [n, file] of fs.readdirSync(photos).sort().entries()) {
  const full = path.join(made, `${n}.webp`);
  const thumb = path.join(made, `${n}-thumb.webp`);
  await sharp(path.join(photos, file)).resize(800, 800, { fit: "cover" }).webp({ quality: 80 }).toFile(full);
  await sharp(path.join(photos, file)).resize(300, 300, { fit: "cover" }).webp({ quality: 75 }).toFile(thumb);
  sources.push({ full, thumb });
}

let linked = 0;
function place(source: string, address: string | null): void {
  if (!address?.startsWith("/uploads/")) return;
  const to = path.join(dataDir, address);
  if (!to.startsWith(path.join(dataDir, "uploads") + path.sep) || fs.existsSync(to)) return;
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.linkSync(source, to);
  linked += 1;
}

const db = new Database(path.join(dataDir, "app.db"), { readonly: true });
for (const row of db.prepare("SELECT id, images FROM products").iterate() as Iterable<{ id: number; images: string | null }>) {
  for (const address of JSON.parse(row.images ?? "[]") as string[]) place(sources[row.id % sources.length].full, address);
}
for (const row of db.prepare("SELECT id, image_url, thumb_url FROM qc_images").iterate() as Iterable<{
  id: number;
  image_url: string;
  thumb_url: string | null;
}>) {
  place(sources[row.id % sources.length].full, row.image_url);
  place(sources[row.id % sources.length].thumb, row.thumb_url);
}
for (const row of db.prepare("SELECT id, featured_image FROM blog_posts").iterate() as Iterable<{
  id: number;
  featured_image: string | null;
}>) {
  place(sources[row.id % sources.length].full, row.featured_image);
}
db.close();
console.log(`${linked} pictures given files in ${path.join(dataDir, "uploads")} (${sources.length} photographs)`);
