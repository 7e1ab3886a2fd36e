/**
 * `faultline hooks install claude`: the .claude/settings.json snippet that sends every tool call of
 * Claude Code to Faultline. Claude Code blocks a PreToolUse call only on exit code 2 or a deny JSON on
 * exit 0; any other failure of a hook lets the call run. So the command exits 2 (stderr is the reason
 * Claude sees) whenever curl fails: Faultline unreachable, a timeout, a non-2xx answer. Never fails open.
 */
export function claudeHookCommand(event: "pre-tool-use" | "post-tool-use"): string {
  const curl = `curl -sS --fail-with-body --max-time 20 -X POST -H "Authorization: Bearer $FAULTLINE_TOKEN" -H "Content-Type: application/json" --data-binary @- "\${FAULTLINE_URL:-http://localhost:3000}/api/v1/hooks/claude/${event}"`;
  if (event === "pre-tool-use") return `${curl} || { echo "Faultline could not check this call (unreachable, timed out or refused): it is blocked, never run unchecked." >&2; exit 2; }`;
  return `${curl} || echo '{"systemMessage":"Faultline could not record this result (unreachable or refused)."}'`;
}

export function claudeSettingsSnippet(): { hooks: Record<"PreToolUse" | "PostToolUse", Array<{ matcher: string; hooks: Array<{ type: "command"; command: string; timeout: number }> }>> } {
  return {
    hooks: {
      PreToolUse: [{ matcher: "*", hooks: [{ type: "command", command: claudeHookCommand("pre-tool-use"), timeout: 30 }] }],
      PostToolUse: [{ matcher: "*", hooks: [{ type: "command", command: claudeHookCommand("post-tool-use"), timeout: 30 }] }],
    },
  };
}

export const CLAUDE_INSTALL_NOTE = `Add this to .claude/settings.json (merge "hooks" with any you have). Set FAULTLINE_URL (e.g. https://faultline.example.com) and FAULTLINE_TOKEN (an API token with mission.create: Account → API tokens) in Claude Code's environment. Each session becomes a run named "Claude Code session <id>"; decide held calls in the console.`;
