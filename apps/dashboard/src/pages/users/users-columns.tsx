// The users table's columns on TanStack Table: selection, the user (avatar, name, e-mail), status, the two dates
// the server can order by, sign-in methods, id, and the row's actions (open, ban or unban, delete, each confirmed).
// Only the dates sort, and they sort on the server: a page of a large project is all the browser ever holds.
import type { OwnedProject, ServerUser } from "@gatehouse/react";
import { Avatar, useLocale } from "@gatehouse/react/ui";
import {
  type CellContext,
  type ColumnVisibilityState,
  columnVisibilityFeature,
  createColumnHelper,
  type HeaderContext,
  rowSelectionFeature,
  rowSortingFeature,
  tableFeatures,
} from "@tanstack/react-table";
import { useEffect, useRef } from "react";
import { Link } from "../../router.tsx";
import { ConfirmButton } from "../bricks.tsx";
import { useDateTime, usersChanged, When } from "./bricks.tsx";
import { AuthMethods, BanBadge, VerifiedBadge } from "./user-badges.tsx";

export const usersFeatures = tableFeatures({
  rowSortingFeature,
  columnVisibilityFeature,
  rowSelectionFeature,
  tableMeta: {} as { project: OwnedProject },
  columnMeta: {} as { label: string },
});

type Features = typeof usersFeatures;
type Cell = CellContext<Features, ServerUser>;

/** The server's orders (WIRE.md §4.8 `order_by`), by the id of the column that shows them. */
export const SERVER_ORDERS = { signedUpAt: "signedUpAt", lastActiveAt: "lastActiveAt" } as const;
export type ServerOrder = keyof typeof SERVER_ORDERS;

/** What an operator sees before choosing: the id is there for copying, not for every glance. */
export const DEFAULT_COLUMNS: ColumnVisibilityState = { id: false };

export const nameOf = (user: ServerUser) => user.displayName || user.primaryEmail || user.id;
export const userPath = (project: { id: string }, user: ServerUser) =>
  `/projects/${project.id}/users/${user.id}`;

const helper = createColumnHelper<Features, ServerUser>();

export const USER_COLUMNS = helper.columns([
  helper.display({
    id: "select",
    header: SelectPage,
    cell: SelectRow,
    enableHiding: false,
    enableSorting: false,
    meta: { label: "Select" },
  }),
  helper.display({
    id: "user",
    header: "User",
    cell: UserCell,
    enableHiding: false,
    enableSorting: false,
    meta: { label: "User" },
  }),
  helper.accessor("restrictedByAdmin", {
    id: "status",
    header: "Status",
    cell: ({ getValue }) => <BanBadge banned={getValue()} />,
    enableSorting: false,
    meta: { label: "Status" },
  }),
  helper.accessor("signedUpAt", {
    header: "Signed up",
    cell: ({ getValue }) => <Day date={getValue()} />,
    sortDescFirst: true,
    meta: { label: "Signed up" },
  }),
  helper.accessor("lastActiveAt", {
    header: "Last active",
    cell: ({ getValue }) => <Day date={getValue()} />,
    sortDescFirst: true,
    meta: { label: "Last active" },
  }),
  helper.display({
    id: "authMethods",
    header: "Sign-in methods",
    cell: ({ row }) => <AuthMethods user={row.original} />,
    enableSorting: false,
    meta: { label: "Sign-in methods" },
  }),
  helper.accessor("id", {
    header: "User ID",
    cell: ({ getValue }) => <span className="dash-mono">{getValue()}</span>,
    enableSorting: false,
    meta: { label: "User ID" },
  }),
  helper.display({
    id: "actions",
    header: "Actions",
    cell: RowActions,
    enableHiding: false,
    enableSorting: false,
    meta: { label: "Actions" },
  }),
]);

/** The day, so the table fits a laptop's width; the time is in the tooltip and on the user's page. */
function Day({ date }: { date: Date }) {
  const locale = useLocale();
  const dateTime = useDateTime();
  if (date.getTime() === 0) return <When date={date} />;
  return (
    <time dateTime={date.toISOString()} title={dateTime.format(date)}>
      {date.toLocaleDateString(locale, { dateStyle: "medium" })}
    </time>
  );
}

function SelectPage({ table }: HeaderContext<Features, ServerUser>) {
  const box = useRef<HTMLInputElement>(null);
  const some = table.getIsSomePageRowsSelected();
  // "Some selected" has no attribute in HTML, only this property.
  useEffect(() => {
    if (box.current) box.current.indeterminate = some;
  }, [some]);
  return (
    <input
      ref={box}
      type="checkbox"
      className="dash-row-check"
      aria-label="Select every user on this page"
      checked={table.getIsAllPageRowsSelected()}
      onChange={table.getToggleAllPageRowsSelectedHandler()}
    />
  );
}

function SelectRow({ row }: Cell) {
  return (
    <input
      type="checkbox"
      className="dash-row-check"
      aria-label={`Select ${nameOf(row.original)}`}
      checked={row.getIsSelected()}
      onChange={row.getToggleSelectedHandler()}
    />
  );
}

function UserCell({ row, table }: Cell) {
  const user = row.original;
  const project = table.options.meta?.project;
  const name = nameOf(user);
  // Without a display name the e-mail is the name already: the line below keeps only its badge.
  const email = user.displayName
    ? (user.primaryEmail ?? "no e-mail")
    : user.primaryEmail
      ? null
      : "no e-mail";
  return (
    <span className="dash-person">
      <Avatar name={name} imageUrl={user.profileImageUrl} />
      <span className="dash-person-identity">
        {project ? <Link to={userPath(project, user)}>{name}</Link> : name}
        <span className="dash-muted">
          {email && <span>{email} </span>}
          {user.primaryEmail && <VerifiedBadge verified={user.primaryEmailVerified} />}
        </span>
      </span>
    </span>
  );
}

function RowActions({ row, table }: Cell) {
  const user = row.original;
  const project = table.options.meta?.project;
  if (!project) return null;
  const who = user.primaryEmail ?? nameOf(user);
  const banned = user.restrictedByAdmin;
  return (
    <span className="dash-row-actions">
      <Link to={userPath(project, user)} className="gh-button">
        Open<span className="dash-sr-only"> {who}</span>
      </Link>
      <ConfirmButton
        label={banned ? "Unban" : "Ban"}
        name={`${banned ? "Unban" : "Ban"} ${who}`}
        variant={banned ? "secondary" : "danger"}
        // Short: the question stands in the row's cell, and the row says who.
        question={banned ? "Let this user sign in again?" : "Ban this user? They are signed out everywhere."}
        onConfirm={async () => {
          await user.update({ restrictedByAdmin: !banned });
          usersChanged(project);
        }}
      />
      <ConfirmButton
        label="Delete"
        name={`Delete ${who}`}
        question="Delete this user for good?"
        onConfirm={async () => {
          await user.delete();
          usersChanged(project);
        }}
      />
    </span>
  );
}
