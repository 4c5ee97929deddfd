import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { CallResult, Problem } from '../helpers/api';
import { decideTransition } from '../../src/services/imports/states';
import type { ImportState } from '../../src/services/imports/states';
import { changeImport, IMPORTS, readHistory, readImport, registerImport, registerImportIn } from '../helpers/imports';
import { freshTenant } from '../helpers/tenants';

interface Sent {
  tag: string;
  state: number;
  result: CallResult;
}

describe('concurrency (all through the tenant/org Durable Object)', () => {
  it('loses, duplicates and reorders no transition, and gives every registration a distinct key without gaps', async () => {
    const client = await freshTenant('acme');
    const target = await registerImport(client, { importDataTemplate: 'race' });
    const busy = [await registerImportIn(client, 2), await registerImportIn(client, 2), await registerImportIn(client, 2)];

    // One import: a start, 20 progress updates and one Succeeded, all at once and in no particular order.
    const plan = [
      { tag: 'start', state: 2 },
      ...Array.from({ length: 20 }, (_, index) => ({ tag: `p${index}`, state: 2 })),
      { tag: 'done', state: 3 },
    ];
    const changes = plan.map(async ({ tag, state }): Promise<Sent> => ({
      tag,
      state,
      result: await changeImport(client, { importId: target, importDataState: state, detailLog: tag }, `race-${tag}`),
    }));
    // Other imports progressing at the same time: every one of these must be applied.
    const progress = busy.flatMap((id) =>
      Array.from({ length: 8 }, (_, index) => changeImport(client, { importId: id, detailLog: `step ${index}` })),
    );
    // And 25 registrations.
    const registrations = Array.from({ length: 25 }, () =>
      client.call<string>('POST', IMPORTS, { body: { importDataTemplate: 'race-reg' } }),
    );

    const [sent, progressed, registered] = await Promise.all([Promise.all(changes), Promise.all(progress), Promise.all(registrations)]);

    // Registrations: all created, keys 5..29 exactly once each (1 target + 3 busy came first).
    expect(registered.map((result) => result.status)).toEqual(registered.map(() => 201));
    const keys = await Promise.all(registered.map(async (result) => (await readImport(client, result.body)).key));
    expect([...keys].sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, index) => index + 5));
    const { results } = await env.DB.prepare('SELECT key FROM import_data_infos WHERE tenant_key = ? AND org_key = ? ORDER BY key')
      .bind(client.tenant, client.org)
      .all<{ key: number }>();
    expect(results.map((row) => row.key)).toEqual(Array.from({ length: 29 }, (_, index) => index + 1));

    // Progress of the busy imports: all 8 applied to each, none lost.
    expect(progressed.every((result) => result.status === 200)).toBe(true);
    for (const id of busy) {
      const history = await readHistory(client, id);
      expect(history.map((entry) => entry.seq)).toEqual(Array.from({ length: 10 }, (_, index) => index + 1));
      expect((await readImport(client, id)).version).toBe(10);
    }

    // The raced import: every answer is 200 (applied) or 400 InvalidStateTransition (refused).
    const accepted = sent.filter((item) => item.result.status === 200);
    const refused = sent.filter((item) => item.result.status !== 200);
    for (const item of refused) {
      expect(item.result.status, item.result.text).toBe(400);
      expect((item.result.body as Problem).code).toBe('InvalidStateTransition');
    }
    const history = await readHistory(client, target);
    const changesOnly = history.slice(1);
    // Each accepted request is in the history exactly once; no refused request is.
    expect(changesOnly.map((entry) => entry.requestId).sort()).toEqual(accepted.map((item) => `race-${item.tag}`).sort());
    // The history is one unbroken path of allowed transitions, numbered without gaps.
    expect(history.map((entry) => entry.seq)).toEqual(history.map((_, index) => index + 1));
    let state: number = 1;
    for (const entry of changesOnly) {
      expect(entry.fromState).toBe(state);
      expect(decideTransition(state as ImportState, entry.toState as ImportState)).toBe('apply');
      state = entry.toState;
    }
    // The stored import is the outcome of the last change in that order.
    const last = changesOnly.at(-1);
    const stored = await readImport(client, target);
    expect(stored.importDataState).toBe(state);
    expect(stored.version).toBe(history.length);
    expect(stored.detailLog).toBe(last?.requestId?.replace('race-', ''));
    expect(stored.lastProgressUpdateOn).toBe(last?.changedOn);
    // The first Processing request to arrive started it; a Succeeded that came before any start was refused.
    expect(accepted.length).toBeGreaterThanOrEqual(1);
    const done = sent.find((item) => item.tag === 'done');
    if (done?.result.status === 200) expect(state).toBe(3);
    else expect(state).toBe(2);
  }, 30_000);
});
