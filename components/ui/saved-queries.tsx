"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import type { SavedQueryView } from "@/db/queries/saved-queries";
import type { ActionResult } from "@/server/action-result";

/**
 * A saved-queries menu for any filtered page (failure history, audit log): apply a built-in or saved
 * view (a link to `basePath?query`), save the current view (private or shared), delete one's own.
 * A built-in that `needs` a parameter (e.g. the mission) is offered when the current view has it.
 */
export function SavedQueriesMenu(props: {
  basePath: string;
  /** The current view's query string (without `?`). */
  currentQuery: string;
  /** Current values of the view's parameters, for built-ins that need one. */
  current: Record<string, string | undefined>;
  items: readonly SavedQueryView[];
  onSave: (input: { name: string; query: string; shared: boolean }) => Promise<ActionResult<SavedQueryView>>;
  onDelete: (input: { id: string }) => Promise<ActionResult<null>>;
  testId?: string;
}) {
  const { basePath, currentQuery, current, items, onSave, onDelete } = props;
  const router = useRouter();
  const [name, setName] = useState("");
  const [shared, setShared] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [pending, start] = useTransition();

  const hrefOf = (q: SavedQueryView): string | null => {
    let query = q.query;
    if (q.needs) {
      const v = current[q.needs];
      if (!v) return null;
      const sp = new URLSearchParams(query);
      sp.set(q.needs, v);
      query = sp.toString();
    }
    return query ? `${basePath}?${query}` : basePath;
  };

  const save = () =>
    start(async () => {
      const r = await onSave({ name, query: currentQuery, shared });
      if (r.status === "ok") {
        setName("");
        setMessage({ ok: true, text: `Saved "${r.data.name}"${r.data.shared ? " for everyone" : ""}.` });
        router.refresh();
      } else setMessage({ ok: false, text: r.error.fieldErrors?.map((f) => `${f.path}: ${f.message}`).join("; ") || r.error.message });
    });
  const remove = (q: SavedQueryView) =>
    start(async () => {
      const r = await onDelete({ id: q.id });
      setMessage(r.status === "ok" ? { ok: true, text: `Deleted "${q.name}".` } : { ok: false, text: r.error.message });
      if (r.status === "ok") router.refresh();
    });

  return (
    <details className="card sq-menu" data-testid={props.testId ?? "saved-queries"}>
      <summary className="sq-summary">Saved queries ({items.length})</summary>
      <ul className="sq-list">
        {items.map((q) => {
          const href = hrefOf(q);
          return (
            <li key={q.id} className="sq-item">
              {href ? (
                <Link href={href} className="link" data-testid="saved-query-link">
                  {q.name}
                </Link>
              ) : (
                <span className="muted" title={`Filter by ${q.needs} first, or open it from that page.`}>
                  {q.name} <span className="small">(needs a {q.needs})</span>
                </span>
              )}
              <span className="small muted">{q.builtIn ? "built in" : q.mine ? (q.shared ? "yours, shared" : "yours, private") : `shared by ${q.ownerName ?? "someone"}`}</span>
              {q.mine ? (
                <button type="button" className="btn btn-ghost btn-sm" onClick={() => remove(q)} disabled={pending} aria-label={`Delete saved query ${q.name}`}>
                  Delete
                </button>
              ) : null}
            </li>
          );
        })}
      </ul>
      <form
        className="sq-save row"
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
      >
        <label className="field sq-name">
          <span>Save this view as</span>
          <input type="text" value={name} onChange={(e) => setName(e.target.value)} maxLength={80} placeholder="e.g. Timeouts in payments" data-testid="saved-query-name" />
        </label>
        <label className="row small">
          <input type="checkbox" checked={shared} onChange={(e) => setShared(e.target.checked)} /> Share with everyone
        </label>
        <button type="submit" className="btn btn-secondary btn-sm" disabled={pending || !name.trim()} data-testid="saved-query-save">
          Save view
        </button>
      </form>
      {message ? (
        <p className={`result ${message.ok ? "result-ok" : "result-error"}`} role={message.ok ? "status" : "alert"}>
          {message.text}
        </p>
      ) : null}
    </details>
  );
}
