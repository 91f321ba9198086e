// drizzle-kit settings: `npm run db:generate` writes SQL migrations from src/db/schema.ts.
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./src/db/schema.ts",
  out: "./src/db/migrations",
});
