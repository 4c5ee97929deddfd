import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { bindHeader } from '../../src/resources/entities/import-template';
import type { ImportTemplate } from '../../src/resources/entities/import-template';
import { detectDelimiter } from '../../src/services/imports/files/csv';
import { detectFormat, readFileRecords } from '../../src/services/imports/files/format';
import type { FileFormat } from '../../src/services/imports/files/format';
import { FileProblem } from '../../src/services/imports/files/problem';
import { parseFileName } from '../../src/services/imports/files/upload-input';
import { readXlsxRows } from '../../src/services/imports/files/xlsx';
import { MAX_XLSX_DECOMPRESSED_BYTES } from '../../src/services/imports/files/xml-part';
import { encodeRowsAsCsv } from '../../src/services/imports/files/sheet-csv';

/** A stream of `bytes` cut into chunks of `size` (parsers must not care where chunks end). */
function streamOf(bytes: Uint8Array, size = 7): ReadableStream<Uint8Array> {
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

async function readAll(format: FileFormat, bytes: Uint8Array, size?: number) {
  const out: unknown[] = [];
  for await (const record of readFileRecords(format, async () => streamOf(bytes, size))) out.push(record);
  return out;
}

async function problemOf(format: FileFormat, bytes: Uint8Array): Promise<string> {
  try {
    await readAll(format, bytes);
  } catch (error) {
    if (error instanceof FileProblem) return error.problem.key;
    throw error;
  }
  return 'none';
}

const text = (value: string) => new TextEncoder().encode(value);

describe('CSV', () => {
  it('reads `,` files with quoted fields, doubled quotes and line breaks inside quotes, chunk boundaries anywhere', async () => {
    const csv = 'routeKey,description,company\r\nR1,"Line one\r\nline two",C1\nR2,"say ""hi""",C1\n';
    for (const size of [1, 3, 7, 1000]) {
      expect(await readAll('csv', text(csv), size)).toEqual([
        { header: ['routeKey', 'description', 'company'] },
        { row: 2, values: { routeKey: 'R1', description: 'Line one\r\nline two', company: 'C1' }, end: 57 },
        { row: 3, values: { routeKey: 'R2', description: 'say "hi"', company: 'C1' }, end: 76 },
      ]);
    }
  });

  it('resumes from the end offset of a record (a ranged read): the records after it, rows numbered on, BOM counted', async () => {
    const csv = text('\uFEFFk;d\nA;"x\ny"\nB;z\n\nC;w');
    const open = async (offset: number) => streamOf(csv.subarray(offset), 3);
    const all: unknown[] = [];
    for await (const item of readFileRecords('csv', open)) all.push(item);
    expect(all).toEqual([
      { header: ['k', 'd'] },
      { row: 2, values: { k: 'A', d: 'x\ny' }, end: 15 },
      { row: 3, values: { k: 'B', d: 'z' }, end: 19 },
      { row: 4, values: { k: 'C', d: 'w' }, end: 23 },
    ]);
    const resumed: unknown[] = [];
    for await (const item of readFileRecords('csv', open, { offset: 15, row: 2 })) resumed.push(item);
    expect(resumed).toEqual([all[0], all[2], all[3]]);
  });

  it('detects `;` (Portuguese and Spanish exports) and drops a UTF-8 BOM', async () => {
    const csv = '\uFEFFrouteKey;description;company\nR1;"a;b, c";C1\n';
    expect(await readAll('csv', text(csv))).toEqual([
      { header: ['routeKey', 'description', 'company'] },
      { row: 2, values: { routeKey: 'R1', description: 'a;b, c', company: 'C1' }, end: 47 },
    ]);
    expect(detectDelimiter('a;b;"c,d,e"\n1,2,3')).toBe(';');
    expect(detectDelimiter('a,b;c,d')).toBe(',');
  });

  it('refuses bytes that are not UTF-8 and a quote left open', async () => {
    expect(await problemOf('csv', new Uint8Array([0x61, 0x2c, 0x62, 0x0a, 0xe9, 0x2c, 0x31, 0x0a]))).toBe('importNotUtf8');
    expect(await problemOf('csv', text('a,b\n"open,1\n'))).toBe('importMalformed');
    expect(await problemOf('csv', text(''))).toBe('importFileEmpty');
  });
});

describe('JSON and NDJSON', () => {
  it('reads the items of an array and the lines of NDJSON as they stream', async () => {
    const items = [
      { key: 'A', description: 'x' },
      { key: 'B', description: 'y\nz' },
    ];
    const array = JSON.stringify(items, null, 1);
    const lines = items.map((item) => JSON.stringify(item)).join('\n') + '\n';
    for (const size of [1, 5, 1000]) {
      // Each record ends at the byte just after its `}`: where a resumed read starts again.
      expect(await readAll('json', text(array), size)).toEqual([
        { header: ['key', 'description'] },
        { row: 1, values: items[0], end: array.indexOf('}') + 1 },
        { row: 2, values: items[1], end: array.lastIndexOf('}') + 1 },
      ]);
      expect(await readAll('ndjson', text(lines), size)).toEqual([
        { header: ['key', 'description'] },
        { row: 1, values: items[0], end: lines.indexOf('}') + 1 },
        { row: 2, values: items[1], end: lines.lastIndexOf('}') + 1 },
      ]);
    }
  });

  it('resumes after any record at its end offset (a ranged read), rows numbered on, BOM and multi-byte text counted', async () => {
    const items = [{ k: 'é€' }, { k: '😀 "q"' }, { k: 'c' }, { k: 'd' }];
    const files = {
      json: text(`\uFEFF [ ${items.map((item) => JSON.stringify(item)).join(' ,\r\n')} ]\n`),
      ndjson: text(`\uFEFF${items.map((item) => JSON.stringify(item)).join('\r\n')}\n`),
    };
    for (const [format, bytes] of Object.entries(files) as [FileFormat, Uint8Array][]) {
      const open = async (offset: number) => streamOf(bytes.subarray(offset), 3);
      const all: unknown[] = [];
      const records: { row: number; end?: number }[] = [];
      for await (const item of readFileRecords(format, open)) {
        all.push(item);
        if ('row' in item) records.push(item);
      }
      expect(records.map((item) => item.row)).toEqual([1, 2, 3, 4]);
      for (const [index, record] of records.entries()) {
        const resumed: unknown[] = [];
        for await (const item of readFileRecords(format, open, { offset: record.end ?? -1, row: record.row })) resumed.push(item);
        expect(resumed, `${format} after row ${record.row}`).toEqual(all.slice(index + 2));
      }
    }
  });

  it('refuses a JSON file that is not an array, items that are not objects, bad syntax and bad UTF-8', async () => {
    expect(await problemOf('json', text('{"key":"A"}'))).toBe('importMalformed');
    expect(await problemOf('json', text('[{"key":"A"}, 3]'))).toBe('importRowNotObject');
    expect(await problemOf('ndjson', text('{"key":"A"}\n{"key":'))).toBe('importMalformed');
    expect(await problemOf('json', new Uint8Array([0x5b, 0x22, 0xff, 0x22, 0x5d]))).toBe('importNotUtf8');
  });
});

/** A minimal workbook: shared strings after the sheet (as some writers order them), one inline string, a number, a boolean. */
function buildWorkbook(sheetRows: string, level: 0 | 6 = 6): Uint8Array {
  const sheet = `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${sheetRows}</sheetData></worksheet>`;
  const strings =
    '<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>key</t></si><si><t>description</t></si><si><r><t>Bo</t></r><r><t>ld</t></r></si></sst>';
  return zipSync(
    {
      '[Content_Types].xml': strToU8('<Types/>'),
      'xl/worksheets/sheet1.xml': strToU8(sheet),
      'xl/sharedStrings.xml': strToU8(strings),
    },
    { level },
  );
}

describe('xlsx', () => {
  it("writes the sheet's rows as CSV that reads back to the same records (quotes, line breaks, empty rows kept in the count)", async () => {
    const sheet = [['key', 'description'], ['A', 'a, "quoted"\nline'], [], ['', ''], [' B', 'x;y'], ['C']];
    // Rows come in the batches the sheet's reader has them: two here.
    async function* rows() {
      yield sheet.slice(0, 3);
      yield sheet.slice(3);
    }
    let turns = 0;
    const csv = new Uint8Array(await new Response(encodeRowsAsCsv(rows(), async () => void (turns += 1))).arrayBuffer());
    const written = 'key,description\nA,"a, ""quoted""\nline"\n""\n,\n" B","x;y"\nC\n';
    expect(new TextDecoder().decode(csv)).toBe(written);
    expect(await readAll('csv', csv)).toEqual([
      { header: ['key', 'description'] },
      { row: 2, values: { key: 'A', description: 'a, "quoted"\nline' }, end: written.indexOf('line"\n') + 6 },
      { row: 5, values: { key: ' B', description: 'x;y' }, end: written.indexOf('"x;y"\n') + 6 },
      { row: 6, values: { key: 'C' }, end: written.length },
    ]);
    expect(turns).toBe(0);
  });

  it('reads the first sheet: shared strings (rich text runs joined), inline strings, numbers, booleans, gaps', async () => {
    const rows =
      '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>' +
      '<row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2" t="inlineStr"><is><t>Inline &amp; more</t></is></c></row>' +
      '<row r="3"><c r="A3"><v>42.5</v></c><c r="C3" t="b"><v>1</v></c></row>';
    expect(await readAll('xlsx', buildWorkbook(rows), 100)).toEqual([
      { header: ['key', 'description'] },
      { row: 2, values: { key: 'Bold', description: 'Inline & more' } },
      { row: 3, values: { key: '42.5', description: '', 'column 3': 'true' } },
    ]);
  });

  it('refuses a workbook that decompresses beyond the bound (a zip bomb), and one without a first sheet', async () => {
    // The same bound, scaled down: 4 MiB of XML compressed to a few KiB, read with a 1 MiB bound.
    const bomb = zipSync({ 'xl/sharedStrings.xml': strToU8(`<sst>${'<x/>'.repeat(1024 * 1024)}</sst>`) }, { level: 9 });
    expect(bomb.byteLength).toBeLessThan(64 * 1024);
    const rows = readXlsxRows(async () => streamOf(bomb, 4096), 1024 * 1024);
    await expect(rows.next()).rejects.toMatchObject({ problem: { key: 'importXlsxTooLarge', params: { max: 1024 * 1024 } } });
    expect(MAX_XLSX_DECOMPRESSED_BYTES).toBe(16 * 1024 * 1024);
    expect(await problemOf('xlsx', zipSync({ 'a.txt': strToU8('x') }))).toBe('importXlsxNoSheet');
    expect(await problemOf('xlsx', text('not a zip at all'))).not.toBe('none');
  });
});

describe('headers, formats and file names', () => {
  const template: ImportTemplate = {
    name: 'routes',
    columns: [
      { name: 'routeKey', required: true },
      { name: 'company', required: true },
      { name: 'remarks', required: false },
    ],
    customAttributes: true,
    check: () => [],
  };

  it('binds column names case-insensitively, custom_* included, and names every bad column', () => {
    expect(bindHeader(template, ['ROUTEKEY', 'Company', 'custom_Colour']).errors).toEqual([]);
    expect(bindHeader(template, ['ROUTEKEY', 'Company', 'custom_Colour']).header.names).toEqual(['routeKey', 'company', 'custom_Colour']);
    const bad = bindHeader(template, ['routeKey', 'routekey', 'bogus', '', 'custom_']);
    expect(bad.errors.map((error) => [error.path, error.message.key])).toEqual([
      ['routekey', 'importRepeatedColumn'],
      ['bogus', 'importUnknownColumn'],
      ['header[4]', 'importEmptyColumn'],
      ['custom_', 'importUnknownColumn'],
      ['company', 'importMissingColumn'],
    ]);
    expect(bindHeader({ ...template, customAttributes: false }, ['routeKey', 'company', 'custom_x']).errors).toHaveLength(1);
  });

  it('takes the format from Content-Type (and .xlsx sent as octet-stream)', () => {
    expect(detectFormat('text/csv; charset=utf-8', null)).toBe('csv');
    expect(detectFormat('application/x-ndjson', null)).toBe('ndjson');
    expect(detectFormat('application/json', null)).toBe('json');
    expect(detectFormat('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', null)).toBe('xlsx');
    expect(detectFormat('application/octet-stream', 'Book.XLSX')).toBe('xlsx');
    expect(detectFormat('application/octet-stream', 'book.csv')).toBeUndefined();
    expect(detectFormat('text/plain', null)).toBeUndefined();
    expect(detectFormat(null, null)).toBeUndefined();
  });

  it('reads the file name of Content-Disposition (RFC 6266), without directories', () => {
    expect(parseFileName('attachment; filename="routes march.csv"')).toBe('routes march.csv');
    expect(parseFileName("attachment; filename=x.csv; filename*=UTF-8''rotas%20mar%C3%A7o.csv")).toBe('rotas março.csv');
    expect(parseFileName('attachment; filename=..\\..\\etc\\passwd')).toBe('passwd');
    expect(parseFileName('inline')).toBeNull();
    expect(parseFileName(null)).toBeNull();
  });
});
