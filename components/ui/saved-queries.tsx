"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import type { SavedQueryView } from "@/db/queries/saved-queries";
import type { ActionResult } from "@/server/action-result";
import * as ui from "@/components/ui/styles";

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
    <details className={ui.cx(ui.card, "min-w-[320px] px-3 py-2")} data-testid={props.testId ?? "saved-queries"}>
      <summary className="cursor-pointer font-semibold">Saved queries ({items.length})</summary>
      <ul className="mx-0 my-2 flex list-none flex-col gap-1 p-0">
        {items.map((q) => {
          const href = hrefOf(q);
          return (
            <li key={q.id} className="flex flex-wrap items-baseline gap-2">
              {href ? (
                <Link href={href} className="text-link underline underline-offset-2" data-testid="saved-query-link">
                  {q.name}
                </Link>
              ) : (
                <span className="text-muted" title={`Filter by ${q.needs} first, or open it from that page.`}>
                  {q.name} <span className="text-sm">(needs a {q.needs})</span>
                </span>
              )}
              <span className="text-sm text-muted">{q.builtIn ? "built in" : q.mine ? (q.shared ? "yours, shared" : "yours, private") : `shared by ${q.ownerName ?? "someone"}`}</span>
              {q.mine ? (
                <button type="button" className={ui.button("ghost", "sm")} onClick={() => remove(q)} disabled={pending} aria-label={`Delete saved query ${q.name}`}>
                  Delete
                </button>
              ) : null}
            </li>
          );
        })}
      </ul>
      <form
        className="flex flex-wrap items-center gap-2 border-t border-border pt-2"
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
      >
        <label className={ui.cx(ui.field, "min-w-[180px] flex-1")}>
          <span>Save this view as</span>
          <input type="text" value={name} onChange={(e) => setName(e.target.value)} maxLength={80} placeholder="e.g. Timeouts in payments" data-testid="saved-query-name" />
        </label>
        <label className="flex flex-wrap items-center gap-2 text-sm">
          <input type="checkbox" checked={shared} onChange={(e) => setShared(e.target.checked)} /> Share with everyone
        </label>
        <button type="submit" className={ui.button("secondary", "sm")} disabled={pending || !name.trim()} data-testid="saved-query-save">
          Save view
        </button>
      </form>
      {message ? (
        <p className={message.ok ? ui.result.ok : ui.result.error} role={message.ok ? "status" : "alert"}>
          {message.text}
        </p>
      ) : null}
    </details>
  );
}
