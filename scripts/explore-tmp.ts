import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { startArgs } from "./start-command";

const ROOT = path.resolve(import.meta.dirname, "..");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "explore-"));
const port = 3211;
const extra = process.argv.slice(2);
const app = spawn(process.execPath, [...startArgs().slice(0, -1), ...extra, "scripts/start.mjs"], { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: "127.0.0.1", SEED_DEMO: "0", LOG_LEVEL: "warn", ADMIN_EMAIL: "a@example.com", ADMIN_PASSWORD: "adminpass123", LISTING_CHECKS_PER_HOUR: "0", RATES_URL: "http://127.0.0.1:9/x", RATES_BACKUP_URL: "http://127.0.0.1:9/x" }, stdio: ["ignore", "inherit", "inherit"] });
const raw = spawn(process.execPath, ["-e", `require("node:http").createServer((q,s)=>{s.writeHead(200,{"Content-Type":"text/plain"});s.end("hello world")}).listen(3212,"127.0.0.1")`]);
const rss = () => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${app.pid}/status`, "utf8"))![1]) / 1024;
let peak = 0;
const sampler = setInterval(() => { try { peak = Math.max(peak, rss()); } catch {} }, 100);
const base = `http://127.0.0.1:${port}`;
for (let i = 0; i < 100; i++) { try { if ((await fetch(base + "/healthz")).ok) break; } catch {} await new Promise(r => setTimeout(r, 200)); }
const login = await (await fetch(base + "/api/auth/login", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ email: "a@example.com", password: "adminpass123" }) })).json() as any;
const token = login.accessToken;
const words = ["hoodie 连帽卫衣", "sneakers 运动鞋", "jacket 夹克", "backpack 双肩包", "watch 手表", "jeans 牛仔裤"];
let made = 0; let firstId = 0;
const t0 = Date.now();
async function worker(w: number) {
  for (let i = w; i < 3000; i += 4) {
    const r = await fetch(base + "/api/admin/products", { method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" }, body: JSON.stringify({ name: `Product ${i} ${words[i % words.length]} 新款`, description: `描述 ${i} `.repeat(20), price_cny: 10 + i % 500, main_images: [`https://img.example.com/${i}.jpg`], platform: ["weidian","taobao","tmall","1688"][i%4], platform_item_id: String(7000000000 + i), skus: [{ sku_name: "M", sku_price: 10, sku_stock: 3 }, { sku_name: "L", sku_price: 11, sku_stock: 2 }] }) });
    const j = await r.json() as any; if (!firstId) firstId = j.data?.id; made++;
  }
}
await Promise.all([0,1,2,3].map(worker));
console.log(`created ${made} in ${(Date.now()-t0)/1000}s, RSS ${rss().toFixed(0)} peak ${peak.toFixed(0)}; wal ${fs.statSync(path.join(dataDir,"app.db-wal")).size/1e6} MB`);
const H = { "accept-encoding": "gzip, deflate, br", "user-agent": "Mozilla/5.0 bench" };
const run = async (label: string, url: string, seconds = 8, rotate?: string[]) => {
  let sent = 0;
  const requests = rotate ? [{ setupRequest: (q: any) => ({ ...q, path: `${rotate[sent % rotate.length]}&n=${++sent}` }) }] : undefined;
  const r = await autocannon({ url, connections: 10, duration: seconds, headers: H, requests } as any);
  console.log(`${label}: ${r.requests.average.toFixed(0)} req/s p99 ${r.latency.p99} RSS ${rss().toFixed(0)} peak ${peak.toFixed(0)}`);
  return r.requests.average;
};
const rawRate = await run("raw", "http://127.0.0.1:3212/");
await run("search rotate", `${base}/api/products/search?q=hoodie`, 8, words.map(w => `/api/products/search?q=${encodeURIComponent(w.split(" ")[1])}`));
await run("search", `${base}/api/products/search?q=hoodie`);
const mid = firstId + 1500;
const a = await run("product api", `${base}/api/products/${mid}`);
const page = (await fetch(`${base}/product/${mid}`, { redirect: "manual" })).headers.get("location") ?? `/product/${mid}`;
const b = await run("product page", base + page);
console.log(`ratios api ${(a/rawRate).toFixed(3)} page ${(b/rawRate).toFixed(3)}; RSS ${rss().toFixed(0)} peak ${peak.toFixed(0)}`);
clearInterval(sampler); app.kill("SIGTERM"); raw.kill(); 
