/**
 * Where an import's file is stored: a key derived from the import itself (its tenant, org and id), so that a file
 * import only ever reads the file stored for it. The processing reads that key and refuses an import whose
 * `cloudFileName` names any other (changeDataImport cannot change it: src/services/imports/commands.ts).
 */
import { FileProblem } from './problem';

interface ImportOwner {
  readonly tenantKey: string;
  readonly orgKey: string;
  readonly importId: string;
}

/** `imports/{tenantKey}/{orgKey}/{importId}` (keys percent-encoded). */
export function buildImportFileKey(owner: ImportOwner): string {
  return `imports/${encodeURIComponent(owner.tenantKey)}/${encodeURIComponent(owner.orgKey)}/${owner.importId}`;
}

/** The import's own key; a FileProblem when the import names another file. */
export function requireOwnFileKey(owner: ImportOwner, named: string | null): string {
  const own = buildImportFileKey(owner);
  if (named !== own) throw new FileProblem('importFileNotOwn', { key: (named ?? '(none)').slice(0, 200) });
  return own;
}
