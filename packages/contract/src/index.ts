// The Gatehouse wire contract: error catalogue, header names, schemas and the route table.
export * from "./headers.ts";
export * from "./known-error.ts";
export * from "./known-errors.ts";
export * from "./locales.ts";
export * from "./openapi.ts";
export * from "./route.ts";
export * from "./routes/index.ts";
export * from "./schemas/auth.ts";
export * from "./schemas/common.ts";
export * from "./schemas/jwks.ts";
export * from "./schemas/projects.ts";
export * from "./schemas/teams.ts";
export * from "./schemas/text.ts";
export * from "./schemas/token-claims.ts";
export * from "./schemas/users.ts";
