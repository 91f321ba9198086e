// Token stores: the cookie store against a fake browser cookie jar (expiry, Max-Age, Secure and __Host- rules, an
// injected clock and interval), the memory, request and explicit stores, and resolveTokenStore.

import { describe, expect, it } from "vitest";
import {
  cookieTokenStore,
  explicitTokenStore,
  memoryTokenStore,
  requestTokenStore,
  resolveTokenStore,
} from "./token-store.ts";

const PROJECT = "3f1a6c1e-8c1b-4a57-9d3a-1f0f6d1e2a11";
const REFRESH = `stack-refresh-${PROJECT}--default`;
const HOST_REFRESH = `__Host-${REFRESH}`;
const T0 = 1_700_000_000_000;

type StoredCookie = { value: string; expiresAt: number; attributes: Map<string, string> };

/** A browser's cookie jar behind `document.cookie`: the setter honours Max-Age/Expires (deleting when past), drops
 *  Secure cookies on http pages and __Host- cookies without Secure and Path=/; the getter lists live cookies. */
function fakeBrowser(options: { https: boolean }) {
  let now = T0;
  const jar = new Map<string, StoredCookie>();
  const writes: string[] = [];
  const live = () => [...jar].filter(([, cookie]) => cookie.expiresAt > now);
  const document = {
    get cookie() {
      return live()
        .map(([name, cookie]) => `${name}=${cookie.value}`)
        .join("; ");
    },
    set cookie(line: string) {
      writes.push(line);
      const [pair = "", ...rest] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const attributes = new Map(
        rest.map((attribute) => {
          const [key = "", ...value] = attribute.trim().split("=");
          return [key.toLowerCase(), value.join("=")] as [string, string];
        }),
      );
      if (attributes.has("secure") && !options.https) return;
      if (name.startsWith("__Host-") && (!attributes.has("secure") || attributes.get("path") !== "/")) return;
      const maxAge = attributes.get("max-age");
      const expires = attributes.get("expires");
      const expiresAt =
        maxAge !== undefined
          ? now + Number(maxAge) * 1000
          : expires
            ? Date.parse(expires)
            : Number.POSITIVE_INFINITY;
      if (expiresAt <= now) jar.delete(name);
      else jar.set(name, { value: pair.slice(eq + 1).trim(), expiresAt, attributes });
    },
  };
  const intervals = new Map<number, { callback: () => void; ms: number }>();
  let nextId = 1;
  return {
    document,
    writes,
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
    names: () => live().map(([name]) => name),
    cookie: (name: string) => jar.get(name),
    intervals,
    setInterval: (callback: () => void, ms: number) => {
      intervals.set(nextId, { callback, ms });
      return nextId++;
    },
    clearInterval: (handle: unknown) => void intervals.delete(handle as number),
    tick: () => {
      for (const { callback } of [...intervals.values()]) callback();
    },
  };
}

function storeIn(browser: ReturnType<typeof fakeBrowser>, https: boolean) {
  return cookieTokenStore({
    projectId: PROJECT,
    document: browser.document,
    secure: https,
    now: browser.now,
    setInterval: browser.setInterval,
    clearInterval: browser.clearInterval,
  });
}

const json = (value: unknown) => encodeURIComponent(JSON.stringify(value));

