import { describe, expect, it } from 'vitest';
import { clientAddress } from '../../functions/lib/http/client-address';
import { EDGE_ORIGIN_TOKEN_HEADER, VIEWER_ADDRESS_HEADER } from '../../shared/constants';

const TOKEN = 'edge-token-of-this-deployment';

/** A request as API Gateway hands it over: the address it saw, and the headers that came. */
const requestFrom = (sourceIp: string, headers: Record<string, string> = {}) => ({
  headers,
  requestContext: { http: { sourceIp } } as Parameters<typeof clientAddress>[0]['requestContext'],
});

describe('the client address the per-client limits count by', () => {
  it("is the viewer's, as the edge wrote it, when the edge's token comes with it", () => {
    // Prepare: CloudFront's own address as the source, the viewer's in the header
    const request = requestFrom('130.176.1.1', { [VIEWER_ADDRESS_HEADER]: '203.0.113.7', [EDGE_ORIGIN_TOKEN_HEADER]: TOKEN });

    // Act
    const address = clientAddress(request, TOKEN);

    // Assess
    expect(address).toBe('203.0.113.7');
  });

  it("is the socket's when someone calls the API directly with a made-up viewer address, or a wrong token", () => {
    // Prepare
    const withoutToken = requestFrom('198.51.100.9', { [VIEWER_ADDRESS_HEADER]: '203.0.113.7' });
    const wrongToken = requestFrom('198.51.100.9', {
      [VIEWER_ADDRESS_HEADER]: '203.0.113.7',
      [EDGE_ORIGIN_TOKEN_HEADER]: 'guess',
    });

    // Act and assess: every attempt counts against the caller's own address
    expect(clientAddress(withoutToken, TOKEN)).toBe('198.51.100.9');
    expect(clientAddress(wrongToken, TOKEN)).toBe('198.51.100.9');
  });

  it("is the socket's where no edge stands in front (the local runtime), whatever the headers say", () => {
    // Prepare
    const request = requestFrom('127.0.0.1', { [VIEWER_ADDRESS_HEADER]: '203.0.113.7', [EDGE_ORIGIN_TOKEN_HEADER]: '' });

    // Act and assess
    expect(clientAddress(request, undefined)).toBe('127.0.0.1');
  });
});
