// A stand-in for the launcher under `npm start`: it runs until npm (its parent) is gone.
import { onNpmGone } from "./launcher-watch";

const keepAlive = setInterval(() => {}, 1000);
onNpmGone(() => {
  clearInterval(keepAlive);
  process.exit(0);
}, 200);
// Says when it has outlived its parent by two of the watch's periods: the watch, set first, has then looked at
// least once since the parent went (timers of one period run in the order they were set).
const parent = process.ppid;
let seen = 0;
setInterval(() => {
  if (process.ppid !== parent && ++seen === 2) console.log(JSON.stringify({ outlived: process.pid }));
}, 200).unref();
console.log(JSON.stringify({ ready: process.pid }));
