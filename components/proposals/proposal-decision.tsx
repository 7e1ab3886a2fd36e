"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useMemo, useRef, useState, useTransition, type KeyboardEvent } from "react";
import { decideProposalAction } from "@/app/(console)/gates/actions";
import type { HITLPrompt } from "@/lib/authority/types";
import { queryKeys } from "../query-keys";
import { actionLine } from "@/lib/views/state-render";
import * as ui from "@/components/ui/styles";

type Args = Record<string, unknown>;

/** Field-level differences between the proposed args and the edited ones (top level; nested values compared as JSON). */
export function argsDiff(before: Args, after: Args): Array<{ field: string; before: string; after: string }> {
  const show = (v: unknown) => (v === undefined ? "(absent)" : JSON.stringify(v));
  return [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]))
    .map((field) => ({ field, before: show(before[field]), after: show(after[field]) }));
}

/** Parses the editor's text: a JSON object, or a specific error. */
export function parseArgs(text: string): { ok: true; args: Args } | { ok: false; message: string } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { ok: false, message: `Not valid JSON: ${(e as Error).message}. Fix the text; nothing was decided.` };
  }
  if (!v || typeof v !== "object" || Array.isArray(v)) return { ok: false, message: "The args must be a JSON object (like {\"path\": \"notes.txt\"}), not a list or a single value." };
  return { ok: true, args: v as Args };
}

/** A refused decision in words: too late (409), a field (400) named with its problem, or the server's message. */
export function decisionErrorText(e: { code: string; message: string; fieldErrors?: Array<{ path: string; message: string }> }): string {
  const fields = (e.fieldErrors ?? []).map((f) => `${f.path || "(input)"}: ${f.message}`);
  if (fields.length) return `Not sent: ${fields.join("; ")}. Nothing was decided.`;
  if (e.code === "conflict") return `Too late: ${e.message} The inbox refreshes with what happened.`;
  return e.message;
}

/**
 * A proposal gate's HITL prompt (FDR-N017) and approve-with-modification: a JSON editor prefilled with the
 * proposed args, checked as you type (JSON) and by the authority on send (the tool's schema, the rules: deny
 * still wins), with the diff against the original. The approval binds to the digest of the args sent.
 */
