import { timingSafeEqual } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { EDGE_ORIGIN_TOKEN_HEADER, VIEWER_ADDRESS_HEADER } from '../../../shared/constants';

const sameSecret = (sent: string, expected: string) => {
  const [a, b] = [Buffer.from(sent), Buffer.from(expected)];
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * The address of whoever sent a request, for the per-client limits. Behind CloudFront, API
 * Gateway's sourceIp is the edge server's, shared by everyone it serves at once: the viewer's
 * own address comes in a header the edge sets, trusted only beside the token the edge alone
 * sends (anyone can call the API directly and write any header). Without the token, and
 * locally, the socket's address is the client's.
 */
export function clientAddress(
  event: Pick<APIGatewayProxyEventV2, 'headers' | 'requestContext'>,
  edgeOriginToken: string | undefined,
): string {
  const viewer = event.headers[VIEWER_ADDRESS_HEADER];
  const token = event.headers[EDGE_ORIGIN_TOKEN_HEADER];
  if (edgeOriginToken && viewer && token && sameSecret(token, edgeOriginToken)) return viewer;
  return event.requestContext.http.sourceIp;
}
