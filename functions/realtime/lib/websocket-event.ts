import type { APIGatewayProxyStructuredResultV2, APIGatewayProxyWebsocketEventV2 } from 'aws-lambda';

/**
 * What API Gateway's WebSocket API hands a route's function. `$connect` also carries the
 * handshake's headers and query string (the types package leaves the headers out).
 */
export type WebSocketEvent = APIGatewayProxyWebsocketEventV2 & {
  headers?: Record<string, string | undefined>;
};

export type WebSocketResult = APIGatewayProxyStructuredResultV2;

/** On `$connect` a status other than 2xx refuses the handshake with it; elsewhere the body is what the client is sent. */
export const answer = (statusCode: number, body?: string): WebSocketResult => ({
  statusCode,
  ...(body === undefined ? {} : { body }),
});
