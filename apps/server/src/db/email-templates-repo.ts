// Edited e-mail templates (WIRE.md §4.15): one row per project and type that differs from the default. No row
// means the default applies. Every method takes its executor, so it runs inside the caller's transaction.
import { and, eq } from "drizzle-orm";
import type { EmailTemplateType } from "../email/templates.ts";
import type { Db } from "./client.ts";
import { emailTemplates } from "./schema.ts";

export type EmailTemplateRow = typeof emailTemplates.$inferSelect;

const where = (projectId: string, type: EmailTemplateType) =>
  and(eq(emailTemplates.projectId, projectId), eq(emailTemplates.type, type));

export function createEmailTemplatesRepo() {
  return {
    async find(
      executor: Db,
      projectId: string,
      type: EmailTemplateType,
    ): Promise<EmailTemplateRow | undefined> {
      const [row] = await executor.select().from(emailTemplates).where(where(projectId, type));
      return row;
    },

    async list(executor: Db, projectId: string): Promise<EmailTemplateRow[]> {
      return executor.select().from(emailTemplates).where(eq(emailTemplates.projectId, projectId));
    },

    /**
     * Saves an edit in one statement: a new row takes `initial` for the fields the edit leaves out, an existing
     * row keeps its own values for them.
     */
    async save(
      executor: Db,
      key: { projectId: string; type: EmailTemplateType; updatedAt: Date },
      initial: { subject: string; content: string },
      changes: { subject?: string; content?: string },
    ): Promise<EmailTemplateRow> {
      const [row] = await executor
        .insert(emailTemplates)
        .values({
          ...key,
          subject: changes.subject ?? initial.subject,
          content: changes.content ?? initial.content,
        })
        .onConflictDoUpdate({
          target: [emailTemplates.projectId, emailTemplates.type],
          set: {
            ...(changes.subject === undefined ? {} : { subject: changes.subject }),
            ...(changes.content === undefined ? {} : { content: changes.content }),
            updatedAt: key.updatedAt,
          },
        })
        .returning();
      if (!row) throw new Error("E-mail template upsert returned no row");
      return row;
    },

    async delete(executor: Db, projectId: string, type: EmailTemplateType): Promise<void> {
      await executor.delete(emailTemplates).where(where(projectId, type));
    },
  };
}

export type EmailTemplatesRepo = ReturnType<typeof createEmailTemplatesRepo>;
