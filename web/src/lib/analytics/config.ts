/**
 * When the web app tracks product analytics. This module is in every page's first load; how
 * mixpanel-browser is set up arrives with it, later (./mixpanel-options.ts).
 */

/** This device's own switch: `on` tracks outside production (to try it), `off` never tracks. */
export const ANALYTICS_SETTING_KEY = 'toppubs.analytics';
/** `?analytics=on` (or `off`) in any address sets this device's switch and stays set. */
export const ANALYTICS_QUERY_PARAM = 'analytics';

/** Where the local runtime and developers' machines serve the app from. */
const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/**
 * Production: a production build (Vite's mode) that is also deployed, that is served from a real
 * host. `npm start` serves the very build CDK deploys, so the build alone cannot tell the two
 * apart; the host it is served from can.
 */
export function isProductionDeployment(env: { PROD: boolean } = import.meta.env, hostname = window.location.hostname) {
  return env.PROD && !LOOPBACK_HOST.test(hostname);
}

export const envIsProd = typeof window !== 'undefined' && isProductionDeployment();

/** What the browser says about tracking: Do Not Track or Global Privacy Control wins over everything. */
export function browserRefusesTracking(nav: Navigator = navigator): boolean {
  const withGpc = nav as Navigator & { globalPrivacyControl?: boolean };
  return nav.doNotTrack === '1' || withGpc.globalPrivacyControl === true;
}

function readSetting(storage: Storage): string | null {
  try {
    return storage.getItem(ANALYTICS_SETTING_KEY);
  } catch {
    // Storage can be denied (privacy modes); then the device has no setting.
    return null;
  }
}

/**
 * Applies `?analytics=on|off` from the address to this device's switch, then answers whether this
 * page may track. The parameter is left in the address: removing it would be a navigation of
 * its own, and it holds nothing private.
 */
export function analyticsAllowed(options: { prod?: boolean; search?: string; storage?: Storage; nav?: Navigator } = {}): boolean {
  const { prod = envIsProd, search = window.location.search, storage = window.localStorage, nav = navigator } = options;
  const asked = new URLSearchParams(search).get(ANALYTICS_QUERY_PARAM);
  if (asked === 'on' || asked === 'off') {
    try {
      storage.setItem(ANALYTICS_SETTING_KEY, asked);
    } catch {
      // Without storage the parameter still counts for this page.
    }
  }
  if (browserRefusesTracking(nav)) return false;
  const setting = asked === 'on' || asked === 'off' ? asked : readSetting(storage);
  if (setting === 'off') return false;
  return prod || setting === 'on';
}
