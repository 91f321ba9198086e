// Every public member of Stack's SDK classes (@stackframe/js 2.8.108) exists on ours, or has a stated reason in
// scripts/sdk-members.ts (its table, REASONS). The comparison reads both sides' types with the TypeScript compiler.
import { describe, expect, it } from "vitest";
import { COMPARED, compareMembers, REASONS } from "../../../scripts/sdk-members.ts";

describe("Stack's SDK members on ours", () => {
  const results = compareMembers();

  it("compares each of Stack's main types with ours", () => {
    expect(results.map((r) => r.stack)).toEqual(Object.keys(COMPARED));
    // Sanity: both sides were read (Stack's client app has dozens of members, and so has ours).
    const client = results.find((r) => r.stack === "StackClientApp");
    expect(client).toBeDefined();
  });

  it("leaves no member of Stack's out without a reason", () => {
    const gaps = Object.fromEntries(
      results.filter((r) => r.missing.length > 0).map((r) => [r.stack, r.missing]),
    );
    expect(gaps).toEqual({});
  });

  it("has the members this issue added: redirects, partial user, server user teams, session replays", () => {
    const explained = new Set(results.flatMap((r) => Object.keys(r.explained).map((m) => `${r.stack}.${m}`)));
    for (const member of [
      "StackClientApp.redirectToPasswordReset",
      "StackClientApp.redirectToOnboarding",
      "StackClientApp.getPartialUser",
      "StackClientApp.getConvexClientAuth",
      "StackServerApp.getServerUser",
      "ServerUser.getTeam",
      "ServerUser.leaveTeam",
      "ServerUser.setPassword",
      "ServerUser.sendVerificationEmail",
      "StackAdminApp.listSessionReplays",
      "AdminProject.isProductionMode",
    ]) {
      expect(explained.has(member), member).toBe(false);
      expect(REASONS[member], member).toBeUndefined();
    }
  });
});
