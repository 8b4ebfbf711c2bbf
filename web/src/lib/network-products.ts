import type { ProductApp } from './product-hosts';

/**
 * An entry of the top bar's products menu: one app of the family (or one of its main pages) on
 * this host. Where its link goes is decided by productHref: a route here, unless the app is
 * configured on a sibling host (VITE_PRODUCT_HOSTS).
 */
export interface NetworkProduct {
  title: string;
  /** One line shown under the title in the menu. */
  description: string;
  /** A local or data: URL; never fetched from another host. */
  logoIconUrl: string;
  /** The app the page belongs to; absent for a page elsewhere (a browser store's). */
  app?: ProductApp;
  /** The page's path on the app's host (or an absolute URL for a page elsewhere). */
  path: string;
  /** A browser extension: listed in the data, skipped by the menu. */
  isExtension: boolean;
  /** The person's own things (their transfers, their orders): listed to signed-in people only. */
  personal?: boolean;
}

/** A rounded-square monogram as an inline SVG data URL, so no icon is fetched from elsewhere. */
function monogram(letter: string, background: string): string {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">` +
    `<rect width="32" height="32" rx="8" fill="${background}"/>` +
    `<text x="16" y="21.5" font-family="system-ui,sans-serif" font-size="16" font-weight="700" fill="#fff" text-anchor="middle">${letter}</text>` +
    `</svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

export const NETWORK_PRODUCTS: readonly NetworkProduct[] = [
  {
    title: 'Rankings',
    description: 'The most followed and fastest growing publications',
    logoIconUrl: monogram('R', '#16201b'),
    app: 'ranking',
    path: '/',
    isExtension: false,
  },
  {
    title: 'Stories',
    description: 'Share and discover great stories',
    logoIconUrl: monogram('S', '#7a3ff2'),
    app: 'stories',
    path: '/stories',
    isExtension: false,
  },
  {
    title: 'Send files',
    description: 'Send large files with a link',
    logoIconUrl: monogram('T', '#1f6feb'),
    app: 'transfers',
    path: '/transfer',
    isExtension: false,
  },
  {
    title: 'Your transfers',
    description: 'The files you sent and received',
    logoIconUrl: monogram('F', '#1f6feb'),
    app: 'transfers',
    path: '/transfers',
    isExtension: false,
    personal: true,
  },
  {
    title: 'Pro',
    description: 'Bigger transfers, kept longer',
    logoIconUrl: monogram('P', '#b7791f'),
    app: 'transfers',
    path: '/upgrades',
    isExtension: false,
  },
  {
    title: 'Shops',
    description: 'Sell products and subscriptions from your shop',
    logoIconUrl: monogram('$', '#d9480f'),
    app: 'shops',
    path: '/merchant',
    isExtension: false,
  },
  {
    title: 'Your orders',
    description: 'What you bought from shops',
    logoIconUrl: monogram('O', '#d9480f'),
    app: 'shops',
    path: '/store/orders',
    isExtension: false,
    personal: true,
  },
  {
    title: 'ManyStories for Chrome',
    description: 'Share a story from any page',
    logoIconUrl: monogram('E', '#5d6b63'),
    path: 'https://chromewebstore.google.com/detail/manystories',
    isExtension: true,
  },
];

/**
 * The products the menus list: browser extensions are skipped, and a visitor's list leaves out
 * the pages of one's own things (they only ask a visitor to log in).
 */
export function menuNetworkProducts({
  signedIn,
  products = NETWORK_PRODUCTS,
}: {
  signedIn: boolean;
  products?: readonly NetworkProduct[];
}): NetworkProduct[] {
  return products.filter((product) => !product.isExtension && (signedIn || !product.personal));
}

/** A signed-in person's own places in the apps, in the avatar menu. */
export interface PersonalPlace {
  label: string;
  app: ProductApp;
  path: string;
}

export const PERSONAL_PLACES: readonly PersonalPlace[] = [
  { label: 'Your transfers', app: 'transfers', path: '/transfers' },
  // Pro or Free, the subscription page shows the plan and, on Free, the way to Pro.
  { label: 'Your subscription', app: 'transfers', path: '/subscription' },
  { label: 'Your orders', app: 'shops', path: '/store/orders' },
  { label: 'Your shop', app: 'shops', path: '/merchant' },
];
