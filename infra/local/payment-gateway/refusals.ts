import type { GatewayValidationError } from '../../../functions/lib/payments/gateway-refusals';
import type { LocalGatewayRefusalBody } from '../../../functions/lib/payments/local-gateway-wire';

/**
 * An answer other than success: its HTTP status and JSON body. 422s carry Braintree's validation
 * error codes (and a declined transaction or verification), so the adapter maps them exactly as
 * it maps Braintree's.
 */
export class GatewayHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: { message: string } & Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(body.message);
    this.name = 'GatewayHttpError';
  }
}

export function refused(
  errors: GatewayValidationError[],
  extra: Omit<LocalGatewayRefusalBody, 'message' | 'errors'> = {},
  message?: string,
) {
  const body: LocalGatewayRefusalBody = {
    message: message ?? errors.map((error) => error.message).join(' '),
    errors,
    ...extra,
  };
  return new GatewayHttpError(422, { ...body });
}

/** One validation error, as Braintree names it: its code, the attribute, its message. */
export const invalid = (code: string, attribute: string, message: string) => refused([{ code, attribute, message }]);

export const badRequest = (message: string) => new GatewayHttpError(400, { message });
export const notFound = (what: string) => new GatewayHttpError(404, { message: `${what} was not found.` });
