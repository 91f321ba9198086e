// The project's audit log (issue 21): who did what, to whom, when and from where, newest first, filtered by type,
// actor and target, a page at a time. The same list shows a user's or team's entries on their own pages.
import { AUDIT_EVENT_TYPES, type AuditEntry } from "@gatehouse/contract";
import { Button, Muted } from "@gatehouse/react/ui";
import { useState } from "react";
import { useQuery } from "../data.ts";
import { ScreenHeader } from "../layout.tsx";
import type { ProjectScreenProps } from "../project.tsx";
import { Part, TableScroll } from "./bricks.tsx";
import { When } from "./users/bricks.tsx";

type Filters = { type: string; actorId: string; targetId: string };

export function AuditLogPage({ project }: ProjectScreenProps) {
  const [filters, setFilters] = useState<Filters>({ type: "", actorId: "", targetId: "" });
  const set = (field: keyof Filters) => (event: { target: { value: string } }) =>
    setFilters({ ...filters, [field]: event.target.value.trim() });
  return (
    <>
      <ScreenHeader title="Audit log" />
      <Muted>
        Sign-ins, changes to users, keys, permissions and settings, with who made them and from where.
      </Muted>
      <form className="dash-filters" aria-label="Audit log filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Type{" "}
          <select value={filters.type} onChange={set("type")}>
            <option value="">Any</option>
            {AUDIT_EVENT_TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </label>
        <label>
          Actor id <input value={filters.actorId} onChange={set("actorId")} />
        </label>
        <label>
          Target id <input value={filters.targetId} onChange={set("targetId")} />
        </label>
      </form>
      <Part label="audit entries">
        <AuditEntries project={project} filters={filters} />
      </Part>
    </>
  );
}

/** Entries matching `filters`, newest first, with a button that reads the next page. */
export function AuditEntries({ project, filters }: ProjectScreenProps & { filters: Partial<Filters> }) {
  const [cursors, setCursors] = useState<string[]>([]);
  const key = `${project.id}:audit:${JSON.stringify(filters)}`;
  const first = useQuery(key, () => project.app.listAuditLog({ ...filters, limit: 50 }));
  const [more, setMore] = useState<AuditEntry[]>([]);
  const [next, setNext] = useState<string | null | undefined>(undefined);
  const cursor = next === undefined ? first.nextCursor : next;
  const entries = [...first.items, ...more];
  if (entries.length === 0) return <Muted>No entries.</Muted>;
  return (
    <>
      <TableScroll label="Audit log entries">
        <table className="dash-table">
          <thead>
            <tr>
              <th>Time</th>
              <th>Type</th>
              <th>Actor</th>
              <th>Target</th>
              <th>IP</th>
              <th>Details</th>
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
                  {entry.actor.type}
                  {entry.actor.id ? ` ${entry.actor.id}` : ""}
                </td>
                <td>{entry.target.id ?? ""}</td>
                <td title={entry.user_agent ?? undefined}>{entry.ip ?? ""}</td>
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
          Older entries
        </Button>
      )}
    </>
  );
}
