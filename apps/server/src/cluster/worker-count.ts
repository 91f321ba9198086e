// How many server processes GATEHOUSE_WORKERS asks for, and what the database allows: PostgreSQL takes any number;
// the embedded PGlite database lives inside one process, so there it is one, with a warning that says why.

export type WorkersSetting = number | "auto";

export type WorkerCount = { count: number; warning?: string };

/** `cores`: os.availableParallelism(), what `auto` means. */
export function workerCount(setting: WorkersSetting, postgres: boolean, cores: number): WorkerCount {
  const wanted = setting === "auto" ? Math.max(1, cores) : setting;
  if (wanted <= 1 || postgres) return { count: wanted };
  // Warn and run one rather than refuse: `auto` is a sensible default for an image, and a development start on PGlite
  // with it set must still work. Several processes on one PGlite data directory would corrupt it (data-dir.ts).
  return {
    count: 1,
    warning: `GATEHOUSE_WORKERS=${setting} asks for ${wanted} processes, but the embedded database (PGlite) runs in one process: starting one. Set DATABASE_URL (PostgreSQL) to use several.`,
  };
}
