"use client";

import Link from "next/link";
import { useState, useTransition } from "react";
import { proposePatternAction } from "@/app/(console)/patterns/actions";
import * as ui from "@/components/ui/styles";

export interface ProvenPattern {
  id: string;
  when: string;
  then: string;
  confidence: number;
  threshold: number;
}

/**
 * "Propose to library" for proven learned patterns (confidence at or above their threshold): creates a
 * prefilled draft contribution (or opens the one already proposed) and links to it.
 */
export function ProposePatterns({ patterns }: { patterns: ProvenPattern[] }) {
  const [links, setLinks] = useState<Record<string, { id: string; created: boolean }>>({});
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  if (patterns.length === 0) return null;
  return (
    <section className="grid gap-2" aria-labelledby="propose-h" data-testid="propose-patterns">
      <h2 id="propose-h" className="text-[15px] font-[650]">
        Proven patterns for the failure-mode library
      </h2>
      <p className="text-muted text-sm">A pattern whose confidence reached its threshold can become a library entry (source: incident analysis). Proposing creates a prefilled draft you complete and submit for review.</p>
      <ul className="m-0 grid list-none gap-2 p-0">
        {patterns.map((p) => (
          <li key={p.id} className="flex flex-wrap items-center gap-2" data-testid="proven-pattern" data-when={p.when}>
            <code>{p.when}</code> → <span>{p.then.replaceAll("_", " ")}</span>
            <span className="text-muted text-sm">{Math.round(p.confidence * 100)}%</span>
            {links[p.id] ? (
              <Link href={`/contributions/${links[p.id].id}`} data-testid="proposed-link">
                {links[p.id].created ? "Draft created: open it" : "Already proposed: open it"}
              </Link>
            ) : (
              <button
                type="button"
                className={ui.button("secondary", "sm")}
                disabled={pending}
                data-testid="propose-pattern"
                onClick={() =>
                  start(async () => {
                    const r = await proposePatternAction({ id: p.id });
                    if (r.status === "error") setError(r.error.message);
                    else {
                      setError(null);
                      setLinks((l) => ({ ...l, [p.id]: { id: r.data.contributionId, created: r.data.created } }));
                    }
                  })
                }
              >
                Propose to library
              </button>
            )}
          </li>
        ))}
      </ul>
      {error ? (
        <p className={ui.result.error} role="alert">
          ✕ {error}
        </p>
      ) : null}
    </section>
  );
}
