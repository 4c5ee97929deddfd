/** The `$batch` examples of the docs: every ```json or ```http block whose body is a batch (`{"requests": [...]}`), in order. */
export interface DocBatchExample {
  /** The line of the block in its file. */
  readonly line: number;
  readonly body: { requests: { id: string }[] };
}

export function readBatchExamples(markdown: string): DocBatchExample[] {
  const examples: DocBatchExample[] = [];
  const lines = markdown.split('\n');
  for (let index = 0; index < lines.length; index += 1) {
    const fence = lines[index]?.trim();
    if (fence !== '```json' && fence !== '```http') continue;
    let end = index + 1;
    while (end < lines.length && lines[end]?.trim() !== '```') end += 1;
    let text = lines.slice(index + 1, end).join('\n');
    if (fence === '```http') text = text.slice(text.indexOf('\n\n') + 2);
    if (/^\s*\{\s*"requests"/.test(text)) examples.push({ line: index + 1, body: JSON.parse(text) as DocBatchExample['body'] });
    index = end;
  }
  return examples;
}
