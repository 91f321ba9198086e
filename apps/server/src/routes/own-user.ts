// The signed-in user of a client caller, for routes where Stack lets clients touch only their own records.
import { KnownErrors } from "@gatehouse/contract";
import type { Caller } from "../http/caller.ts";
import { TextError } from "../text-error.ts";

/** The caller's user id; without one, Stack's CANNOT_GET_OWN_USER_WITHOUT_USER. */
export function ownUserId(caller: Caller): string {
  if (!caller.user) throw KnownErrors.CANNOT_GET_OWN_USER_WITHOUT_USER();
  return caller.user.id;
}

/** Clients may only name themselves: anyone else is Stack's plain 403 with `message`. */
export function assertOwnUser(caller: Caller, userId: string | undefined, message: string): void {
  if (caller.accessType === "client" && userId !== ownUserId(caller)) throw new TextError(403, message);
}
