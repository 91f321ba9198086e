// User routes (WIRE.md §4.8). The current user first; the server's user management arrives with the users issue.
import { defineRoute } from "../route.ts";
import { userSchema } from "../schemas/users.ts";

export const getCurrentUserRoute = defineRoute({
  method: "GET",
  path: "/api/v1/users/me",
  access: ["client", "server", "admin"],
  summary: "The signed-in user (the client shape for client callers)",
  tag: "Users",
  response: { status: 200, kind: "json", schema: userSchema },
});
