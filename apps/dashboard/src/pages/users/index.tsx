// The project's users: a table read one cursor page at a time (searched and sorted by the server), and the form that
// creates a user. Previous pages are reached through the stack of cursors that led to the current one.

import type { ServerUser } from "@gatehouse/react";
import { Button, Field, Root } from "@gatehouse/react/ui";
import { type FormEvent, useState, useTransition } from "react";
import { useQuery } from "../../data.ts";
import { ScreenHeader } from "../../layout.tsx";
import { type ProjectScreenProps, projectKey } from "../../project.tsx";
import { Link } from "../../router.tsx";
import { Part } from "../bricks.tsx";
import { when } from "./bricks.tsx";
import { CreateUser } from "./create-user.tsx";

export const PAGE_SIZES = [20, 50] as const;

type View = {
  query: string;
  desc: boolean;
  pageSize: number;
  /** The cursors of the pages before this one (undefined: the first page). */
  previous: (string | undefined)[];
  cursor: string | undefined;
};

export function UsersPage({ project }: ProjectScreenProps) {
  const [search, setSearch] = useState("");
  const [view, setView] = useState<View>({
    query: "",
    desc: true,
    pageSize: PAGE_SIZES[0],
    previous: [],
    cursor: undefined,
  });
  const [creating, setCreating] = useState(false);
  // The table being read stays on screen (marked busy) until the next page, search or order has arrived.
  const [loading, startTransition] = useTransition();
  const change = (next: Partial<View>) =>
    startTransition(() => setView((current) => ({ ...current, previous: [], cursor: undefined, ...next })));

  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    change({ query: search.trim() });
  };

  return (
    <Root>
      <ScreenHeader title="Users">
        <Button variant="primary" aria-expanded={creating} onClick={() => setCreating(!creating)}>
          New user
        </Button>
      </ScreenHeader>
      {creating && <CreateUser project={project} onClose={() => setCreating(false)} />}
      <div className="dash-toolbar">
        {/* biome-ignore lint/a11y/useSemanticElements: the tests' DOM (happy-dom) has no <search> element yet. */}
        <form role="search" className="dash-actions" onSubmit={onSearch}>
          <Field
            label="Search users"
            type="search"
            value={search}
            placeholder="Name, e-mail or id"
            onChange={(event) => setSearch(event.target.value)}
          />
          <Button type="submit">Search</Button>
          {view.query && (
            <Button
              onClick={() => {
                setSearch("");
                change({ query: "" });
              }}
            >
              Clear search
            </Button>
          )}
        </form>
        <label className="dash-select">
          <span>Rows per page</span>
          <select
            value={view.pageSize}
            onChange={(event) => change({ pageSize: Number(event.target.value) })}
          >
            {PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </label>
      </div>
      <Part label="users" reads={projectKey(project, "users", "list")}>
        <UsersTable
          project={project}
          view={view}
          loading={loading}
          onSort={() => change({ desc: !view.desc })}
          onPage={(previous, cursor) =>
            startTransition(() => setView((current) => ({ ...current, previous, cursor })))
          }
        />
      </Part>
    </Root>
  );
}

function UsersTable({
  project,
  view,
  loading,
  onSort,
  onPage,
}: ProjectScreenProps & {
  view: View;
  loading: boolean;
  onSort: () => void;
  onPage: (previous: (string | undefined)[], cursor: string | undefined) => void;
}) {
  const { query, desc, pageSize, cursor, previous } = view;
  const key = projectKey(project, "users", "list", JSON.stringify([query, desc, pageSize, cursor ?? ""]));
  const users = useQuery(key, () =>
    project.app.listUsers({
      query: query || undefined,
      orderBy: "signedUpAt",
      desc,
      limit: pageSize,
      cursor,
    }),
  );
  const pageNumber = previous.length + 1;
  const sortLabel = desc ? "newest first" : "oldest first";

  if (users.length === 0 && previous.length === 0) {
    return (
      <p className="dash-panel dash-muted" role="status">
        {query ? `No user matches “${query}”.` : "No users yet. Create the first one with “New user”."}
      </p>
    );
  }
  return (
    <div className="dash-table-wrap" aria-busy={loading || undefined}>
      <table className="dash-table">
        <caption className="dash-sr-only">
          Users{query ? ` matching “${query}”` : ""}, page {pageNumber}, {sortLabel}
        </caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Primary e-mail</th>
            <th scope="col" aria-sort={desc ? "descending" : "ascending"}>
              <button type="button" className="dash-sort" onClick={onSort}>
                Signed up <span aria-hidden="true">{desc ? "↓" : "↑"}</span>
                <span className="dash-sr-only">
                  , sorted {sortLabel}; sort {desc ? "oldest" : "newest"} first
                </span>
              </button>
            </th>
            <th scope="col">Last active</th>
            <th scope="col">Auth methods</th>
          </tr>
        </thead>
        <tbody>
          {users.map((user) => (
            <tr key={user.id}>
              <td>
                <Link to={`/projects/${project.id}/users/${user.id}`}>
                  {user.displayName || user.primaryEmail || user.id}
                </Link>
              </td>
              <td>
                {user.primaryEmail ?? <span className="dash-muted">none</span>}{" "}
                {user.primaryEmail && <VerifiedBadge verified={user.primaryEmailVerified} />}
              </td>
              <td>{when(user.signedUpAt)}</td>
              <td>{when(user.lastActiveAt)}</td>
              <td>
                <AuthMethods user={user} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <nav className="dash-pager" aria-label="Pages of users">
        <Button
          disabled={previous.length === 0}
          onClick={() => onPage(previous.slice(0, -1), previous[previous.length - 1])}
        >
          Previous page
        </Button>
        <span className="dash-muted">Page {pageNumber}</span>
        <Button
          disabled={!users.nextCursor}
          onClick={() => onPage([...previous, cursor], users.nextCursor ?? undefined)}
        >
          Next page
        </Button>
      </nav>
    </div>
  );
}

export function VerifiedBadge({ verified }: { verified: boolean }) {
  return verified ? (
    <span className="dash-badge dash-ok">verified</span>
  ) : (
    <span className="dash-badge dash-bad">unverified</span>
  );
}

/** How a user can sign in, as badges. */
export function AuthMethods({ user }: { user: ServerUser }) {
  const methods = [
    user.hasPassword && "password",
    user.otpAuthEnabled && "one-time code",
    user.passkeyAuthEnabled && "passkey",
    ...user.oauthProviders.map((provider) => provider.id),
    user.isMultiFactorRequired && "TOTP",
  ].filter((method): method is string => Boolean(method));
  if (methods.length === 0) return <span className="dash-muted">none</span>;
  return (
    <span className="dash-badges">
      {methods.map((method) => (
        <span key={method} className="dash-badge">
          {method}
        </span>
      ))}
    </span>
  );
}
