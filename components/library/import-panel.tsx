"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { importLibraryAction } from "@/app/(console)/library/actions";
import type { ImportFileResult } from "@/db/queries/library-io";
import { describeFileError, entriesCount } from "@/lib/library/io";
import * as ui from "@/components/ui/styles";

type Source = { text: string; fileName?: string };

const COUNT_LABELS = [
  ["added", "Added", "success"],
  ["edited", "Edited", "running"],
  ["unchanged", "Unchanged", "neutral"],
  ["deprecated", "Deprecated", "failed"],
  ["restored", "Restored", "partial"],
] as const;

/**
 * Admin import: upload or paste a library file (JSON or YAML, the document's schema), preview what it
 * changes (nothing is written), then import it as one new version. Errors list entry, id, field, line.
 */
export function ImportPanel() {
  const router = useRouter();
  const [source, setSource] = useState<Source>({ text: "" });
  const [replace, setReplace] = useState(false);
  const [preview, setPreview] = useState<{ key: string; result: ImportFileResult } | null>(null);
  const [done, setDone] = useState<ImportFileResult | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const key = `${replace}:${source.fileName ?? ""}:${source.text}`;
  const previewOk = preview && preview.key === key && preview.result.ok ? preview.result : null;

  const run = (dryRun: boolean) =>
    start(async () => {
      setActionError(null);
      if (!dryRun) setDone(null);
      const r = await importLibraryAction({ text: source.text, fileName: source.fileName, replace, dryRun });
      if (r.status === "error") {
        setActionError([r.error.message, ...(r.error.fieldErrors ?? []).map((f) => `${f.path}: ${f.message}`)].join(" "));
        return;
      }
      if (dryRun) setPreview({ key, result: r.data });
      else {
        setDone(r.data);
        setPreview(null);
        router.refresh();
      }
    });

  return (
    <div className="grid gap-4">
      <form
        className={ui.cx(ui.card, "grid gap-2 px-3.5 py-3")}
        data-testid="import-form"
        onSubmit={(e) => {
          e.preventDefault();
          run(true);
        }}
      >
        <h2 className="text-[15px] font-[650]">Import a library file</h2>
        <p className="text-muted text-sm">
          A JSON array or a YAML list of entries in the document&rsquo;s schema (<code>failure_id</code>, <code>category</code>, <code>surface_symptom</code>, <code>hidden_reality</code>, <code>diagnostic_probe</code>, <code>resolution_path</code>,{" "}
          <code>risk_level</code>, <code>context_tags</code>, and optionally <code>title</code>, <code>risk_notes</code>, <code>references</code>, <code>source</code>, <code>probe_action</code>, <code>resolution_action</code>). New ids are added,
          existing ones edited; ids never change.
        </p>
        <div className={ui.field}>
          <label htmlFor="lib-file">Upload a file</label>
          <input
            id="lib-file"
            type="file"
            accept=".json,.yaml,.yml,application/json,application/yaml,text/yaml"
            data-testid="import-file"
            onChange={async (e) => {
              const f = e.target.files?.[0];
              if (f) setSource({ text: await f.text(), fileName: f.name });
            }}
          />
        </div>
        <div className={ui.field}>
          <label htmlFor="lib-paste">…or paste it</label>
          <textarea id="lib-paste" className="font-mono text-sm leading-normal" rows={10} value={source.text} onChange={(e) => setSource({ text: e.target.value })} placeholder={"- failure_id: FM-PHY-0500\n  category: Physical\n  surface_symptom: …"} spellCheck={false} data-testid="import-text" />
          {source.fileName ? <span className="text-muted text-sm">From {source.fileName} (editing the text makes it a paste).</span> : null}
        </div>
        <label className="flex cursor-pointer items-baseline gap-1.5 text-[13px]">
          <input type="checkbox" checked={replace} onChange={(e) => setReplace(e.target.checked)} data-testid="import-replace" /> Replace the library: the file&rsquo;s entries become the whole published library; entries not in the file are deprecated (never deleted)
        </label>
        <div className="flex flex-wrap items-center gap-2">
          <button type="submit" className={ui.button("secondary")} disabled={pending || !source.text.trim()} data-testid="import-preview">
            {pending ? "Working…" : "Preview changes"}
          </button>
          <button type="button" className={ui.button("primary")} disabled={pending || !previewOk || !Object.entries(previewOk.counts).some(([k, n]) => k !== "unchanged" && n > 0)} onClick={() => run(false)} data-testid="import-apply">
            Import as a new version
          </button>
          {!previewOk && source.text.trim() ? <span className="text-muted text-sm">Preview first: the import publishes exactly what the preview shows.</span> : null}
        </div>
      </form>

      {actionError ? (
        <p className={ui.result.error} role="alert" data-testid="import-action-error">
          ✕ {actionError}
        </p>
      ) : null}

      {preview && preview.key === key ? <ImportResult result={preview.result} replace={replace} /> : null}

      <div aria-live="polite" role="status">
        {done?.ok ? (
          <p className={ui.result.ok} data-testid="import-done">
            ✓{" "}
            {done.version ? (
              <>
                Imported {entriesCount(done.entries)} as{" "}
                <Link className="text-link underline underline-offset-2" href={`/library/versions#v${done.version}`}>
                  library version {done.version}
                </Link>
                : {done.counts.added} added, {done.counts.edited} edited, {done.counts.deprecated} deprecated{done.counts.restored ? `, ${done.counts.restored} restored` : ""}.
              </>
            ) : (
              <>Nothing changed: the library already holds these entries.</>
            )}
          </p>
        ) : null}
      </div>
      {done && !done.ok ? <ImportResult result={done} replace={replace} /> : null}
    </div>
  );
}

