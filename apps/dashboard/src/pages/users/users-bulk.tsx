// Bulk actions on the selected users of the page: ban, unban or delete, each confirmed with how many users it
// touches; while it runs a progress bar counts them, and afterwards the result says how many were done and names
// every user it failed for, with the server's reason. Users are written a few at a time, never all at once.
import type { OwnedProject, ServerUser } from "@gatehouse/react";
import { Alert, Button, errorMessage, makeTranslator, useTranslation } from "@gatehouse/react/ui";
import { useState } from "react";
import { en } from "../../messages.ts";
import { ConfirmButton } from "../bricks.tsx";
import { plainRefusal } from "../form.ts";
import { usersChanged } from "./bricks.tsx";
import { nameOf } from "./users-columns.tsx";

/** Writes in flight at once: quick for a page of 100, gentle on the server's rate limits. */
const PARALLEL = 4;

type Action = {
  label: string;
  /** "Banning 3 of 12…" */
  doing: string;
  /** "Banned 12 users." */
  done: string;
  question: (n: string) => string;
  run: (user: ServerUser) => Promise<unknown>;
  variant: "danger" | "secondary";
};

const ACTIONS: Action[] = [
  {
    label: "Ban",
    doing: "Banning",
    done: "Banned",
    question: (n) => `Ban ${n}? They are signed out everywhere and cannot sign in until unbanned.`,
    run: (user) => user.update({ restrictedByAdmin: true }),
    variant: "danger",
  },
  {
    label: "Unban",
    doing: "Unbanning",
    done: "Unbanned",
    question: (n) => `Let ${n} sign in again?`,
    run: (user) => user.update({ restrictedByAdmin: false }),
    variant: "secondary",
  },
  {
    label: "Delete",
    doing: "Deleting",
    done: "Deleted",
    question: (n) => `Delete ${n} for good? Their sessions end and their team memberships go.`,
    run: (user) => user.delete(),
    variant: "danger",
  },
];

// The sentences around the count are English until this screen is translated, so the count is English too (its
// plural through Intl.PluralRules, messages.ts).
const english = makeTranslator(en, {}, "en");
const usersCount = (n: number) => english("users.count", { n });

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
    <section className="dash-bulk" aria-label="Bulk actions">
      {selected.length > 0 && !progress && (
        <div className="dash-actions">
          <strong>{usersCount(selected.length)} selected</strong>
          {ACTIONS.map((action) => (
            <ConfirmButton
              key={action.label}
              label={action.label}
              name={`${action.label} ${usersCount(selected.length)}`}
              variant={action.variant}
              question={action.question(usersCount(selected.length))}
              confirmLabel={`${action.label} ${usersCount(selected.length)}`}
              onConfirm={() => run(action)}
            />
          ))}
          <Button onClick={onFinished}>Clear selection</Button>
        </div>
      )}
      {progress && (
        <div className="dash-bulk-progress">
          <progress
            value={progress.done}
            max={progress.total}
            aria-label={`${progress.action.doing} users`}
          />
          <span role="status">
            {progress.action.doing} {progress.done} of {usersCount(progress.total)}…
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
  return (
    <div className="dash-bulk-outcome">
      <div className="dash-actions">
        {failed.length === 0 ? (
          <Alert kind="success">
            {action.done} {usersCount(total)}.
          </Alert>
        ) : (
          <Alert>
            {action.done} {succeeded} of {usersCount(total)}; {failed.length} failed:
          </Alert>
        )}
        <Button onClick={onClose}>Dismiss</Button>
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
