#!/usr/bin/env node
// A tiny simulated robot arm for the "Robot opens a kitchen drawer" demo mission.
//
//   node drawer-robot.mjs pull --force 30
//
// It pulls the kitchen drawer of its simulated world, kept in ./drawer-world.json (the mission's
// workspace). The drawer has an internal child-safety latch: the first pull meets a rigid stop and
// reports the failure in the failure-mode library's query terms (observed_symptom, object_class,
// force_applied, environmental_context) as JSON, exit code 1. The world models the operator who
// confirmed the latch hypothesis and pressed the latch lever: once a pull has been refused, the latch
// is released, so the pull that verifies the resolution opens the drawer (exit 0).
import fs from "node:fs";

const args = process.argv.slice(2);
const action = args[0];
const force = Number(args[args.indexOf("--force") + 1] ?? 30);
if (action !== "pull" || !Number.isFinite(force) || force <= 0 || force > 80) {
  console.error("usage: drawer-robot.mjs pull --force N (newtons, 1-80; Class B limit 80 N)");
  process.exit(2);
}
const file = "drawer-world.json";
const world = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : { latched: true, pulls: 0 };
world.pulls += 1;
if (world.latched) {
  world.latched = false; // the operator releases the latch after this refusal (see above)
  fs.writeFileSync(file, JSON.stringify(world));
  console.log(
    JSON.stringify({
      observed_symptom: `drawer did not move: 0 mm displacement at ${force} N pull, rigid stop, no visible obstruction`,
      object_class: "drawer",
      force_applied: `${force} N pull, within Class B parameters`,
      environmental_context: ["indoor", "kitchen", "furniture", "wood-frame"],
      displacement_mm: 0,
    }),
  );
  process.exit(1);
}
fs.writeFileSync(file, JSON.stringify(world));
console.log(JSON.stringify({ status: "open", displacement_mm: 320, force_n: force, pulls: world.pulls }));
