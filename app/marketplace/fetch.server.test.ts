import dns from "node:dns";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fetchOnce, FetchRefused, isAllowedHost, isPrivateAddress } from "./fetch.server";

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

  // IPv6 addresses that reach IPv4 hosts (or stand for them), in every spelling a resolver may give
  it.each([
    // IPv4-mapped (::ffff:0:0/96), dotted and hex: checked against the IPv4 ranges
    ["::ffff:7f00:1", "IPv4-mapped loopback, hex"],
    ["0:0:0:0:0:ffff:a00:1", "IPv4-mapped 10.0.0.1, uncompressed"],
    ["::FFFF:192.168.1.1", "IPv4-mapped, upper case"],
    ["::ffff:169.254.169.254", "IPv4-mapped cloud metadata"],
    // IPv4-compatible (::/96, deprecated): the whole prefix
    ["::127.0.0.1", "IPv4-compatible loopback"],
    ["::7f00:1", "IPv4-compatible loopback, hex"],
    ["::a00:1", "IPv4-compatible 10.0.0.1"],
    ["::8.8.8.8", "IPv4-compatible, even of a public address"],
    // IPv4-translated (::ffff:0:0:0/96): checked against the IPv4 ranges
    ["::ffff:0:7f00:1", "IPv4-translated loopback"],
    ["::ffff:0:10.0.0.1", "IPv4-translated 10.0.0.1"],
    // NAT64: the well-known prefix and the local-use one (RFC 8215)
    ["64:ff9b::7f00:1", "NAT64 well-known prefix"],
    ["64:ff9b::8.8.8.8", "NAT64 well-known prefix, public IPv4"],
    ["64:ff9b:1::a00:1", "NAT64 local-use prefix"],
    ["64:ff9b:1:ffff::1", "NAT64 local-use prefix, end"],
    // 6to4 (2002::/16) and Teredo (2001::/32): the whole prefixes
    ["2002:7f00:1::1", "6to4 of 127.0.0.1"],
    ["2002:c0a8:101::1", "6to4 of 192.168.1.1"],
    ["2002:808:808::1", "6to4 of a public address"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo"],
    ["2001::1", "Teredo, short"],
    // a zone index does not hide a link-local address
    ["fe80::1%eth0", "link-local with a zone"],
    ["fe80::1%1", "link-local with a numeric zone"],
  ])("counts %s as private (%s)", (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each([
    "::ffff:808:808",
    "::ffff:0:8.8.8.8",
    "2001:db9::1",
    "2001:1::1",
    "2003::1",
    "2400:cb00:2048:1::c629:d7a2",
    "64:ff9b:2::1",
    "2404:6800:4003:c00::64",
  ])("counts %s as public (next to the special prefixes, not in them)", (address) => {
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

    it.each([
      ["::ffff:7f00:1", 6],
      ["::127.0.0.1", 6],
      ["64:ff9b:1::7f00:1", 6],
      ["2002:7f00:1::1", 6],
      ["2001:0:4136:e378:8000:63bf:3fff:fdd2", 6],
    ])("refuses a marketplace host whose IPv6 address %s leads to an IPv4 host, and never reaches it", async (address, family) => {
      let reached = false;
      server = http.createServer((_req, res) => {
        reached = true;
        res.end("secret");
      });
      await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
      const port = (server.address() as AddressInfo).port;
      vi.spyOn(dns, "lookup").mockImplementation(((
        _host: string,
        _options: unknown,
        callback: (error: null, addresses: dns.LookupAddress[]) => void,
      ) => callback(null, [{ address, family }])) as unknown as typeof dns.lookup);
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
