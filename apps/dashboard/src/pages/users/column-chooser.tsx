// Which columns a table shows: a disclosure ("Columns") with a checkbox per column the table lets the operator hide.
// The table owns the choice (TanStack's column visibility); whoever owns the table's state decides where it is kept.
import type { ServerUser } from "@gatehouse/react";
import type { Table } from "@tanstack/react-table";
import { useId } from "react";
import { useDashboardTranslation } from "../../messages.ts";
import type { usersFeatures } from "./users-columns.tsx";

export function ColumnChooser({ table }: { table: Table<typeof usersFeatures, ServerUser> }) {
  const id = useId();
  const t = useDashboardTranslation();
  const columns = table.getAllLeafColumns().filter((column) => column.getCanHide());
  return (
    <details className="dash-columns">
      <summary className="gh-button">{t("columns.button")}</summary>
      <fieldset className="dash-columns-list" aria-describedby={id}>
        <legend>{t("columns.shown")}</legend>
        <p className="dash-muted" id={id}>
          {t("columns.kept")}
        </p>
        {columns.map((column) => {
          return (
            <label key={column.id} className="dash-check">
              <input
                type="checkbox"
                checked={column.getIsVisible()}
                onChange={column.getToggleVisibilityHandler()}
              />
              {column.columnDef.meta ? t(column.columnDef.meta.label) : column.id}
            </label>
          );
        })}
      </fieldset>
    </details>
  );
}
