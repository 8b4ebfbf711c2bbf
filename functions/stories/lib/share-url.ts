import { checkShareUrl, hostsOf, type ShareAlert } from '../../../shared/stories/sharing-rules';
import { getConfig } from '../../lib/config';
import { HttpError } from '../../lib/errors';

/** A url the sharing rules refuse: 400 with the alert the share form shows (SPEC 5). */
export class InvalidShareUrl extends HttpError {
  constructor(readonly alert: ShareAlert) {
    super(400, 'INVALID_URL', 'Invalid url', { alert });
  }
}

/**
 * The sharing rules as the server applies them, with this deployment's own hosts (its web
 * origins: the platform and its sibling apps). Returns the normalised url or throws InvalidShareUrl.
 */
export function requireShareableUrl(url: unknown): string {
  const result = checkShareUrl(url, { ownHosts: hostsOf(getConfig().allowedOrigins) });
  if (!result.ok) throw new InvalidShareUrl(result.alert);
  return result.url;
}
