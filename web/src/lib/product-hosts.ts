/**
 * Where each app of the product family lives. Every deployment this repo makes (and `npm start`)
 * serves all the apps from one host, so by default a link to another app is a path on this host,
 * followed with client-side routing. A build may put some apps on sibling hosts with
 * VITE_PRODUCT_HOSTS, a comma-separated list of `app=origin` pairs, for example
 * `transfers=https://files.example.com,shops=https://shops.example.com`; the apps are named in
 * PRODUCT_APPS. This module is the only reader of that setting.
 */

/** The apps of the family, as VITE_PRODUCT_HOSTS names them. */
export const PRODUCT_APPS = ['ranking', 'stories', 'transfers', 'shops'] as const;
export type ProductApp = (typeof PRODUCT_APPS)[number];

export type ProductHosts = Partial<Record<ProductApp, string>>;

function isProductApp(name: string): name is ProductApp {
  return (PRODUCT_APPS as readonly string[]).includes(name);
}

/** The origin of an http(s) URL, or undefined when it is not one. */
function originOf(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

const warned = new Set<string>();

/**
 * The hosts a VITE_PRODUCT_HOSTS value sets, as origins. An entry naming no known app or no
 * http(s) origin is skipped with one console warning per value, so a typo is seen in the console
 * and the app's links stay on this host.
 */
export function parseProductHosts(value: string | undefined): ProductHosts {
  const hosts: ProductHosts = {};
  const skipped: string[] = [];
  for (const entry of (value ?? '').split(',')) {
    const trimmed = entry.trim();
    if (!trimmed) continue;
    const separator = trimmed.indexOf('=');
    const app = trimmed.slice(0, Math.max(separator, 0)).trim();
    const origin = separator > 0 ? originOf(trimmed.slice(separator + 1).trim()) : undefined;
    if (isProductApp(app) && origin) hosts[app] = origin;
    else skipped.push(trimmed);
  }
  if (skipped.length > 0 && value && !warned.has(value)) {
    warned.add(value);
    console.warn(
      `VITE_PRODUCT_HOSTS: skipped ${skipped.map((entry) => `"${entry}"`).join(', ')}; ` +
        `write app=https://host with app one of ${PRODUCT_APPS.join(', ')}`,
    );
  }
  return hosts;
}

/** The sibling hosts baked into the build; read on each call so tests can stub it. */
export function productHosts(): ProductHosts {
  return parseProductHosts(import.meta.env.VITE_PRODUCT_HOSTS as string | undefined);
}

/** A link to a page of one of the apps: a path for client-side routing, or a URL on another host. */
export type ProductHref = { kind: 'route'; to: string } | { kind: 'url'; href: string };

/**
 * Where a link to `path` of `app` goes: a route on this host unless the app is configured on
 * another host (a configured host that is this page's own origin stays a route). An absolute
 * `path` (a page elsewhere, as a browser store's) is kept as it is.
 */
export function productHref(
  app: ProductApp | undefined,
  path: string,
  hosts: ProductHosts = productHosts(),
  currentOrigin: string = window.location.origin,
): ProductHref {
  if (/^[a-z][a-z0-9+.-]*:/i.test(path)) return { kind: 'url', href: path };
  const host = app ? hosts[app] : undefined;
  if (!host || host === currentOrigin) return { kind: 'route', to: path };
  return { kind: 'url', href: `${host}${path}` };
}
