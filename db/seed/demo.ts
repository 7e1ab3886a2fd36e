import type { MissionDefinition } from "../../lib/mission/definition";
import { missionDefinitionSchema } from "../../lib/mission/definition";
import path from "node:path";
import { fileURLToPath } from "node:url";


const node = (code: string) => ({ command: "node", args: ["-e", code] });

/** The simulated robot arm of the drawer demo (a real process: db/seed/robot/drawer-robot.mjs). */
export const DRAWER_ROBOT = path.join(path.dirname(fileURLToPath(import.meta.url)), "robot", "drawer-robot.mjs");

/** The demo missions an empty database gets: one per outcome the console should show at first sight. */
export function demoMissions(searchPort: number): MissionDefinition[] {
  return [
    {
      name: "Nightly release notes",
      objective: "Collect the changes of the day and publish release notes in the workspace.",
      allowedBinaries: ["node"],
      objectiveChecks: [{ tool: "file", args: { op: "read", path: "release-notes.md" }, evidence: [{ output_matches: "^# Release notes" }] }],
      phases: [
        { name: "CONTEXT_ENRICHMENT", agents: [{ name: "collector", priority: "critical", steps: [{ name: "list changes", tool: "shell", args: node("console.log(JSON.stringify({changes:['fix login','faster search']}))"), evidence: [{ exit_code: 0 }, { json_path: "$.changes[0]", equals: "fix login" }] }] }] },
        { name: "EXECUTION", agents: [{ name: "writer", priority: "critical", steps: [{ name: "write notes", tool: "file", args: { op: "write", path: "release-notes.md", content: "# Release notes\n\n- fix login\n- faster search\n" }, evidence: [{ file_exists: "release-notes.md" }] }] }] },
        { name: "REVIEW", agents: [{ name: "proofreader", priority: "important", steps: [{ name: "check notes", tool: "shell", args: node("const fs=require('fs');const t=fs.readFileSync('release-notes.md','utf8');console.log(t.includes('fix login')?'approved':'missing')"), evidence: [{ exit_code: 0 }, { output_matches: "approved" }] }] }] },
      ],
    },
    {
      name: "Deploy with an unapproved binary",
      objective: "Upload the build artifact to the staging server.",
      allowedBinaries: ["node"],
      objectiveChecks: [],
      phases: [
        { name: "PLANNING", agents: [{ name: "planner", priority: "critical", steps: [{ name: "plan upload", tool: "shell", args: node("console.log('plan: upload dist.tgz')"), evidence: [{ output_matches: "plan:" }] }] }] },
        { name: "EXECUTION", agents: [{ name: "uploader", priority: "critical", steps: [{ name: "upload artifact", tool: "shell", args: { command: "scp", args: ["dist.tgz", "staging:/srv/app/"] }, evidence: [{ exit_code: 0 }] }] }] },
      ],
    },
    {
      name: "Docs site with optional lint",
      objective: "Build the documentation site; linting is nice to have.",
      allowedBinaries: ["node"],
      objectiveChecks: [{ tool: "file", args: { op: "read", path: "site/index.html" }, evidence: [{ output_matches: "<h1>Docs</h1>" }] }],
      phases: [
        { name: "EXECUTION", agents: [
          { name: "site-builder", priority: "critical", steps: [{ name: "render site", tool: "file", args: { op: "write", path: "site/index.html", content: "<h1>Docs</h1>\n" } }] },
          { name: "link-checker", priority: "optional", steps: [{ name: "check links", tool: "shell", args: node("console.error('site/index.html: 3 broken links (/api, /faq, /guide)'); process.exit(2)") }] },
        ] },
      ],
    },
    {
      name: "Market research with a dead search service",
      objective: "Summarise what competitors shipped this month.",
      allowedBinaries: ["node"],
      objectiveChecks: [],
      phases: [
        { name: "RESEARCH", agents: [
          { name: "search", priority: "optional", steps: [{ name: "search query", tool: "http", args: { url: `http://127.0.0.1:${searchPort}/search?q=competitors`, method: "GET" }, evidence: [{ http_status: 200 }] }] },
          { name: "archive-reader", priority: "critical", steps: [{ name: "read archive", tool: "shell", args: node("console.log('3 archived reports read')"), evidence: [{ output_matches: "reports read" }] }] },
        ] },
        { name: "REVIEW", agents: [{ name: "summariser", priority: "critical", steps: [{ name: "summarise", tool: "file", args: { op: "write", path: "summary.md", content: "Summary from archived reports only (search failed).\n" } }] }] },
      ],
    },
    {
      // ADR-0003 at first sight: the step times out, its diagnosis plans "double the time limit and re-run",
      // the auto policy applies it, and the Patterns and Diagnostics pages have something to show.
      name: "Index rebuild that recovers by itself",
      objective: "Rebuild the search index; a slow first run is expected.",
      allowedBinaries: ["node"],
      recovery: "auto",
      objectiveChecks: [],
      phases: [
        { name: "EXECUTION", agents: [{ name: "indexer", priority: "critical", steps: [{ name: "rebuild index", tool: "shell", args: node("setTimeout(() => console.log('index rebuilt: 1200 documents'), 1500)"), timeoutMs: 1000, evidence: [{ output_matches: "index rebuilt" }] }] }] },
      ],
    },
    {
      // The failure-mode library (000) in an embodied mission: the robot's pull meets a rigid stop and reports it in
      // the library's query terms; the library ranks the latch / jam hypotheses, and the operator is asked to perform
      // the first one's probe (physical entries have no machine-executable probe).
      name: "Robot opens a kitchen drawer",
      objective: "Open the kitchen drawer to fetch a spoon.",
      allowedBinaries: ["node"],
      objectiveChecks: [],
      phases: [
        { name: "EXECUTION", agents: [{ name: "arm", priority: "critical", steps: [{ name: "pull drawer", tool: "shell", args: { command: "node", args: [DRAWER_ROBOT, "pull", "--force", "30"] }, evidence: [{ exit_code: 0 }, { json_path: "$.status", equals: "open" }] }] }] },
      ],
    },
  ].map((d) => missionDefinitionSchema.parse(d));
}

