// Bulk actions on the selected users of the page: ban, unban or delete, each confirmed with how many users it
// touches; while it runs a progress bar counts them, and afterwards the result says how many were done and names
// every user it failed for, with the server's reason. Users are written a few at a time, never all at once.
import type { OwnedProject, ServerUser } from "@gatehouse/react";
import { Alert, Button, errorMessage, useTranslation } from "@gatehouse/react/ui";
import { useState } from "react";
import { type DashboardKey, useDashboardTranslation } from "../../messages.ts";
import { ConfirmButton } from "../bricks.tsx";
import { plainRefusal } from "../form.ts";
import { usersChanged } from "./bricks.tsx";
import { nameOf } from "./users-columns.tsx";

/** Writes in flight at once: quick for a page of 100, gentle on the server's rate limits. */
const PARALLEL = 4;

type Action = {
  /** Names its texts (bulk.ban.name, bulk.ban.question…, texts/users-bulk.ts). */
  id: "ban" | "unban" | "delete";
  label: DashboardKey;
  run: (user: ServerUser) => Promise<unknown>;
  variant: "danger" | "secondary";
};

const ACTIONS: Action[] = [
  {
    id: "ban",
    label: "users.ban",
    run: (user) => user.update({ restrictedByAdmin: true }),
    variant: "danger",
  },
  {
    id: "unban",
    label: "users.unban",
    run: (user) => user.update({ restrictedByAdmin: false }),
    variant: "secondary",
  },
  { id: "delete", label: "common.delete", run: (user) => user.delete(), variant: "danger" },
];

type Progress = { action: Action; done: number; total: number };
type Outcome = { action: Action; total: number; failed: { user: ServerUser; reason: string }[] };

export function BulkActions({
  project,
  selected,
  onFinished,
}: {
  project: OwnedProject;
  selected: ServerUser[];
  /** The run is over: the caller clears the selection. */
  onFinished: () => void;
}) {
  const [progress, setProgress] = useState<Progress | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const t = useTranslation();
  const d = useDashboardTranslation();
  const usersCount = (n: number) => d("users.count", { n });

  const run = async (action: Action) => {
    const users = [...selected];
    const failed: Outcome["failed"] = [];
    let done = 0;
    setOutcome(null);
    setProgress({ action, done, total: users.length });
    const queue = [...users];
    const worker = async () => {
      for (let user = queue.shift(); user; user = queue.shift()) {
        try {
          await action.run(user);
        } catch (error) {
          failed.push({ user, reason: errorMessage(error, {}, t, plainRefusal) });
        }
        done++;
        setProgress({ action, done, total: users.length });
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL, users.length) }, worker));
    // In the order of the page, not of completion.
    failed.sort((a, b) => users.indexOf(a.user) - users.indexOf(b.user));
    setProgress(null);
    setOutcome({ action, total: users.length, failed });
    usersChanged(project);
    onFinished();
  };

  if (selected.length === 0 && !progress && !outcome) return null;
  return (
    <section className="dash-bulk" aria-label={d("bulk.region")}>
      {selected.length > 0 && !progress && (
        <div className="dash-actions">
          <strong>{d("bulk.selected", { count: usersCount(selected.length) })}</strong>
          {ACTIONS.map((action) => (
            <ConfirmButton
              key={action.id}
              label={d(action.label)}
              name={d(`bulk.${action.id}.name` as const, { count: usersCount(selected.length) })}
              variant={action.variant}
              question={d(`bulk.${action.id}.question` as const, { count: usersCount(selected.length) })}
              confirmLabel={d(`bulk.${action.id}.name` as const, { count: usersCount(selected.length) })}
              onConfirm={() => run(action)}
            />
          ))}
          <Button onClick={onFinished}>{d("bulk.clear")}</Button>
        </div>
      )}
      {progress && (
        <div className="dash-bulk-progress">
          <progress
            value={progress.done}
            max={progress.total}
            aria-label={d(`bulk.${progress.action.id}.doing` as const)}
          />
          <span role="status">
            {d(`bulk.${progress.action.id}.progress` as const, {
              done: progress.done,
              count: usersCount(progress.total),
            })}
          </span>
        </div>
      )}
      {outcome && <OutcomeReport outcome={outcome} onClose={() => setOutcome(null)} />}
    </section>
  );
}

function OutcomeReport({ outcome, onClose }: { outcome: Outcome; onClose: () => void }) {
  const { action, total, failed } = outcome;
  const succeeded = total - failed.length;
  const d = useDashboardTranslation();
  const count = d("users.count", { n: total });
  return (
    <div className="dash-bulk-outcome">
      <div className="dash-actions">
        {failed.length === 0 ? (
          <Alert kind="success">{d(`bulk.${action.id}.done` as const, { count })}</Alert>
        ) : (
          <Alert>
            {d(`bulk.${action.id}.partial` as const, { done: succeeded, count, failed: failed.length })}
          </Alert>
        )}
        <Button onClick={onClose}>{d("bulk.dismiss")}</Button>
      </div>
      {failed.length > 0 && (
        <ul className="dash-bulk-failures">
          {failed.map(({ user, reason }) => (
            <li key={user.id}>
              {user.primaryEmail ?? nameOf(user)}: {reason}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
