/**
 * A crowd of real photographs for the bench's search-by-photo evaluation (issue 38,
 * decision 050): Debian's wallpapers and backgrounds, each whole and cropped at random
 * places and sizes (a crop of a photograph is another real picture, as another product's
 * photo would be). The fixtures' own sources (tests/fixtures/photos/SOURCES.md) are left
 * out, so every picture of the crowd is a stranger to the shoppers' photos.
 *
 * The packages (any of them; none is needed by the product or its tests):
 *   apt-get install mate-backgrounds plasma-workspace-wallpapers gnome-backgrounds \
 *     sway-backgrounds lomiri-wallpapers python3-skimage
 * Their licences are in /usr/share/doc/<package>/copyright.
 */
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";

const ROOT = path.resolve(import.meta.dirname, "..");
const FOLDERS = ["/usr/share/backgrounds", "/usr/share/wallpapers", "/usr/lib/python3/dist-packages/skimage/data"];

function picturesUnder(dir: string, found: string[] = []): string[] {
  if (!fs.existsSync(dir)) return found;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) picturesUnder(file, found);
    else if (/\.(jpe?g|png|webp)$/i.test(entry.name) && fs.statSync(file).size > 60_000) found.push(file);
  }
  return found;
}

/** The source photographs: one a wallpaper (its largest size, not its dark version), none a fixture's source. */
export function crowdSources(): string[] {
  const fixtures = fs
    .readFileSync(path.join(ROOT, "tests", "fixtures", "photos", "SOURCES.md"), "utf8")
    .split("\n")
    .flatMap((line) => {
      const source = /`(\/usr\/[^`]+)`/.exec(line)?.[1];
      return source ? [source] : [];
    });
  const keyOf = (file: string) => (file.includes("/wallpapers/") ? file.split("/contents/")[0] : file);
  const excluded = new Set(fixtures.map(keyOf));
  const chosen = new Map<string, string>();
  for (const file of FOLDERS.flatMap((folder) => picturesUnder(folder))) {
    const key = keyOf(file);
    if (excluded.has(key) || file.includes("images_dark") || /screenshot/i.test(file)) continue;
    const previous = chosen.get(key);
    if (!previous || fs.statSync(file).size > fs.statSync(previous).size) chosen.set(key, file);
  }
  return [...chosen.values()].sort();
}

/** Each source whole, then `perSource - 1` crops of 30–80 % of its width and height at seeded places. */
export async function* crowdPictures(perSource: number): AsyncGenerator<{ name: string; input: Buffer }> {
  let seed = 50;
  const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  for (const file of crowdSources()) {
    const base = await sharp(file)
      .rotate()
      .resize(1600, 1600, { fit: "inside", withoutEnlargement: true })
      .jpeg({ quality: 90 })
      .toBuffer();
    const { width = 1, height = 1 } = await sharp(base).metadata();
    const name = path.relative("/usr", file);
    yield { name, input: base };
    for (let n = 1; n < perSource; n++) {
      const w = Math.round(width * (0.3 + 0.5 * random()));
      const h = Math.round(height * (0.3 + 0.5 * random()));
      const left = Math.floor((width - w) * random());
      const top = Math.floor((height - h) * random());
      yield { name: `${name}#${n}`, input: await sharp(base).extract({ left, top, width: w, height: h }).jpeg({ quality: 85 }).toBuffer() };
    }
  }
}
