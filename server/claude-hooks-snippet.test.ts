import { execFileSync, spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { claudeHookCommand, claudeSettingsSnippet } from "./claude-hooks-snippet";

describe("faultline hooks install claude", () => {
  it("is a settings snippet with PreToolUse and PostToolUse on every tool, calling the hook endpoints with the bearer token", () => {
    const s = claudeSettingsSnippet();
    expect(s.hooks.PreToolUse[0]).toMatchObject({ matcher: "*", hooks: [{ type: "command" }] });
    expect(s.hooks.PostToolUse[0].hooks[0].command).toMatch(/\/api\/v1\/hooks\/claude\/post-tool-use/);
    const pre = s.hooks.PreToolUse[0].hooks[0].command;
    expect(pre).toContain('Authorization: Bearer $FAULTLINE_TOKEN');
    expect(pre).toContain("${FAULTLINE_URL:-http://localhost:3000}/api/v1/hooks/claude/pre-tool-use");
  });

  it("blocks (exit 2, the reason on stderr) when Faultline cannot be reached: never fails open", () => {
    const r = spawnSync("sh", ["-c", claudeHookCommand("pre-tool-use")], { input: "{}", env: { ...process.env, FAULTLINE_URL: "http://127.0.0.1:9", FAULTLINE_TOKEN: "x" }, encoding: "utf8", timeout: 30_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/blocked, never run unchecked/);
  });

  it("is printed by the CLI", () => {
    const out = execFileSync(process.execPath, [path.resolve("bin/faultline.mjs"), "hooks", "install", "claude"], { encoding: "utf8", timeout: 60_000 });
    const json = JSON.parse(out.slice(out.indexOf("{")));
    expect(json).toEqual(claudeSettingsSnippet());
  });
});
