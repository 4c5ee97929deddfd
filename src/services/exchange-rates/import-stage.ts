/**
 * The writes of an exchange rates documents file's chunk, staged in the chunk's batch: each new document as the
 * create stages it (its insert, its lines, its `created` event), each stored document an upsert changes as its
 * attribute update (the entity's) and the lines it adds (src/services/exchange-rates/import-writes.ts). Their undo:
 * created documents deleted (their lines go with them; with `keepChanged`, only while at version 1), changed ones given
 * their columns back and the lines they got removed, while at the version the import left.
 */
import type { ChunkRecord, UndoneChunk } from '../../resources/entities/import-writer';
import { stageCreate } from '../../resources/entities/record-writes';
import { stageDelete, stageUpdate } from '../../resources/entities/record-updates';
import type { CustomValues } from '../../resources/entities/custom-attributes';
import type { TenantUnit, WriteBatch } from '../../tenant/unit-of-work';
import { nameRecords, resolveUnchangedVersions } from '../../resources/entities/import-revert-chain';
import type { RowLine } from './import-rows';
import { stageDocumentLines } from './import-writes';
import { buildLineInserts } from './lines-store';
import { exchangeRatesDocumentStore } from './table';

const store = exchangeRatesDocumentStore;

export interface DocumentCreate {
  readonly id: string;
  readonly values: Readonly<Record<string, unknown>>;
  readonly custom: CustomValues;
  readonly lines: readonly RowLine[];
}

/** A stored document an upsert changes, read at `version`: the columns it sets (their stored values) and the lines it adds. */
export interface DocumentUpdate {
  readonly id: string;
  readonly version: number;
  readonly set: Readonly<Record<string, unknown>>;
  readonly before: Readonly<Record<string, unknown>>;
  readonly lines: readonly RowLine[];
}

/** What the ledger keeps of a document an upsert changed: its version after the import, its columns before, the lines it added. */
interface DocumentChange {
  readonly id: string;
  readonly version: number;
  readonly before: Readonly<Record<string, unknown>>;
  readonly lineIds: readonly string[];
  readonly pairs: readonly string[];
}

const pairOf = (item: RowLine) => `${item.line.fromCurrency}>${item.line.toCurrency}`;

/** The chunk's creates and updates: what the ledger keeps, and the staging of their writes. */
export function stageDocumentWrites(unit: TenantUnit, creates: readonly DocumentCreate[], updates: readonly DocumentUpdate[]) {
  const lineIds = updates.map((update) => update.lines.map(() => crypto.randomUUID()));
  const changed: DocumentChange[] = updates.map((update, index) => {
    const bumps = (Object.keys(update.set).length > 0 ? 1 : 0) + (update.lines.length > 0 ? 1 : 0);
    return {
      id: update.id,
      version: update.version + bumps,
      before: update.before,
      lineIds: lineIds[index] ?? [],
      pairs: update.lines.map(pairOf),
    };
  });
  const stage = (batch: WriteBatch) => {
    for (const create of creates) {
      const row = {
        id: create.id,
        ...create.values,
        customAttributes: JSON.stringify(create.custom),
        isActive: create.values.isActive !== false,
      };
      const lines = create.lines.map((item) => item.line);
      batch.stage(stageCreate(store, { row, extra: buildLineInserts(unit.db, unit.scope, create.id, lines, unit.stamp) }));
    }
    updates.forEach((update, index) => {
      const setting = Object.keys(update.set).length > 0;
      if (setting) batch.stage(stageUpdate(store, { lookup: { by: 'id', id: update.id }, expectedVersion: update.version }, update.set));
      if (update.lines.length === 0) return;
      const ids = lineIds[index] ?? [];
      batch.stage(
        stageDocumentLines({
          parentId: update.id,
          expectedVersion: update.version + (setting ? 1 : 0),
          stamped: setting,
          pairs: update.lines.map(pairOf),
          action: 'added',
          lines: update.lines.map((item, position) => ({ ...item.line, id: ids[position] ?? crypto.randomUUID() })),
        }),
      );
    });
  };
  return { changed, stage };
}

/** The undo of a document an upsert changed (at `version`): its columns back, then the lines it added removed; whether all was written. */
function stageChangeUndo(batch: WriteBatch, change: DocumentChange, version: number): () => boolean {
  const restoring = Object.keys(change.before).length > 0;
  const restore = restoring
    ? batch.stage(stageUpdate(store, { lookup: { by: 'id', id: change.id }, expectedVersion: version }, change.before))
    : undefined;
  const removal =
    change.lineIds.length > 0
      ? batch.stage(
          stageDocumentLines({
            parentId: change.id,
            expectedVersion: version + (restoring ? 1 : 0),
            stamped: restoring,
            pairs: change.pairs,
            action: 'removed',
            ids: change.lineIds,
          }),
        )
      : undefined;
  return () => (restore ? restore.result() !== undefined : true) && (removal ? removal.result() : true);
}

/** The version bumps of a change: its columns, its lines. */
const bumpsOf = (change: DocumentChange) => (Object.keys(change.before).length > 0 ? 1 : 0) + (change.lineIds.length > 0 ? 1 : 0);

/**
 * The undo of a chunk; `keepChanged`: documents changed since the import are left (the version they are unchanged
 * at: the import's, or where undoing later imports left it: revert-chain.ts), and answered by number.
 */
export async function planDocumentsUndo(unit: TenantUnit, chunk: ChunkRecord, keepChanged: boolean) {
  const changes = chunk.changed as DocumentChange[];
  const left = new Map([
    ...chunk.createdIds.map((id): [string, number] => [id, 1]),
    ...changes.map((change): [string, number] => [change.id, change.version]),
  ]);
  const unchanged = keepChanged ? await resolveUnchangedVersions(unit.db, unit.scope, chunk.importId, left) : left;
  const ids = [...left.keys()];
  const names = keepChanged ? await nameRecords(unit.db, unit.scope, { name: 'exchangeRatesDocuments', store }, ids) : [];
  const nameOf = (id: string) => names[ids.indexOf(id)] ?? id;
  return {
    stage(batch: WriteBatch): () => UndoneChunk {
      const deletes = chunk.createdIds.map((id) =>
        batch.stage(stageDelete(store, { lookup: { by: 'id', id }, ...(keepChanged ? { expectedVersion: unchanged.get(id) ?? 1 } : {}) })),
      );
      const versionOf = (change: DocumentChange) => unchanged.get(change.id) ?? change.version;
      const restores = changes.map((change) => stageChangeUndo(batch, change, versionOf(change)));
      return () => {
        const gone = deletes.map((handle) => handle.result());
        const written = restores.map((result) => result());
        const kept = [
          ...chunk.createdIds.filter((_, index) => !gone[index]),
          ...changes.filter((_, index) => !written[index]).map((change) => change.id),
        ];
        const equivalences = changes.flatMap((change, index) =>
          written[index] ? [{ index, from: change.version - bumpsOf(change), to: versionOf(change) + bumpsOf(change) }] : [],
        );
        return {
          deleted: gone.filter(Boolean).length,
          restored: written.filter(Boolean).length,
          kept: keepChanged ? kept.map(nameOf) : [],
          equivalences,
        };
      };
    },
  };
}
