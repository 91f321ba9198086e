// One server page of the project's users as an ARIA grid on TanStack Table: the columns the operator chose, the
// server's order, row selection with bulk actions, and the cursor pager. Keyboard: row focus, as in the APG treegrid
// inbox example. The rows are one Tab stop (arrows, Home, End move it; Enter opens the user; Space selects), and Tab
// goes on through the focused row's own buttons only.
import type { OwnedProject } from "@gatehouse/react";
import { Button } from "@gatehouse/react/ui";
import {
  type ColumnVisibilityState,
  functionalUpdate,
  type RowSelectionState,
  type SortingState,
  useTable,
} from "@tanstack/react-table";
import { type KeyboardEvent, useId, useLayoutEffect, useRef, useState } from "react";
import { useQuery } from "../../data.ts";
import { useDashboardTranslation } from "../../messages.ts";
import { projectKey } from "../../project.tsx";
import { navigate } from "../../router.tsx";
import { TableScroll } from "../bricks.tsx";
import { ColumnChooser } from "./column-chooser.tsx";
import { BulkActions } from "./users-bulk.tsx";
import { type ServerOrder, USER_COLUMNS, userPath, usersFeatures } from "./users-columns.tsx";

export type UsersView = {
  query: string;
  /** One of the server's orders (the table sorts nothing itself). */
  sorting: [{ id: ServerOrder; desc: boolean }];
  pageSize: number;
  /** The cursors of the pages before this one (undefined: the first page). */
  previous: (string | undefined)[];
  cursor: string | undefined;
};

/** An empty selection that stays the same object, so the table does not see a new one on each render. */
const NO_SELECTION: RowSelectionState = Object.freeze({}) as RowSelectionState;

