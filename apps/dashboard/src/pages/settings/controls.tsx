// Form controls the settings screens share: an on/off switch (a checkbox with the switch role) and a list of
// checkboxes in a labelled fieldset, for choosing permission ids.
import type { ReactNode } from "react";
import { useDashboardTranslation } from "../../messages.ts";

export function Switch({
  label,
  hint,
  checked,
  disabled,
  onChange,
}: {
  label: string;
  hint?: ReactNode;
  checked: boolean;
  disabled?: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <label className="dash-switch">
      <input
        type="checkbox"
        role="switch"
        aria-checked={checked}
        checked={checked}
        disabled={disabled}
        onChange={(event) => onChange(event.target.checked)}
      />
      <span>
        <span className="dash-switch-label">{label}</span>
        {hint && <span className="dash-muted dash-switch-hint">{hint}</span>}
      </span>
    </label>
  );
}

export type CheckOption = { id: string; note?: string };

/** Checkboxes for a set of ids, in a fieldset named by `legend`. */
export function CheckList({
  legend,
  options,
  selected,
  onChange,
  empty,
}: {
  legend: string;
  options: CheckOption[];
  selected: readonly string[];
  onChange: (selected: string[]) => void;
  empty?: string;
}) {
  const t = useDashboardTranslation();
  const toggle = (id: string, on: boolean) =>
    onChange(on ? [...selected.filter((s) => s !== id), id] : selected.filter((s) => s !== id));
  return (
    <fieldset className="dash-checklist">
      <legend>{legend}</legend>
      {options.length === 0 && <span className="dash-muted">{empty ?? t("set.nothing")}</span>}
      {options.map((option) => (
        <label key={option.id}>
          <input
            type="checkbox"
            aria-label={option.id}
            checked={selected.includes(option.id)}
            onChange={(event) => toggle(option.id, event.target.checked)}
          />
          <span className="dash-mono">{option.id}</span>
          {option.note && <span className="dash-muted">{option.note}</span>}
        </label>
      ))}
    </fieldset>
  );
}