describe("cookieTokenStore", () => {
  it("writes the structured refresh cookie and the access cookie on http (1 year / 1 day, SameSite=Lax)", () => {
    const browser = fakeBrowser({ https: false });
    const store = storeIn(browser, false);
    store.set({ refreshToken: "r1", accessToken: "a1" });

    expect(browser.names().sort()).toEqual([REFRESH, "stack-access"].sort());
    const refresh = browser.cookie(REFRESH)!;
    expect(JSON.parse(decodeURIComponent(refresh.value))).toEqual({
      refresh_token: "r1",
      updated_at_millis: T0,
    });
    expect(refresh.attributes.get("max-age")).toBe("31536000");
    expect(refresh.attributes.get("path")).toBe("/");
    expect(refresh.attributes.get("samesite")).toBe("Lax");
    expect(refresh.attributes.has("secure")).toBe(false);
    const access = browser.cookie("stack-access")!;
    expect(JSON.parse(decodeURIComponent(access.value))).toEqual(["r1", "a1"]);
    expect(access.attributes.get("max-age")).toBe("86400");
    expect(access.attributes.get("samesite")).toBe("Lax");
    expect(store.get()).toEqual({ refreshToken: "r1", accessToken: "a1" });
  });

  it("writes the very bytes Stack's SDK (js-cookie) writes", () => {
    const browser = fakeBrowser({ https: false });
    storeIn(browser, false).set({ refreshToken: "r1", accessToken: "eyJ.x-y_z.s" });
    expect(browser.cookie(REFRESH)!.value).toBe(
      `{%22refresh_token%22:%22r1%22%2C%22updated_at_millis%22:${T0}}`,
    );
    expect(browser.cookie("stack-access")!.value).toBe("[%22r1%22%2C%22eyJ.x-y_z.s%22]");
  });

  it("uses the __Host- prefix and Secure on https, and sets the stack-is-https marker", () => {
    const browser = fakeBrowser({ https: true });
    const store = storeIn(browser, true);
    store.set({ refreshToken: "r1", accessToken: "a1" });
    expect(browser.names().sort()).toEqual([HOST_REFRESH, "stack-access", "stack-is-https"].sort());
    expect(browser.cookie(HOST_REFRESH)!.attributes.has("secure")).toBe(true);
    expect(browser.cookie("stack-access")!.attributes.has("secure")).toBe(true);
    expect(storeIn(browser, true).get()).toEqual({ refreshToken: "r1", accessToken: "a1" });
  });

  it("takes Secure from the page's protocol by default", () => {
    const browser = fakeBrowser({ https: true });
    const location = Object.getOwnPropertyDescriptor(globalThis, "location");
    Object.defineProperty(globalThis, "location", { value: { protocol: "https:" }, configurable: true });
    try {
      const store = cookieTokenStore({
        projectId: PROJECT,
        document: browser.document,
        setInterval: browser.setInterval,
      });
      store.set({ refreshToken: "r1", accessToken: null });
      expect(browser.names()).toContain(HOST_REFRESH);
    } finally {
      if (location) Object.defineProperty(globalThis, "location", location);
      else Reflect.deleteProperty(globalThis, "location");
    }
  });

  it("lets the access cookie expire after a day and the refresh cookie after a year", () => {
    const browser = fakeBrowser({ https: false });
    storeIn(browser, false).set({ refreshToken: "r1", accessToken: "a1" });
    browser.advance(86_400_000 - 1);
    expect(browser.names()).toContain("stack-access");
    browser.advance(1);
    expect(browser.names()).toEqual([REFRESH]);
    browser.advance(31_536_000_000 - 86_400_000);
    expect(browser.names()).toEqual([]);
  });

  it("deletes both cookies when the tokens are cleared, and the access cookie when only it is", () => {
    const browser = fakeBrowser({ https: true });
    const store = storeIn(browser, true);
    store.set({ refreshToken: "r1", accessToken: "a1" });
    store.set({ refreshToken: "r1", accessToken: null });
    expect(browser.names().sort()).toEqual([HOST_REFRESH, "stack-is-https"].sort());
    store.set({ refreshToken: null, accessToken: null });
    expect(browser.names()).toEqual(["stack-is-https"]);
    expect(store.get()).toEqual({ refreshToken: null, accessToken: null });
  });

  it("keeps an access token without a refresh token in memory only", () => {
    const browser = fakeBrowser({ https: false });
    const store = storeIn(browser, false);
    store.set({ refreshToken: null, accessToken: "a1" });
    expect(browser.names()).toEqual([]);
    browser.tick();
    expect(store.get()).toEqual({ refreshToken: null, accessToken: "a1" });
  });

  it("ignores the access cookie unless its element 0 is the current refresh token", () => {
    const browser = fakeBrowser({ https: false });
    browser.document.cookie = `${REFRESH}=${json({ refresh_token: "r1", updated_at_millis: 1 })}`;
    browser.document.cookie = `stack-access=${json(["other-project-token", "a-other"])}`;
    expect(storeIn(browser, false).get()).toEqual({ refreshToken: "r1", accessToken: null });
    browser.document.cookie = `stack-access=${json(["r1", "a1"])}`;
    expect(storeIn(browser, false).get()).toEqual({ refreshToken: "r1", accessToken: "a1" });
    browser.document.cookie = "stack-access=not-json";
    expect(storeIn(browser, false).get()).toEqual({ refreshToken: "r1", accessToken: null });
  });

  it("reads the structured refresh cookie with the greatest updated_at_millis", () => {
    const browser = fakeBrowser({ https: true });
    browser.document.cookie = `${REFRESH}=${json({ refresh_token: "old", updated_at_millis: 1000 })}`;
    browser.document.cookie = `${HOST_REFRESH}=${json({ refresh_token: "new", updated_at_millis: 2000 })}; Secure; Path=/`;
    browser.document.cookie = `stack-refresh-${PROJECT}--custom-ABC=${json({ refresh_token: "mid", updated_at_millis: 1500 })}`;
    browser.document.cookie = `stack-refresh-other-project--default=${json({ refresh_token: "x", updated_at_millis: 9e12 })}`;
    expect(storeIn(browser, true).get().refreshToken).toBe("new");
  });

  it("prefers a structured refresh cookie to a legacy one, and reads the legacy ones when alone", () => {
    const browser = fakeBrowser({ https: false });
    browser.document.cookie = "stack-refresh=plain-global";
    expect(storeIn(browser, false).get().refreshToken).toBe("plain-global");
    browser.document.cookie = `stack-refresh-${PROJECT}=plain-project`;
    expect(storeIn(browser, false).get().refreshToken).toBe("plain-project");
    browser.document.cookie = `${REFRESH}=${json({ refresh_token: "structured" })}`;
    expect(storeIn(browser, false).get().refreshToken).toBe("structured");
  });

  it("deletes legacy and other refresh cookies of the project on the next write", () => {
    const browser = fakeBrowser({ https: true });
    browser.document.cookie = "stack-refresh=plain-global";
    browser.document.cookie = `stack-refresh-${PROJECT}=plain-project`;
    browser.document.cookie = `${REFRESH}=${json({ refresh_token: "http-one", updated_at_millis: 5 })}`;
    browser.document.cookie = `stack-refresh-other-project--default=${json({ refresh_token: "x" })}`;
    const store = storeIn(browser, true);
    expect(store.get().refreshToken).toBe("http-one");
    store.set({ refreshToken: "r2", accessToken: "a2" });
    expect(browser.names().sort()).toEqual(
      [HOST_REFRESH, "stack-access", "stack-is-https", "stack-refresh-other-project--default"].sort(),
    );
    expect(storeIn(browser, true).get()).toEqual({ refreshToken: "r2", accessToken: "a2" });
  });

  it("shares a browser with Stack's SDK 2.8.108: reads its hexclave- cookies, and writes only the stack- ones", () => {
    const browser = fakeBrowser({ https: false });
    browser.document.cookie = `${REFRESH}=${json({ refresh_token: "older", updated_at_millis: 1000 })}`;
    browser.document.cookie = `hexclave-refresh-${PROJECT}--default=${json({ refresh_token: "newer", updated_at_millis: 2000 })}`;
    browser.document.cookie = `hexclave-access=${json(["newer", "access-newer"])}`;
    const store = storeIn(browser, false);
    expect(store.get()).toEqual({ refreshToken: "newer", accessToken: "access-newer" });
    store.set({ refreshToken: "r3", accessToken: "a3" });
    expect(browser.names().filter((name) => name.includes("refresh"))).toEqual([REFRESH]);
    expect(storeIn(browser, false).get()).toEqual({ refreshToken: "r3", accessToken: "a3" });
  });

  it("decodes cookies written by Stack's SDK (js-cookie encoding)", () => {
    const browser = fakeBrowser({ https: false });
    browser.document.cookie = `${REFRESH}={%22refresh_token%22:%22r9%22%2C%22updated_at_millis%22:1700000000000}`;
    browser.document.cookie = "stack-access=[%22r9%22%2C%22eyJ.x-y_z.s%22]";
    expect(storeIn(browser, false).get()).toEqual({ refreshToken: "r9", accessToken: "eyJ.x-y_z.s" });
  });

  it("re-reads the cookies every 100 ms and tells subscribers when another tab changed them", () => {
    const browser = fakeBrowser({ https: false });
    const tabA = storeIn(browser, false);
    const tabB = storeIn(browser, false);
    expect([...browser.intervals.values()].map((i) => i.ms)).toEqual([100, 100]);
    let calls = 0;
    tabB.subscribe(() => calls++);

    tabA.set({ refreshToken: "r1", accessToken: "a1" });
    expect(tabB.get()).toEqual({ refreshToken: null, accessToken: null });
    browser.tick();
    expect(tabB.get()).toEqual({ refreshToken: "r1", accessToken: "a1" });
    expect(calls).toBe(1);
    browser.tick();
    expect(calls).toBe(1);

    tabA.set({ refreshToken: null, accessToken: null });
    browser.tick();
    expect(tabB.get()).toEqual({ refreshToken: null, accessToken: null });
    expect(calls).toBe(2);
  });

  it("notifies its own subscribers on set, only for real changes, until they unsubscribe", () => {
    const browser = fakeBrowser({ https: false });
    const store = storeIn(browser, false);
    let calls = 0;
    const unsubscribe = store.subscribe(() => calls++);
    store.set({ refreshToken: "r1", accessToken: "a1" });
    store.set({ refreshToken: "r1", accessToken: "a1" });
    expect(calls).toBe(1);
    unsubscribe();
    store.set({ refreshToken: null, accessToken: null });
    expect(calls).toBe(1);
  });

  it("stops re-reading when disposed", () => {
    const browser = fakeBrowser({ https: false });
    const store = storeIn(browser, false);
    expect(browser.intervals.size).toBe(1);
    store.dispose();
    expect(browser.intervals.size).toBe(0);
  });

  it("rejects the string 'undefined' and needs a document", () => {
    const browser = fakeBrowser({ https: false });
    const store = storeIn(browser, false);
    expect(() => store.set({ refreshToken: "undefined", accessToken: null })).toThrow(/Invalid token store/);
    expect(browser.names()).toEqual([]);
    expect(() => cookieTokenStore({ projectId: PROJECT })).toThrow(/browser document/);
  });
});

