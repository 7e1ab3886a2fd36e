--------------------------- MODULE mission_lifecycle ---------------------------
(***************************************************************************)
(* The Faultline mission lifecycle: RFC 001 section 3.8, issue 7.           *)
(*                                                                         *)
(* A model of the state machine of lib/mission/, named like the code:      *)
(*   reducer.ts      applyEvent: one action per event type (PhaseStarted   *)
(*                   for phase.started, GateResolved for gate.resolved...)  *)
(*   next-action.ts  nextAction: the operator NextAction, which the worker  *)
(*                   actions follow, in the same order of precedence        *)
(*   engine.ts       advance: which events one worker transaction appends   *)
(*   failure.ts      respondToFailure and the gates' options                *)
(*   status.ts       deriveFinalStatus                                      *)
(* The variables are the fields of MissionState (types.ts) that decide what *)
(* happens next; text, ids, timestamps, diagnoses and resolved gates are    *)
(* left out (see spec/README.md for the exact correspondence).              *)
(*                                                                         *)
(* Code step k (0-based, as in the events) is agents[a].steps[k + 1].        *)
(***************************************************************************)
EXTENDS Integers, Sequences, FiniteSets

CONSTANTS
    AgentOrder,          \* MissionState.agentOrder: agent names in execution order
    PhaseOrder,          \* the definition's phases, in order
    PhaseOf,             \* [agent -> phase]
    PriorityOf,          \* [agent -> "critical" | "important" | "optional"]
    NumSteps,            \* steps per agent
    HighRisk,            \* <<agent, step>> pairs marked highRisk: an approval gate first
    Idempotent,          \* <<agent, step>> pairs re-run after a crash without an operator
    Compensable,         \* <<agent, step>> pairs that declare a compensation (saga)
    LlmSteps,            \* <<agent, step>> pairs run by the llm tool: every provider may fail
    Skippable,           \* phases whose gates offer skip_phase
    CompensateOnFailure, \* phases that run their compensations when they fail
    TimedPhases,         \* phases with a timeoutMs
    ObjectiveChecks,     \* number of objective checks of the definition
    MaxRetries,          \* retry policy: attempts per agent <= 1 + MaxRetries
    MaxCrashes,          \* worker crashes (after a start, before its result) on a behaviour
    MaxPauses            \* operator pauses on a behaviour

Agents == {AgentOrder[i] : i \in 1..Len(AgentOrder)}
Phases == {PhaseOrder[i] : i \in 1..Len(PhaseOrder)}
Steps == 0..(NumSteps - 1)

AgentStatuses == {"pending", "running", "completed", "failed", "skipped"}
StepStatuses == {"running", "succeeded", "failed", "interrupted"}
GateKinds == {"agent", "phase", "recovery", "approval"}
GateDecisions == {"retry", "skip", "abort", "retry_phase", "skip_phase", "resume", "restart_phase", "approve"}
FinalStatuses == {"SUCCESS", "PARTIAL_SUCCESS", "FAILED"}
(* What the environment's tools answer (engine.ts executeStep): ok with passing  *)
(* evidence, ok without it (VALIDATION_FAILED), a recoverable failure, an       *)
(* unrecoverable one, TIMEOUT past the phase deadline, every LLM provider down.  *)
ToolOutcomes == {"ok", "no_evidence", "fail_recoverable", "fail_unrecoverable", "timeout", "infra"}

VARIABLES
    phase,           \* MissionState.phase
    runState,        \* MissionState.runState
    agents,          \* MissionState.agents: [status, attempt, steps, error, tolerated, approvedSteps, undone]
    completedPhases, \* MissionState.completedPhases (as a set)
    gate,            \* openGate(MissionState): the open gate, or NoGate
    objective,       \* MissionState.objective: [checked, passed]
    aborted,         \* MissionState.aborted
    paused,          \* MissionState.paused # null (operator pauses)
    phaseFailure,    \* MissionState.phaseFailure: [failed, phase, reason]
    phaseExpired,    \* the current phase is past its deadline (phaseStartedAt + timeoutMs <= now)
    started,         \* MissionState.startedAt # null
    completedSteps,  \* MissionState.completedSteps: [agent, attempt, step]
    compensations,   \* MissionState.compensations: [agent, attempt, step, status]
    finalStatus,     \* MissionState.finalStatus ("none" for null)
    worker,          \* the worker holding the mission's lease: "idle", "busy" (a tool runs), "dead"
    inFlight,        \* what the busy worker runs: a step or a compensation
    crashes,         \* crashes so far (bounded by MaxCrashes)
    pauses           \* pauses so far (bounded by MaxPauses)

vars == <<phase, runState, agents, completedPhases, gate, objective, aborted, paused, phaseFailure,
          phaseExpired, started, completedSteps, compensations, finalStatus, worker, inFlight, crashes, pauses>>

NoError == [present |-> FALSE, recoverable |-> FALSE, infra |-> FALSE]
NoGate == [open |-> FALSE, kind |-> "none", agent |-> "none", phase |-> "none", step |-> -1, options |-> {}]
NoPhaseFailure == [failed |-> FALSE, phase |-> "none", reason |-> "none"]
NoWork == [kind |-> "none", agent |-> "none", step |-> -1, index |-> 0]

-----------------------------------------------------------------------------
(* Helpers (reducer.ts, status.ts) *)

Range(s) == {s[i] : i \in DOMAIN s}
Reverse(s) == [i \in 1..Len(s) |-> s[Len(s) - i + 1]]
Min(S) == CHOOSE x \in S : \A y \in S : x <= y
StepAt(a, k) == agents[a].steps[k + 1]

IsTerminal == runState \in {"completed", "failed"}

(* isSettled: done, skipped, or an optional failure logged as a warning. *)
Settled(a) == agents[a].status \in {"completed", "skipped"} \/ (agents[a].status = "failed" /\ agents[a].tolerated)

PhaseAgents(p) == SelectSeq(AgentOrder, LAMBDA a : PhaseOf[a] = p)

(* nextPhase: the first phase of the definition not completed, or "none". *)
NextPhase ==
    IF \E i \in 1..Len(PhaseOrder) : PhaseOrder[i] \notin completedPhases
    THEN PhaseOrder[Min({i \in 1..Len(PhaseOrder) : PhaseOrder[i] \notin completedPhases})]
    ELSE "none"

(* phaseAgentsFailed(...).tooMany *)
TooManyFailed(p) ==
    LET as == {a \in Agents : PhaseOf[a] = p}
        failed == {a \in as : agents[a].status = "failed" \/ (agents[a].status = "skipped" /\ agents[a].error.present)}
        undecided == {a \in as : agents[a].status = "failed" /\ agents[a].tolerated}
    IN Cardinality(failed) * 2 > Cardinality(as) /\ Cardinality(undecided) > 0

(* status.ts hasValidEvidence and deriveFinalStatus *)
HasValidEvidence(a) ==
    /\ agents[a].status = "completed"
    /\ ~agents[a].undone
    /\ Len(agents[a].steps) > 0
    /\ \A i \in 1..Len(agents[a].steps) : agents[a].steps[i].status = "succeeded" /\ agents[a].steps[i].evidence

DeriveFinalStatus ==
    IF aborted THEN "FAILED"
    ELSE IF ~objective.checked \/ ~objective.passed THEN "FAILED"
    ELSE IF \E a \in Agents : PriorityOf[a] = "critical" /\ ~HasValidEvidence(a) THEN "FAILED"
    ELSE IF ~(\E a \in Agents : HasValidEvidence(a)) THEN "FAILED"
    ELSE IF \A a \in Agents : HasValidEvidence(a) THEN "SUCCESS"
    ELSE "PARTIAL_SUCCESS"

(* withRunState: queued until the first phase starts; paused while a gate is open or paused. *)
RunStateAfter(gateOpen, isPaused, isStarted, old, isAborted) ==
    IF gateOpen \/ isPaused THEN "paused"
    ELSE IF isStarted THEN "running"
    ELSE IF old = "queued" /\ ~isAborted THEN "queued"
    ELSE "running"

(* planCompensations: owed for completed steps that declare one, latest first; only p's unless p = "none". *)
Plan(p) ==
    LET planned == {<<c.agent, c.attempt, c.step>> : c \in Range(compensations)}
        owed == SelectSeq(Reverse(completedSteps),
                    LAMBDA c : (p = "none" \/ PhaseOf[c.agent] = p)
                               /\ <<c.agent, c.step>> \in Compensable
                               /\ <<c.agent, c.attempt, c.step>> \notin planned)
    IN [i \in 1..Len(owed) |-> [agent |-> owed[i].agent, attempt |-> owed[i].attempt, step |-> owed[i].step, status |-> "pending"]]

Owed == {i \in 1..Len(compensations) : compensations[i].status \in {"pending", "running"}}

(* failure.ts: the options of each kind of gate. *)
AgentGateOptions(a, recoverable) ==
    (IF PriorityOf[a] = "critical" \/ recoverable THEN {"retry", "skip"} ELSE {"skip"})
    \cup (IF PriorityOf[a] = "critical" /\ Len(PhaseAgents(PhaseOf[a])) > 1 THEN {"retry_phase"} ELSE {})
    \cup (IF PriorityOf[a] = "critical" /\ PhaseOf[a] \in Skippable THEN {"skip_phase"} ELSE {})
    \cup {"abort"}
PhaseGateOptions(p) == {"retry_phase", "abort"} \cup (IF p \in Skippable THEN {"skip_phase"} ELSE {})
RecoveryGateOptions == {"resume", "restart_phase", "abort"}
ApprovalGateOptions == {"approve", "skip", "abort"}

AgentGate(a, recoverable) == [open |-> TRUE, kind |-> "agent", agent |-> a, phase |-> PhaseOf[a], step |-> -1, options |-> AgentGateOptions(a, recoverable)]

(* respondToFailure: an optional agent's failure is a warning, unless every LLM provider failed. *)
Tolerated(a, err) == PriorityOf[a] = "optional" /\ ~err.infra

-----------------------------------------------------------------------------
(* nextAction (next-action.ts), in the same order of precedence. *)

NA(k) == [kind |-> k, agent |-> "none", phase |-> "none", step |-> -1, index |-> 0]

AgentAction(a) ==
    LET ag == agents[a]
        inflight == {k \in 0..(Len(ag.steps) - 1) : ag.steps[k + 1].status = "running"}
        held == {k \in 0..(Len(ag.steps) - 1) : ag.steps[k + 1].status = "interrupted"}
        next == Len(ag.steps)
    IN IF ag.status = "pending" THEN [NA("runAgent") EXCEPT !.agent = a]
       ELSE IF ag.status = "failed" THEN [NA("respond") EXCEPT !.agent = a]
       ELSE IF inflight # {} THEN [NA("interrupted") EXCEPT !.agent = a, !.step = Min(inflight)]
       ELSE IF held # {} THEN
            IF ag.steps[Min(held) + 1].resumeApproved
            THEN [NA("rerunStep") EXCEPT !.agent = a, !.step = Min(held)]
            ELSE [NA("interrupted") EXCEPT !.agent = a, !.step = Min(held)]
       ELSE IF next < NumSteps /\ <<a, next>> \in HighRisk /\ next \notin ag.approvedSteps
            THEN [NA("requestApproval") EXCEPT !.agent = a, !.step = next]
       ELSE [NA("continueAgent") EXCEPT !.agent = a]

NextAction ==
    IF IsTerminal THEN NA("none")
    ELSE IF gate.open \/ paused THEN NA("wait")
    ELSE IF Owed # {} THEN [NA("compensate") EXCEPT !.index = Min(Owed)]
    ELSE IF aborted THEN NA("finish")
    ELSE IF phaseFailure.failed THEN [NA("respondPhase") EXCEPT !.phase = phaseFailure.phase]
    ELSE IF NextPhase = "none" THEN (IF objective.checked THEN NA("finish") ELSE NA("checkObjective"))
    ELSE IF phase # NextPhase THEN [NA("startPhase") EXCEPT !.phase = NextPhase]
    ELSE LET unsettled == SelectSeq(PhaseAgents(NextPhase), LAMBDA a : ~Settled(a))
         IN IF Len(unsettled) > 0 THEN AgentAction(Head(unsettled))
            ELSE IF TooManyFailed(NextPhase) THEN [NA("failPhase") EXCEPT !.phase = NextPhase]
            ELSE [NA("completePhase") EXCEPT !.phase = NextPhase]

(* engine.ts advance: a phase past its timeout fails before more of its work starts. *)
Work == {"runAgent", "continueAgent", "requestApproval", "rerunStep"}

-----------------------------------------------------------------------------
(* Initial state: mission.created. *)

Init ==
    /\ phase = "MISSION_STARTED"
    /\ runState = "queued"
    /\ agents = [a \in Agents |-> [status |-> "pending", attempt |-> 0, steps |-> <<>>, error |-> NoError,
                                   tolerated |-> FALSE, approvedSteps |-> {}, undone |-> FALSE]]
    /\ completedPhases = {}
    /\ gate = NoGate
    /\ objective = [checked |-> FALSE, passed |-> FALSE]
    /\ aborted = FALSE
    /\ paused = FALSE
    /\ phaseFailure = NoPhaseFailure
    /\ phaseExpired = FALSE
    /\ started = FALSE
    /\ completedSteps = <<>>
    /\ compensations = <<>>
    /\ finalStatus = "none"
    /\ worker = "idle"
    /\ inFlight = NoWork
    /\ crashes = 0
    /\ pauses = 0

-----------------------------------------------------------------------------
(* The worker: one action per transaction it appends (engine.ts advance).    *)
(* It acts only while it holds the lease and runs nothing ("idle").          *)

Ready(kind) == worker = "idle" /\ NextAction.kind = kind

(* phase.started *)
PhaseStarted ==
    /\ Ready("startPhase")
    /\ phase' = NextAction.phase
    /\ started' = TRUE
    /\ phaseExpired' = FALSE
    /\ runState' = RunStateAfter(gate.open, paused, TRUE, runState, aborted)
    /\ UNCHANGED <<agents, completedPhases, gate, objective, aborted, paused, phaseFailure, completedSteps,
                   compensations, finalStatus, worker, inFlight, crashes, pauses>>

(* phase.failed (timeout): the phase ran past its deadline before more work started. *)
PhaseTimedOut ==
    /\ worker = "idle"
    /\ NextAction.kind \in Work
    /\ phaseExpired
    /\ phaseFailure' = [failed |-> TRUE, phase |-> phase, reason |-> "timeout"]
    /\ compensations' = IF phase \in CompensateOnFailure THEN compensations \o Plan(phase) ELSE compensations
    /\ runState' = RunStateAfter(gate.open, paused, started, runState, aborted)
    /\ UNCHANGED <<phase, agents, completedPhases, gate, objective, aborted, paused, phaseExpired, started,
                   completedSteps, finalStatus, worker, inFlight, crashes, pauses>>

(* agent.started: attempt + 1, from its first step. *)
AgentStarted ==
    /\ Ready("runAgent")
    /\ ~phaseExpired
    /\ LET a == NextAction.agent
       IN agents' = [agents EXCEPT ![a] = [@ EXCEPT !.status = "running", !.attempt = @ + 1, !.steps = <<>>,
                                               !.error = NoError, !.approvedSteps = {}, !.undone = FALSE]]
    /\ UNCHANGED <<phase, runState, completedPhases, gate, objective, aborted, paused, phaseFailure, phaseExpired,
                   started, completedSteps, compensations, finalStatus, worker, inFlight, crashes, pauses>>

(* step.started: its idempotency key is recorded, then the tool runs (the worker is busy). *)
StepStarted ==
    /\ Ready("continueAgent")
    /\ ~phaseExpired
    /\ LET a == NextAction.agent
           k == Len(agents[a].steps)
       IN /\ k < NumSteps
          /\ agents' = [agents EXCEPT ![a].steps = Append(@, [status |-> "running", evidence |-> FALSE,
                                                              error |-> FALSE, resumeApproved |-> FALSE])]
          /\ worker' = "busy"
          /\ inFlight' = [kind |-> "step", agent |-> a, step |-> k, index |-> 0]
    /\ UNCHANGED <<phase, runState, completedPhases, gate, objective, aborted, paused, phaseFailure, phaseExpired,
                   started, completedSteps, compensations, finalStatus, crashes, pauses>>

