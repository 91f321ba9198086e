// Which addresses webhooks may reach (WIRE.md §4.16): public ones only, unless the operator allows private ones.
import { describe, expect, it } from "vitest";
import { isPublicAddress, isPublicUrl } from "./addresses.ts";

describe("isPublicAddress", () => {
  it("refuses loopback, private, link-local, shared, multicast and reserved addresses", () => {
    for (const address of [
      "0.0.0.0",
      "10.0.0.1",
      "100.64.1.1",
      "127.0.0.1",
      "127.255.255.254",
      "169.254.169.254",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.0.1",
      "198.18.0.1",
      "224.0.0.1",
      "255.255.255.255",
      "::",
      "::1",
      "fc00::1",
      "fd12:3456::1",
      "fe80::1",
      "ff02::1",
      "::ffff:10.0.0.1",
      "::ffff:127.0.0.1",
      "not-an-ip",
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it("accepts public addresses", () => {
    for (const address of [
      "1.1.1.1",
      "8.8.8.8",
      "93.184.215.14",
      "172.32.0.1",
      "2606:4700::1111",
      "::ffff:8.8.8.8",
    ]) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });
});

describe("isPublicUrl", () => {
  it("checks the host of a URL, including localhost names and bracketed IPv6", async () => {
    expect(await isPublicUrl("http://localhost:3000/hook")).toBe(false);
    expect(await isPublicUrl("http://LOCALHOST./hook")).toBe(false);
    expect(await isPublicUrl("http://app.localhost/hook")).toBe(false);
    expect(await isPublicUrl("http://[::1]:8080/hook")).toBe(false);
    expect(await isPublicUrl("http://0x7f.1/hook")).toBe(false);
    expect(await isPublicUrl("https://1.1.1.1/hook")).toBe(true);
    expect(await isPublicUrl("https://[2606:4700::1111]/hook")).toBe(true);
  });
});