/**
 * The demo's autonomous missions (seed 002): their model is the recorded provider (server/model-replay.ts,
 * db/seed/recordings/agents.json), which `npm start` runs in demo mode. One succeeds after the authority
 * rejects a dangerous proposal; one waits at a HITL prompt for the operator.
 */
export function demoAutonomousMissions(): MissionDefinition[] {
  return [
    {
      name: "Build summary by an autonomous agent",
      objective: "An autonomous agent writes the build summary; every action it chooses is a proposal the authority decides.",
      allowedBinaries: ["ls", "rm"],
      phases: [
        {
          name: "EXECUTION",
          agents: [{ name: "summarizer", priority: "critical", autonomous: { goal: "Write a short summary of the build into build-summary.txt in the workspace, then finish.", tools: ["file", "shell"], maxActions: 6, evidence: [{ file_exists: "build-summary.txt" }], provider: "recorded" } }],
        },
      ],
    },
    {
      name: "Key rotation waiting for an operator",
      objective: "An autonomous agent stores the rotated key reference; writing under secrets/ needs a person's decision.",
      rules: [{ id: "secrets-need-a-person", effect: "hold", tool: "file", path: "secrets/**", reason: "Anything written under secrets/ needs an operator's decision." }],
      phases: [
        {
          name: "EXECUTION",
          agents: [{ name: "rotator", priority: "critical", autonomous: { goal: "Store the rotated API key reference in secrets/api-key.ref in the workspace, then finish.", tools: ["file"], maxActions: 4, evidence: [{ file_exists: "secrets/api-key.ref" }], provider: "recorded" } }],
        },
      ],
    },
  ].map((d) => missionDefinitionSchema.parse(d));
}