(* agent.completed: every step succeeded with evidence. *)
AgentCompleted ==
    /\ Ready("continueAgent")
    /\ ~phaseExpired
    /\ LET a == NextAction.agent
       IN /\ Len(agents[a].steps) = NumSteps
          /\ agents' = [agents EXCEPT ![a].status = "completed"]
    /\ UNCHANGED <<phase, runState, completedPhases, gate, objective, aborted, paused, phaseFailure, phaseExpired,
                   started, completedSteps, compensations, finalStatus, worker, inFlight, crashes, pauses>>

(* tool.succeeded: the tool returned ok AND its evidence passed (RFC 001 section 3.3). *)
ToolSucceeded(a, k) ==
    /\ agents' = [agents EXCEPT ![a].steps[k + 1] = [@ EXCEPT !.status = "succeeded", !.evidence = TRUE]]
    /\ completedSteps' = Append(completedSteps, [agent |-> a, attempt |-> agents[a].attempt, step |-> k])
    /\ UNCHANGED <<phaseExpired, phaseFailure, compensations, gate, runState>>

(* The failure's transaction: tool.failed, [diagnostic_reflection,] agent.failed, then       *)
(* phase.failed (timeout) when the phase is past its deadline and not every LLM provider    *)
(* failed, else the failure response: mission.warning (tolerated) or gate.opened (agent).    *)
ToolFailed(a, k, outcome) ==
    LET err == [present |-> TRUE,
                recoverable |-> outcome \in {"fail_recoverable", "timeout", "infra"},
                infra |-> outcome = "infra"]
        expired == phaseExpired \/ outcome = "timeout"
        failedAgent == [agents[a] EXCEPT !.steps[k + 1] = [@ EXCEPT !.status = "failed", !.error = TRUE, !.evidence = FALSE],
                                         !.status = "failed",
                                         !.error = err]
    IN /\ phaseExpired' = expired
       /\ UNCHANGED completedSteps
       /\ IF expired /\ ~err.infra
          THEN /\ agents' = [agents EXCEPT ![a] = failedAgent]
               /\ phaseFailure' = [failed |-> TRUE, phase |-> PhaseOf[a], reason |-> "timeout"]
               /\ compensations' = IF PhaseOf[a] \in CompensateOnFailure THEN compensations \o Plan(PhaseOf[a]) ELSE compensations
               /\ runState' = RunStateAfter(gate.open, paused, started, runState, aborted)
               /\ UNCHANGED gate
          ELSE IF Tolerated(a, err)
          THEN /\ agents' = [agents EXCEPT ![a] = [failedAgent EXCEPT !.tolerated = TRUE]]
               /\ UNCHANGED <<phaseFailure, compensations, gate, runState>>
          ELSE /\ agents' = [agents EXCEPT ![a] = failedAgent]
               /\ gate' = AgentGate(a, err.recoverable)
               /\ runState' = "paused"
               /\ UNCHANGED <<phaseFailure, compensations>>

(* The tool in flight returns (also while paused: a step in flight records its result). *)
ToolReturns ==
    /\ worker = "busy"
    /\ inFlight.kind = "step"
    /\ \E outcome \in ToolOutcomes :
          /\ outcome = "timeout" => PhaseOf[inFlight.agent] \in TimedPhases
          /\ outcome = "infra" => <<inFlight.agent, inFlight.step>> \in LlmSteps
          /\ IF outcome = "ok" THEN ToolSucceeded(inFlight.agent, inFlight.step)
             ELSE ToolFailed(inFlight.agent, inFlight.step, outcome)
    /\ worker' = "idle"
    /\ inFlight' = NoWork
    /\ UNCHANGED <<phase, completedPhases, objective, aborted, paused, started, finalStatus, crashes, pauses>>

(* A step found running by a worker that did not start it (its worker died):                 *)
(* idempotent: step.rerun (idempotent) with the same key, and it runs again;                 *)
(* otherwise step.interrupted + gate.opened (recovery). An interrupted step waiting for its   *)
(* operator gets its recovery gate again.                                                     *)
Interrupted ==
    /\ Ready("interrupted")
    /\ LET a == NextAction.agent
           k == NextAction.step
       IN IF StepAt(a, k).status = "running" /\ <<a, k>> \in Idempotent
          THEN /\ worker' = "busy"
               /\ inFlight' = [kind |-> "step", agent |-> a, step |-> k, index |-> 0]
               /\ UNCHANGED <<agents, gate, runState>>
          ELSE /\ agents' = [agents EXCEPT ![a].steps[k + 1] = [@ EXCEPT !.status = "interrupted", !.resumeApproved = FALSE]]
               /\ gate' = [open |-> TRUE, kind |-> "recovery", agent |-> a, phase |-> PhaseOf[a], step |-> k,
                           options |-> RecoveryGateOptions]
               /\ runState' = "paused"
               /\ UNCHANGED <<worker, inFlight>>
    /\ UNCHANGED <<phase, completedPhases, objective, aborted, paused, phaseFailure, phaseExpired, started,
                   completedSteps, compensations, finalStatus, crashes, pauses>>

