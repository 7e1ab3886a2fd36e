// A stand-in for the web or worker process: it serves until the launcher is gone.
import { onLauncherGone } from "./launcher-watch";

const keepAlive = setInterval(() => {}, 1000);
onLauncherGone(() => {
  clearInterval(keepAlive);
  process.exit(0);
});
process.send?.("ready");
