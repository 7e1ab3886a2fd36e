/**
 * ADR-0003 "Success Metrics" from counts of the event log (db/queries/diagnostics.ts counts them):
 * what was diagnosed, recovered, chosen by the fast path, stopped as a stuck loop, or left to a person.
 */
export interface DiagnosticsCounts {
  diagnosed: number;
  recoveriesStarted: number;
  fastPath: number;
  recovered: number;
  recoveryFailed: number;
  /** Sum of tool calls of successful recoveries (for the average). */
  iterationsToSuccess: number;
  loops: number;
  /** Agent gates opened after a diagnosed failure: a person had to decide. */
  gates: number;
  proposalsAccepted: number;
  proposalsRejected: number;
}

/** The ADR's metrics as ratios (null when there is nothing to measure yet). */
export function successMetrics(c: DiagnosticsCounts) {
  const ratio = (a: number, b: number) => (b > 0 ? a / b : null);
  return {
    recoverySuccessRate: ratio(c.recovered, c.recovered + c.recoveryFailed),
    stuckLoopRate: ratio(c.loops, c.diagnosed),
    avgIterationsToSuccess: ratio(c.iterationsToSuccess, c.recovered),
    patternReuse: ratio(c.fastPath, c.recoveriesStarted),
    userInterventionRequired: ratio(c.gates, c.diagnosed),
    llmAgreement: ratio(c.proposalsAccepted, c.proposalsAccepted + c.proposalsRejected),
  };
}