(* step.rerun (operator): an operator chose resume at the recovery gate. *)
StepRerun ==
    /\ Ready("rerunStep")
    /\ ~phaseExpired
    /\ LET a == NextAction.agent
           k == NextAction.step
       IN /\ agents' = [agents EXCEPT ![a].steps[k + 1] = [@ EXCEPT !.status = "running", !.resumeApproved = FALSE]]
          /\ worker' = "busy"
          /\ inFlight' = [kind |-> "step", agent |-> a, step |-> k, index |-> 0]
    /\ UNCHANGED <<phase, runState, completedPhases, gate, objective, aborted, paused, phaseFailure, phaseExpired,
                   started, completedSteps, compensations, finalStatus, crashes, pauses>>

(* gate.opened (approval): a high-risk step waits for an operator. *)
ApprovalRequested ==
    /\ Ready("requestApproval")
    /\ ~phaseExpired
    /\ gate' = [open |-> TRUE, kind |-> "approval", agent |-> NextAction.agent, phase |-> PhaseOf[NextAction.agent],
                step |-> NextAction.step, options |-> ApprovalGateOptions]
    /\ runState' = "paused"
    /\ UNCHANGED <<phase, agents, completedPhases, objective, aborted, paused, phaseFailure, phaseExpired, started,
                   completedSteps, compensations, finalStatus, worker, inFlight, crashes, pauses>>

