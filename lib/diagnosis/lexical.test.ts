import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildLexicalModel, serialise } from "../../scripts/diagnosis-lexical";
import { classify } from "./classify";
import { features, lexicalVerdict, tokens, train } from "./lexical";
import { LEXICAL_MODEL_FILE } from "./lexical-model";
import { inputContextSchema, type ErrorType } from "./types";

const failure = (text: string, tool = "shell") => inputContextSchema.parse({ failure: { tool, args: {}, error: { message: text.split("\n")[0], stderr: text } } });

describe("the lexical second opinion", () => {
  it("keeps the words of the trade and drops names, hashes and long numbers", () => {
    expect(tokens("ERR_PNPM_FETCH_404 registry.npmjs.org 8f3a9c2e1b77 port 54321 exit 127")).toEqual(
      expect.arrayContaining(["err", "pnpm", "fetch", "404", "registry.npmjs.org", "registry", "npmjs", "port", "exit", "127"]),
    );
    expect(tokens("8f3a9c2e1b77 54321 v1.2.3")).toEqual([]);
    expect(features(failure("quota exceeded for project"))).toEqual(expect.arrayContaining(["quota", "quota exceeded", "exceeded for"]));
  });

  it("answers from words it has seen with a type, and abstains on words it has not", () => {
    const examples: Array<[ErrorType, string]> = [
      ["rate_limited", "billing quota spent for the project, retry tomorrow"],
      ["rate_limited", "project quota spent, requests paused until the window resets"],
      ["network_error", "upstream host unreachable, route lost to the gateway"],
      ["network_error", "gateway route lost, upstream host unreachable from the runner"],
    ];
    const model = { ...train(examples.map(([label, text]) => ({ label, input: failure(text) }))), bands: [[0.1, 0.8, 4]] as Array<[number, number, number]> };
    expect(lexicalVerdict(model, failure("quota spent for this project"))?.type).toBe("rate_limited");
    const network = lexicalVerdict(model, failure("upstream route lost, host unreachable"))!;
    expect(network.type).toBe("network_error");
    expect(network.words.length).toBeGreaterThan(0);
    for (const w of network.words) expect(["upstream", "upstream host", "route", "route lost", "lost", "host", "host unreachable", "unreachable"]).toContain(w);
    expect(lexicalVerdict(model, failure("the cheese has been eaten by the mice"))).toBeNull();
  });

  it("speaks only where no rule does, and says it is the one speaking", () => {
    const ruled = classify(failure("bash: jq: command not found"));
    expect(ruled.evidence.some((e) => e.source === "lexical")).toBe(false);
    const silent = failure("upload aborted: the archive you sent is bigger than what the bucket accepts for a single object");
    const rulesOnly = classify(silent, { lexical: false });
    const withModel = classify(silent);
    if (rulesOnly.type === "unknown" && withModel.type !== "unknown") {
      expect(withModel.evidence[0].source).toBe("lexical");
      expect(withModel.evidence[0].detail).toMatch(/^words labelled failures of this type share: /);
    } else expect(withModel.type).toBe(rulesOnly.type);
  });

  it("the committed model is what the corpora train (run npm run diagnosis:train after changing them)", () => {
    const committed = readFileSync(path.join(import.meta.dirname, "../..", LEXICAL_MODEL_FILE), "utf8");
    expect(serialise(buildLexicalModel().model) === committed).toBe(true);
  });
});
