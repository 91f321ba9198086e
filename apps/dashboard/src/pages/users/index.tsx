// The project's users: the search, the rows-per-page choice and the form that creates a user, over the users table
// (users-table.tsx), which reads one cursor page at a time, searched and ordered by the server. Previous pages are
// reached through the stack of cursors that led to the current one.
import { Button, Field } from "@gatehouse/react/ui";
import { type FormEvent, useState, useTransition } from "react";
import { ScreenHeader } from "../../layout.tsx";
import { useDashboardTranslation } from "../../messages.ts";
import { type ProjectScreenProps, projectKey } from "../../project.tsx";
import { Link } from "../../router.tsx";
import { Part } from "../bricks.tsx";
import { CreateUser } from "./create-user.tsx";
import { useStoredChoice } from "./stored-choice.ts";
import { DEFAULT_COLUMNS } from "./users-columns.tsx";
import { UsersTable, type UsersView } from "./users-table.tsx";

export const PAGE_SIZES = [20, 50, 100] as const;

/** Where the operator's choice of columns is kept (per browser, for every project alike). */
export const COLUMNS_STORAGE_KEY = "gatehouse.dashboard.users.columns";

export function UsersPage({ project }: ProjectScreenProps) {
  const t = useDashboardTranslation();
  const [search, setSearch] = useState("");
  const [view, setView] = useState<UsersView>({
    query: "",
    sorting: [{ id: "signedUpAt", desc: true }],
    pageSize: PAGE_SIZES[0],
    previous: [],
    cursor: undefined,
  });
  const [columns, setColumns] = useStoredChoice(COLUMNS_STORAGE_KEY, DEFAULT_COLUMNS);
  const [creating, setCreating] = useState(false);
  // The table being read stays on screen (marked busy) until the next page, search or order has arrived.
  const [loading, startTransition] = useTransition();
  const change = (next: Partial<UsersView>) =>
    startTransition(() => setView((current) => ({ ...current, previous: [], cursor: undefined, ...next })));

  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    change({ query: search.trim() });
  };

  return (
    <>
      <ScreenHeader title={t("nav.users")}>
        <Link className="gh-button" to={`/projects/${project.id}/users/import`}>
          {t("imports.title")}
        </Link>
        <Button variant="primary" aria-expanded={creating} onClick={() => setCreating(!creating)}>
          {t("users.new")}
        </Button>
      </ScreenHeader>
      {creating && <CreateUser project={project} onClose={() => setCreating(false)} />}
      <div className="dash-toolbar">
        {/* biome-ignore lint/a11y/useSemanticElements: the tests' DOM (happy-dom) has no <search> element yet. */}
        <form role="search" className="dash-actions" onSubmit={onSearch}>
          <Field
            label={t("users.search")}
            type="search"
            value={search}
            placeholder={t("users.searchPlaceholder")}
            onChange={(event) => setSearch(event.target.value)}
          />
          <Button type="submit">{t("users.searchButton")}</Button>
          {view.query && (
            <Button
              onClick={() => {
                setSearch("");
                change({ query: "" });
              }}
            >
              {t("users.clearSearch")}
            </Button>
          )}
        </form>
        <label className="dash-select">
          <span>{t("users.rowsPerPage")}</span>
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
      <Part label={t("users.part")} reads={projectKey(project, "users", "list")}>
        <UsersTable
          project={project}
          view={view}
          loading={loading}
          columns={columns}
          onColumns={setColumns}
          onSort={(sorting) => change({ sorting })}
          onPage={(previous, cursor) =>
            startTransition(() => setView((current) => ({ ...current, previous, cursor })))
          }
        />
      </Part>
    </>
  );
}
