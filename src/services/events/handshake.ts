/**
 * The validation handshake of a subscription (creation and renewal): the server POSTs
 * `notificationUrl?validationToken=<random>` and the receiver must answer 200 with that token as its body.
 */
import { validationError } from '../../errors/api-error';
import { generateValidationToken } from './signing';
import { postToReceiver } from './receiver';

export async function checkHandshake(notificationUrl: string): Promise<void> {
  const token = generateValidationToken();
  const url = new URL(notificationUrl);
  url.searchParams.set('validationToken', token);
  const answer = await postToReceiver(url.toString(), '', { 'content-type': 'text/plain' });
  let problem: string | undefined;
  if ('error' in answer) problem = `The validation request failed (${answer.error}).`;
  else if (answer.status !== 200) problem = `The validation request was answered ${answer.status}, not 200.`;
  else if (answer.text.trim() !== token) problem = 'The validation request was not answered with the validationToken as the body.';
  if (problem)
    throw validationError([{ path: 'notificationUrl', message: problem }], `notificationUrl did not pass validation: ${problem}`);
}
