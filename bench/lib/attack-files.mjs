// The attack files of issue 41 (tiny requests that amplified: an .xlsx cell at ZZZZ3, 12 million shared strings, a zip
// bomb, rows and records past every bound), built in memory: the tests (test/integration/import-bounds.test.ts) upload
// them to both runtimes and `npm run bench -- --attacks` measures the servers' memory while they are processed. Large
// parts are repetitions deflated by hand (bench/lib/repeat-zip.mjs), never held expanded. Every file is for the
// emailTemplates import template.
import { zipSegments } from './repeat-zip.mjs';

const SHEET_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
export const CSV_HEADER = 'templateKey,subject,emailTemplateType,notificationBody,culture';
const HEADER_CELLS = CSV_HEADER.split(',');

/** Text once, or repeated: a segment of a zip part (bench/lib/repeat-zip.mjs). */
const once = (text) => ({ text, count: 1 });
const times = (text, count) => ({ text, count });

const inline = (reference, text) => `<c r="${reference}" t="inlineStr"><is><t>${text}</t></is></c>`;
const headerRow = () =>
  `<row r="1">${HEADER_CELLS.map((name, index) => inline(`${String.fromCharCode(65 + index)}1`, name)).join('')}</row>`;

/**
 * A workbook: its sheet is the header row (the emailTemplates columns) and `rows` (segments of XML), with shared
 * strings (segments) when given.
 */
export function buildWorkbook(rows, sharedStrings) {
  const sheet = [
    once(`<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${SHEET_NS}"><sheetData>${headerRow()}`),
    ...rows,
    once('</sheetData></worksheet>'),
  ];
  const parts = { '[Content_Types].xml': [once('<Types/>')], 'xl/worksheets/sheet1.xml': sheet };
  if (sharedStrings !== undefined) {
    parts['xl/sharedStrings.xml'] = [
      once(`<?xml version="1.0" encoding="UTF-8"?><sst xmlns="${SHEET_NS}">`),
      ...sharedStrings,
      once('</sst>'),
    ];
  }
  return zipSegments(parts);
}

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const encode = (text) => new TextEncoder().encode(text);

/**
 * The attack files: `name`, the upload's `contentType` and `fileName`, its `bytes`, and the bound that stops it: at
 * upload (`upload: 413`, nothing stored) or while processed (the Fatal import's `error` names it), the message `key`
 * of the bound (the file readers refuse every one of them too).
 */
export function buildAttackFiles() {
  const firstShared = [once('<row><c r="A2" t="s"><v>0</v></c></row>')];
  return [
    { name: 'xlsx-column-zzzz', bytes: buildWorkbook([once(`<row>${inline('ZZZZ3', 'x')}</row>`)]), key: 'importXlsxColumn' },
    { name: 'xlsx-wide-row', bytes: buildWorkbook([once('<row><c r="XFD3"><v>1</v></c></row>')]), key: 'importRowTooWide' },
    {
      name: 'xlsx-shared-strings-12m',
      bytes: buildWorkbook(firstShared, [times('<si/>', 12_000_000)]),
      key: 'importXlsxSharedStrings',
    },
    {
      name: 'xlsx-shared-text',
      bytes: buildWorkbook(firstShared, Array.from({ length: 16 }, () => [once('<si><t>'), times('a', 550_000), once('</t></si>')]).flat()),
      key: 'importXlsxSharedText',
    },
    { name: 'xlsx-rows', bytes: buildWorkbook([times('<row/>', 1_048_576)]), key: 'importTooManyRows' },
    { name: 'xlsx-zip-bomb', bytes: buildWorkbook(firstShared, [times('<x/>', 17_500_000)]), key: 'importXlsxTooLarge' },
    {
      name: 'xlsx-long-text',
      bytes: buildWorkbook([once('<row><c r="A2" t="inlineStr"><is><t>'), times('a', 1_000_000), once('</t></is></c></row>')]),
      key: 'importXlsxNodeTooLong',
    },
    { name: 'csv-long-record', csv: `${CSV_HEADER}\nk,${'a'.repeat(700_000)},HTML,b,pt-pt\n`, key: 'importRecordTooLong', upload: 413 },
    { name: 'csv-wide-row', csv: `${CSV_HEADER}\nk,s,HTML,b,pt-pt${','.repeat(2000)}\n`, key: 'importRowTooWide', upload: 413 },
    { name: 'csv-wide-header', csv: `${CSV_HEADER}${',x'.repeat(2000)}\n`, key: 'importRowTooWide', upload: 413 },
    { name: 'csv-rows', csv: `${CSV_HEADER}\n${',\n'.repeat(1_048_576)}`, key: 'importTooManyRows', upload: 413 },
    {
      name: 'json-long-item',
      json: `[{"templateKey":"k","subject":"s","emailTemplateType":"HTML","notificationBody":"b","culture":"pt-pt"},{"subject":"${'a'.repeat(700_000)}"}]`,
      key: 'importRecordTooLong',
      upload: 413,
    },
    {
      name: 'ndjson-wide-item',
      ndjson: `{"templateKey":"k","subject":"s","emailTemplateType":"HTML","notificationBody":"b","culture":"pt-pt"}\n{${Array.from({ length: 2000 }, (_, index) => `"c${index}":1`).join(',')}}\n`,
      key: 'importRowTooWide',
    },
  ].map((file) => {
    if (file.bytes) return { ...file, contentType: XLSX, fileName: `${file.name}.xlsx` };
    if (file.csv !== undefined)
      return {
        name: file.name,
        key: file.key,
        upload: file.upload,
        bytes: encode(file.csv),
        contentType: 'text/csv',
        fileName: `${file.name}.csv`,
      };
    if (file.json !== undefined)
      return {
        name: file.name,
        key: file.key,
        upload: file.upload,
        bytes: encode(file.json),
        contentType: 'application/json',
        fileName: `${file.name}.json`,
      };
    return {
      name: file.name,
      key: file.key,
      bytes: encode(file.ndjson),
      contentType: 'application/x-ndjson',
      fileName: `${file.name}.ndjson`,
    };
  });
}
