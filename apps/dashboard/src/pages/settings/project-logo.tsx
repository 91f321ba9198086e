// The project's logo (Stack's `logo_url` and `logo_dark_mode_url`): an https address or an uploaded image (sent inline
// as a data URL, as Stack's dashboard does), previewed on a light and a dark card before saving. Our sign-in pages
// show it above the card's title.
import type { OwnedProject } from "@gatehouse/react";
import { Alert, Button, Field } from "@gatehouse/react/ui";
import { type ChangeEvent, type FormEvent, useState } from "react";
import { useQuery } from "../../data.ts";
import { type DashboardKey, useDashboardTranslation } from "../../messages.ts";
import { useFormAction } from "../form.ts";
import { saveProject, settingsKey } from "./project-settings.ts";

/** The server's bound on a logo (Stack's); base64 makes a file a third larger. */
const MAX_LOGO_LENGTH = 1_000_000;
const MAX_FILE_BYTES = Math.floor((MAX_LOGO_LENGTH * 3) / 4) - 100;
const INLINE_IMAGE = /^data:image\/(png|jpeg|gif|webp|avif|svg\+xml);base64,/;

/** Why a logo value would be refused, as a text key; null when it is fine (or empty: no logo). */
export function logoProblem(value: string): DashboardKey | null {
  if (value === "") return null;
  if (value.length > MAX_LOGO_LENGTH) return "logo.err.tooLarge";
  if (INLINE_IMAGE.test(value)) return null;
  if (!/^https:\/\/\S+$/.test(value) || !URL.canParse(value)) return "logo.err.url";
  return null;
}

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

function LogoInput({
  label,
  value,
  error,
  onChange,
}: {
  label: string;
  value: string;
  error?: string | null;
  onChange: (value: string, error?: string) => void;
}) {
  const t = useDashboardTranslation();
  const inline = value.startsWith("data:");
  const pick = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    if (!INLINE_IMAGE.test(`data:${file.type};base64,`)) return onChange(value, t("logo.err.type"));
    if (file.size > MAX_FILE_BYTES) return onChange(value, t("logo.err.tooLarge"));
    onChange(await readAsDataUrl(file));
  };
  return (
    <div className="dash-logo-input">
      <Field
        label={label}
        type="url"
        placeholder="https://example.com/logo.svg"
        // An uploaded image is kept whole but not shown as a megabyte of text.
        value={inline ? t("logo.uploaded") : value}
        readOnly={inline}
        error={error}
        hint={t("logo.hint")}
        onChange={(event) => onChange(event.target.value.trim())}
      />
      <div className="dash-actions">
        <label className="gh-button dash-file-button">
          {t("logo.upload")}
          <input
            type="file"
            accept="image/png,image/jpeg,image/gif,image/webp,image/avif,image/svg+xml"
            className="gh-visually-hidden"
            onChange={(event) => void pick(event)}
          />
        </label>
        {value && <Button onClick={() => onChange("")}>{t("logo.clear")}</Button>}
      </div>
    </div>
  );
}

export function ProjectLogo({ project }: { project: OwnedProject }) {
  const admin = useQuery(settingsKey(project), () => project.app.getProject());
  const t = useDashboardTranslation();
  const [light, setLight] = useState(admin.logoUrl ?? "");
  const [dark, setDark] = useState(admin.logoDarkModeUrl ?? "");
  const [errors, setErrors] = useState<{ light?: string; dark?: string }>({});
  const [saved, setSaved] = useState(false);
  const save = useFormAction(async () => {
    await saveProject(project, { logoUrl: light || null, logoDarkModeUrl: dark || null });
    setSaved(true);
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const lightProblem = logoProblem(light);
    const darkProblem = logoProblem(dark);
    const found = {
      ...(lightProblem ? { light: t(lightProblem) } : {}),
      ...(darkProblem ? { dark: t(darkProblem) } : {}),
    };
    setErrors(found);
    setSaved(false);
    if (!found.light && !found.dark) void save.run();
  };
  const change = (which: "light" | "dark") => (value: string, error?: string) => {
    (which === "light" ? setLight : setDark)(value);
    setErrors((current) => ({ ...current, [which]: error }));
    setSaved(false);
  };
  const shown = { light: light || null, dark: dark || light || null };
  return (
    <form className="dash-form" noValidate onSubmit={onSubmit} aria-label={t("logo.title")}>
      <LogoInput label={t("logo.light")} value={light} error={errors.light} onChange={change("light")} />
      <LogoInput label={t("logo.dark")} value={dark} error={errors.dark} onChange={change("dark")} />
      <fieldset className="dash-logo-previews">
        <legend className="gh-visually-hidden">{t("logo.preview")}</legend>
        {(["light", "dark"] as const).map((theme) => (
          <div key={theme} className={`dash-logo-preview dash-logo-preview-${theme}`}>
            {shown[theme] && !logoProblem(shown[theme]) ? (
              <img src={shown[theme]} alt={t("logo.previewAlt", { theme: t(`logo.on.${theme}`) })} />
            ) : (
              <span>{t("logo.none")}</span>
            )}
            <span>{project.displayName}</span>
          </div>
        ))}
      </fieldset>
      {save.error && <Alert>{save.error}</Alert>}
      {saved && <Alert kind="success">{t("logo.saved")}</Alert>}
      <div className="dash-actions">
        <Button type="submit" variant="primary" pending={save.pending}>
          {t("logo.save")}
        </Button>
      </div>
    </form>
  );
}
