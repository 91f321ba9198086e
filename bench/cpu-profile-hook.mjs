// Loaded by bench/profile.ts into the server through NODE_OPTIONS="--import …" (which refuses --cpu-prof itself):
// starts V8's sampling profiler at once and writes the profile to GATEHOUSE_CPU_PROFILE_DIR when the process exits.
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import { join } from "node:path";

const dir = process.env.GATEHOUSE_CPU_PROFILE_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post("Profiler.enable");
  session.post("Profiler.start");
  // An in-process session answers synchronously, so the profile is written before the process is gone.
  process.on("exit", () =>
    session.post("Profiler.stop", (error, result) => {
      if (!error)
        writeFileSync(join(dir, `server-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    }),
  );
}
