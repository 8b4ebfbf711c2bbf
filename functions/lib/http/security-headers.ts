/**
 * On every API answer, whoever writes it (a route's handler, or the local server's own 404, 405,
 * 413, 504 and malformed-request answers, as API Gateway's carry CloudFront's response headers
 * policy): an API answer is never a page, so nothing may frame it, run it or sniff it into
 * something else.
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
};