function ImportResult({ result, replace }: { result: ImportFileResult; replace: boolean }) {
  if (!result.ok) {
    return (
      <div className={ui.errorBox} role="alert" data-testid="import-errors">
        <p>
          <strong>
            The file is not valid ({result.errors.length} error{result.errors.length === 1 ? "" : "s"})
          </strong>
          ; nothing would be imported. Fix these and preview again:
        </p>
        <ul className={ui.fieldErrors}>
          {result.errors.map((e, i) => (
            <li key={i} data-testid="import-error">
              {describeFileError(e)}
            </li>
          ))}
        </ul>
      </div>
    );
  }
  const ids = result.ids;
  return (
    <section className={ui.cx(ui.card, "grid gap-2 px-3.5 py-3")} data-testid="import-preview-result" aria-label="Preview">
      <h2 className="text-[15px] font-[650]">
        Preview: {entriesCount(result.entries)} in the {result.format.toUpperCase()} file{replace ? ", replacing the library" : ""}
      </h2>
      <dl className="m-0 grid grid-cols-[repeat(auto-fill,minmax(130px,1fr))] gap-3">
        {COUNT_LABELS.map(([k, label, tone]) => (
          <div key={k} className={ui.metricCard} data-testid={`count-${k}`} data-value={result.counts[k]}>
            <dt className={ui.metricLabel}>{label}</dt>
            <dd className={ui.cx("m-0", ui.metricValue, result.counts[k] ? ui.TONE_TEXT[tone] : "")}>{result.counts[k]}</dd>
          </div>
        ))}
      </dl>
      {(["added", "edited", "deprecated", "restored"] as const).map((k) =>
        ids[k].length ? (
          <p key={k} className="text-sm">
            <span className="text-muted">{k[0].toUpperCase() + k.slice(1)}: </span>
            {ids[k].slice(0, 30).map((id, i) => (
              <span key={id}>
                {i ? ", " : ""}
                <code>{id}</code>
              </span>
            ))}
            {ids[k].length > 30 ? ` and ${ids[k].length - 30} more` : ""}
          </p>
        ) : null,
      )}
      {result.counts.deprecated ? <p className={ui.cx(ui.banner.warning, "text-sm")}>{result.counts.deprecated} published entries are not in the file and will be deprecated (they keep their history and can be restored).</p> : null}
    </section>
  );
}
