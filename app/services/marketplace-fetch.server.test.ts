import dns from "node:dns";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fetchOnce, FetchRefused, isAllowedHost, isPrivateAddress } from "./marketplace-fetch.server";

describe("the outside fetch guard", () => {
  it.each([
    "127.0.0.1",
    "10.1.2.3",
    "172.16.5.4",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "::1",
    "fd00::1",
    "fe80::1",
    "::ffff:10.0.0.1",
    "::ffff:127.0.0.1",
    "not-an-ip",
  ])("counts %s as private", (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(["8.8.8.8", "47.246.136.10", "2606:4700::1111", "::ffff:8.8.8.8"])("counts %s as public", (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });

  it("allows the marketplaces, the short-link services and the given extra domains, never an address or a look-alike", () => {
    for (const host of [
      "weidian.com",
      "thor.weidian.com",
      "h5api.m.taobao.com",
      "detail.tmall.com",
      "detail.1688.com",
      "m.tb.cn",
      "k.youshop10.com",
      "tinyurl.com",
    ]) {
      expect(isAllowedHost(host), host).toBe(true);
    }
    expect(isAllowedHost("www.hoobuy.com", ["hoobuy.com"])).toBe(true);
    for (const host of ["localhost", "127.0.0.1", "10.0.0.1", "evil.example", "weidian.com.evil.example", "notweidian.com", "hoobuy.com"]) {
      expect(isAllowedHost(host), host).toBe(false);
    }
  });

  describe("connecting", () => {
    let server: http.Server | undefined;
    afterEach(() => {
      server?.close();
      server = undefined;
    });

    it("refuses a marketplace host whose address is private, at connect time, and never reaches it", async () => {
      let reached = false;
      server = http.createServer((_req, res) => {
        reached = true;
        res.end("secret");
      });
      await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
      const port = (server.address() as AddressInfo).port;
      // a DNS answer pointing an allowlisted name at this machine (DNS rebinding)
      vi.spyOn(dns, "lookup").mockImplementation(((
        _host: string,
        _options: unknown,
        callback: (error: null, addresses: dns.LookupAddress[]) => void,
      ) => callback(null, [{ address: "127.0.0.1", family: 4 }])) as unknown as typeof dns.lookup);
      await expect(fetchOnce(`http://thor.weidian.com:${port}/detail`)).rejects.toThrow(/private address/);
      expect(reached).toBe(false);
    });

    it("refuses other schemes, credentials and hosts off the allowlist before any request", async () => {
      await expect(fetchOnce("ftp://weidian.com/item")).rejects.toBeInstanceOf(FetchRefused);
      await expect(fetchOnce("https://user:pass@weidian.com/item")).rejects.toBeInstanceOf(FetchRefused);
      await expect(fetchOnce("http://169.254.169.254/latest/meta-data")).rejects.toBeInstanceOf(FetchRefused);
    });
  });
});
