/**
 * A request the edge refuses before any handler sees it: CloudFront and API Gateway answer a
 * path with broken percent-encoding, or a request target that is not a path, with 400.
 */
export class MalformedRequestError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MalformedRequestError';
  }
}

/** Thrown for a request CloudFront would refuse before any origin saw it: answered with its status. */
export class RefusedAtTheEdge extends MalformedRequestError {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = 'RefusedAtTheEdge';
  }
}

/** decodeURIComponent, refusing broken escapes such as '%E0%A4%A' with a MalformedRequestError. */
export function decodePathComponent(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch (error) {
    throw new MalformedRequestError('The request path is not valid percent-encoded UTF-8.', { cause: error });
  }
}
