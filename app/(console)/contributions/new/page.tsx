import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db/client";
import { getEntry } from "@/db/queries/library";
import { ContributionForm } from "@/components/library-curation/contribution-form";
import { formFromEntry } from "@/components/library-curation/form-model";
import { FAILURE_ID } from "@/lib/library/entry";
import { Breadcrumb } from "@/components/ui/breadcrumb";
import * as ui from "@/components/ui/styles";
import { consolePage } from "@/components/layout/console-page";
import { Refused } from "@/components/layout/page";

export const metadata: Metadata = { title: "Propose a library entry" };

/** /contributions/new: a new entry; /contributions/new?edit=FM-PHY-0001: an edit of that entry, prefilled. */
export default consolePage({ path: "/contributions/new", permission: "library.contribute" }, async (_user, { searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) => {
  const sp = await searchParams;
  const editId = typeof sp.edit === "string" ? sp.edit.trim().toUpperCase() : "";
  const target = editId && FAILURE_ID.test(editId) ? await getEntry(getDb(), editId) : null;
  if (editId && !target) {
    return (
      <div className="grid gap-4">
        <h1 className="text-xl font-[650]">Propose an edit</h1>
        <p className={ui.errorBox} role="alert" data-testid="edit-missing">
          There is no library entry {editId}, so there is nothing to edit. Check the id in the <Link href="/library">library</Link>, or <Link href="/contributions/new">propose a new entry</Link>.
        </p>
      </div>
    );
  }
  return (
    <div className="grid gap-4">
      <header className="flex items-start justify-between gap-4">
        <div>
          <Breadcrumb trail={[{ href: "/contributions", label: "Contributions" }]}>{target ? `Edit ${target.failure_id}` : "New entry"}</Breadcrumb>
          <h1 className="text-xl font-[650]">{target ? `Propose an edit of ${target.failure_id}: ${target.title}` : "Propose a new failure mode"}</h1>
          <p className="text-muted">A reviewer (not you) approves it before it is published as a new library version. The title is optional: without one it is derived from the hidden reality.</p>
        </div>
      </header>
      <ContributionForm targetFailureId={target?.failure_id ?? null} initial={formFromEntry(target as unknown as Record<string, unknown> | null)} />
    </div>
  );
});
