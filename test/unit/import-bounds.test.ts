/**
 * The bounds of import files (issue 41), read by the file readers alone: each attack file stops at its bound, named,
 * before the work it would cost; files within the bounds read as before. The same files go through both runtimes in
 * test/integration/import-bounds.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { buildAttackFiles, buildWorkbook } from '../../bench/lib/attack-files.mjs';
import type { AttackFile } from '../../bench/lib/attack-files.mjs';
import { boundCsvRecords, checkRecordBounds } from '../../src/services/imports/files/bounds';
import { scanUpload } from '../../src/services/imports/files/upload-scan';
import { message } from '../../src/messages/catalogue';
import { readFileRecords } from '../../src/services/imports/files/format';
import type { FileFormat } from '../../src/services/imports/files/format';
import { MAX_IMPORT_ROWS, MAX_RECORD_CHARS, MAX_ROW_CELLS } from '../../src/services/imports/files/limits';
import { FileProblem } from '../../src/services/imports/files/problem';
import { MAX_XLSX_COLUMNS } from '../../src/services/imports/files/xlsx';
import { MAX_SHARED_STRING_CHARS, MAX_SHARED_STRINGS, SharedStrings } from '../../src/services/imports/files/xlsx-strings';
import { MAX_XLSX_DECOMPRESSED_BYTES } from '../../src/services/imports/files/xml-part';

function streamOf(bytes: Uint8Array, size = 64 * 1024): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.byteLength) controller.close();
      else {
        controller.enqueue(bytes.slice(offset, offset + size));
        offset += size;
      }
    },
  });
}

function formatOf(file: AttackFile): FileFormat {
  if (file.contentType === 'text/csv') return 'csv';
  if (file.contentType === 'application/json') return 'json';
  if (file.contentType === 'application/x-ndjson') return 'ndjson';
  return 'xlsx';
}

async function readProblem(format: FileFormat, bytes: Uint8Array): Promise<FileProblem | undefined> {
  try {
    for await (const record of readFileRecords(format, async () => streamOf(bytes))) expect(record).toBeDefined();
  } catch (error) {
    if (error instanceof FileProblem) return error;
    throw error;
  }
  return undefined;
}

describe('the attack files', () => {
  const files = buildAttackFiles();

  // csv-rows is refused at upload (below); reading a million CSV rows through the parser takes tens of seconds here.
  const read = files.filter((file) => file.name !== 'csv-rows');

  it.each(read.map((file) => [file.name, file] as const))('%s stops at its bound, named, within seconds', async (_name, file) => {
    const started = performance.now();
    const problem = await readProblem(formatOf(file), file.bytes);
    expect(problem?.problem.key).toBe(file.key);
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('names the bound and where: the cell past XFD, the row too wide or too long, the counts', async () => {
    const byName = (name: string) => files.find((file) => file.name === name) as AttackFile;
    const column = await readProblem('xlsx', byName('xlsx-column-zzzz').bytes);
    expect(column?.problem.params).toEqual({ reference: 'ZZZZ3', max: 'XFD' });
    expect((await readProblem('xlsx', byName('xlsx-wide-row').bytes))?.problem.params).toEqual({ row: 2, max: MAX_ROW_CELLS });
    expect((await readProblem('csv', byName('csv-long-record').bytes))?.problem.params).toEqual({ row: 2, max: MAX_RECORD_CHARS });
    expect((await readProblem('json', byName('json-long-item').bytes))?.problem.params).toEqual({ row: 2, max: MAX_RECORD_CHARS });
    expect((await readProblem('ndjson', byName('ndjson-wide-item').bytes))?.problem.params).toEqual({ row: 2, max: MAX_ROW_CELLS });
    expect((await readProblem('xlsx', byName('xlsx-shared-strings-12m').bytes))?.problem.params).toEqual({ max: MAX_SHARED_STRINGS });
    expect((await readProblem('xlsx', byName('xlsx-shared-text').bytes))?.problem.params).toEqual({ max: MAX_SHARED_STRING_CHARS });
    expect((await readProblem('xlsx', byName('xlsx-zip-bomb').bytes))?.problem.params).toEqual({ max: MAX_XLSX_DECOMPRESSED_BYTES });
    expect((await readProblem('xlsx', byName('xlsx-rows').bytes))?.problem.params).toEqual({ max: MAX_IMPORT_ROWS });
  });
});

describe('within the bounds', () => {
  it('reads a worksheet row up to its last written cell: an empty cell far right adds nothing, a gap is filled', async () => {
    const rows = [
      { text: '<row><c r="A2" t="inlineStr"><is><t>k</t></is></c><c r="C2"><v>3</v></c><c r="XFD2" s="4"/></row>', count: 1 },
      { text: '<row><c t="inlineStr"><is><t>a</t></is></c><c/><c><v>2</v></c></row>', count: 1 },
    ];
    const records: unknown[] = [];
    for await (const record of readFileRecords('xlsx', async () => streamOf(buildWorkbook(rows)))) records.push(record);
    expect(records.slice(1)).toEqual([
      { row: 2, values: { templateKey: 'k', subject: '', emailTemplateType: '3' } },
      { row: 3, values: { templateKey: 'a', subject: '', emailTemplateType: '2' } },
    ]);
    expect(MAX_XLSX_COLUMNS).toBe(16_384);
  });

  it('takes a record of MAX_RECORD_CHARS and a row of MAX_ROW_CELLS cells', async () => {
    const body = 'b'.repeat(MAX_RECORD_CHARS - 40);
    const csv = `templateKey,notificationBody\nk,"${body}"\n${'x,'.repeat(MAX_ROW_CELLS - 1)}x\n`;
    const records: { row: number }[] = [];
    for await (const record of readFileRecords('csv', async () => streamOf(new TextEncoder().encode(csv)))) {
      if ('row' in record) records.push(record);
    }
    expect(records.map((record) => record.row)).toEqual([2, 3]);
  });

  it('counts CSV record characters outside quotes only up to a line break (quotes and doubled quotes kept)', async () => {
    const bound = async (text: string, max: number) => {
      const chunks: string[] = [];
      const reader = new Blob([text]).stream().pipeThrough(new TextDecoderStream()).pipeThrough(boundCsvRecords(max)).getReader();
      for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
      return chunks.join('');
    };
    await expect(bound('abc\ndef\n"a\nb"\n', 5)).resolves.toBe('abc\ndef\n"a\nb"\n');
    await expect(bound('"a""\nbc"\n', 6)).rejects.toMatchObject({ problem: { key: 'importRecordTooLong' } });
    await expect(bound('abcdef\n', 5)).rejects.toMatchObject({ problem: { key: 'importRecordTooLong' } });
  });

  it('refuses a row past MAX_IMPORT_ROWS and a record past MAX_ROW_CELLS', () => {
    expect(checkRecordBounds(MAX_IMPORT_ROWS, MAX_ROW_CELLS)).toBeUndefined();
    expect(() => checkRecordBounds(MAX_IMPORT_ROWS + 1, 1)).toThrow(
      expect.objectContaining({ problem: message('importTooManyRows', { max: MAX_IMPORT_ROWS }) }),
    );
    expect(() => checkRecordBounds(7, MAX_ROW_CELLS + 1)).toThrow(
      expect.objectContaining({ problem: message('importRowTooWide', { row: 7, max: MAX_ROW_CELLS }) }),
    );
  });

  it('keeps shared strings compactly, by index, across blocks', () => {
    const strings = new SharedStrings();
    for (let index = 0; index < 3000; index += 1) {
      strings.reserve(String(index).length);
      strings.add(index % 7 === 0 ? '' : `s${index}`);
    }
    strings.seal();
    expect([strings.get(1), strings.get(7), strings.get(1023), strings.get(1024), strings.get(2999), strings.get(3000)]).toEqual([
      's1',
      '',
      's1023',
      's1024',
      's2999',
      '',
    ]);
  });
});

describe('at upload (the bytes as they stream to storage)', () => {
  async function scan(format: FileFormat, text: string): Promise<string | undefined> {
    const reader = new Blob([text]).stream().pipeThrough(scanUpload(format)).getReader();
    try {
      for (let next = await reader.read(); !next.done; next = await reader.read()) expect(next.value).toBeDefined();
    } catch (error) {
      if (error instanceof FileProblem) return `${error.problem.key} ${JSON.stringify(error.problem.params)}`;
      throw error;
    }
    return undefined;
  }

  it('refuses the upload-time bounds of the attack files, and only those', async () => {
    for (const file of buildAttackFiles()) {
      const problem = await scan(formatOf(file), new TextDecoder().decode(file.bytes));
      if (file.upload === 413) expect(problem, file.name).toMatch(new RegExp(`^${file.key} `));
      else expect(problem, file.name).toBeUndefined();
    }
  });

  it('counts CSV records (quotes, empty lines, \\r\\n, the `;` of the header row), NDJSON lines and JSON array items', async () => {
    expect(await scan('csv', `a;b\r\n1;"x\n;y"\r\n\r\n${'c;'.repeat(MAX_ROW_CELLS - 1)}c\n`)).toBeUndefined();
    expect(await scan('csv', `a;b\n${'c;'.repeat(MAX_ROW_CELLS)}c\n`)).toBe(`importRowTooWide {"row":2,"max":${MAX_ROW_CELLS}}`);
    expect(await scan('csv', `a,b\n${'c;'.repeat(MAX_ROW_CELLS)}c\n`)).toBeUndefined();
    expect(await scan('csv', `a\n"${'é'.repeat(MAX_RECORD_CHARS - 2)}"\n`)).toBeUndefined();
    expect(await scan('csv', `a\n"${'é'.repeat(MAX_RECORD_CHARS - 1)}"\n`)).toBe(`importRecordTooLong {"row":2,"max":${MAX_RECORD_CHARS}}`);
    expect(await scan('ndjson', `{"a":1}\n  \n{"a":"${'x'.repeat(MAX_RECORD_CHARS)}"}\n`)).toBe(
      `importRecordTooLong {"row":2,"max":${MAX_RECORD_CHARS}}`,
    );
    expect(await scan('json', `[ {"a":"],{"}, [1,2], {"b":{"c":[3]}} ,"${'x'.repeat(MAX_RECORD_CHARS - 2)}"]`)).toBeUndefined();
    expect(await scan('json', `[{"a":1},{"a":"${'x'.repeat(MAX_RECORD_CHARS)}"}]`)).toBe(
      `importRecordTooLong {"row":2,"max":${MAX_RECORD_CHARS}}`,
    );
    expect(await scan('ndjson', '{}\n'.repeat(MAX_IMPORT_ROWS + 1))).toBe(`importTooManyRows {"max":${MAX_IMPORT_ROWS}}`);
    expect(await scan('json', `[${'{},'.repeat(MAX_IMPORT_ROWS)}{}]`)).toBe(`importTooManyRows {"max":${MAX_IMPORT_ROWS}}`);
  });
});
