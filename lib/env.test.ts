import { describe, expect, it } from "vitest";
import { EnvError, parseEnv as parse } from "./env";

const parseEnv = (vars: Record<string, string>) => parse({ NODE_ENV: "test", ...vars } as NodeJS.ProcessEnv);

describe("FAULTLINE_RECOVERY_BINARIES", () => {
  it("defaults to sleep; a comma list is trimmed like FAULTLINE_ALLOWED_BINARIES", () => {
    expect(parseEnv({}).FAULTLINE_RECOVERY_BINARIES).toEqual(["sleep"]);
    expect(parseEnv({ FAULTLINE_RECOVERY_BINARIES: "" }).FAULTLINE_RECOVERY_BINARIES).toEqual(["sleep"]);
    expect(parseEnv({ FAULTLINE_RECOVERY_BINARIES: " sleep, pip ,,npm" }).FAULTLINE_RECOVERY_BINARIES).toEqual(["sleep", "pip", "npm"]);
  });

  it("refuses paths, naming the variable", () => {
    expect(() => parseEnv({ FAULTLINE_RECOVERY_BINARIES: "sleep,/usr/bin/curl" })).toThrow(EnvError);
    expect(() => parseEnv({ FAULTLINE_RECOVERY_BINARIES: "sleep,/usr/bin/curl" })).toThrow(/FAULTLINE_RECOVERY_BINARIES: must be comma-separated binary names, not paths \(got "sleep,\/usr\/bin\/curl"\)/);
  });
});
