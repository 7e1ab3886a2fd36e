import { describe, expect, it } from "vitest";
import { DiagnosisConfigError, loadDiagnosisConfig } from "./config";

describe("diagnosis config", () => {
  it("has the document's defaults", () => {
    expect(loadDiagnosisConfig({})).toEqual({
      AUTONOMOUS_DIAGNOSTIC_REFLECTION_ENABLED: true,
      AUTONOMOUS_DIAGNOSTIC_WHY_DEPTH: 5,
      AUTONOMOUS_DIAGNOSTIC_TEMP: 0.2,
      AUTONOMOUS_DIAGNOSTIC_MAX_TOKENS: 1024,
      AUTONOMOUS_MAX_RECOVERY_ATTEMPTS: 2,
      AUTONOMOUS_FAST_RECOVERY_ENABLED: true,
      AUTONOMOUS_STORE_FULL_DIAGNOSTICS: true,
    });
  });

  it("reads values and names a bad one", () => {
    const c = loadDiagnosisConfig({ AUTONOMOUS_DIAGNOSTIC_WHY_DEPTH: "3", AUTONOMOUS_FAST_RECOVERY_ENABLED: "0", AUTONOMOUS_DIAGNOSTIC_TEMP: "" });
    expect(c.AUTONOMOUS_DIAGNOSTIC_WHY_DEPTH).toBe(3);
    expect(c.AUTONOMOUS_FAST_RECOVERY_ENABLED).toBe(false);
    expect(c.AUTONOMOUS_DIAGNOSTIC_TEMP).toBe(0.2);
    expect(() => loadDiagnosisConfig({ AUTONOMOUS_DIAGNOSTIC_WHY_DEPTH: "many" })).toThrow(DiagnosisConfigError);
    expect(() => loadDiagnosisConfig({ AUTONOMOUS_DIAGNOSTIC_WHY_DEPTH: "many" })).toThrow(/AUTONOMOUS_DIAGNOSTIC_WHY_DEPTH: must be a number \(got "many"\)/);
  });
});
