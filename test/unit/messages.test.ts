/** The message catalogue: every message in every language, with the same parameters; language negotiation. */
import { describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../../src/errors/api-error';
import { formatMessage, issueMessage, message, readIssueMessage } from '../../src/messages/catalogue';
import { LANGUAGES, negotiateLanguage } from '../../src/messages/language';
import { BATCH_TEXTS } from '../../src/messages/texts-batch';
import { PROBLEM_TEXTS } from '../../src/messages/texts-problems';
import { RECORD_TEXTS } from '../../src/messages/texts-records';
import { REQUEST_TEXTS } from '../../src/messages/texts-requests';
import { VALUE_TEXTS } from '../../src/messages/texts-values';

const ALL: Record<string, readonly string[]> = { ...VALUE_TEXTS, ...RECORD_TEXTS, ...REQUEST_TEXTS, ...BATCH_TEXTS, ...PROBLEM_TEXTS };
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

describe('the catalogue', () => {
  it.each(Object.entries(ALL))('%s is written in every language with the same parameters', (_key, texts) => {
    expect(texts).toHaveLength(LANGUAGES.length);
    for (const text of texts) {
      expect(text.trim()).not.toBe('');
      expect(placeholders(text)).toEqual(placeholders(texts[0] ?? ''));
    }
  });

  it.each(Object.keys(ERROR_STATUS))('the problem code %s has its title in every language', (code) => {
    const titles = ALL[`title.${code}`];
    expect(titles).toHaveLength(LANGUAGES.length);
    expect(new Set(titles).size, `title.${code} is translated`).toBe(LANGUAGES.length);
  });

  it('holds the messages of the request checks, idempotency keys, bookmarks and the operator API', () => {
    const keys = ['dotSegment', 'queryEncoding', 'nestedTooDeep', 'invalidUtf8', 'loneSurrogate', 'loneSurrogateName'];
    const more = ['badIdempotencyKey', 'idempotencyKeyReused', 'badBookmark', 'notTenantDatabase', 'unknownQueryParameter'];
    for (const key of [...keys, ...more]) expect(Object.keys(ALL)).toContain(key);
    expect(formatMessage(message('idempotencyKeyReused', { field: 'Idempotency-Key' }), 'pt-PT')).toBe(
      'Idempotency-Key já foi usada com outro pedido: envie uma nova chave para um novo pedido',
    );
  });

  it('formats a message in each language', () => {
    const required = message('required', { field: 'subject' });
    expect(LANGUAGES.map((language) => formatMessage(required, language))).toEqual([
      'subject is required',
      'subject é obrigatório',
      'subject es obligatorio',
    ]);
    expect(formatMessage(message('mustBeOneOf', { field: 'emailTemplateType', choices: 'HTML (1), Text (2)' }), 'en-US')).toBe(
      'emailTemplateType must be one of HTML (1), Text (2)',
    );
  });

  it('carries messages through valibot issue texts, and nothing else', () => {
    expect(readIssueMessage(issueMessage('tooLong', { field: 'name', max: 3 }))).toEqual(message('tooLong', { field: 'name', max: 3 }));
    expect(readIssueMessage('Invalid type: Expected string but received 1')).toBeUndefined();
  });
});

describe('negotiateLanguage', () => {
  it.each([
    [null, 'en-US'],
    ['', 'en-US'],
    ['pt-PT', 'pt-PT'],
    ['PT-pt', 'pt-PT'],
    ['pt-BR,pt;q=0.9', 'pt-PT'],
    ['es', 'es-ES'],
    ['es-MX;q=0.8, en;q=0.5', 'es-ES'],
    ['fr-FR, es;q=0.5, pt;q=0.8', 'pt-PT'],
    ['fr-FR, de', 'en-US'],
    ['pt;q=0, es', 'es-ES'],
    ['*', 'en-US'],
    ['en-GB', 'en-US'],
  ] as const)('%s -> %s', (header, expected) => {
    expect(negotiateLanguage(header)).toBe(expected);
  });
});
