/**
 * The validation handshake of a subscription (creation and renewal): the server POSTs
 * `notificationUrl?validationToken=<random>` and the receiver must answer 200 with that token as its body.
 */
import { validationError } from '../../errors/api-error';
import { message } from '../../messages/catalogue';
import type { Message } from '../../messages/catalogue';
import { postToReceiver } from './receiver';
import type { ReceiverTarget } from './receiver';
import { generateValidationToken } from './signing';

/** `target`: where the POST connects (the addresses requirePublicHost checked). */
export async function checkHandshake(notificationUrl: string, target: ReceiverTarget): Promise<void> {
  const token = generateValidationToken();
  const url = new URL(notificationUrl);
  url.searchParams.set('validationToken', token);
  const answer = await postToReceiver({ url: url.toString(), body: '', headers: { 'content-type': 'text/plain' } }, target);
  const field = 'notificationUrl';
  let problem: Message | undefined;
  if ('error' in answer) problem = message('handshakeUnreachable', { field, reason: answer.error });
  else if (answer.status !== 200) problem = message('handshakeStatus', { field, status: answer.status });
  else if (answer.text.trim() !== token) problem = message('handshakeBody', { field });
  if (problem) throw validationError([{ path: field, message: problem }], problem);
}
