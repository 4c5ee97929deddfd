import { describe, expect, it } from 'vitest';
import { call } from '../helpers/api';

describe('GET /health', () => {
  it('answers 200 without a token, with a request id', async () => {
    const result = await call('GET', '/health');
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ status: 'ok' });
    expect(result.headers.get('x-request-id')).toMatch(/.+/);
  });
});
