"use server";

import { z } from "zod";
import { getDb } from "@/db/client";
import { rollbackLibrary, setEntryDeprecated } from "@/db/queries/library";
import { importLibraryFile } from "@/db/queries/library-io";
import { userActorId } from "@/db/queries/users";
import { FAILURE_ID } from "@/lib/library/entry";
import { LIBRARY_FORMATS, MAX_LIBRARY_FILE_CHARS } from "@/lib/library/io";
import { authedAction } from "@/server/safe-action";

const reason = z.string().trim().min(5, "say why in at least 5 characters (it goes in the changelog)").max(500, "must be at most 500 characters");

/** An admin deprecates or restores an entry with a reason: one new library version (library.manage). */
export const setEntryDeprecatedAction = authedAction(
  { name: "setEntryDeprecated", permission: "library.manage", input: z.object({ failureId: z.string().regex(FAILURE_ID, "must be a failure id like FM-PHY-0001 or PHYS-042"), deprecated: z.boolean(), reason }) },
  async (input, { user, actor }) => {
    const version = await setEntryDeprecated(getDb(), { ...input, authorId: userActorId(user.id), audit: actor });
    return { version, failureId: input.failureId, deprecated: input.deprecated };
  },
);

/** An admin rolls the library back to an earlier version: a new version, history kept (library.manage). */
export const rollbackLibraryAction = authedAction({ name: "rollbackLibrary", permission: "library.manage", input: z.object({ to: z.number().int().min(1, "must be a version number") }) }, async (input, { user, actor }) => {
  const version = await rollbackLibrary(getDb(), { to: input.to, authorId: userActorId(user.id), audit: actor });
  return { version, to: input.to };
});

const importInput = z.object({
  text: z.string().max(MAX_LIBRARY_FILE_CHARS, `the file must be at most ${MAX_LIBRARY_FILE_CHARS.toLocaleString("en")} characters`),
  fileName: z.string().max(200).optional(),
  format: z.enum(LIBRARY_FORMATS).optional(),
  replace: z.boolean(),
  dryRun: z.boolean(),
});

/**
 * An admin previews (`dryRun`) or imports a library file (library.manage). An invalid file is not an
 * action error: its entry errors come back as data, to be listed with position, id, field and line.
 */
export const importLibraryAction = authedAction({ name: "importLibrary", permission: "library.manage", input: importInput }, async (input, { user, actor }) => {
  return importLibraryFile(getDb(), { ...input, authorId: userActorId(user.id), audit: actor });
});
