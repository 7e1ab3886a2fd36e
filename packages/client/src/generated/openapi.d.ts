/**
 * Generated from Faultline's OpenAPI document by `npm run client:types` (packages/client/generate.ts).
 * Do not edit: a test fails when it no longer matches the document.
 */

export interface paths {
    "/api/v1/missions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List missions
         * @description Needs the permission `mission.view` (roles: admin, operator, reviewer, contributor, auditor).
         */
        get: operations["listMissions"];
        put?: never;
        /**
         * Start a mission
         * @description The body is the mission definition as JSON, or `{ text }` carrying YAML or JSON text. 422 lists every invalid field.
         *
         *     Needs the permission `mission.create` (roles: admin, operator).
         */
        post: operations["createMission"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/missions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A mission: state, final status and its explanation, open gates, events
         * @description The whole state and every event by default; `window=N` returns only the newest N events (or the N around `around`) with `eventsWindow: { hasOlder, hasNewer }` — page the rest with GET mission events — and the mission page's view of the state: each agent's succeeded steps before its newest 50 left out, counted in `agents[name].elided`.
         *
         *     Needs the permission `mission.view` (roles: admin, operator, reviewer, contributor, auditor).
         */
        get: operations["getMission"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/missions/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A page of the mission's event log, ascending: after a seq, before a seq or around one (keyset by seq), optionally of one type or agent
         * @description `after` (default 0) pages forward, `before` pages back (the newest page: `before` = lastSeq + 1), `around` opens at a seq (itself included, half the page before it). `type` and `agent` filter on the server; `hasOlder`/`hasNewer` say whether more matching events lie before/after the page.
         *
         *     Needs the permission `mission.view` (roles: admin, operator, reviewer, contributor, auditor).
         */
        get: operations["missionEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/missions/{id}/trace": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The mission's trace (FDR-N004): JSON Lines, a header, every event with the worker's readings, sha-256 chained, secrets redacted (docs/traces.md)
         * @description Needs the permission `trace.export` (roles: admin, operator, auditor).
         */
        get: operations["missionTrace"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/missions/{id}/projection": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What a projection mode adds to the mission page (seed 002 FDR-N012): the model turns as the mode shows them and, in debug, the state at a seq with the model requests and responses of its write
         * @description `mode` is silent, watch, interactive or debug (docs/lab.md "Projections"). `modelCalls`: one line per model turn or reflection recorded by the worker (none in silent; a summary in watch; provider, model, latency and args in interactive; the response as recorded in debug). With `mode=debug` and `seq`, `debug` is the state after that event reduced from the log, what it changed, and the readings of the write holding it: each model turn's request (derived from the state the turn started from) and recorded response. Debug shows what a trace holds, so it needs trace.export as well; secrets are redacted as in a trace.
         *
         *     Needs the permission `mission.view` (roles: admin, operator, reviewer, contributor, auditor).
         */
        get: operations["missionProjection"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/missions/{id}/proposals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every proposal of a mission with its decision record
         * @description Needs the permission `mission.view` (roles: admin, operator, reviewer, contributor, auditor).
         */
        get: operations["missionProposals"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/missions/{id}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pause at the next step boundary
         * @description Needs the permission `mission.control` (roles: admin, operator).
         */
        post: operations["pauseMission"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/missions/{id}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resume a paused mission
         * @description Needs the permission `mission.control` (roles: admin, operator).
         */
        post: operations["resumeMission"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/missions/{id}/abort": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Abort: the mission ends FAILED after its compensations
         * @description Needs the permission `mission.control` (roles: admin, operator).
         */
        post: operations["abortMission"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/gates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Open gates, oldest first, with their HITL prompts
         * @description Needs the permission `gate.view` (roles: admin, operator, reviewer, contributor, auditor).
         */
        get: operations["listGates"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/gates/{id}/decision": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Decide an open gate
         * @description Under an N-of-M policy `resolved` stays false until N people chose the same option. 403: the gate's policy refuses you; 409: already resolved, or you already chose; 422: not one of the gate's options.
         *
         *     Needs the permission `gate.decide` (roles: admin, operator).
         */
        post: operations["decideGate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/gates/bulk-decision": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Decide many gates or proposals with one decision and one note
         * @description Up to 200 items, `{ gateId }` or `{ proposalId }`. Each item is decided on its own, in its own transaction, exactly as `POST /api/v1/gates/{id}/decision` (a proposal gate through the authority, as `POST /api/v1/proposals/{id}/decision`): its own event, its own audit row, its own gate-policy check. An item that is refused (not one of its options, already decided, refused by its policy or the authority, not found) is reported in its result and the others still go through, so the answer is 200 whenever the request itself is valid. Rejecting a proposal needs a note.
         *
         *     Needs the permission `gate.decide` (roles: admin, operator).
         */
        post: operations["bulkDecideGates"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/proposals/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A proposal and its decision record; `?wait=30` long-polls while it is pending
         * @description With `wait` (seconds, at most 60) the answer comes as soon as the proposal is decided, or after `wait` seconds with it still pending: an external agent's way to wait for a person.
         *
         *     Needs the permission `mission.view` (roles: admin, operator, reviewer, contributor, auditor).
         */
        get: operations["getProposal"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/proposals/{id}/prompt": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The HITL prompt of a pending proposal
         * @description Needs the permission `mission.view` (roles: admin, operator, reviewer, contributor, auditor).
         */
        get: operations["proposalPrompt"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/proposals/{id}/decision": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve, reject or modify a pending proposal (through the authority)
         * @description 409 when it is decided or expired; 400 names the field (schema of the tool's args, rules: a deny rule wins over a person).
         *
         *     Needs the permission `gate.decide` (roles: admin, operator).
         */
        post: operations["decideProposal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a run: a mission whose actions come from an agent that runs elsewhere
         * @description The run starts at once; its agents (one named `agent` when none is given) may propose calls right away. `allowedBinaries` and `tools` fail closed when given; without them the rules and the default policy decide. `evidence` is checked at finish against the results the agents reported (`file_exists` cannot be: Faultline does not see their files).
         *
         *     Needs the permission `mission.create` (roles: admin, operator).
         */
        post: operations["createRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/runs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A run: state, agents, final status and its explanation; `?wait=30` long-polls until it ends
         * @description Needs the permission `mission.view` (roles: admin, operator, reviewer, contributor, auditor).
         */
        get: operations["getRun"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/runs/{id}/proposals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ask before a tool call: the authority decides it now
         * @description `status` is approved (run exactly these args, then report the result), rejected (do not run it: `decision` says why and what would change it) or pending (wait: `GET /api/v1/proposals/{id}?wait=30`, the run's stream or a webhook; `prompt` is what a person is asked). Idempotent on `callId`: the same call returns the same proposal (200); other args under a used `callId` are a 409.
         *
         *     Needs the permission `mission.create` (roles: admin, operator).
         */
        post: operations["proposeRunCall"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/runs/{id}/results": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Report an approved call's ToolResult
         * @description The strict contract: `ok ⇒ data ≠ null ∧ error = null`, `¬ok ⇒ error ≠ null`; a violation is a 400 naming the rule. A result for a call never proposed or not approved is a 409. A failed result is recorded as `tool.failed`, then diagnosed, looked up in the library and answered by the response matrix like any failure.
         *
         *     Needs the permission `mission.create` (roles: admin, operator).
         */
        post: operations["reportRunResult"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/runs/{id}/finish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Say the work is done: the evidence decides
         * @description The finish is a proposal too: approved only when the evidence holds (every approved call reported, none failed, the run's evidence rules hold for a reported result, or at least one call succeeded when it has none). A run whose only call failed is never SUCCESS. The final status is derived by the worker: `GET /api/v1/runs/{id}?wait=30`.
         *
         *     Needs the permission `mission.create` (roles: admin, operator).
         */
        post: operations["finishRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/runs/{id}/heartbeat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The agent is alive (between long calls); resumes a run its silence paused
         * @description Needs the permission `mission.create` (roles: admin, operator).
         */
        post: operations["heartbeatRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/hooks/claude/pre-tool-use": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Claude Code's PreToolUse hook: the authority decides the call (one run per session_id)
         * @description The body is Claude Code's hook input (session_id, cwd, tool_name, tool_input, tool_use_id). The answer is always HTTP 200 with `hookSpecificOutput.permissionDecision`: allow when approved; deny when rejected (the reason and what would change it), when a person has not decided within ~8 s (the console link), and on a missing token, a malformed body or any error (`Faultline-Error` header names it). It never fails open.
         *
         *     Needs the permission `mission.create` (roles: admin, operator).
         */
        post: operations["claudePreToolUse"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/hooks/claude/post-tool-use": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Claude Code's PostToolUse hook: records the approved call's result
         * @description `tool_response` becomes the ToolResult: `is_error`, `error`, a non-zero `exit_code`/`exitCode` or `interrupted: true` is a failure (recorded as tool.failed, then diagnosed); anything else is ok with the response as data. `{}`, or a `systemMessage` when the call failed or its result could not be recorded (never an error status).
         *
         *     Needs the permission `mission.create` (roles: admin, operator).
         */
        post: operations["claudePostToolUse"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/runs/{id}/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The run's events as server-sent events, from `after` (or Last-Event-ID) until it ends
         * @description Each event: `id` its seq, `event` its type (`proposal.decided`, `gate.opened`, `tool.failed`, `diagnostic_reflection`, `mission.finished`, …), `data` the event as JSON, the same as `GET /api/v1/missions/{id}/events`. Reconnect with Last-Event-ID to resume without gaps.
         *
         *     Needs the permission `mission.view` (roles: admin, operator, reviewer, contributor, auditor).
         */
        get: operations["runStream"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/actors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Actors (people, agents, system) with proposal counts and approval rate
         * @description Needs the permission `mission.view` (roles: admin, operator, reviewer, contributor, auditor).
         */
        get: operations["listActors"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/actors/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One actor: what it proposed and decided, rejections by reason per day
         * @description Needs the permission `mission.view` (roles: admin, operator, reviewer, contributor, auditor).
         */
        get: operations["getActor"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/authority/policy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The default authority policy in force
         * @description Needs the permission `mission.view` (roles: admin, operator, reviewer, contributor, auditor).
         */
        get: operations["getAuthorityPolicy"];
        /**
         * Publish a new version of the default authority policy
         * @description Each rule is checked; a bad rule is refused naming the rule and the field (`rule 2.effect`).
         *
         *     Needs the permission `policy.manage` (roles: admin).
         */
        put: operations["putAuthorityPolicy"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/policies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Gate policies
         * @description Needs the permission `gate.view` (roles: admin, operator, reviewer, contributor, auditor).
         */
        get: operations["listPolicies"];
        put?: never;
        /**
         * Create a gate policy
         * @description Needs the permission `policy.manage` (roles: admin).
         */
        post: operations["createPolicy"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/policies/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One gate policy
         * @description Needs the permission `gate.view` (roles: admin, operator, reviewer, contributor, auditor).
         */
        get: operations["getPolicy"];
        /**
         * Replace a gate policy (open gates keep the policy they opened with)
         * @description Needs the permission `policy.manage` (roles: admin).
         */
        put: operations["putPolicy"];
        post?: never;
        /**
         * Delete a gate policy
         * @description Needs the permission `policy.manage` (roles: admin).
         */
        delete: operations["deletePolicy"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/failures": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One page of the failure history, newest first
         * @description Filters as on the History page; a bad value is a 400 naming the field. `total` is exact up to 10,000, with full text (`q`) up to 1,000 or what a count finds in 80 ms; `capped: true` means at least `count`.
         *
         *     Needs the permission `history.view` (roles: admin, operator, reviewer, contributor, auditor).
         */
        get: operations["listFailures"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/failures/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Counts of the filtered failures by type, day, level, mission, outcome
         * @description A view of more than 10,000 failures (as the planner expects) in a history of more than 500,000 is estimated from a sample of the history's pages (`sample`: percent and rows read; counts scaled up); `sample` is null when every row was read.
         *
         *     Needs the permission `history.view` (roles: admin, operator, reviewer, contributor, auditor).
         */
        get: operations["failureStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/failures/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The filtered failure history as a streamed CSV or JSON Lines download
         * @description Needs the permission `history.view` (roles: admin, operator, reviewer, contributor, auditor).
         */
        get: operations["exportFailures"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The audit log, newest first
         * @description Needs the permission `audit.view` (roles: admin, auditor).
         */
        get: operations["listAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/audit/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The filtered audit log as a streamed download
         * @description Needs the permission `audit.view` (roles: admin, auditor).
         */
        get: operations["exportAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/patterns": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Learned recovery patterns
         * @description Needs the permission `mission.view` (roles: admin, operator, reviewer, contributor, auditor).
         */
        get: operations["listPatterns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/patterns/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a pattern and its record
         * @description Needs the permission `pattern.manage` (roles: admin).
         */
        delete: operations["deletePattern"];
        options?: never;
        head?: never;
        /**
         * Enable or disable a pattern, set its fast-path threshold
         * @description Needs the permission `pattern.manage` (roles: admin).
         */
        patch: operations["patchPattern"];
        trace?: never;
    };
    "/api/v1/memory/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Session memory as JSON Lines, oldest first
         * @description Needs the permission `memory.export` (roles: admin, operator, auditor).
         */
        get: operations["sessionMemory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/memory/episodic": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Episodic memory as JSON Lines, oldest first
         * @description Needs the permission `memory.export` (roles: admin, operator, auditor).
         */
        get: operations["episodicMemory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/lab/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Recorded lab suite runs, newest first, with their progress and key metrics
         * @description Needs the permission `lab.view` (roles: admin, operator, reviewer, auditor).
         */
        get: operations["labRuns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/lab/runs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One suite run: its report (faultline-lab-report) and its runs' traces (names, sizes, sha-256)
         * @description Needs the permission `lab.view` (roles: admin, operator, reviewer, auditor).
         */
        get: operations["labRun"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/lab/runs/{id}/traces/{scenario}/{repeat}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A lab run's trace as `lab run` wrote it (JSON Lines, sha-256 chained; `faultline trace verify`, `faultline lab replay`); audited
         * @description Needs the permission `lab.view` (roles: admin, operator, reviewer, auditor).
         */
        get: operations["labTrace"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/library/entries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Entries of the library, one page at a time
         * @description Needs the permission `library.view` (roles: admin, operator, reviewer, contributor, auditor).
         */
        get: operations["libraryEntries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/library/entries/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One entry with its history and the mission failures it matched
         * @description Needs the permission `library.view` (roles: admin, operator, reviewer, contributor, auditor).
         */
        get: operations["libraryEntry"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/library/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Published library versions
         * @description Needs the permission `library.view` (roles: admin, operator, reviewer, contributor, auditor).
         */
        get: operations["libraryVersions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/library/query": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ranked failure-mode hypotheses for an observed symptom (stateless)
         * @description Needs the permission `library.view` (roles: admin, operator, reviewer, contributor, auditor).
         */
        post: operations["queryLibrary"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/library/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The published library as a file in the document's schema
         * @description Needs the permission `library.manage` (roles: admin).
         */
        get: operations["exportLibrary"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/library/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import a library file as one new version
         * @description The body is the file itself, JSON or YAML. `replace=true`: its entries become the whole published library. `dryRun=true`: the preview only. 400 lists every invalid field with the entry's position, failure_id and line.
         *
         *     Needs the permission `library.manage` (roles: admin).
         */
        post: operations["importLibrary"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/library/rollback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Roll the library back to a version, as a new version
         * @description Needs the permission `library.manage` (roles: admin).
         */
        post: operations["rollbackLibrary"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/library/contributions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Library contributions, most recently changed first (others' drafts are not listed)
         * @description Needs the permission `library.view` (roles: admin, operator, reviewer, contributor, auditor).
         */
        get: operations["listContributions"];
        put?: never;
        /**
         * Propose a new entry or an edit (`target_failure_id`)
         * @description Needs the permission `library.contribute` (roles: admin, operator, reviewer, contributor).
         */
        post: operations["createContribution"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/library/contributions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One contribution with its reviews, comments and diff
         * @description Needs the permission `library.view` (roles: admin, operator, reviewer, contributor, auditor).
         */
        get: operations["getContribution"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * The author changes and (by default) submits it
         * @description Needs the permission `library.contribute` (roles: admin, operator, reviewer, contributor).
         */
        patch: operations["patchContribution"];
        trace?: never;
    };
    "/api/v1/library/contributions/{id}/reviews": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve, reject or request changes
         * @description Needs the permission `library.review` (roles: admin, reviewer).
         */
        post: operations["reviewContribution"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/library/contributions/{id}/comments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Comment on a contribution
         * @description Needs the permission `library.contribute` (roles: admin, operator, reviewer, contributor).
         */
        post: operations["commentContribution"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Users
         * @description Needs the permission `user.manage` (roles: admin).
         */
        get: operations["listUsers"];
        put?: never;
        /**
         * Create a user (with a password, or an invitation link)
         * @description Needs the permission `user.manage` (roles: admin).
         */
        post: operations["createUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One user
         * @description Needs the permission `user.manage` (roles: admin).
         */
        get: operations["getUser"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change a user's roles, groups, name or active state
         * @description Needs the permission `user.manage` (roles: admin).
         */
        patch: operations["patchUser"];
        trace?: never;
    };
    "/api/v1/users/{id}/reset-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reset a user's password (temporary password or a reset link)
         * @description Needs the permission `user.manage` (roles: admin).
         */
        post: operations["resetPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Your API tokens
         * @description Needs the permission `token.manage` (roles: admin, operator, reviewer, contributor, auditor).
         */
        get: operations["listTokens"];
        put?: never;
        /**
         * Create an API token (shown once)
         * @description Needs the permission `token.manage` (roles: admin, operator, reviewer, contributor, auditor).
         */
        post: operations["createToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tokens/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an API token
         * @description Needs the permission `token.manage` (roles: admin, operator, reviewer, contributor, auditor).
         */
        delete: operations["revokeToken"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Webhook subscriptions with their delivery counts (never their secrets)
         * @description Needs the permission `webhook.manage` (roles: admin).
         */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Subscribe a URL to events
         * @description Deliveries are POSTed as JSON with `Faultline-Event`, `Faultline-Delivery` and `Faultline-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the secret>`. A non-2xx answer or no answer within 10 s is retried with exponential backoff (10 s doubling, at most an hour apart) for 24 hours. The secret is in this response only.
         *
         *     Needs the permission `webhook.manage` (roles: admin).
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a subscription and its delivery log
         * @description Needs the permission `webhook.manage` (roles: admin).
         */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        /**
         * Pause or resume a subscription
         * @description Needs the permission `webhook.manage` (roles: admin).
         */
        patch: operations["patchWebhook"];
        trace?: never;
    };
    "/api/v1/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A subscription's deliveries, newest first, with every attempt (status code, error, time)
         * @description Needs the permission `webhook.manage` (roles: admin).
         */
        get: operations["webhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/diagnoses/{id}/feedback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The latest operator verdict on a diagnosis' error type
         * @description Needs the permission `mission.view` (roles: admin, operator, reviewer, contributor, auditor).
         */
        get: operations["diagnosisFeedback"];
        put?: never;
        /**
         * Confirm a diagnosis' error type or correct it
         * @description `{ verdict: "confirmed" }` or `{ verdict: "corrected", type }`. Every verdict is kept and audited; the latest counts in the Diagnostics page's calibration. A correction counts one failure against the learned patterns of the diagnosis' trigger.
         *
         *     Needs the permission `gate.decide` (roles: admin, operator).
         */
        post: operations["giveDiagnosisFeedback"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/deliveries/{id}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a delivery again now (a new attempt in its log)
         * @description Needs the permission `webhook.manage` (roles: admin).
         */
        post: operations["redeliverWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Error: {
            error: {
                /** @enum {string} */
                code: "bad_request" | "unauthorized" | "forbidden" | "not_found" | "conflict" | "unprocessable" | "unavailable" | "internal";
                /** @description What happened, why, and what to do */
                message: string;
                /** @description `fieldErrors: [{ path, message }]` for invalid input */
                details?: {
                    [key: string]: unknown;
                };
            };
        };
        BulkDecisionResults: {
            results: ({
                /** @description The item's gateId or proposalId, as sent */
                id: string;
                /** @constant */
                ok: true;
                /**
                 * @description resolved: decided; approval_recorded: one approval of an N-of-M policy, the gate stays open until N people chose the same
                 * @enum {string}
                 */
                status: "resolved" | "approval_recorded";
                gateId: string;
                missionId: string;
                /** @enum {string} */
                decision: "retry" | "skip" | "abort" | "retry_phase" | "skip_phase" | "resume" | "restart_phase" | "approve" | "recover" | "run_probe" | "skip_hypothesis" | "confirm" | "reject" | "done" | "not_done" | "allow_binary";
                approvals: number;
                required: number;
            } | {
                id: string;
                /** @constant */
                ok: false;
                gateId: string | null;
                missionId: string | null;
                error: {
                    /**
                     * @description 403: the gate's policy or the authority refuses you; 404: no such gate or proposal; 409: already decided; 422: the gate does not offer the decision
                     * @enum {string}
                     */
                    code: "bad_request" | "forbidden" | "not_found" | "conflict" | "unprocessable" | "internal";
                    /** @description The HTTP status the single-item route would have answered */
                    status: number;
                    /** @description Why it was refused, in words, and what to do */
                    message: string;
                };
            })[];
        };
        Proposal: {
            id: string;
            missionId: string;
            actorId: string;
            actorName: string | null;
            agent: string;
            attempt: number;
            action: {
                tool: string;
                args: {
                    [key: string]: unknown;
                };
            };
            argsDigest: string;
            level: number;
            /** @enum {string} */
            status: "approved" | "rejected" | "pending" | "expired";
            decision: components["schemas"]["DecisionRecord"] | null;
            decidedBy: string | null;
            decidedByName: string | null;
            gateId: string | null;
            step: number | null;
            submittedAt: string;
        };
        /** @description FDR-N013: every decision, by a rule, a level check or a person */
        DecisionRecord: {
            /** @enum {string} */
            decision: "approved" | "rejected" | "pending";
            /** @description Who decided: `rule:<id>`, `allowlist`, `default-policy:<id>`, `evidence`, `level`, `hitl`, `authority-error` */
            authority: string;
            /** @description Necessity level (FDR-N006) */
            level: 0 | 1 | 2 | 3;
            /** @enum {string} */
            verification: "deterministic" | "posterior_consistency" | "semantic_audit" | "user_confirmation";
            /** @description Actor id of the decider */
            decidedBy: string;
            reason: string;
            failureReason: ("NO_EXECUTABLE_ACTION" | "GOAL_UNREACHABLE" | "AUTHORITY_REJECTION" | "UNRESOLVED_AMBIGUITY" | "HUMAN_REQUIRED" | "TIMEOUT" | "RESOURCE_EXHAUSTED") | null;
            pendingReason: ("POLICY_HOLD" | "LOW_CONFIDENCE" | "LEVEL_REQUIRES_CONFIRMATION" | "GATE_OPEN" | "AGENT_ASKED") | null;
            counterfactual: components["schemas"]["Counterfactual"] | null;
            decisionTimeMs: number;
            note: string | null;
            decidedAt: string;
            modified?: {
                args: {
                    [key: string]: unknown;
                };
                scope?: {
                    allowedPaths?: string[];
                };
            } | null;
            /** @description sha-256 of the canonical JSON of the args an approval binds to */
            argsDigest?: string | null;
            /** @description When an approval stops being valid */
            expiresAt?: string | null;
        };
        /** @description FDR-N015: the change under which the outcome would differ */
        Counterfactual: {
            /** @description What would have to change */
            change: {
                /** @constant */
                type: "add_observation";
                observation: unknown;
            } | {
                /** @constant */
                type: "relax_constraint";
                constraint: string;
            } | {
                /** @constant */
                type: "increase_confidence";
                to: number;
            } | {
                /** @constant */
                type: "resolve_ambiguity";
                resolution: unknown;
            } | {
                /** @constant */
                type: "obtain_confirmation";
                from: string;
            };
            /** @enum {string} */
            expectedOutcome: "success" | "different_failure";
            /** @enum {string} */
            confidence: "high" | "medium" | "low";
        };
        /** @description FDR-N017: what a person is asked about a pending proposal */
        HITLPrompt: {
            situation: string;
            currentState: string;
            yourProposal: unknown;
            whyPending: {
                /** @enum {string} */
                reason: "POLICY_HOLD" | "LOW_CONFIDENCE" | "LEVEL_REQUIRES_CONFIRMATION" | "GATE_OPEN" | "AGENT_ASKED";
                details: {
                    [key: string]: unknown;
                };
            };
            options: ({
                /** @constant */
                type: "retry";
                description: string;
            } | {
                /** @constant */
                type: "modify";
                description: string;
                allowedModifications: string[];
            } | {
                /** @constant */
                type: "request_info";
                description: string;
                suggestedQuestions: string[];
            } | {
                /** @constant */
                type: "abort";
                description: string;
            })[];
            responseFormat: unknown;
        };
        Run: {
            id: string;
            name: string;
            objective: string;
            /** @enum {string} */
            runState: "queued" | "running" | "paused" | "completed" | "failed";
            /** @description Derived from evidence when the run ends; null before */
            finalStatus: ("SUCCESS" | "PARTIAL_SUCCESS" | "FAILED") | null;
            /** @description Why it ended as it did (seed 002 FDR-N005): failure reason, explanation, counterfactual; null while it runs */
            explanation: {
                /** @description Derived from evidence when the run ends; null before */
                finalStatus: ("SUCCESS" | "PARTIAL_SUCCESS" | "FAILED") | null;
                failureReason: ("NO_EXECUTABLE_ACTION" | "GOAL_UNREACHABLE" | "AUTHORITY_REJECTION" | "UNRESOLVED_AMBIGUITY" | "HUMAN_REQUIRED" | "TIMEOUT" | "RESOURCE_EXHAUSTED") | null;
                explanation: components["schemas"]["FailureExplanation"] | null;
                level: {
                    effective: number;
                    declared: number | null;
                    why: string[];
                    warning: string | null;
                };
            } | null;
            paused: {
                /** @enum {string} */
                kind: "operator" | "infrastructure" | "client" | "agent";
                message: string;
                at: string;
            } | null;
            agents: {
                name: string;
                actorId: string;
                status: string;
                attempt: number;
                calls: number;
                failedCalls: number;
            }[];
            openGate: {
                id: string;
                kind: string;
                what: string | null;
            } | null;
            proposals: {
                total: number;
                approved: number;
                rejected: number;
                pending: number;
            };
            lastSeq: number;
            links: {
                console: string;
                events: string;
                stream: string;
            };
        };
        /** @description FDR-N005: why it failed, never blaming the model or the agent (FE-R3) */
        FailureExplanation: {
            /** @enum {string} */
            kind: "structural" | "governance" | "informational" | "procedural" | "resource";
            title: string;
            description: string;
            evidence: ({
                type: string;
            } & {
                [key: string]: unknown;
            })[];
            counterfactual: components["schemas"]["Counterfactual"] | null;
        };
        ProposalAnswer: {
            id: string;
            callId: string | null;
            agent: string;
            tool: string;
            /** @description The args to run: the proposed ones, or a person's modification of them */
            args: {
                [key: string]: unknown;
            };
            argsDigest: string;
            /** @enum {string} */
            status: "pending" | "approved" | "rejected" | "expired";
            decision: components["schemas"]["DecisionRecord"] | null;
            /** @description While pending: what a person is asked (also what an agent may show its user) */
            prompt: components["schemas"]["HITLPrompt"] | null;
            run: {
                id: string;
                /** @enum {string} */
                runState: "queued" | "running" | "paused" | "completed" | "failed";
                /** @description Derived from evidence when the run ends; null before */
                finalStatus: ("SUCCESS" | "PARTIAL_SUCCESS" | "FAILED") | null;
            };
        };
        ResultAnswer: {
            callId: string;
            proposalId: string;
            step: number;
            /** @enum {string} */
            status: "succeeded" | "failed";
            /** @description What happens now (a failed call is diagnosed and looked up by the worker; its events follow on the run's stream) */
            next: string;
            run: {
                id: string;
                /** @enum {string} */
                runState: "queued" | "running" | "paused" | "completed" | "failed";
            };
        };
        FinishAnswer: {
            /** @description One finish per agent still working: approved (its evidence held), rejected (it did not), or pending (a gate holds the run) */
            finishes: components["schemas"]["ProposalAnswer"][];
            run: {
                id: string;
                /** @enum {string} */
                runState: "queued" | "running" | "paused" | "completed" | "failed";
                /** @description Derived from evidence when the run ends; null before */
                finalStatus: ("SUCCESS" | "PARTIAL_SUCCESS" | "FAILED") | null;
                explanation: string | null;
            };
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listMissions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{ missions }`, newest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createMission: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    text: string;
                } | {
                    name: string;
                    objective: string;
                    /** @default [] */
                    objectiveChecks?: {
                        name?: string;
                        /** @enum {string} */
                        tool: "shell" | "http" | "file" | "llm";
                        /** @default {} */
                        args?: {
                            [key: string]: unknown;
                        };
                        evidence?: ({
                            exit_code: number;
                        } | {
                            file_exists: string;
                        } | {
                            output_matches: string;
                        } | {
                            http_status: number | number[];
                        } | {
                            json_path: string;
                            equals?: unknown;
                        })[];
                        timeoutMs?: number;
                    }[];
                    /** @default [] */
                    allowedBinaries?: string[];
                    /**
                     * @default propose
                     * @enum {string}
                     */
                    recovery?: "auto" | "propose";
                    /** @default true */
                    library?: boolean;
                    /** @default [] */
                    rules?: {
                        id?: string;
                        /** @enum {string} */
                        effect: "allow" | "deny" | "hold";
                        tool?: string;
                        binary?: string;
                        path?: string;
                        host?: string;
                        args?: string;
                        /** @constant */
                        outsideWorkspace?: true;
                        reason?: string;
                        reviewers?: string[];
                    }[];
                    level?: 0 | 1 | 2 | 3;
                    phases: {
                        /** @enum {string} */
                        name: "CONTEXT_ENRICHMENT" | "PLANNING" | "RESEARCH" | "DESIGN" | "EXECUTION" | "REVIEW";
                        agents: {
                            name: string;
                            /** @enum {string} */
                            priority: "critical" | "important" | "optional";
                            /** @default 120000 */
                            timeoutMs?: number;
                            /** @default [] */
                            steps?: {
                                name?: string;
                                /** @enum {string} */
                                tool: "shell" | "http" | "file" | "llm";
                                /** @default {} */
                                args?: {
                                    [key: string]: unknown;
                                };
                                evidence?: ({
                                    exit_code: number;
                                } | {
                                    file_exists: string;
                                } | {
                                    output_matches: string;
                                } | {
                                    http_status: number | number[];
                                } | {
                                    json_path: string;
                                    equals?: unknown;
                                })[];
                                timeoutMs?: number;
                                /** @default false */
                                highRisk?: boolean;
                                idempotent?: boolean;
                                compensate?: {
                                    name?: string;
                                    /** @enum {string} */
                                    tool: "shell" | "http" | "file" | "llm";
                                    /** @default {} */
                                    args?: {
                                        [key: string]: unknown;
                                    };
                                    evidence?: ({
                                        exit_code: number;
                                    } | {
                                        file_exists: string;
                                    } | {
                                        output_matches: string;
                                    } | {
                                        http_status: number | number[];
                                    } | {
                                        json_path: string;
                                        equals?: unknown;
                                    })[];
                                    timeoutMs?: number;
                                };
                            }[];
                            autonomous?: {
                                goal: string;
                                tools: ("shell" | "http" | "file" | "llm")[];
                                /** @default 20 */
                                maxActions?: number;
                                /** @default [] */
                                evidence?: ({
                                    exit_code: number;
                                } | {
                                    file_exists: string;
                                } | {
                                    output_matches: string;
                                } | {
                                    http_status: number | number[];
                                } | {
                                    json_path: string;
                                    equals?: unknown;
                                })[];
                                provider?: string;
                                /** @default 0 */
                                temperature?: number;
                            };
                            external?: {
                                tools?: string[];
                                allowedBinaries?: string[];
                                /** @default [] */
                                evidence?: ({
                                    exit_code: number;
                                } | {
                                    file_exists: string;
                                } | {
                                    output_matches: string;
                                } | {
                                    http_status: number | number[];
                                } | {
                                    json_path: string;
                                    equals?: unknown;
                                })[];
                                workspace?: string;
                                /** @default 60000 */
                                heartbeatTimeoutMs?: number;
                                /** @default rest */
                                via?: string;
                            };
                        }[];
                        timeoutMs?: number;
                        /** @default false */
                        skippable?: boolean;
                        /** @default false */
                        compensateOnFailure?: boolean;
                    }[];
                };
            };
        };
        responses: {
            /** @description `{ mission }` (its state); `Location` names it */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMission: {
        parameters: {
            query?: {
                window?: number;
                around?: number;
            };
            header?: never;
            path: {
                /** @description A UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The mission */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description What the path names does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    missionEvents: {
        parameters: {
            query?: {
                after?: number;
                before?: number;
                around?: number;
                limit?: number;
                type?: string;
                agent?: string;
            };
            header?: never;
            path: {
                /** @description A UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{ missionId, lastSeq, events, hasOlder, hasNewer, actors }` (actors: display names of the page's actors) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description What the path names does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    missionTrace: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description JSON Lines (`mission-<id>.trace.jsonl`); check it with `faultline trace verify`, replay it with `faultline lab replay` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/x-ndjson": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description What the path names does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    missionProjection: {
        parameters: {
            query: {
                mode: "silent" | "watch" | "interactive" | "debug";
                seq?: number;
            };
            header?: never;
            path: {
                /** @description A UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{ mode, capabilities, modelCalls: [{ seq, kind, agent, text }], debug: { seq, event, state, changes, write, modelCalls: [{ agent, request, response }], reflections, otherReads } | null }` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description What the path names does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    missionProposals: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{ proposals }` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description What the path names does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    pauseMission: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    note?: string | null;
                };
            };
        };
        responses: {
            /** @description `{ mission: { id, runState, paused } }` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description What the path names does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    resumeMission: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    note?: string | null;
                };
            };
        };
        responses: {
            /** @description The mission */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description What the path names does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    abortMission: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    note?: string | null;
                };
            };
        };
        responses: {
            /** @description The mission */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description What the path names does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listGates: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{ gates }` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    decideGate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    decision: "retry" | "skip" | "abort" | "retry_phase" | "skip_phase" | "resume" | "restart_phase" | "approve" | "recover" | "run_probe" | "skip_hypothesis" | "confirm" | "reject" | "done" | "not_done" | "allow_binary";
                    note?: string | null;
                };
            };
        };
        responses: {
            /** @description `{ gate, mission, resolved, approvals, required }` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description What the path names does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    bulkDecideGates: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    items: ({
                        /** Format: uuid */
                        gateId: string;
                    } | {
                        /** Format: uuid */
                        proposalId: string;
                    })[];
                    /** @enum {string} */
                    decision: "retry" | "skip" | "abort" | "retry_phase" | "skip_phase" | "resume" | "restart_phase" | "approve" | "recover" | "run_probe" | "skip_hypothesis" | "confirm" | "reject" | "done" | "not_done" | "allow_binary";
                    note?: string | null;
                };
            };
        };
        responses: {
            /** @description `{ results: [{ id, ok, status | error }] }`, one per item in the order sent */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkDecisionResults"];
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getProposal: {
        parameters: {
            query?: {
                wait?: number;
            };
            header?: never;
            path: {
                /** @description A UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{ proposal, prompt, decision }` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        proposal: components["schemas"]["Proposal"];
                        decision: components["schemas"]["DecisionRecord"] | null;
                        prompt: components["schemas"]["HITLPrompt"] | null;
                    };
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description What the path names does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    proposalPrompt: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{ prompt }` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description What the path names does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    decideProposal: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    decision: "approve" | "reject" | "modify";
                    args?: {
                        [key: string]: unknown;
                    };
                    scope?: {
                        allowedPaths: string[];
                    };
                    note?: string | null;
                };
            };
        };
        responses: {
            /** @description `{ proposal, decision, mission: { id, runState } }` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description What the path names does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createRun: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    objective: string;
                    agents?: {
                        name: string;
                        tools?: string[];
                        allowedBinaries?: string[];
                        /**
                         * @default critical
                         * @enum {string}
                         */
                        priority?: "critical" | "important" | "optional";
                    }[];
                    allowedBinaries?: string[];
                    rules?: {
                        id?: string;
                        /** @enum {string} */
                        effect: "allow" | "deny" | "hold";
                        tool?: string;
                        binary?: string;
                        path?: string;
                        host?: string;
                        args?: string;
                        /** @constant */
                        outsideWorkspace?: true;
                        reason?: string;
                        reviewers?: string[];
                    }[];
                    evidence?: ({
                        exit_code: number;
                    } | {
                        file_exists: string;
                    } | {
                        output_matches: string;
                    } | {
                        http_status: number | number[];
                    } | {
                        json_path: string;
                        equals?: unknown;
                    })[];
                    level?: 0 | 1 | 2 | 3;
                    heartbeatTimeoutMs?: number;
                    workspace?: string;
                    via?: string;
                };
            };
        };
        responses: {
            /** @description `{ run }`; `Location` names it */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        run: components["schemas"]["Run"];
                    };
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getRun: {
        parameters: {
            query?: {
                wait?: number;
            };
            header?: never;
            path: {
                /** @description A UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{ run }` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        run: components["schemas"]["Run"];
                    };
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description What the path names does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    proposeRunCall: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    callId: string;
                    agent?: string;
                    tool: string;
                    /** @default {} */
                    args?: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description `{ proposal }` with `status`, `decision` and `prompt` (200 when the callId was already proposed) */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        proposal: components["schemas"]["ProposalAnswer"];
                    };
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description What the path names does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    reportRunResult: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    callId: string;
                    agent?: string;
                    result: {
                        ok: boolean;
                        data?: unknown;
                        error?: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description `{ result: { callId, proposalId, step, status, next, run } }` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        result: components["schemas"]["ResultAnswer"];
                    };
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description What the path names does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    finishRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    summary?: string | null;
                    agent?: string;
                };
            };
        };
        responses: {
            /** @description `{ finishes, run: { runState, finalStatus, explanation } }` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FinishAnswer"];
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description What the path names does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    heartbeatRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{ run }` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        run: {
                            id: string;
                            /** @enum {string} */
                            runState: "queued" | "running" | "paused" | "completed" | "failed";
                        };
                    };
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description What the path names does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    claudePreToolUse: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    session_id: string;
                    transcript_path?: string;
                    cwd?: string;
                    hook_event_name?: string;
                    tool_name: string;
                    /** @default {} */
                    tool_input?: {
                        [key: string]: unknown;
                    };
                    tool_use_id: string;
                    tool_response?: unknown;
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description `{ hookSpecificOutput: { hookEventName, permissionDecision, permissionDecisionReason } }` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        hookSpecificOutput: {
                            /** @constant */
                            hookEventName: "PreToolUse";
                            /** @enum {string} */
                            permissionDecision: "allow" | "deny" | "ask";
                            permissionDecisionReason: string;
                        };
                    };
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    claudePostToolUse: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    session_id: string;
                    transcript_path?: string;
                    cwd?: string;
                    hook_event_name?: string;
                    tool_name: string;
                    /** @default {} */
                    tool_input?: {
                        [key: string]: unknown;
                    };
                    tool_use_id: string;
                    tool_response?: unknown;
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description `{}` or `{ systemMessage }` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        systemMessage?: string;
                    };
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    runStream: {
        parameters: {
            query?: {
                after?: number;
            };
            header?: never;
            path: {
                /** @description A UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description text/event-stream */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description What the path names does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listActors: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{ actors }` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getActor: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An actor id, URL-encoded (`user:<uuid>`, `agent:writer@…`, `system:authority`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The actor's summary */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description What the path names does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAuthorityPolicy: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{ version, rules, … }` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putAuthorityPolicy: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    rules: unknown[];
                    note?: string | null;
                };
            };
        };
        responses: {
            /** @description The published version */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listPolicies: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{ policies }` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createPolicy: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    definition: string;
                    /** @enum {string} */
                    gateKind: "agent" | "phase" | "recovery" | "approval" | "library" | "*";
                    /** @default [] */
                    roles?: string[];
                    groups?: string[];
                    /** @default 1 */
                    approvalsRequired?: number;
                    /** @default true */
                    starterMayDecide?: boolean;
                    /** @default null */
                    timeoutMs?: number | null;
                    /** @default null */
                    timeoutOutcome?: ("retry" | "skip" | "abort" | "retry_phase" | "skip_phase" | "resume" | "restart_phase" | "approve" | "recover" | "run_probe" | "skip_hypothesis" | "confirm" | "reject" | "done" | "not_done" | "allow_binary") | null;
                    /** @default  */
                    note?: string;
                };
            };
        };
        responses: {
            /** @description `{ policy }` */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPolicy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{ policy }` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description What the path names does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putPolicy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    definition: string;
                    /** @enum {string} */
                    gateKind: "agent" | "phase" | "recovery" | "approval" | "library" | "*";
                    /** @default [] */
                    roles?: string[];
                    groups?: string[];
                    /** @default 1 */
                    approvalsRequired?: number;
                    /** @default true */
                    starterMayDecide?: boolean;
                    /** @default null */
                    timeoutMs?: number | null;
                    /** @default null */
                    timeoutOutcome?: ("retry" | "skip" | "abort" | "retry_phase" | "skip_phase" | "resume" | "restart_phase" | "approve" | "recover" | "run_probe" | "skip_hypothesis" | "confirm" | "reject" | "done" | "not_done" | "allow_binary") | null;
                    /** @default  */
                    note?: string;
                };
            };
        };
        responses: {
            /** @description `{ policy }` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description What the path names does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deletePolicy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{ deleted }` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description What the path names does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listFailures: {
        parameters: {
            query?: {
                mission?: string;
                definition?: string;
                level?: "agent" | "phase" | "infrastructure" | "client";
                severity?: "warning" | "error" | "critical";
                type?: string;
                mode?: string;
                actor?: string;
                phase?: string;
                from?: string;
                to?: string;
                status?: "resolved" | "unresolved";
                decidedBy?: string;
                q?: string;
                sort?: "time" | "resolution";
                dir?: "asc" | "desc";
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{ rows, nextCursor, total: { count, capped } }` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    failureStats: {
        parameters: {
            query?: {
                mission?: string;
                definition?: string;
                level?: "agent" | "phase" | "infrastructure" | "client";
                severity?: "warning" | "error" | "critical";
                type?: string;
                mode?: string;
                actor?: string;
                phase?: string;
                from?: string;
                to?: string;
                status?: "resolved" | "unresolved";
                decidedBy?: string;
                q?: string;
                sort?: "time" | "resolution";
                dir?: "asc" | "desc";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The statistics */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    exportFailures: {
        parameters: {
            query?: {
                mission?: string;
                definition?: string;
                level?: "agent" | "phase" | "infrastructure" | "client";
                severity?: "warning" | "error" | "critical";
                type?: string;
                mode?: string;
                actor?: string;
                phase?: string;
                from?: string;
                to?: string;
                status?: "resolved" | "unresolved";
                decidedBy?: string;
                q?: string;
                sort?: "time" | "resolution";
                dir?: "asc" | "desc";
                format?: "jsonl" | "csv";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listAudit: {
        parameters: {
            query?: {
                actor?: string;
                action?: string;
                targetType?: string;
                targetId?: string;
                mission?: string;
                via?: "web" | "api" | "cli" | "worker" | "system";
                outcome?: "ok" | "refused";
                from?: string;
                to?: string;
                q?: string;
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{ entries, nextCursor }` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    exportAudit: {
        parameters: {
            query?: {
                actor?: string;
                action?: string;
                targetType?: string;
                targetId?: string;
                mission?: string;
                via?: "web" | "api" | "cli" | "worker" | "system";
                outcome?: "ok" | "refused";
                from?: string;
                to?: string;
                q?: string;
                format?: "jsonl" | "csv";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/x-ndjson": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listPatterns: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{ patterns }` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deletePattern: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description What the path names does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchPattern: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    enabled?: boolean;
                    threshold?: number;
                };
            };
        };
        responses: {
            /** @description `{ pattern }` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description What the path names does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    sessionMemory: {
        parameters: {
            query?: {
                missionId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description JSON Lines */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/x-ndjson": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    episodicMemory: {
        parameters: {
            query?: {
                missionId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description JSON Lines */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/x-ndjson": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    labRuns: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{ runs }` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    labRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{ run }` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description What the path names does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    labTrace: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A suite run's id (UUID) */
                id: string;
                /** @description The scenario's name, URL-encoded */
                scenario: string;
                /** @description The repeat, from 1 */
                repeat: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description JSON Lines (`<scenario>.<repeat>.trace.jsonl`); the header `x-trace-sha256` is the file's sha-256 */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/x-ndjson": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description What the path names does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    libraryEntries: {
        parameters: {
            query: {
                q?: string;
                category: ("Physical" | "Material" | "Constraint" | "Environmental" | "State")[];
                risk: ("Low" | "Medium" | "High" | "Requires-Oversight")[];
                tag: string[];
                source: ("expert_curation" | "incident_analysis" | "crowdsourcing" | "simulation_extraction")[];
                deprecated?: "hide" | "show" | "only";
                sort?: "relevance" | "id" | "title" | "risk" | "updated";
                page?: number;
                per?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{ libraryVersion, entries, total, page, per }` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    libraryEntry: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A failure id (`FM-PHY-0001`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The entry */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description What the path names does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    libraryVersions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{ versions }` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    queryLibrary: {
        parameters: {
            query?: {
                limit?: number;
                include?: "entry";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    observed_symptom: string;
                    object_class?: string;
                    force_applied?: string;
                    environmental_context?: string | string[];
                };
            };
        };
        responses: {
            /** @description `{ results: [{ failure_id, match_score, hypothesis, entry? }], abstained }` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    exportLibrary: {
        parameters: {
            query?: {
                format?: "json" | "yaml";
                deprecated?: "include";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The library file */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/yaml": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    importLibrary: {
        parameters: {
            query?: {
                replace?: "0" | "1" | "true" | "false";
                dryRun?: "0" | "1" | "true" | "false";
                format?: "json" | "yaml";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": string;
                "application/yaml": string;
                "text/yaml": string;
            };
        };
        responses: {
            /** @description `{ version, counts: { added, edited, unchanged, deprecated, restored }, ids }` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rollbackLibrary: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    to: number;
                };
            };
        };
        responses: {
            /** @description `{ version, rolledBackTo }` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listContributions: {
        parameters: {
            query?: {
                status?: "draft" | "pending" | "in_review" | "changes_requested" | "approved" | "rejected";
                origin?: "contributor" | "novel_failure" | "learned_pattern" | "simulation";
                mine?: "0" | "1" | "true" | "false";
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{ contributions }` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createContribution: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    target_failure_id?: string;
                    variant_of?: string | null;
                    /** @enum {string} */
                    domain?: "physical" | "software";
                    /** @default  */
                    summary?: string;
                    entry: {
                        [key: string]: unknown;
                    };
                    /** @default true */
                    submit?: boolean;
                };
            };
        };
        responses: {
            /** @description `{ contribution, similar: { results, abstained } }` */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getContribution: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The contribution */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description What the path names does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchContribution: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    target_failure_id?: string;
                    variant_of?: string | null;
                    /** @enum {string} */
                    domain?: "physical" | "software";
                    /** @default  */
                    summary?: string;
                    entry: {
                        [key: string]: unknown;
                    };
                    /** @default true */
                    submit?: boolean;
                };
            };
        };
        responses: {
            /** @description `{ contribution }` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description What the path names does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    reviewContribution: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    verdict: "approve" | "request_changes" | "reject";
                    reason: string;
                };
            };
        };
        responses: {
            /** @description The review's outcome */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description What the path names does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    commentContribution: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    body: string;
                    parent_id?: number | null;
                };
            };
        };
        responses: {
            /** @description `{ comment }` */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description What the path names does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listUsers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{ users }` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @constant */
                    mode: "password";
                    email: string;
                    name: string;
                    roles: ("admin" | "operator" | "reviewer" | "contributor" | "auditor")[];
                    groups?: string[];
                    password: string;
                    /** @default true */
                    mustChangePassword?: boolean;
                } | {
                    /** @constant */
                    mode: "invite";
                    email: string;
                    name: string;
                    roles: ("admin" | "operator" | "reviewer" | "contributor" | "auditor")[];
                    groups?: string[];
                };
            };
        };
        responses: {
            /** @description `{ user, invite }` (invite: the link when no password was given) */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{ user }` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description What the path names does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    roles?: ("admin" | "operator" | "reviewer" | "contributor" | "auditor")[];
                    groups?: string[];
                    active?: boolean;
                };
            };
        };
        responses: {
            /** @description `{ user }` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description What the path names does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    resetPassword: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    mode: "temporary" | "link";
                };
            };
        };
        responses: {
            /** @description The temporary password or the link, shown once */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description What the path names does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listTokens: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{ tokens }` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    expiresInDays?: number | null;
                };
            };
        };
        responses: {
            /** @description `{ token, apiToken }` */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{ apiToken }` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description What the path names does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{ subscriptions }` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uri */
                    url: string;
                    events: ("gate.opened" | "gate.resolved" | "proposal.pending" | "proposal.decided" | "mission.paused" | "mission.resumed" | "mission.finished" | "tool.failed")[];
                    description?: string | null;
                };
            };
        };
        responses: {
            /** @description `{ subscription, secret }` */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description What the path names does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    active: boolean;
                };
            };
        };
        responses: {
            /** @description `{ subscription }` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description What the path names does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    webhookDeliveries: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{ deliveries }` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description What the path names does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    diagnosisFeedback: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A diagnosis id (diag_…) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{ feedback }`: the latest verdict, or null */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description What the path names does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    giveDiagnosisFeedback: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A diagnosis id (diag_…) */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @constant */
                    verdict: "confirmed";
                    note?: string | null;
                } | {
                    /** @constant */
                    verdict: "corrected";
                    /** @enum {string} */
                    type: "tool_not_found" | "command_not_found" | "permission_denied" | "invalid_arguments" | "timeout" | "output_too_large" | "rate_limited" | "network_error" | "syntax_error" | "environment_missing" | "unknown";
                    note?: string | null;
                };
            };
        };
        responses: {
            /** @description `{ feedback }` */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description What the path names does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    redeliverWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Queued */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is not valid: the message names each field (`details.fieldErrors`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in without the permission this operation needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description What the path names does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An internal error (logged; the message never carries a stack trace) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
