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