(* The failure response of a failed agent that has none yet (a safety net: the engine    *)
(* records it in the failure's own transaction).                                          *)
Responded ==
    /\ Ready("respond")
    /\ LET a == NextAction.agent
       IN IF Tolerated(a, agents[a].error)
          THEN /\ agents' = [agents EXCEPT ![a].tolerated = TRUE]
               /\ UNCHANGED <<gate, runState>>
          ELSE /\ gate' = AgentGate(a, agents[a].error.recoverable)
               /\ runState' = "paused"
               /\ UNCHANGED agents
    /\ UNCHANGED <<phase, completedPhases, objective, aborted, paused, phaseFailure, phaseExpired, started,
                   completedSteps, compensations, finalStatus, worker, inFlight, crashes, pauses>>

(* phase.failed (agents_failed): more than half of the phase's agents failed. *)
PhaseFailed ==
    /\ Ready("failPhase")
    /\ LET p == NextAction.phase
       IN /\ phaseFailure' = [failed |-> TRUE, phase |-> p, reason |-> "agents_failed"]
          /\ compensations' = IF p \in CompensateOnFailure THEN compensations \o Plan(p) ELSE compensations
    /\ runState' = RunStateAfter(gate.open, paused, started, runState, aborted)
    /\ UNCHANGED <<phase, agents, completedPhases, gate, objective, aborted, paused, phaseExpired, started,
                   completedSteps, finalStatus, worker, inFlight, crashes, pauses>>

(* gate.opened (phase): a failed phase waits for an operator. *)
PhaseGateOpened ==
    /\ Ready("respondPhase")
    /\ LET p == NextAction.phase
       IN gate' = [open |-> TRUE, kind |-> "phase", agent |-> Head(PhaseAgents(p)), phase |-> p, step |-> -1,
                   options |-> PhaseGateOptions(p)]
    /\ runState' = "paused"
    /\ UNCHANGED <<phase, agents, completedPhases, objective, aborted, paused, phaseFailure, phaseExpired, started,
                   completedSteps, compensations, finalStatus, worker, inFlight, crashes, pauses>>

(* phase.completed: every agent of the phase is settled (checkpoint). *)
PhaseCompleted ==
    /\ Ready("completePhase")
    /\ completedPhases' = completedPhases \cup {NextAction.phase}
    /\ phaseExpired' = FALSE
    /\ UNCHANGED <<phase, runState, agents, gate, objective, aborted, paused, phaseFailure, started,
                   completedSteps, compensations, finalStatus, worker, inFlight, crashes, pauses>>

(* compensation.started (when pending), then the compensation runs; one found running was   *)
(* interrupted by a crash and runs again (compensations are idempotent by key). Work being   *)
(* undone is no longer evidence: its agent is `undone` for that attempt.                      *)
CompensationStarted ==
    /\ Ready("compensate")
    /\ LET i == NextAction.index
           c == compensations[i]
       IN /\ compensations' = [compensations EXCEPT ![i].status = "running"]
          /\ agents' = IF agents[c.agent].attempt = c.attempt THEN [agents EXCEPT ![c.agent].undone = TRUE] ELSE agents
          /\ worker' = "busy"
          /\ inFlight' = [kind |-> "compensation", agent |-> c.agent, step |-> c.step, index |-> i]
    /\ UNCHANGED <<phase, runState, completedPhases, gate, objective, aborted, paused, phaseFailure,
                   phaseExpired, started, completedSteps, finalStatus, crashes, pauses>>

(* compensation.succeeded / compensation.failed *)
CompensationReturns ==
    /\ worker = "busy"
    /\ inFlight.kind = "compensation"
    /\ \E ok \in BOOLEAN : compensations' = [compensations EXCEPT ![inFlight.index].status = IF ok THEN "succeeded" ELSE "failed"]
    /\ worker' = "idle"
    /\ inFlight' = NoWork
    /\ UNCHANGED <<phase, runState, agents, completedPhases, gate, objective, aborted, paused, phaseFailure,
                   phaseExpired, started, completedSteps, finalStatus, crashes, pauses>>

(* objective.checked: every phase completed; the checks pass or not. *)
ObjectiveChecked ==
    /\ Ready("checkObjective")
    /\ \E passed \in (IF ObjectiveChecks = 0 THEN {TRUE} ELSE BOOLEAN) :
          objective' = [checked |-> TRUE, passed |-> passed]
    /\ UNCHANGED <<phase, runState, agents, completedPhases, gate, aborted, paused, phaseFailure, phaseExpired,
                   started, completedSteps, compensations, finalStatus, worker, inFlight, crashes, pauses>>

(* mission.finished: the final status is derived, never assigned. *)
MissionFinished ==
    /\ Ready("finish")
    /\ finalStatus' = DeriveFinalStatus
    /\ phase' = IF DeriveFinalStatus = "FAILED" THEN "FAILED" ELSE "MISSION_COMPLETED"
    /\ runState' = IF DeriveFinalStatus = "FAILED" THEN "failed" ELSE "completed"
    /\ paused' = FALSE
    /\ UNCHANGED <<agents, completedPhases, gate, objective, aborted, phaseFailure, phaseExpired, started,
                   completedSteps, compensations, worker, inFlight, crashes, pauses>>

(* The worker dies after a step (or compensation) started, before its result: nothing more *)
(* is recorded; its lease runs out.                                                         *)
WorkerCrashes ==
    /\ worker = "busy"
    /\ crashes < MaxCrashes
    /\ worker' = "dead"
    /\ inFlight' = NoWork
    /\ crashes' = crashes + 1
    /\ UNCHANGED <<phase, runState, agents, completedPhases, gate, objective, aborted, paused, phaseFailure,
                   phaseExpired, started, completedSteps, compensations, finalStatus, pauses>>

(* Another worker claims the mission once the dead one's lease expired, and reads its log. *)
LeaseTakeover ==
    /\ worker = "dead"
    /\ worker' = "idle"
    /\ UNCHANGED <<phase, runState, agents, completedPhases, gate, objective, aborted, paused, phaseFailure,
                   phaseExpired, started, completedSteps, compensations, finalStatus, inFlight, crashes, pauses>>

WorkerStep ==
    \/ PhaseStarted \/ PhaseTimedOut \/ AgentStarted \/ StepStarted \/ AgentCompleted \/ ToolReturns
    \/ Interrupted \/ StepRerun \/ ApprovalRequested \/ Responded \/ PhaseFailed \/ PhaseGateOpened
    \/ PhaseCompleted \/ CompensationStarted \/ CompensationReturns \/ ObjectiveChecked \/ MissionFinished

-----------------------------------------------------------------------------
(* Operators *)

(* The retry policy: no retry once an agent used its retries; no retry_phase / restart_phase *)
(* once an agent of the phase did.                                                            *)
PolicyAllows(d) ==
    /\ d = "retry" => agents[gate.agent].attempt <= MaxRetries
    /\ d \in {"retry_phase", "restart_phase"} => \A a \in Agents : PhaseOf[a] = gate.phase => agents[a].attempt <= MaxRetries

ResetPhase(p) ==
    [a \in Agents |-> IF PhaseOf[a] = p
                      THEN [agents[a] EXCEPT !.status = "pending", !.steps = <<>>, !.error = NoError,
                                             !.tolerated = FALSE, !.approvedSteps = {}]
                      ELSE agents[a]]

(* gate.resolved: an operator picks one of the options the open gate offers. *)
GateResolved(d) ==
    /\ gate.open
    /\ d \in gate.options
    /\ PolicyAllows(d)
    /\ LET a == gate.agent
           p == gate.phase
       IN CASE d = "retry" ->
                 /\ agents' = [agents EXCEPT ![a].status = "pending"]
                 /\ UNCHANGED <<completedPhases, aborted, phaseFailure, phaseExpired, compensations>>
            [] d = "skip" ->
                 /\ agents' = [agents EXCEPT ![a].status = "skipped"]
                 /\ UNCHANGED <<completedPhases, aborted, phaseFailure, phaseExpired, compensations>>
            [] d = "approve" ->
                 /\ agents' = [agents EXCEPT ![a].approvedSteps = @ \cup {gate.step}]
                 /\ UNCHANGED <<completedPhases, aborted, phaseFailure, phaseExpired, compensations>>
            [] d = "resume" ->
                 /\ agents' = [agents EXCEPT ![a].steps[gate.step + 1].resumeApproved = TRUE]
                 /\ UNCHANGED <<completedPhases, aborted, phaseFailure, phaseExpired, compensations>>
            [] d \in {"retry_phase", "restart_phase"} ->
                 /\ agents' = ResetPhase(p)
                 /\ phaseFailure' = NoPhaseFailure
                 /\ phaseExpired' = FALSE
                 /\ UNCHANGED <<completedPhases, aborted, compensations>>
            [] d = "skip_phase" ->
                 /\ agents' = [x \in Agents |-> IF PhaseOf[x] = p /\ ~Settled(x) THEN [agents[x] EXCEPT !.status = "skipped"] ELSE agents[x]]
                 /\ phaseFailure' = NoPhaseFailure
                 /\ completedPhases' = completedPhases \cup {p}
                 /\ phaseExpired' = FALSE
                 /\ UNCHANGED <<aborted, compensations>>
            [] d = "abort" ->
                 /\ aborted' = TRUE
                 /\ compensations' = compensations \o Plan("none")
                 /\ UNCHANGED <<agents, completedPhases, phaseFailure, phaseExpired>>
    /\ gate' = NoGate
    /\ runState' = RunStateAfter(FALSE, paused, started, runState, aborted')
    /\ UNCHANGED <<phase, objective, paused, started, completedSteps, finalStatus, worker, inFlight, crashes, pauses>>

(* mission.paused (operator): at any boundary, also while a tool runs. *)
MissionPaused ==
    /\ ~IsTerminal
    /\ ~paused
    /\ pauses < MaxPauses
    /\ paused' = TRUE
    /\ pauses' = pauses + 1
    /\ runState' = "paused"
    /\ UNCHANGED <<phase, agents, completedPhases, gate, objective, aborted, phaseFailure, phaseExpired, started,
                   completedSteps, compensations, finalStatus, worker, inFlight, crashes>>

(* mission.resumed *)
MissionResumed ==
    /\ paused
    /\ paused' = FALSE
    /\ runState' = RunStateAfter(gate.open, FALSE, started, runState, aborted)
    /\ UNCHANGED <<phase, agents, completedPhases, gate, objective, aborted, phaseFailure, phaseExpired, started,
                   completedSteps, compensations, finalStatus, worker, inFlight, crashes, pauses>>

OperatorDecides == \E d \in GateDecisions : GateResolved(d)

(* A mission that ended stays as it is (so that TLC's deadlock check finds only real deadlocks). *)
Done == IsTerminal /\ UNCHANGED vars

Next ==
    \/ WorkerStep
    \/ WorkerCrashes
    \/ LeaseTakeover
    \/ OperatorDecides
    \/ MissionPaused
    \/ MissionResumed
    \/ Done

(* Fairness: what MonotonicProgress needs, and nothing more.                               *)
(*  - a worker that holds the lease eventually takes the mission's next action, and a tool  *)
(*    or compensation in flight eventually returns (or its worker crashes);                *)
(*  - a dead worker's lease eventually expires and another worker takes over;               *)
(*  - operators eventually decide at an open gate, and eventually resume a paused mission.  *)
(* No fairness for crashes or pauses: they are finite (MaxCrashes, MaxPauses). Retries are  *)
(* finite by the policy (PolicyAllows). Weak fairness suffices: once held by nothing but    *)
(* finitely many pauses, each of these actions stays enabled until it is taken.            *)
Fairness ==
    /\ WF_vars(WorkerStep)
    /\ WF_vars(LeaseTakeover)
    /\ WF_vars(OperatorDecides)
    /\ WF_vars(MissionResumed)

Spec == Init /\ [][Next]_vars /\ Fairness

-----------------------------------------------------------------------------
(* Properties *)

StepRec == [status : StepStatuses, evidence : BOOLEAN, error : BOOLEAN, resumeApproved : BOOLEAN]
AgentRec == [status : AgentStatuses, attempt : Nat, steps : Seq(StepRec),
             error : [present : BOOLEAN, recoverable : BOOLEAN, infra : BOOLEAN],
             tolerated : BOOLEAN, approvedSteps : SUBSET Steps, undone : BOOLEAN]

TypeOK ==
    /\ phase \in {"MISSION_STARTED", "MISSION_COMPLETED", "FAILED"} \cup Phases
    /\ runState \in {"queued", "running", "paused", "completed", "failed"}
    /\ agents \in [Agents -> AgentRec]
    /\ \A a \in Agents : Len(agents[a].steps) <= NumSteps
    /\ completedPhases \subseteq Phases
    /\ gate \in [open : BOOLEAN, kind : GateKinds \cup {"none"}, agent : Agents \cup {"none"},
                 phase : Phases \cup {"none"}, step : -1..(NumSteps - 1), options : SUBSET GateDecisions]
    /\ objective \in [checked : BOOLEAN, passed : BOOLEAN]
    /\ aborted \in BOOLEAN
    /\ paused \in BOOLEAN
    /\ phaseFailure \in [failed : BOOLEAN, phase : Phases \cup {"none"}, reason : {"agents_failed", "timeout", "none"}]
    /\ phaseExpired \in BOOLEAN
    /\ started \in BOOLEAN
    /\ completedSteps \in Seq([agent : Agents, attempt : Nat, step : Steps])
    /\ compensations \in Seq([agent : Agents, attempt : Nat, step : Steps, status : {"pending", "running", "succeeded", "failed"}])
    /\ finalStatus \in FinalStatuses \cup {"none"}
    /\ worker \in {"idle", "busy", "dead"}
    /\ inFlight \in [kind : {"none", "step", "compensation"}, agent : Agents \cup {"none"}, step : -1..(NumSteps - 1), index : Nat]
    /\ (worker = "busy") <=> (inFlight.kind # "none")
    /\ crashes \in 0..MaxCrashes
    /\ pauses \in 0..MaxPauses

(* Independent of DeriveFinalStatus: every step of the agent succeeded with passing evidence. *)
ProvenByEvidence(a) ==
    /\ agents[a].status = "completed"
    /\ Len(agents[a].steps) = NumSteps
    /\ \A i \in 1..NumSteps : agents[a].steps[i].status = "succeeded" /\ agents[a].steps[i].evidence

(* RFC 001 3.8: no SUCCESS unless every critical task has evidence; PARTIAL_SUCCESS too for  *)
(* critical agents, and SUCCESS needs every agent; a completed agent has evidence for each step. *)
NoSuccessWithoutEvidence ==
    /\ finalStatus \in {"SUCCESS", "PARTIAL_SUCCESS"} =>
          /\ \A a \in Agents : PriorityOf[a] = "critical" => ProvenByEvidence(a)
          /\ ~aborted /\ objective.checked /\ objective.passed
    /\ finalStatus = "SUCCESS" => \A a \in Agents : ProvenByEvidence(a)
    /\ \A a \in Agents : agents[a].status = "completed" => ProvenByEvidence(a)

(* The evidence of work a saga compensation undid does not prove it any more: such an agent    *)
(* cannot count toward SUCCESS, nor (critical) toward PARTIAL_SUCCESS. Found violated by        *)
(* lib/mission/model-check.ts (spec/README.md, Findings) and fixed: an agent is `undone` once a *)
(* compensation of its current attempt starts, and HasValidEvidence requires ~undone.           *)
NoSuccessOnUndoneWork ==
    finalStatus \in {"SUCCESS", "PARTIAL_SUCCESS"} =>
        ~\E i \in 1..Len(compensations) :
            LET c == compensations[i]
            IN /\ c.status = "succeeded"
               /\ agents[c.agent].attempt = c.attempt
               /\ agents[c.agent].status = "completed"
               /\ (finalStatus = "SUCCESS" \/ PriorityOf[c.agent] = "critical")

(* RFC 001 3.8: a tool failure moves its task to FAILED (or RETRY), never SUCCESS.             *)
(* State part: a running attempt has no failed step (agent.failed is in the failure's          *)
(* transaction); a completed agent has none.                                                    *)
NoSilentFailure ==
    \A a \in Agents :
        /\ agents[a].status \in {"running", "completed"} => \A i \in 1..Len(agents[a].steps) : agents[a].steps[i].status # "failed"

(* Step part: in one attempt, a failed step stays failed and its agent never completes; the    *)
(* step that fails takes its agent to failed in the same step.                                  *)
NoSilentFailureStep ==
    [][\A a \in Agents :
          agents'[a].attempt = agents[a].attempt =>
             /\ \A i \in 1..Len(agents[a].steps) :
                   (agents[a].steps[i].status = "failed" /\ i <= Len(agents'[a].steps)) => agents'[a].steps[i].status = "failed"
             /\ (\E i \in 1..Len(agents[a].steps) : agents[a].steps[i].status = "failed") => agents'[a].status # "completed"
             /\ \A i \in 1..Len(agents'[a].steps) :
                   (agents'[a].steps[i].status = "failed" /\ (i > Len(agents[a].steps) \/ agents[a].steps[i].status # "failed"))
                      => agents'[a].status = "failed"
      ]_vars

(* RFC 001 3.2, as the steps record it: a success has evidence and no error; a failure has an error. *)
ToolContract ==
    \A a \in Agents : \A i \in 1..Len(agents[a].steps) :
        /\ agents[a].steps[i].status = "succeeded" => agents[a].steps[i].evidence /\ ~agents[a].steps[i].error
        /\ agents[a].steps[i].status = "failed" => agents[a].steps[i].error

(* runState paused <=> a gate is open or the mission is paused (while it has not ended). *)
RunStateProjection == ~IsTerminal => ((runState = "paused") <=> (gate.open \/ paused))

(* RFC 001 3.3 itself, independently of DeriveFinalStatus (status.ts): evidence counts unless a *)
(* compensation undid (or tried to undo) a step of the agent's current attempt.                 *)
Compensated(a) == \E i \in 1..Len(compensations) :
                      /\ compensations[i].agent = a
                      /\ compensations[i].attempt = agents[a].attempt
                      /\ compensations[i].status # "pending"
RfcFinalStatus ==
    LET proven == {a \in Agents : ProvenByEvidence(a) /\ ~Compensated(a)}
        met == /\ ~aborted /\ objective.checked /\ objective.passed /\ proven # {}
               /\ \A a \in Agents : PriorityOf[a] = "critical" => a \in proven
    IN IF ~met THEN "FAILED" ELSE IF proven = Agents THEN "SUCCESS" ELSE "PARTIAL_SUCCESS"

(* An ended mission's final status is the derived one (and the RFC's), with the matching phase *)
(* and runState, and nothing left to do.                                                        *)
TerminalStatusDerived ==
    /\ IsTerminal =>
          /\ finalStatus = DeriveFinalStatus
          /\ finalStatus = RfcFinalStatus
          /\ phase = (IF finalStatus = "FAILED" THEN "FAILED" ELSE "MISSION_COMPLETED")
          /\ runState = (IF finalStatus = "FAILED" THEN "failed" ELSE "completed")
          /\ ~gate.open /\ ~paused /\ Owed = {}
    /\ ~IsTerminal => finalStatus = "none"

(* Only operators retry, within the policy: the engine never retries on its own. *)
BoundedRetries == \A a \in Agents : agents[a].attempt <= 1 + MaxRetries

(* RFC 001 3.8 MonotonicProgress: every behaviour reaches SUCCESS, PARTIAL_SUCCESS or FAILED  *)
(* (and then stays there), under Fairness.                                                      *)
MonotonicProgress == <>[](IsTerminal /\ finalStatus \in FinalStatuses)

-----------------------------------------------------------------------------
(* The model spec/mission_lifecycle.cfg checks: the mission of lib/mission/model-check.ts      *)
(* (modelDefinition with DEFAULT_BOUNDS): agent i has priority i mod 3 and runs in phase i mod *)
(* 2, so EXECUTION runs critical then optional, and REVIEW runs important.                     *)

ModelAgentOrder == <<"critical", "optional", "important">>
ModelPhaseOrder == <<"EXECUTION", "REVIEW">>
ModelPhaseOf == [a \in {"critical", "important", "optional"} |-> IF a = "important" THEN "REVIEW" ELSE "EXECUTION"]
ModelPriorityOf == [a \in {"critical", "important", "optional"} |-> a]
(* critical: shell (compensate), shell (highRisk); important: http, shell (compensate); optional: llm, http *)
ModelHighRisk == {<<"critical", 1>>}
ModelIdempotent == {<<"important", 0>>, <<"optional", 1>>}
ModelCompensable == {<<"critical", 0>>, <<"important", 1>>}
ModelLlmSteps == {<<"optional", 0>>}
ModelSkippable == {"EXECUTION", "REVIEW"}
ModelCompensateOnFailure == {"EXECUTION"}
ModelTimedPhases == {"EXECUTION", "REVIEW"}
=============================================================================