describe("memoryTokenStore", () => {
  it("holds tokens, notifies on change and rejects 'undefined'", () => {
    const store = memoryTokenStore({ refreshToken: "r1" });
    expect(store.get()).toEqual({ refreshToken: "r1", accessToken: null });
    let calls = 0;
    store.subscribe(() => calls++);
    store.set({ refreshToken: "r1", accessToken: "a1" });
    store.set({ refreshToken: "r1", accessToken: "a1" });
    expect(calls).toBe(1);
    expect(store.get()).toEqual({ refreshToken: "r1", accessToken: "a1" });
    expect(() => store.set({ refreshToken: "r1", accessToken: "undefined" })).toThrow(/'undefined'/);
    expect(() => memoryTokenStore({ refreshToken: "undefined" })).toThrow(/Invalid token store/);
  });
});

describe("explicitTokenStore", () => {
  it("needs both tokens as strings and rejects 'undefined'", () => {
    expect(explicitTokenStore({ accessToken: "a1", refreshToken: "r1" }).get()).toEqual({
      accessToken: "a1",
      refreshToken: "r1",
    });
    expect(() => explicitTokenStore({ accessToken: "a1" } as never)).toThrow(
      /both accessToken and refreshToken/,
    );
    expect(() => explicitTokenStore({ refreshToken: "r1" } as never)).toThrow(
      /both accessToken and refreshToken/,
    );
    expect(() => explicitTokenStore({ accessToken: "a1", refreshToken: "undefined" })).toThrow(/'undefined'/);
    expect(() => explicitTokenStore({ accessToken: "undefined", refreshToken: "r1" })).toThrow(/'undefined'/);
  });
});

