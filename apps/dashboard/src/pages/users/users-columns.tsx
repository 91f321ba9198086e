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
import { type DashboardKey, useDashboardTranslation } from "../../messages.ts";
import { Link } from "../../router.tsx";
import { ConfirmButton } from "../bricks.tsx";
import { useDateTime, usersChanged, When } from "./bricks.tsx";
import { AuthMethods, BanBadge, VerifiedBadge } from "./user-badges.tsx";

export const usersFeatures = tableFeatures({
  rowSortingFeature,
  columnVisibilityFeature,
  rowSelectionFeature,
  tableMeta: {} as { project: OwnedProject },
  columnMeta: {} as { label: DashboardKey },
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
    meta: { label: "users.col.select" },
  }),
  helper.display({
    id: "user",
    header: ColumnName,
    cell: UserCell,
    enableHiding: false,
    enableSorting: false,
    meta: { label: "users.col.user" },
  }),
  helper.accessor("restrictedByAdmin", {
    id: "status",
    header: ColumnName,
    cell: ({ getValue }) => <BanBadge banned={getValue()} />,
    enableSorting: false,
    meta: { label: "users.col.status" },
  }),
  helper.accessor("signedUpAt", {
    header: ColumnName,
    cell: ({ getValue }) => <Day date={getValue()} />,
    sortDescFirst: true,
    meta: { label: "user.signedUp" },
  }),
  helper.accessor("lastActiveAt", {
    header: ColumnName,
    cell: ({ getValue }) => <Day date={getValue()} />,
    sortDescFirst: true,
    meta: { label: "user.lastActive" },
  }),
  helper.display({
    id: "authMethods",
    header: ColumnName,
    cell: ({ row }) => <AuthMethods user={row.original} />,
    enableSorting: false,
    meta: { label: "users.col.methods" },
  }),
  helper.accessor("id", {
    header: ColumnName,
    cell: ({ getValue }) => <span className="dash-mono">{getValue()}</span>,
    enableSorting: false,
    meta: { label: "users.col.id" },
  }),
  helper.display({
    id: "actions",
    header: ColumnName,
    cell: RowActions,
    enableHiding: false,
    enableSorting: false,
    meta: { label: "users.col.actions" },
  }),
]);

/** A column's header: its name (meta.label) in the chosen language. */
function ColumnName({ column }: { column: { id: string; columnDef: { meta?: { label: DashboardKey } } } }) {
  const t = useDashboardTranslation();
  const label = column.columnDef.meta?.label;
  return label ? t(label) : column.id;
}

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
  const t = useDashboardTranslation();
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
      aria-label={t("users.selectPage")}
      checked={table.getIsAllPageRowsSelected()}
      onChange={table.getToggleAllPageRowsSelectedHandler()}
    />
  );
}

function SelectRow({ row }: Cell) {
  const t = useDashboardTranslation();
  return (
    <input
      type="checkbox"
      className="dash-row-check"
      aria-label={t("users.selectOne", { name: nameOf(row.original) })}
      checked={row.getIsSelected()}
      onChange={row.getToggleSelectedHandler()}
    />
  );
}

function UserCell({ row, table }: Cell) {
  const t = useDashboardTranslation();
  const user = row.original;
  const project = table.options.meta?.project;
  const name = nameOf(user);
  // Without a display name the e-mail is the name already: the line below keeps only its badge.
  const email = user.displayName
    ? (user.primaryEmail ?? t("users.noEmail"))
    : user.primaryEmail
      ? null
      : t("users.noEmail");
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
  const t = useDashboardTranslation();
  const user = row.original;
  const project = table.options.meta?.project;
  if (!project) return null;
  const who = user.primaryEmail ?? nameOf(user);
  const banned = user.restrictedByAdmin;
  return (
    <span className="dash-row-actions">
      <Link to={userPath(project, user)} className="gh-button">
        {t("users.open")}
        <span className="dash-sr-only"> {who}</span>
      </Link>
      <ConfirmButton
        label={banned ? t("users.unban") : t("users.ban")}
        name={banned ? t("users.unbanName", { name: who }) : t("users.banName", { name: who })}
        variant={banned ? "secondary" : "danger"}
        // Short: the question stands in the row's cell, and the row says who.
        question={banned ? t("users.unbanQuestion") : t("users.banQuestion")}
        onConfirm={async () => {
          await user.update({ restrictedByAdmin: !banned });
          usersChanged(project);
        }}
      />
      <ConfirmButton
        label={t("common.delete")}
        name={t("users.deleteName", { name: who })}
        question={t("users.deleteQuestion")}
        onConfirm={async () => {
          await user.delete();
          usersChanged(project);
        }}
      />
    </span>
  );
}
