import type {
  LocalCardFields,
  LocalClientToken,
  LocalTokenizeRefusal,
  LocalTokenizeRequest,
  LocalTokenizeResponse,
} from '@shared/payments/local-gateway';

/** What the local card form sends: the card's fields, or one of the gateway's test nonces. */
export type LocalCardInput = { creditCard: LocalCardFields } | { testNonce: string };

/** The local gateway refused to tokenize: its message, one per field to mark (422), or a spent client token (401). */
export class LocalTokenizeFailed extends Error {
  override readonly name = 'LocalTokenizeFailed';
  constructor(
    message: string,
    readonly status: number,
    readonly fieldErrors: LocalTokenizeRefusal['fieldErrors'] = [],
  ) {
    super(message);
  }
}

/**
 * Turns the card into a single-use nonce at the local payment gateway, straight from the browser
 * as Braintree's client SDK does: the card goes to the gateway's own origin (which allows this
 * site by CORS), never to our API. No cookies: the client token's fingerprint is the credential.
 */
export async function tokenizeLocalCard(
  token: LocalClientToken,
  input: LocalCardInput,
  signal?: AbortSignal,
): Promise<LocalTokenizeResponse> {
  const body: LocalTokenizeRequest = { authorizationFingerprint: token.authorizationFingerprint, ...input };
  const response = await fetch(token.tokenizeUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    credentials: 'omit',
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
  const answer = (await response.json().catch(() => undefined)) as
    Partial<LocalTokenizeRefusal & LocalTokenizeResponse> | undefined;
  if (response.ok && typeof answer?.nonce === 'string' && answer.details) {
    return { nonce: answer.nonce, details: answer.details };
  }
  const message = typeof answer?.message === 'string' ? answer.message : `The local payment gateway answered ${response.status}.`;
  throw new LocalTokenizeFailed(message, response.status, Array.isArray(answer?.fieldErrors) ? answer.fieldErrors : []);
}
