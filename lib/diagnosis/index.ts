/** Diagnostic reflection (ADR-0003): pure, deterministic diagnosis of tool failures. */
export * from "./types";
export { classify, TYPE_DEFAULTS, type Classification, type ClassifyOptions, type Evidence, type EvidenceSource, type Facts } from "./classify";
export { diagnose, DEFAULT_WHY_DEPTH, type DiagnoseOptions } from "./diagnose";
export { RECOVERY_TEMPLATES, type RecoveryTemplate, type StrategyTemplate, type TemplateContext } from "./templates";
export { loadDiagnosisConfig, diagnosisConfigSchema, DiagnosisConfigError, type DiagnosisConfig } from "./config";
export { diagnosticReflectionEvent, diagnosticReflectionEventSchema, resultPreview, type DiagnosticReflectionEvent, type ReflectionEventMeta } from "./context-log";
export { inputContextFromToolError, clipOutput, MAX_CAPTURED_CHARS, type FailedToolCall } from "./from-tool-error";
