/** An onboarding-list item: one of the provider's network products (also in the top bar's products menu). */
export interface NetworkProduct {
  title: string;
  /** A local or data: URL; never fetched from another host. */
  logoIconUrl: string;
  /** Where the product's own navigation takes a signed-in user. */
  platformNavUrl: string;
  /** Where a newcomer starts (sign-up, store listing). */
  ctaUrl: string;
  isExtension: boolean;
  /** One line shown under the title in the menu. */
  description?: string;
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
    title: 'ManyStories',
    description: 'Share and discover great stories',
    logoIconUrl: monogram('M', '#7a3ff2'),
    platformNavUrl: 'https://manystories.example',
    ctaUrl: 'https://manystories.example/welcome',
    isExtension: false,
  },
  {
    title: 'OurTransfers',
    description: 'Send large files, simply',
    logoIconUrl: monogram('O', '#1f6feb'),
    platformNavUrl: 'https://ourtransfers.example',
    ctaUrl: 'https://ourtransfers.example/start',
    isExtension: false,
  },
  {
    title: 'PenPay',
    description: 'Sell subscriptions and products',
    logoIconUrl: monogram('P', '#d9480f'),
    platformNavUrl: 'https://penpay.example/merchant/me',
    ctaUrl: 'https://penpay.example/start',
    isExtension: false,
  },
  {
    title: 'Penname',
    description: 'One account for every app',
    logoIconUrl: monogram('N', '#16201b'),
    platformNavUrl: 'https://penname.example/account',
    ctaUrl: 'https://penname.example/signup',
    isExtension: false,
  },
  {
    title: 'ManyStories for Chrome',
    description: 'Share a story from any page',
    logoIconUrl: monogram('E', '#5d6b63'),
    platformNavUrl: 'https://chromewebstore.google.com/detail/manystories',
    ctaUrl: 'https://chromewebstore.google.com/detail/manystories',
    isExtension: true,
  },
];

/** The products the network menu lists: browser extensions are skipped. */
export function menuNetworkProducts(products: readonly NetworkProduct[] = NETWORK_PRODUCTS): NetworkProduct[] {
  return products.filter((product) => !product.isExtension);
}
