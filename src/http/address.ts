/** The tenant/org address of a request's path (`/api/{tenantKey}/{orgKey}`, `/odata/{tenantKey}/{orgKey}`) and its decoded parameters. */
import { ApiError } from '../errors/api-error';
import { message } from '../messages/catalogue';

/** What a tenantKey or orgKey may be. */
export const ADDRESS_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** The path parameters, percent-decoded (400 naming the parameter when one is not valid percent-encoding). */
export function decodeParams(raw: Record<string, string>): Record<string, string> {
  const decoded: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (!value.includes('%')) {
      decoded[name] = value;
      continue;
    }
    try {
      decoded[name] = decodeURIComponent(value);
    } catch {
      throw new ApiError('ValidationFailed', `Path segment ${name} is not valid percent-encoding.`, {
        errors: [{ path: name, message: message('badEncoding', { field: name }) }],
      });
    }
  }
  return decoded;
}

/** The tenantKey and orgKey of the path, or 400 InvalidAddress naming each bad one. */
export function checkAddress(params: Record<string, string>): { tenantKey: string; orgKey: string } {
  const tenantKey = params.tenantKey ?? '';
  const orgKey = params.orgKey ?? '';
  const errors = [
    ...(ADDRESS_PATTERN.test(tenantKey) ? [] : [{ path: 'tenantKey', message: message('addressPattern', { field: 'tenantKey' }) }]),
    ...(ADDRESS_PATTERN.test(orgKey) ? [] : [{ path: 'orgKey', message: message('addressPattern', { field: 'orgKey' }) }]),
  ];
  if (errors.length > 0) throw new ApiError('InvalidAddress', 'The tenant or organization key is not valid.', { errors });
  return { tenantKey, orgKey };
}
