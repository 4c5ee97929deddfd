// Demo data of the import data infos service. Registrations always make a new import, so this module seeds
// through its `seed` hook, and only when the demo tenant/org has no import of the demo templates yet.
export const referenceData = {};

export const records = [];

const IMPORTS = '/corePatterns/importDataInfos';

/** Registers an import and walks it through `states` with changeDataImport. */
async function addImport(send, body, changes) {
  const created = await send('POST', IMPORTS, body);
  if (created.status !== 201) throw new Error(`Seeding an import failed: ${created.status} ${created.text}`);
  const importId = JSON.parse(created.text);
  for (const change of changes) {
    const result = await send('POST', `${IMPORTS}/changeDataImport`, { importId, ...change });
    if (result.status !== 200) throw new Error(`Seeding changeDataImport failed: ${result.status} ${result.text}`);
  }
}

export async function seed(send) {
  const existing = await send('GET', `${IMPORTS}/getLastImports?templateId=customers&top=1`);
  if (existing.status !== 200) throw new Error(`Reading imports failed: ${existing.status} ${existing.text}`);
  if (JSON.parse(existing.text).length > 0) return 0;
  await addImport(send, { importDataTemplate: 'customers', originalFileName: 'customers-2026-02.xlsx', importName: 'Customers February' }, [
    { importDataState: 'Processing', cloudFileName: 'imports/customers-2026-02.xlsx', detailLog: 'Read 120 rows' },
    { importDataState: 'Processing', detailLog: 'Imported 60 of 120 rows' },
    { importDataState: 'Succeeded', detailLog: 'Imported 120 of 120 rows', drillDownOperation: 'customers' },
  ]);
  await addImport(send, { importDataTemplate: 'customers', originalFileName: 'customers-2026-03.xlsx', importName: 'Customers March' }, [
    { importDataState: 'Processing', detailLog: 'Imported 10 of 95 rows' },
  ]);
  await addImport(send, { importDataTemplate: 'items', originalFileName: 'items.csv', importName: 'Items' }, [
    { importDataState: 'Failed', error: 'Row 7: unknown unit of measure "BOXX".' },
  ]);
  await addImport(send, { importDataTemplate: 'items', originalFileName: 'items-fixed.csv', importName: 'Items (fixed)' }, []);
  return 4;
}
