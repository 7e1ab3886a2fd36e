import Link from "next/link";
import type { LibraryEntry } from "@/lib/library/entry";
import { RiskBadge } from "./badges";
import { oneParam, type Params } from "./href";
import * as ui from "@/components/ui/styles";

export interface QueryView {
  results: Array<{ failure_id: string; match_score: number; hypothesis: string; entry?: LibraryEntry }>;
  abstained: boolean;
}

/**
 * "Query as an agent would": the document's four fields (observed_symptom, object_class,
 * force_applied, environmental_context) and the ranked hypotheses with their calibrated match_score.
 */
export function LibraryQueryView({ params, answer, errors }: { params: Params; answer: QueryView | null; errors: Array<{ path: string; message: string }> }) {
  const errorFor = (f: string) => errors.filter((e) => e.path === f || e.path.startsWith(`${f}.`));
  const field = (name: string, label: string, hint: string, multiline = false) => {
    const errs = errorFor(name);
    const id = `lq-${name}`;
    return (
      <div className={ui.field}>
        <label htmlFor={id}>
          {label} <code className="text-muted text-sm">{name}</code>
        </label>
        {multiline ? (
          <textarea id={id} name={name} rows={2} defaultValue={oneParam(params, name)} aria-invalid={errs.length > 0} aria-describedby={`${id}-hint`} maxLength={1000} data-testid={`query-${name}`} />
        ) : (
          <input id={id} type="text" name={name} defaultValue={oneParam(params, name)} aria-invalid={errs.length > 0} aria-describedby={`${id}-hint`} maxLength={300} data-testid={`query-${name}`} />
        )}
        <span id={`${id}-hint`} className="text-muted text-sm">
          {hint}
        </span>
        {errs.map((e) => (
          <span key={e.message} className="text-failed text-sm" role="alert">
            {e.message}
          </span>
        ))}
      </div>
    );
  };
  return (
    <div className="grid gap-4">
      <form method="get" action="/library" className={ui.cx(ui.card, "grid gap-3 px-3.5 py-3 [&_input[type=text]]:px-2 [&_input[type=text]]:py-[5px]")} aria-label="Query the library as an agent would" data-testid="library-query-form">
        <input type="hidden" name="mode" value="query" />
        {field("observed_symptom", "Observed symptom", 'What was observed, as an agent reports it: "0mm displacement on pull action", "git: command not found".', true)}
        <div className="flex flex-wrap gap-2.5 [&>*]:min-w-[140px] [&>*]:flex-1">
          {field("object_class", "Object class", 'The kind of object or tool: "drawer", "http", "kettle".')}
          {field("force_applied", "Force applied", 'What was tried and how hard: "within Class B parameters", "25 N".')}
        </div>
        {field("environmental_context", "Environmental context", 'Comma-separated: "indoor, furniture, wood-frame".')}
        <div className="flex flex-wrap items-center gap-2">
          <button type="submit" className={ui.button("primary")} data-testid="query-submit">
            Rank hypotheses
          </button>
          <span className="text-muted text-sm">Read-only: a query never changes the library.</span>
        </div>
      </form>

      {answer ? (
        answer.abstained || answer.results.length === 0 ? (
          <p className={ui.notice} data-testid="query-abstained">
            <strong>No hypothesis.</strong> Nothing in the library matches well enough, so it abstains rather than guess. In a mission this failure is logged as novel and a contribution draft is created; you can{" "}
            <Link href="/contributions/new">propose an entry</Link>.
          </p>
        ) : (
          <section className="grid gap-2" aria-label="Ranked hypotheses">
            <p className="text-muted text-sm">
              Highest first. <strong>match_score</strong> is calibrated: of hypotheses scored around 0.8, about 80% were right on the labelled queries (see docs/library-ranking.md).
            </p>
            <ol className="m-0 grid list-none gap-2 p-0" data-testid="query-results">
              {answer.results.map((r, i) => (
                <li key={r.failure_id} className={ui.cx(ui.card, "grid grid-cols-[34px_minmax(0,1fr)_130px] items-start gap-3 px-3 py-2.5 max-[1101px]:grid-cols-[26px_minmax(0,1fr)_90px] [&_p]:m-0")} data-testid="query-result" data-id={r.failure_id}>
                  <div className="text-center text-[20px] font-bold text-muted">{i + 1}</div>
                  <div className="grid gap-2">
                    <div className="flex flex-wrap items-center gap-2">
                      <Link className="text-link underline underline-offset-2 font-semibold" href={`/library/${r.failure_id}`}>
                        {r.hypothesis}
                      </Link>
                      <code className="text-muted">{r.failure_id}</code>
                      {r.entry ? <RiskBadge risk={r.entry.risk_level} /> : null}
                      {r.entry ? <span className="text-muted text-sm">{r.entry.category}</span> : null}
                    </div>
                    {r.entry ? <p className="m-0 text-sm text-muted">{r.entry.surface_symptom}</p> : null}
                    {r.entry ? (
                      <p className="text-sm">
                        <span className="text-muted">Probe: </span>
                        {r.entry.diagnostic_probe}
                      </p>
                    ) : null}
                  </div>
                  <div className="grid justify-items-end gap-1" title="match_score (calibrated, 0–1)">
                    <span className="text-[20px] font-bold tabular-nums" data-testid="match-score">
                      {r.match_score.toFixed(2)}
                    </span>
                    <span className="block h-1.5 w-full overflow-hidden rounded-full border border-border bg-surface-2" aria-hidden="true">
                      <span className="block h-full bg-accent" style={{ width: `${Math.round(r.match_score * 100)}%` }} />
                    </span>
                  </div>
                </li>
              ))}
            </ol>
          </section>
        )
      ) : null}
    </div>
  );
}
