// The project's audit log (issue 21): who did what, to whom, when and from where, newest first, filtered by type,
// actor and target, a page at a time. The same list shows a user's or team's entries on their own pages.
import { AUDIT_EVENT_TYPES, type AuditEntry } from "@gatehouse/contract";
import { Button, Muted } from "@gatehouse/react/ui";
import { useState } from "react";
import { useQuery } from "../data.ts";
import { ScreenHeader } from "../layout.tsx";
import { type DashboardKey, useDashboardTranslation } from "../messages.ts";
import type { ProjectScreenProps } from "../project.tsx";
import { Part, TableScroll } from "./bricks.tsx";
import { When } from "./users/bricks.tsx";

type Filters = { type: string; actorId: string; targetId: string; teamId: string };

export function AuditLogPage({ project }: ProjectScreenProps) {
  const t = useDashboardTranslation();
  const [filters, setFilters] = useState<Filters>({ type: "", actorId: "", targetId: "", teamId: "" });
  const set = (field: keyof Filters) => (event: { target: { value: string } }) =>
    setFilters({ ...filters, [field]: event.target.value.trim() });
  return (
    <>
      <ScreenHeader title={t("nav.auditLog")} />
      <Muted>{t("audit.intro")}</Muted>
      <form className="dash-filters" aria-label={t("audit.filters")} onSubmit={(e) => e.preventDefault()}>
        <label>
          {t("audit.type")}{" "}
          <select value={filters.type} onChange={set("type")}>
            <option value="">{t("audit.any")}</option>
            {AUDIT_EVENT_TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t("audit.actorId")} <input value={filters.actorId} onChange={set("actorId")} />
        </label>
        <label>
          {t("audit.targetId")} <input value={filters.targetId} onChange={set("targetId")} />
        </label>
      </form>
      <Part label={t("audit.part")}>
        <AuditEntries project={project} filters={filters} />
      </Part>
    </>
  );
}

const ACTOR_TYPES = new Set(["user", "server_key", "admin_key", "admin_token", "anonymous", "system"]);

/** An actor type in words; one this dashboard does not know yet stays as the API names it. */
function useActorName() {
  const t = useDashboardTranslation();
  return (type: string) => (ACTOR_TYPES.has(type) ? t(`audit.actor.${type}` as DashboardKey) : type);
}

/** Entries matching `filters`, newest first, with a button that reads the next page. */
export function AuditEntries({ project, filters }: ProjectScreenProps & { filters: Partial<Filters> }) {
  const t = useDashboardTranslation();
  const actorName = useActorName();
  const [cursors, setCursors] = useState<string[]>([]);
  const key = `${project.id}:audit:${JSON.stringify(filters)}`;
  const first = useQuery(key, () => project.app.listAuditLog({ ...filters, limit: 50 }));
  const [more, setMore] = useState<AuditEntry[]>([]);
  const [next, setNext] = useState<string | null | undefined>(undefined);
  const cursor = next === undefined ? first.nextCursor : next;
  const entries = [...first.items, ...more];
  if (entries.length === 0) return <Muted>{t("audit.none")}</Muted>;
  return (
    <>
      <TableScroll label={t("audit.table")}>
        <table className="dash-table">
          <thead>
            <tr>
              <th>{t("audit.time")}</th>
              <th>{t("audit.type")}</th>
              <th>{t("audit.actor")}</th>
              <th>{t("audit.target")}</th>
              <th>{t("audit.ip")}</th>
              <th>{t("audit.details")}</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.id}>
                <td>
                  <When date={new Date(entry.created_at_millis)} />
                </td>
                <td>{entry.type}</td>
                <td>
                  {actorName(entry.actor.type)}
                  {entry.actor.id ? <span className="dash-mono"> {entry.actor.id}</span> : ""}
                </td>
                <td className="dash-mono">{entry.target.id ?? ""}</td>
                <td title={entry.user_agent ? t("audit.userAgent", { agent: entry.user_agent }) : undefined}>
                  {entry.ip ?? ""}
                </td>
                <td>
                  <code>{JSON.stringify(entry.details)}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      {cursor && !cursors.includes(cursor) && (
        <Button
          onClick={async () => {
            setCursors([...cursors, cursor]);
            const page = await project.app.listAuditLog({ ...filters, limit: 50, cursor });
            setMore([...more, ...page.items]);
            setNext(page.nextCursor);
          }}
        >
          {t("audit.older")}
        </Button>
      )}
    </>
  );
}
