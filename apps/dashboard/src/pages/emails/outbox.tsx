// The project's outbox, which is also the development inbox (status "kept" when no SMTP server is configured): the
// recent e-mails with their status, filtered by recipient, and the content of the one opened.
import type { SentEmail } from "@gatehouse/react";
import { Button, Field, Muted } from "@gatehouse/react/ui";
import { type FormEvent, useState } from "react";
import { invalidate, useQuery } from "../../data.ts";
import { type ProjectScreenProps, projectKey } from "../../project.tsx";
import { Part, TableHead, TableScroll } from "../bricks.tsx";
import { dateTime, HtmlFrame } from "../delivery/confirm.tsx";
import { TEMPLATE_TYPES } from "./templates.tsx";

const STATUS: Record<SentEmail["status"], { label: string; tone: string }> = {
  queued: { label: "Queued", tone: "" },
  sent: { label: "Sent", tone: "dash-ok" },
  failed: { label: "Failed", tone: "dash-bad" },
  kept: { label: "Kept (development inbox)", tone: "" },
  paused: { label: "Paused", tone: "" },
  skipped: { label: "Skipped", tone: "" },
};

const outboxKey = (project: { id: string }, ...parts: string[]) => projectKey(project, "emails", ...parts);

export function Outbox({ project }: ProjectScreenProps) {
  const [draft, setDraft] = useState("");
  const [to, setTo] = useState("");
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTo(draft.trim());
  };
  return (
    <section className="dash-panel" aria-labelledby="outbox">
      <div className="dash-screen-header">
        <h2 id="outbox">Outbox</h2>
        <Button onClick={() => invalidate(outboxKey(project))}>Refresh</Button>
      </div>
      <form className="dash-filter" aria-label="Filter e-mails" onSubmit={onSubmit}>
        <Field
          label="Recipient"
          type="email"
          placeholder="Exact address"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
        />
        <Button type="submit">Filter</Button>
        {to && (
          <Button
            onClick={() => {
              setDraft("");
              setTo("");
            }}
          >
            Show all
          </Button>
        )}
      </form>
      <Part label="e-mails" reads={outboxKey(project)}>
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
  if (emails.length === 0)
    return (
      <Muted>{to ? `No e-mails to ${to}.` : "No e-mails yet. E-mails the project sends appear here."}</Muted>
    );
  return (
    <>
      <TableScroll label="E-mails table">
        <table className="dash-table">
          <caption className="dash-sr-only">Recent e-mails, newest first</caption>
          <TableHead columns={["To", "Subject", "Template", "Status", "Created", "Sent", "Last error"]} />
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
                <td>
                  {email.templateType
                    ? (TEMPLATE_TYPES[email.templateType]?.label ?? email.templateType)
                    : "—"}
                </td>
                <td>
                  <span className={`dash-badge ${STATUS[email.status]?.tone ?? ""}`}>
                    {STATUS[email.status]?.label ?? email.status}
                  </span>
                  {email.attempts > 1 && <span className="dash-muted"> {email.attempts} attempts</span>}
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
  return (
    <section className="dash-panel dash-email-content" aria-label={`E-mail: ${email.subject}`}>
      <div className="dash-screen-header">
        <h3>{email.subject}</h3>
        <Button onClick={onClose}>Close</Button>
      </div>
      <p className="dash-muted">
        To <span className="dash-mono">{email.to}</span>, {dateTime(email.createdAt)}
      </p>
      {email.html === null && email.text === null && (
        <Muted>The content of sent e-mails is cleared after 7 days.</Muted>
      )}
      {email.html !== null && <HtmlFrame html={email.html} title={`HTML of ${email.subject}`} />}
      {email.text !== null && (
        <details open={email.html === null}>
          <summary>Plain-text version</summary>
          <pre className="dash-code-block">{email.text}</pre>
        </details>
      )}
    </section>
  );
}
