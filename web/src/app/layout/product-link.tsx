import type { AnchorHTMLAttributes, Ref } from 'react';
import { PrefetchLink as Link } from '../../components/prefetch-link';
import { type ProductApp, productHref } from '../../lib/product-hosts';

export type ProductLinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & {
  /** The app the page belongs to: its configured sibling host, if any, is where the link goes. */
  app?: ProductApp;
  path: string;
  ref?: Ref<HTMLAnchorElement>;
};

/**
 * A link to a page of one of the family's apps: a client-side route on this host (every
 * deployment of this repo), or a plain link to the app's sibling host when the build sets one
 * (VITE_PRODUCT_HOSTS). Props and ref reach the anchor, so it works inside a Radix `asChild`.
 */
export function ProductLink({ app, path, children, ...anchor }: ProductLinkProps) {
  const target = productHref(app, path);
  return target.kind === 'route' ? (
    <Link to={target.to} {...anchor}>
      {children}
    </Link>
  ) : (
    <a href={target.href} {...anchor}>
      {children}
    </a>
  );
}
