// The project's outbox, which is also the development inbox (status "kept" when no SMTP server is configured): the
// recent e-mails with their status, filtered by recipient, and the content of the one opened.
import type { SentEmail } from "@gatehouse/react";
import { Button, Field, Muted } from "@gatehouse/react/ui";
import { type FormEvent, useState } from "react";
import { invalidate, useQuery } from "../../data.ts";
import { type DashboardKey, useDashboardTranslation } from "../../messages.ts";
import { type ProjectScreenProps, projectKey } from "../../project.tsx";
import { Part, TableHead, TableScroll } from "../bricks.tsx";
import { dateTime, HtmlFrame } from "../delivery/confirm.tsx";
import { TEMPLATE_TYPES } from "./templates.tsx";

const STATUS: Record<SentEmail["status"], { label: DashboardKey; tone: string }> = {
  queued: { label: "mail.status.queued", tone: "" },
  sent: { label: "mail.status.sent", tone: "dash-ok" },
  failed: { label: "mail.status.failed", tone: "dash-bad" },
  kept: { label: "mail.status.kept", tone: "" },
  paused: { label: "mail.status.paused", tone: "" },
  skipped: { label: "mail.status.skipped", tone: "" },
};

const outboxKey = (project: { id: string }, ...parts: string[]) => projectKey(project, "emails", ...parts);

export function Outbox({ project }: ProjectScreenProps) {
  const [draft, setDraft] = useState("");
  const [to, setTo] = useState("");
  const t = useDashboardTranslation();
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTo(draft.trim());
  };
  return (
    <section className="dash-panel" aria-labelledby="outbox">
      <div className="dash-screen-header">
        <h2 id="outbox">{t("mail.tab.outbox")}</h2>
        <Button onClick={() => invalidate(outboxKey(project))}>{t("mail.refresh")}</Button>
      </div>
      <form className="dash-filter" aria-label={t("mail.filter")} onSubmit={onSubmit}>
        <Field
          label={t("mail.recipient")}
          type="email"
          placeholder={t("mail.exactAddress")}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
        />
        <Button type="submit">{t("mail.filterButton")}</Button>
        {to && (
          <Button
            onClick={() => {
              setDraft("");
              setTo("");
            }}
          >
            {t("mail.showAll")}
          </Button>
        )}
      </form>
      <Part label={t("mail.part.emails")} reads={outboxKey(project)}>
        <OutboxTable project={project} to={to} />
      </Part>
    </section>
  );
}

function OutboxTable({ project, to }: ProjectScreenProps & { to: string }) {
  const emails = useQuery(outboxKey(project, to), () =>
    project.app.listSentEmails({ to: to || undefined, limit: 50 }),
  );
  const [openId, setOpenId] = useState<string | null>(null);
  const open = emails.find((email) => email.id === openId);
  const t = useDashboardTranslation();
  const templateName = (type: string) => {
    const label = TEMPLATE_TYPES[type]?.label;
    return label ? t(label) : type;
  };
  if (emails.length === 0) return <Muted>{to ? t("mail.noneTo", { to }) : t("mail.none")}</Muted>;
  return (
    <>
      <TableScroll label={t("mail.table")}>
        <table className="dash-table">
          <caption className="dash-sr-only">{t("mail.caption")}</caption>
          <TableHead
            columns={[
              t("mail.col.to"),
              t("mail.col.subject"),
              t("mail.col.template"),
              t("mail.col.status"),
              t("mail.col.created"),
              t("mail.col.sent"),
              t("mail.col.lastError"),
            ]}
          />
          <tbody>
            {emails.map((email) => (
              <tr key={email.id}>
                <td className="dash-mono">{email.to}</td>
                <td>
                  <button
                    type="button"
                    className="dash-link-button"
                    aria-expanded={email.id === openId}
                    onClick={() => setOpenId(email.id === openId ? null : email.id)}
                  >
                    {email.subject}
                  </button>
                </td>
                <td>{email.templateType ? templateName(email.templateType) : "—"}</td>
                <td>
                  <span className={`dash-badge ${STATUS[email.status]?.tone ?? ""}`}>
                    {STATUS[email.status] ? t(STATUS[email.status].label) : email.status}
                  </span>
                  {email.attempts > 1 && (
                    <span className="dash-muted"> {t("mail.attempts", { n: email.attempts })}</span>
                  )}
                </td>
                <td>{dateTime(email.createdAt)}</td>
                <td>{dateTime(email.sentAt)}</td>
                <td className="dash-muted">{email.lastError ?? "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      {open && <EmailContent email={open} onClose={() => setOpenId(null)} />}
    </>
  );
}

function EmailContent({ email, onClose }: { email: SentEmail; onClose: () => void }) {
  const t = useDashboardTranslation();
  return (
    <section
      className="dash-panel dash-email-content"
      aria-label={t("mail.emailName", { subject: email.subject })}
    >
      <div className="dash-screen-header">
        <h3>{email.subject}</h3>
        <Button onClick={onClose}>{t("mail.close")}</Button>
      </div>
      <p className="dash-muted">{t("mail.toWhen", { to: email.to, when: dateTime(email.createdAt) })}</p>
      {email.html === null && email.text === null && <Muted>{t("mail.cleared")}</Muted>}
      {email.html !== null && (
        <HtmlFrame html={email.html} title={t("mail.htmlOf", { subject: email.subject })} />
      )}
      {email.text !== null && (
        <details open={email.html === null}>
          <summary>{t("mail.plainText")}</summary>
          <pre className="dash-code-block">{email.text}</pre>
        </details>
      )}
    </section>
  );
}