describe("requestTokenStore", () => {
  const cookieHeader = `a=b; ${REFRESH}=${json({ refresh_token: "r1", updated_at_millis: 1 })}; stack-access=${json(["r1", "a1"])}`;

  it("reads the cookie header of a fetch Request, a plain object or anything with get()", () => {
    const request = new Request("http://localhost/", { headers: { cookie: cookieHeader } });
    expect(requestTokenStore(PROJECT, request).get()).toEqual({ refreshToken: "r1", accessToken: "a1" });
    expect(requestTokenStore(PROJECT, { headers: { Cookie: cookieHeader } }).get()).toEqual({
      refreshToken: "r1",
      accessToken: "a1",
    });
    const getter = { get: (name: string) => (name === "cookie" ? `stack-refresh=legacy` : null) };
    expect(requestTokenStore(PROJECT, { headers: getter }).get()).toEqual({
      refreshToken: "legacy",
      accessToken: null,
    });
    expect(requestTokenStore(PROJECT, { headers: {} }).get()).toEqual({
      refreshToken: null,
      accessToken: null,
    });
  });

  it("prefers the x-stack-auth header (JSON) to the cookies", () => {
    const headers = {
      cookie: cookieHeader,
      "X-Stack-Auth": JSON.stringify({ accessToken: "a2", refreshToken: "r2" }),
    };
    expect(requestTokenStore(PROJECT, { headers }).get()).toEqual({ refreshToken: "r2", accessToken: "a2" });
    const onlyAccess = new Headers({ "x-stack-auth": JSON.stringify({ accessToken: "a3" }) });
    expect(requestTokenStore(PROJECT, { headers: onlyAccess }).get()).toEqual({
      refreshToken: null,
      accessToken: "a3",
    });
  });

  it("reads Stack's Authorization: Bearer stackauth_<base64 JSON> before x-stack-auth", () => {
    const tokens = { accessToken: "a-bearer", refreshToken: "r-bearer" };
    const bearer = `Bearer stackauth_${btoa(JSON.stringify(tokens))}`;
    const store = requestTokenStore(PROJECT, {
      headers: {
        authorization: bearer,
        "x-stack-auth": JSON.stringify({ accessToken: "other", refreshToken: "x" }),
      },
    });
    expect(store.get()).toEqual(tokens);
    const hexclave = `Bearer hexclave_${btoa(JSON.stringify(tokens))}`;
    expect(requestTokenStore(PROJECT, { headers: { Authorization: hexclave } }).get()).toEqual(tokens);
    // Another kind of bearer token is not ours: the cookies decide.
    expect(requestTokenStore(PROJECT, { headers: { authorization: "Bearer abc" } }).get()).toEqual({
      accessToken: null,
      refreshToken: null,
    });
  });

  it("rejects a malformed x-stack-auth header and 'undefined' tokens in it", () => {
    for (const value of ["not json", "null", "42", JSON.stringify({ accessToken: 5 })]) {
      expect(() => requestTokenStore(PROJECT, { headers: { "x-stack-auth": value } })).toThrow(
        /x-stack-auth/,
      );
    }
    const undefinedToken = JSON.stringify({ accessToken: "a1", refreshToken: "undefined" });
    expect(() => requestTokenStore(PROJECT, { headers: { "x-stack-auth": undefinedToken } })).toThrow(
      /'undefined'/,
    );
  });

  it("keeps writes in the store (the request is not touched)", () => {
    const headers = { cookie: cookieHeader };
    const store = requestTokenStore(PROJECT, { headers });
    store.set({ refreshToken: "r2", accessToken: "a2" });
    expect(store.get()).toEqual({ refreshToken: "r2", accessToken: "a2" });
    expect(headers.cookie).toBe(cookieHeader);
  });
});

