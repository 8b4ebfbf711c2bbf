/**
 * Request cookies by name, from API Gateway v2's `cookies` array ("name=value" each). The first
 * of two cookies with one name wins, as browsers send the most specific path first.
 */
export function parseCookies(cookies: readonly string[] | undefined): Readonly<Record<string, string>> {
  const parsed: Record<string, string> = {};
  for (const cookie of cookies ?? []) {
    const separator = cookie.indexOf('=');
    if (separator <= 0) continue;
    const name = cookie.slice(0, separator).trim();
    if (name in parsed) continue;
    const raw = cookie.slice(separator + 1).trim();
    try {
      parsed[name] = decodeURIComponent(raw);
    } catch {
      // A malformed escape in someone else's cookie must not fail the request.
      parsed[name] = raw;
    }
  }
  return parsed;
}
