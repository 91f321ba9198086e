// The impersonation link: tokens travel in the fragment (never sent to a server) and come back out unchanged.
import { describe, expect, it } from "vitest";
import { impersonationLink, readImpersonationLink } from "./impersonation.ts";

const tokens = {
  accessToken: "eyJ.a+b/c=.sig",
  refreshToken: "0123456789abcdefghjkmnpqrstvwxyz0123456789abc",
};

describe("impersonation links", () => {
  it("put the tokens in the fragment only, and read them back", () => {
    const link = impersonationLink("https://app.example.com/handler/impersonation?x=1#old", tokens);
    const url = new URL(link);
    expect(url.origin + url.pathname + url.search).toBe("https://app.example.com/handler/impersonation?x=1");
    expect(url.search).not.toContain(tokens.refreshToken);
    expect(readImpersonationLink(link)).toEqual(tokens);
  });

  it("read nothing from a link without both tokens", () => {
    expect(readImpersonationLink("https://app.example.com/handler/impersonation")).toBeNull();
    expect(readImpersonationLink("https://app.example.com/h#access_token=a")).toBeNull();
  });
});
