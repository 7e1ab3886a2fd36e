/**
 * The web and worker processes run under the launcher (`npm start`) with an IPC channel. When the
 * launcher is gone — stopped, crashed, or killed with SIGKILL so it could not stop its children — the
 * channel disconnects and the process shuts down instead of serving on against a database that went
 * with the launcher. Started any other way (no channel), this does nothing.
 */
export function onLauncherGone(stop: (why: string) => void): void {
  if (!process.send || !process.channel) return;
  process.once("disconnect", () => stop("the launcher is gone"));
  // The channel must not keep the process alive by itself.
  process.channel.unref();
}

/** The parent when this module was loaded, early in the launcher's start (npm may be gone by the time it watches). */
const PARENT_AT_LOAD = process.ppid;

/**
 * `npm start` runs the launcher under npm. Ctrl-C reaches both (the terminal signals the whole process group),
 * but a SIGTERM or SIGKILL sent to npm's pid alone — a process manager, `timeout`, `kill <pid>` — ends npm and
 * leaves the launcher running, orphaned, with web, worker and the embedded PostgreSQL (measured: npm 11 exits
 * 143 and passes nothing on). So when npm started it, the launcher stops once its parent is gone. Started any
 * other way (`faultline start` from a shell, under nohup), this does nothing: outliving the shell may be meant.
 */
export function onNpmGone(stop: (why: string) => void, everyMs = 500): void {
  if (!process.env.npm_lifecycle_event) return;
  const parent = PARENT_AT_LOAD;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    stop("npm, which started it, exited");
  }, everyMs);
  timer.unref();
}
