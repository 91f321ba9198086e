// "Import users" (issue 23): an export file of another auth provider uploaded as an import job the server runs in
// the background; its progress (bar, rate, time left) read every second until it ends, then its counts and the
// records it skipped with why; and the project's past imports, each of which can be shown again.
import {
  IMPORT_PROVIDERS,
  type ImportJob,
  type ImportJobDetail,
  type ImportProvider,
  type KnownError,
} from "@gatehouse/contract";
import { Alert, Button, Muted, useLocale } from "@gatehouse/react/ui";
import { type FormEvent, useEffect, useMemo, useState } from "react";
import { invalidate, useQuery } from "../../data.ts";
import { ScreenHeader } from "../../layout.tsx";
import { type DashboardKey, useDashboardTranslation } from "../../messages.ts";
import { type ProjectScreenProps, projectKey } from "../../project.tsx";
import { Link } from "../../router.tsx";
import { Part, TableScroll } from "../bricks.tsx";
import { useFormAction } from "../form.ts";
import { Checkbox, useDateTime, usersChanged } from "./bricks.tsx";

const POLL_MS = 1000;
const finished = (job: ImportJob) => job.status !== "queued" && job.status !== "running";
const importsKey = (project: { id: string }) => projectKey(project, "imports");

export function ImportUsersPage({ project }: ProjectScreenProps) {
  const t = useDashboardTranslation();
  const [shown, setShown] = useState<string | null>(null);
  return (
    <>
      <ScreenHeader title={t("imports.title")}>
        <Link to={`/projects/${project.id}/users`}>{t("nav.users")}</Link>
      </ScreenHeader>
      <Muted>{t("imports.intro")}</Muted>
      <NewImport project={project} onStarted={setShown} />
      {shown && <JobProgress key={shown} project={project} jobId={shown} />}
      <section className="dash-panel" aria-labelledby="past-imports">
        <h2 id="past-imports">{t("imports.past")}</h2>
        <Part label={t("imports.part")} reads={importsKey(project)}>
          <PastImports project={project} onShow={setShown} />
        </Part>
      </section>
    </>
  );
}

function NewImport({ project, onStarted }: ProjectScreenProps & { onStarted: (jobId: string) => void }) {
  const t = useDashboardTranslation();
  const [provider, setProvider] = useState<ImportProvider>("clerk");
  const [file, setFile] = useState<File | null>(null);
  const [dryRun, setDryRun] = useState(false);
  const [missingFile, setMissingFile] = useState(false);
  const start = useFormAction(
    async () => {
      if (!file) return;
      const job = await project.app.createImportJob(file, { provider, fileName: file.name, dryRun });
      invalidate(importsKey(project));
      onStarted(job.id);
    },
    {
      IMPORT_FILE_INVALID: (error) => {
        const details = (error as KnownError).details as { line: number; reason: string };
        return t("imports.error.invalid", { line: details.line, reason: details.reason });
      },
      IMPORT_FILE_TOO_LARGE: () => t("imports.error.tooLarge"),
    },
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setMissingFile(!file);
    if (file) void start.run();
  };
  return (
    <section className="dash-panel" aria-labelledby="new-import">
      <h2 id="new-import">{t("imports.form")}</h2>
      <form className="dash-stack" onSubmit={submit}>
        <label className="dash-import-field">
          {t("imports.provider")}{" "}
          <select value={provider} onChange={(event) => setProvider(event.target.value as ImportProvider)}>
            {IMPORT_PROVIDERS.map((id) => (
              <option key={id} value={id}>
                {PROVIDER_NAMES[id]}
              </option>
            ))}
          </select>
        </label>
        <p className="dash-muted" id="import-hint">
          {t(`imports.hint.${provider}` as DashboardKey)}
        </p>
        <label className="dash-import-field">
          {t("imports.file")}{" "}
          <input
            type="file"
            aria-describedby="import-hint"
            onChange={(event) => setFile(event.target.files?.[0] ?? null)}
          />
        </label>
        <Checkbox label={t("imports.dryRun")} checked={dryRun} onChange={setDryRun} />
        {missingFile && <Alert>{t("imports.chooseFile")}</Alert>}
        {start.error && <Alert>{start.error}</Alert>}
        <div className="dash-actions">
          <Button type="submit" variant="primary" pending={start.pending}>
            {t("imports.start")}
          </Button>
          {start.pending && <span role="status">{t("imports.uploading")}</span>}
        </div>
      </form>
    </section>
  );
}

const PROVIDER_NAMES: Record<ImportProvider, string> = {
  generic: "Gatehouse (generic JSON)",
  clerk: "Clerk",
  auth0: "Auth0",
  firebase: "Firebase Auth",
  supabase: "Supabase",
  "better-auth": "Better Auth",
  "stack-auth": "Stack Auth",
};

/** A job read every second until it ends; then the lists and the users' screens read again. */
function useJob(project: ProjectScreenProps["project"], jobId: string): ImportJobDetail | null {
  const [job, setJob] = useState<ImportJobDetail | null>(null);
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = async () => {
      const now = await project.app.getImportJob(jobId).catch(() => null);
      if (stopped) return;
      if (now) setJob(now);
      if (now && finished(now)) {
        invalidate(importsKey(project));
        if (!now.dry_run) usersChanged(project);
        return;
      }
      timer = setTimeout(read, POLL_MS);
    };
    void read();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [project, jobId]);
  return job;
}