export function UsersTable({
  project,
  view,
  loading,
  columns,
  onColumns,
  onSort,
  onPage,
}: {
  project: OwnedProject;
  view: UsersView;
  loading: boolean;
  columns: ColumnVisibilityState;
  onColumns: (columns: ColumnVisibilityState) => void;
  onSort: (sorting: UsersView["sorting"]) => void;
  onPage: (previous: (string | undefined)[], cursor: string | undefined) => void;
}) {
  const t = useDashboardTranslation();
  const { query, sorting, pageSize, cursor, previous } = view;
  const [order] = sorting;
  const page = JSON.stringify([query, order, pageSize, cursor ?? ""]);
  const users = useQuery(projectKey(project, "users", "list", page), () =>
    project.app.listUsers({
      query: query || undefined,
      orderBy: order.id,
      desc: order.desc,
      limit: pageSize,
      cursor,
      // Banned users stay listed (with their badge), or nobody could find them to lift the ban.
      includeRestricted: true,
    }),
  );
  // Selection and the focused row belong to the page on screen: another page starts with neither.
  const [selection, setSelection] = useState({ page, ids: NO_SELECTION });
  const rowSelection = selection.page === page ? selection.ids : NO_SELECTION;
  const [focus, setFocus] = useState({ page, index: 0 });
  const active = focus.page === page ? Math.min(focus.index, users.length - 1) : 0;
  const rowElements = useRef<(HTMLTableRowElement | null)[]>([]);
  const hint = useId();

  const table = useTable({
    features: usersFeatures,
    columns: USER_COLUMNS,
    data: users,
    getRowId: (user) => user.id,
    manualSorting: true,
    enableMultiSort: false,
    enableSortingRemoval: false,
    state: { sorting, columnVisibility: columns, rowSelection },
    onSortingChange: (updater) => {
      const [next] = functionalUpdate(updater, sorting as SortingState);
      if (next) onSort([{ id: next.id as ServerOrder, desc: next.desc }]);
    },
    onColumnVisibilityChange: (updater) => onColumns(functionalUpdate(updater, columns)),
    onRowSelectionChange: (updater) =>
      setSelection((current) => ({
        page,
        ids: functionalUpdate(updater, current.page === page ? current.ids : NO_SELECTION),
      })),
    meta: { project },
  });
  const rows = table.getRowModel().rows;
  const selected = rows.filter((row) => row.getIsSelected()).map((row) => row.original);

  // Only the focused row's links, buttons and checkbox are in the Tab sequence (the APG example does the same).
  useLayoutEffect(() => {
    rowElements.current.forEach((row, index) => {
      for (const widget of row?.querySelectorAll<HTMLElement>("a[href], button, input") ?? []) {
        if (index === active) widget.removeAttribute("tabindex");
        else widget.setAttribute("tabindex", "-1");
      }
    });
  });

  const focusRow = (index: number) => {
    const target = Math.max(0, Math.min(index, rows.length - 1));
    setFocus({ page, index: target });
    rowElements.current[target]?.focus();
  };
  const onRowKey = (event: KeyboardEvent<HTMLTableRowElement>, index: number) => {
    // Keys on the row's own widgets (a button, the checkbox, a confirmation) are theirs.
    if (event.target !== event.currentTarget) return;
    const row = rows[index];
    if (!row) return;
    if (event.key === "ArrowDown") focusRow(index + 1);
    else if (event.key === "ArrowUp") focusRow(index - 1);
    else if (event.key === "Home") focusRow(0);
    else if (event.key === "End") focusRow(rows.length - 1);
    else if (event.key === "Enter") navigate(userPath(project, row.original));
    else if (event.key === " ") row.toggleSelected();
    else return;
    event.preventDefault();
  };

  if (users.length === 0 && previous.length === 0) {
    return (
      <p className="dash-panel dash-muted" role="status">
        {query ? t("users.noMatch", { query }) : t("users.none")}
      </p>
    );
  }
  const pageNumber = previous.length + 1;
  const orderLabel = t(
    order.id === "lastActiveAt"
      ? order.desc
        ? "users.order.activeNewest"
        : "users.order.activeOldest"
      : order.desc
        ? "users.order.signedUpNewest"
        : "users.order.signedUpOldest",
  );
  return (
    <div className="dash-table-wrap" aria-busy={loading || undefined}>
      <div className="dash-table-bar">
        <p className="dash-muted" id={hint}>
          {t("users.keys")}
        </p>
        <ColumnChooser table={table} />
      </div>
      <BulkActions
        project={project}
        selected={selected}
        onFinished={() => setSelection({ page, ids: NO_SELECTION })}
      />
      <TableScroll label={t("users.table")}>
        <table
          className="dash-table dash-users"
          // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: APG's data grid is a table with role grid (rows, headers and cells stay).
          role="grid"
          aria-multiselectable="true"
          aria-describedby={hint}
        >
          <caption className="dash-sr-only">
            {query
              ? t("users.captionQuery", { query, page: pageNumber, order: orderLabel })
              : t("users.caption", { page: pageNumber, order: orderLabel })}
          </caption>
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => (
                  <th
                    key={header.id}
                    scope="col"
                    className={`dash-col-${header.column.id}`}
                    aria-sort={sortOf(header.column.getIsSorted())}
                  >
                    {header.column.getCanSort() ? (
                      <SortButton
                        label={
                          header.column.columnDef.meta ? t(header.column.columnDef.meta.label) : header.id
                        }
                        sorted={header.column.getIsSorted()}
                        onClick={header.column.getToggleSortingHandler()}
                      />
                    ) : (
                      <table.FlexRender header={header} />
                    )}
                  </th>
                ))}
              </tr>
            ))}
          </thead>
          <tbody>
            {rows.map((row, index) => (
              <tr
                key={row.id}
                ref={(element) => {
                  rowElements.current[index] = element;
                }}
                tabIndex={index === active ? 0 : -1}
                aria-selected={row.getIsSelected()}
                onFocus={() => index !== active && setFocus({ page, index })}
                onKeyDown={(event) => onRowKey(event, index)}
              >
                {row.getVisibleCells().map((cell) => (
                  <td key={cell.id} className={`dash-col-${cell.column.id}`}>
                    <table.FlexRender cell={cell} />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <nav className="dash-pager" aria-label={t("users.pages")}>
        <Button
          disabled={previous.length === 0}
          onClick={() => onPage(previous.slice(0, -1), previous[previous.length - 1])}
        >
          {t("pager.previous")}
        </Button>
        <span className="dash-muted">{t("users.page", { page: pageNumber })}</span>
        <Button
          disabled={!users.nextCursor}
          onClick={() => onPage([...previous, cursor], users.nextCursor ?? undefined)}
        >
          {t("pager.next")}
        </Button>
      </nav>
    </div>
  );
}

const sortOf = (sorted: false | "asc" | "desc") =>
  sorted === "desc" ? "descending" : sorted === "asc" ? "ascending" : undefined;

function SortButton({
  label,
  sorted,
  onClick,
}: {
  label: string;
  sorted: false | "asc" | "desc";
  onClick: ((event: unknown) => void) | undefined;
}) {
  const now = sorted === "desc" ? "newest first" : "oldest first";
  const next = sorted === "desc" ? "oldest first" : "newest first";
  return (
    <button type="button" className="dash-sort" onClick={onClick}>
      {label} <span aria-hidden="true">{sorted === "desc" ? "↓" : sorted === "asc" ? "↑" : "↕"}</span>
      <span className="dash-sr-only">{sorted ? `, sorted ${now}; sort ${next}` : `; sort ${next}`}</span>
    </button>
  );
}
