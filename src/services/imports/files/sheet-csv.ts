/**
 * A worksheet's rows as CSV (RFC 4180, `,`-separated, `\n` between rows), so that a .xlsx import is read like a CSV one:
 * from a byte offset when a step resumes, where the zip's compressed stream could only be read again from its start.
 * A cell is quoted (its `"` doubled) when it holds `"`, `,`, `;`, a line break, or starts or ends with a space; a row of
 * no cells is written as `""` (an empty row the CSV reader counts and skips, as the sheet's reader does).
 */

/** Bytes of CSV gathered before they are handed on (and the runtime gets a turn). */
const PIECE_CHARS = 64 * 1024;

function encodeField(cell: string): string {
  return /[",;\r\n]|^\s|\s$/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
}

function encodeRow(cells: readonly string[]): string {
  return cells.length === 0 ? '""\n' : `${cells.map(encodeField).join(',')}\n`;
}

/**
 * The rows (in the batches the sheet's reader has them) as a stream of UTF-8 CSV, in pieces of about PIECE_CHARS;
 * `turn()` is awaited between pieces.
 */
export function encodeRowsAsCsv(
  rows: AsyncGenerator<readonly (readonly string[])[]>,
  turn: () => Promise<void>,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let piece = '';
      while (piece.length < PIECE_CHARS) {
        const next = await rows.next();
        if (next.done) {
          if (piece !== '') controller.enqueue(encoder.encode(piece));
          controller.close();
          return;
        }
        for (const cells of next.value) piece += encodeRow(cells);
      }
      controller.enqueue(encoder.encode(piece));
      await turn();
    },
    async cancel() {
      await rows.return(undefined);
    },
  });
}