function JobProgress({ project, jobId }: ProjectScreenProps & { jobId: string }) {
  const t = useDashboardTranslation();
  const job = useJob(project, jobId);
  const format = useNumber();
  const cancel = useFormAction(async () => {
    await project.app.cancelImportJob(jobId);
    invalidate(importsKey(project));
  });
  if (!job) return <p className="dash-muted">{t("part.loading", { label: t("imports.progress") })}</p>;
  const percent = job.total === 0 ? 100 : Math.floor((100 * job.processed) / job.total);
  const records = t("imports.records", { processed: format(job.processed), total: format(job.total) });
  return (
    <section className="dash-panel dash-stack" aria-labelledby="import-progress">
      <h2 id="import-progress">
        {t("imports.progress")}: {job.file_name}{" "}
        {job.dry_run && <span className="dash-badge">{t("imports.dryRunBadge")}</span>}
      </h2>
      <div className="dash-import-progress">
        <div
          className="dash-import-bar"
          role="progressbar"
          aria-label={t("imports.progress")}
          aria-valuemin={0}
          aria-valuemax={job.total}
          aria-valuenow={job.processed}
          aria-valuetext={`${percent}% · ${records}`}
        >
          <div style={{ width: `${percent}%` }} />
        </div>
        <span role="status">
          {t(`imports.status.${job.status}` as DashboardKey)} · {records}
          {job.rate_per_second !== null &&
            ` · ${t("imports.rate", { rate: format(Math.round(job.rate_per_second)) })}`}
          {job.eta_seconds !== null && ` · ${t("imports.eta", { time: duration(job.eta_seconds) })}`}
        </span>
      </div>
      {!finished(job) && (
        <div className="dash-actions">
          <Button onClick={() => void cancel.run()} pending={cancel.pending}>
            {t("imports.cancel")}
          </Button>
          {cancel.error && <Alert>{cancel.error}</Alert>}
        </div>
      )}
      {job.error && <Alert>{job.error}</Alert>}
      {finished(job) && <JobResult job={job} />}
    </section>
  );
}

function JobResult({ job }: { job: ImportJobDetail }) {
  const t = useDashboardTranslation();
  const format = useNumber();
  return (
    <>
      <dl className="dash-import-counts">
        <div>
          <dt>{t(job.dry_run ? "imports.wouldCreate" : "imports.created")}</dt>
          <dd>{format(job.created)}</dd>
        </div>
        <div>
          <dt>{t("imports.existing")}</dt>
          <dd>{format(job.existing)}</dd>
        </div>
        <div>
          <dt>{t("imports.skipped")}</dt>
          <dd>{format(job.skipped)}</dd>
        </div>
      </dl>
      {job.skipped_records.length === 0 ? (
        <Muted>{t("imports.noSkips")}</Muted>
      ) : (
        <TableScroll label={t("imports.skippedTable")}>
          <table className="dash-table dash-import-skips">
            <caption>{t("imports.skippedTable")}</caption>
            <thead>
              <tr>
                <th>{t("imports.line")}</th>
                <th>{t("imports.sourceId")}</th>
                <th>{t("imports.reason")}</th>
              </tr>
            </thead>
            <tbody>
              {job.skipped_records.map((skip) => (
                <tr key={skip.line}>
                  <td>{skip.line}</td>
                  <td>{skip.id ?? "—"}</td>
                  <td>{skip.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </>
  );
}

function PastImports({ project, onShow }: ProjectScreenProps & { onShow: (jobId: string) => void }) {
  const t = useDashboardTranslation();
  const dateTime = useDateTime();
  const format = useNumber();
  const jobs = useQuery(importsKey(project), () => project.app.listImportJobs());
  if (jobs.length === 0) return <Muted>{t("imports.none")}</Muted>;
  return (
    <TableScroll label={t("imports.past")}>
      <table className="dash-table">
        <thead>
          <tr>
            <th>{t("imports.when")}</th>
            <th>{t("imports.fileName")}</th>
            <th>{t("imports.provider")}</th>
            <th>{t("imports.status")}</th>
            <th>{t("imports.created")}</th>
            <th>{t("imports.existing")}</th>
            <th>{t("imports.skipped")}</th>
            <th>
              <span className="dash-sr-only">{t("imports.show")}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {jobs.map((job) => (
            <tr key={job.id}>
              <td>{dateTime.format(new Date(job.created_at_millis))}</td>
              <td>
                {job.file_name}{" "}
                {job.dry_run && <span className="dash-badge">{t("imports.dryRunBadge")}</span>}
              </td>
              <td>{PROVIDER_NAMES[job.provider as ImportProvider] ?? job.provider}</td>
              <td>{t(`imports.status.${job.status}` as DashboardKey)}</td>
              <td>{format(job.created)}</td>
              <td>{format(job.existing)}</td>
              <td>{format(job.skipped)}</td>
              <td>
                <Button onClick={() => onShow(job.id)}>{t("imports.show")}</Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

function useNumber() {
  const locale = useLocale();
  return useMemo(() => {
    const numbers = new Intl.NumberFormat(locale);
    return (value: number) => numbers.format(value);
  }, [locale]);
}

/** Seconds as `1:05` or `1:02:05`: the same in every language. */
function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const two = (n: number) => String(n).padStart(2, "0");
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  return hours > 0 ? `${hours}:${two(minutes)}:${two(s % 60)}` : `${minutes}:${two(s % 60)}`;
}
