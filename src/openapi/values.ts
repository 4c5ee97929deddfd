/** valibot schemas of values as the API writes them (answers), for the OpenAPI document. */
import * as v from 'valibot';
import { ERROR_STATUS } from '../errors/api-error';
import type { ErrorCode } from '../errors/api-error';

export const GUID = v.pipe(v.string(), v.uuid(), v.description('A lowercase GUID made by the server'));
export const DATE_TIME = v.pipe(v.string(), v.isoTimestamp(), v.description('ISO 8601 in UTC (`Z`)'));
export const INTEGER = v.pipe(v.number(), v.integer());

/** `custom_<name>` properties of a resource or a create body. */
export const CUSTOM_PROPERTIES = { '^custom_[A-Za-z][A-Za-z0-9_]{0,63}$': { description: 'A custom attribute value (custom_<name>)' } };

const ERROR_CODES = Object.keys(ERROR_STATUS).filter((code): code is ErrorCode => code in ERROR_STATUS);

/** A problem+json body. */
export const PROBLEM = v.strictObject({
  type: v.pipe(v.string(), v.url()),
  title: v.string(),
  status: INTEGER,
  detail: v.string(),
  code: v.pipe(v.picklist(ERROR_CODES), v.description('Stable machine-readable name of the error')),
  errors: v.pipe(v.array(v.strictObject({ path: v.string(), message: v.string() })), v.description('Every invalid field')),
  instance: v.string(),
  requestId: v.string(),
});