export function ProposalDecision({
  proposalId,
  prompt,
  missionId,
  canDecide,
  open,
  onOpenChange,
  onApproved,
}: {
  proposalId: string;
  prompt: HITLPrompt;
  missionId: string;
  canDecide: boolean;
  /** The editor is open (the gate panel opens it on its M shortcut too). */
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onApproved?: (argsDigest: string | null) => void;
}) {
  const proposal = prompt.yourProposal as { action: { tool: string; args: Args }; argsDigest: string; actorId: string };
  const original = proposal.action.args;
  const editorRef = useRef<HTMLTextAreaElement>(null);
  const modifyRef = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(open);
  const [text, setText] = useState(() => JSON.stringify(original, null, 2));
  const [note, setNote] = useState("");
  const [serverError, setServerError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const queryClient = useQueryClient();
  const ids = { editor: useId(), note: useId(), error: useId(), keys: useId(), heading: useId() };
  const parsed = useMemo(() => parseArgs(text), [text]);
  const diff = parsed.ok ? argsDiff(original, parsed.args) : [];
  const modifiable = prompt.options.some((o) => o.type === "modify");
  const error = !parsed.ok ? parsed.message : serverError;
  const [tooLate, setTooLate] = useState(false);

  // Opening moves focus into the editor; closing (Cancel, Escape) gives it back to the Modify button.
  useEffect(() => {
    if (open && !wasOpen.current) editorRef.current?.focus();
    if (!open && wasOpen.current) modifyRef.current?.focus();
    wasOpen.current = open;
  }, [open]);

  function onEditorKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (e.key === "Escape") {
      e.preventDefault();
      onOpenChange(false);
    } else if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      send();
    }
  }

  function send() {
    if (!parsed.ok || diff.length === 0 || pending || tooLate) return;
    setServerError(null);
    startTransition(async () => {
      const r = await decideProposalAction({ proposalId, decision: "modify", args: parsed.args, note: note.trim() || null });
      if (r.status === "ok") {
        setDone(`Approved with modified args (digest ${String(r.data.argsDigest).slice(7, 19)}…). The worker runs exactly these args.`);
        onApproved?.(r.data.argsDigest);
      } else {
        setServerError(decisionErrorText(r.error));
        if (r.error.code === "conflict") setTooLate(true);
      }
      await Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.missions.detail(missionId) }), queryClient.invalidateQueries({ queryKey: queryKeys.gates.all })]);
    });
  }

  return (
    <div className="grid gap-2 [&_p]:mt-0 [&_p]:mb-1" data-testid="proposal-prompt">
      <p>
        <strong>Situation: </strong>
        {prompt.situation}
      </p>
      <p>
        <strong>Proposal: </strong>
        <code>{actionLine(proposal.action)}</code> <span className="text-muted text-sm">by {proposal.actorId}</span>
      </p>
      <p>
        <strong>Why it waits: </strong>
        <span className={ui.badge("paused")}>{prompt.whyPending.reason}</span> {String(prompt.whyPending.details.reason ?? "")}
      </p>
      {canDecide && modifiable && !done ? (
        open ? (
          <div className="grid gap-2 rounded-md border border-accent bg-surface px-3 py-2.5" role="group" aria-labelledby={ids.heading}>
            <p id={ids.heading} className="m-0 text-[13.5px] font-[650]">
              Approve with modified args
            </p>
            <div className={ui.field}>
              <label htmlFor={ids.editor}>Args that will run instead (JSON)</label>
              <textarea
                ref={editorRef}
                id={ids.editor}
                className="font-mono text-sm leading-normal"
                rows={Math.min(14, text.split("\n").length + 1)}
                value={text}
                onChange={(e) => {
                  setText(e.target.value);
                  if (!tooLate) setServerError(null);
                }}
                onKeyDown={onEditorKeyDown}
                aria-invalid={error ? true : undefined}
                aria-describedby={`${ids.keys}${error ? ` ${ids.error}` : ""}`}
                spellCheck={false}
                data-testid="proposal-args-editor"
              />
            </div>
            {error ? (
              <p id={ids.error} className={ui.result.error} role="alert" data-testid="args-error">
                {error}
              </p>
            ) : null}
            {diff.length ? (
              <ul className="m-0 grid gap-[3px] rounded-md border border-border bg-surface-2 py-2 pr-2.5 pl-[26px] text-sm [&_del]:text-failed [&_del]:line-through [&_del]:decoration-1 [&_del]:wrap-anywhere [&_ins]:font-semibold [&_ins]:text-success [&_ins]:no-underline [&_ins]:wrap-anywhere" aria-label="Changes against the proposal" data-testid="args-diff">
                {diff.map((d) => (
                  <li key={d.field}>
                    <code>{d.field}</code>: <del>{d.before}</del> → <ins>{d.after}</ins>
                  </li>
                ))}
              </ul>
            ) : parsed.ok ? (
              <p className="text-muted text-sm">No change yet: edit the args, or choose Approve below to run them as proposed.</p>
            ) : null}
            <div className={ui.field}>
              <label htmlFor={ids.note}>Why you changed them (optional; recorded with the decision and in the audit log)</label>
              <textarea id={ids.note} rows={2} maxLength={2000} value={note} onChange={(e) => setNote(e.target.value)} />
            </div>
            <div className="flex flex-wrap items-center gap-2">
              <button type="button" className={ui.button("primary")} onClick={send} disabled={!parsed.ok || diff.length === 0 || pending || tooLate} aria-keyshortcuts="Control+Enter" data-testid="approve-modified">
                {pending ? "Sending…" : "Approve modified"}
              </button>
              <button type="button" className={ui.button("secondary")} onClick={() => onOpenChange(false)} disabled={pending}>
                Cancel
              </button>
              <span id={ids.keys} className="text-muted text-sm">
                In the editor: Ctrl+Enter approves the modified args, Esc cancels.
              </span>
            </div>
          </div>
        ) : (
          <div className="flex flex-wrap items-center gap-2">
            <button ref={modifyRef} type="button" className={ui.button("secondary")} onClick={() => onOpenChange(true)} aria-keyshortcuts="m" data-testid="modify-proposal">
              Modify before approving…
              <kbd aria-hidden="true">M</kbd>
            </button>
            <span className="text-muted text-sm">Change the args (JSON); the authority checks them again, and what you approve is what runs.</span>
          </div>
        )
      ) : null}
      {done ? (
        <p className={ui.result.ok} role="status" data-testid="modify-result">
          <span aria-hidden="true">✓ </span>
          {done}
        </p>
      ) : null}
    </div>
  );
}
