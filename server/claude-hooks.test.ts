import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { missions } from "../db/schema";
import type { Principal } from "../lib/auth/roles";
import { useWorkerDatabase } from "./fixtures/runs-server";
import { jsonRequest, params, signedInAs, url } from "./route-test-helpers";

/** Claude Code's PreToolUse / PostToolUse hooks (issue 15) on a real PostgreSQL: allow only what is approved, deny on any doubt. */

const pre = await import("../app/api/v1/hooks/claude/pre-tool-use/route");
const post = await import("../app/api/v1/hooks/claude/post-tool-use/route");
const missionEvents = await import("../app/api/v1/missions/[id]/events/route");

const operator: Principal = { id: "0b5a1d8e-0000-4000-8000-0000000000c1", name: "Olivia Operator", email: "olivia@x", roles: ["operator"] };

const env = useWorkerDatabase({ people: [operator], workspacesDir: "/tmp/fl-claude-hooks" });

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const SESSION = "5e551on0-aaaa-bbbb-cccc-123456789abc";
const input = (tool_name: string, tool_input: Json, tool_use_id: string, extra: Json = {}) => ({ session_id: SESSION, transcript_path: "/tmp/t.jsonl", cwd: "/home/dev/project", hook_event_name: "PreToolUse", tool_name, tool_input, tool_use_id, ...extra });
async function preHook(b: unknown): Promise<{ status: number; body: Json; error: string | null }> {
  const res = await pre.POST(jsonRequest("POST", "/api/v1/hooks/claude/pre-tool-use", b));
  return { status: res.status, body: (await res.json()) as Json, error: res.headers.get("faultline-error") };
}
async function postHook(b: unknown): Promise<{ status: number; body: Json }> {
  const res = await post.POST(jsonRequest("POST", "/api/v1/hooks/claude/post-tool-use", b));
  return { status: res.status, body: (await res.json()) as Json };
}
const decision = (b: Json) => b.hookSpecificOutput as { hookEventName: string; permissionDecision: string; permissionDecisionReason: string };
const events = async (id: string) => (await ((await missionEvents.GET(new Request(url(`/api/v1/missions/${id}/events`)), params({ id }))).json() as Promise<Json>)).events as Array<{ type: string; payload: Json }>;
async function runIds(): Promise<string[]> {
  const rows = await env.tdb.db.select({ id: missions.id }).from(missions).where(eq(missions.name, `Claude Code session ${SESSION.slice(0, 8)}`));
  return rows.map((r) => r.id);
}

describe("Claude Code hooks: the authority decides each call of a session; any doubt is a deny", () => {
  it("allows ls, denies rm -rf / with its reason, reuses the session's run, allows a Write under cwd, records a failed Bash", async () => {
    signedInAs(operator);
    const ls = await preHook(input("Bash", { command: "ls -la" }, "toolu_1"));
    expect(ls.status).toBe(200);
    expect(decision(ls.body)).toMatchObject({ hookEventName: "PreToolUse", permissionDecision: "allow" });
    expect(decision(ls.body).permissionDecisionReason).toMatch(/approved by/);

    const rm = await preHook(input("Bash", { command: "rm -rf /" }, "toolu_2"));
    expect(decision(rm.body).permissionDecision).toBe("deny");
    expect(decision(rm.body).permissionDecisionReason).toMatch(/rejected by default-policy:no-recursive-delete-outside-workspace/);
    expect(decision(rm.body).permissionDecisionReason).toMatch(/What would change it/);

    const write = await preHook(input("Write", { file_path: "/home/dev/project/notes.md", content: "hi" }, "toolu_3"));
    expect(decision(write.body).permissionDecision).toBe("allow");
    expect(await runIds()).toHaveLength(1);

    expect((await postHook({ ...input("Bash", { command: "ls -la" }, "toolu_1"), hook_event_name: "PostToolUse", tool_response: { stdout: "a\nb\n", stderr: "", interrupted: false } })).body).toEqual({});
    const never = await postHook({ ...input("Bash", { command: "rm -rf /" }, "toolu_2"), tool_response: { stdout: "" } });
    expect(never.status).toBe(200);
    expect(never.body.systemMessage).toMatch(/not recorded.*rejected, not approved/);

    const failing = await preHook(input("Bash", { command: "cat missing.txt" }, "toolu_4"));
    expect(decision(failing.body).permissionDecision).toBe("allow");
    const failed = await postHook({ ...input("Bash", { command: "cat missing.txt" }, "toolu_4"), tool_response: { stdout: "", stderr: "cat: missing.txt: No such file or directory", exit_code: 1, interrupted: false } });
    expect(failed.body.systemMessage).toMatch(/recorded Bash as failed/);
    const [runId] = await runIds();
    const toolFailed = (await events(runId)).find((e) => e.type === "tool.failed");
    expect(toolFailed?.payload.error).toMatchObject({ exitCode: 1 });
  });

  it("denies a malformed body, a signed-out caller and a caller without the permission: never allows", async () => {
    signedInAs(operator);
    const malformed = await preHook("{not json");
    expect(malformed.status).toBe(200);
    expect(decision(malformed.body).permissionDecision).toBe("deny");
    const missing = await preHook({ session_id: SESSION, tool_name: "Bash" });
    expect(decision(missing.body).permissionDecision).toBe("deny");
    expect(decision(missing.body).permissionDecisionReason).toMatch(/tool_use_id/);
    signedInAs(null);
    const out = await preHook(input("Bash", { command: "ls" }, "toolu_9"));
    expect(out.status).toBe(200);
    expect(out.error).toBe("unauthorized");
    expect(decision(out.body).permissionDecision).toBe("deny");
    signedInAs({ ...operator, id: "0b5a1d8e-0000-4000-8000-0000000000c2", roles: ["auditor"] });
    const auditor = await preHook(input("Bash", { command: "ls" }, "toolu_10"));
    expect(auditor.error).toBe("forbidden");
    expect(decision(auditor.body).permissionDecision).toBe("deny");
  });
});