describe("resolveTokenStore", () => {
  it("answers the store each option names", () => {
    expect(resolveTokenStore(null, PROJECT)).toBeNull();
    expect(resolveTokenStore(undefined, PROJECT)).toBeNull();
    expect(resolveTokenStore("memory", PROJECT)!.get()).toEqual({ refreshToken: null, accessToken: null });
    expect(resolveTokenStore({ accessToken: "a1", refreshToken: "r1" }, PROJECT)!.get()).toEqual({
      refreshToken: "r1",
      accessToken: "a1",
    });
    const request = { headers: { cookie: `stack-refresh-${PROJECT}=legacy` } };
    expect(resolveTokenStore(request, PROJECT)!.get().refreshToken).toBe("legacy");

    const browser = fakeBrowser({ https: false });
    const env = {
      document: browser.document,
      secure: false,
      setInterval: browser.setInterval,
      now: browser.now,
    };
    resolveTokenStore("cookie", PROJECT, env)!.set({ refreshToken: "r1", accessToken: null });
    expect(browser.names()).toEqual([REFRESH]);
  });

  it("rejects anything else", () => {
    expect(() => resolveTokenStore("nextjs-cookie", PROJECT)).toThrow("Invalid token store nextjs-cookie");
    expect(() => resolveTokenStore(42, PROJECT)).toThrow("Invalid token store 42");
    expect(() => resolveTokenStore({}, PROJECT)).toThrow(/Invalid token store/);
    expect(() => resolveTokenStore({ accessToken: "a1" }, PROJECT)).toThrow(
      /both accessToken and refreshToken/,
    );
  });
});
