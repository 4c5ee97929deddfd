import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { tenantClient } from '../helpers/api';
import { readHistory, readImport } from '../helpers/imports';
import { uniqueKey } from '../helpers/tenants';

describe('replayed commands (the Durable Object restarted between the D1 write and the answer)', () => {
  const scope = { tenantKey: uniqueKey('acme'), orgKey: uniqueKey('imports-replay') };
  const coordinator = () => env.COORDINATOR.get(env.COORDINATOR.idFromName(`${scope.tenantKey}/${scope.orgKey}`));
  const base = (commandId: string) => ({ ...scope, commandId, requestId: `replay-${commandId}`, by: 'tester' });

  it('applies a command once however often it is delivered', async () => {
    const client = await tenantClient(scope.tenantKey, scope.orgKey);
    const id = crypto.randomUUID();
    const register = {
      ...base(crypto.randomUUID()),
      type: 'imports.register' as const,
      import: { id, importDataTemplate: 'replay', originalFileName: 'r.csv', importName: null, cloudFileName: null },
    };
    const registered = await coordinator().handle(register);
    expect(registered).toMatchObject({ id, key: 1, row: { id, key: 1, importDataState: 1, version: 1, originalFileName: 'r.csv' } });
    expect(await coordinator().handle(register)).toEqual(registered);

    const change = {
      ...base(crypto.randomUUID()),
      type: 'imports.change' as const,
      change: { importId: id, importDataState: 2 as const, detailLog: 'once' },
    };
    expect(await coordinator().handle(change)).toEqual({ status: 'applied' });
    expect(await coordinator().handle(change)).toEqual({ status: 'applied' });
    expect(
      await coordinator().handle({
        ...base(crypto.randomUUID()),
        type: 'imports.change' as const,
        change: { importId: id, importDataState: 3 as const },
      }),
    ).toEqual({ status: 'applied' });

    const revert = { ...base(crypto.randomUUID()), type: 'imports.revert' as const, templateKey: 'replay' };
    const reverted = await coordinator().handle(revert);
    expect(reverted).toMatchObject({ status: 'reverted', id, key: 1 });
    expect(await coordinator().handle(revert)).toEqual(reverted);

    const history = await readHistory(client, id);
    expect(history.map((entry) => entry.kind)).toEqual(['register', 'change', 'change', 'revert']);
    expect(await readImport(client, id)).toMatchObject({ key: 1, version: 4, importDataState: 3, reverted: true, detailLog: 'once' });
  });
});
