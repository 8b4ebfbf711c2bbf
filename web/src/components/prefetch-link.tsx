import { type ComponentProps, type Ref, useEffect, useRef } from 'react';
import { Link, useHref } from 'react-router';
import { prefetchWhenNearViewport } from '../lib/prefetch';

type PrefetchLinkProps = ComponentProps<typeof Link> & { ref?: Ref<HTMLAnchorElement> };

/**
 * react-router's Link that starts loading the page it leads to once it comes within the spec's
 * 200 px of the viewport (lib/prefetch.ts: one shared observer, nothing under Save-Data, nothing
 * for other hosts).
 */
export function PrefetchLink({ ref, ...props }: PrefetchLinkProps) {
  const own = useRef<HTMLAnchorElement | null>(null);
  const href = useHref(props.to, props.relative ? { relative: props.relative } : undefined);
  const external = typeof props.to === 'string' && /^(?:[a-z][a-z\d+.-]*:|\/\/)/i.test(props.to);
  const target = external ? (props.to as string) : href;

  useEffect(() => {
    const element = own.current;
    if (!element || props.reloadDocument) return;
    return prefetchWhenNearViewport(element, target);
  }, [target, props.reloadDocument]);

  const setRef = (element: HTMLAnchorElement | null) => {
    own.current = element;
    if (typeof ref === 'function') ref(element);
    else if (ref) ref.current = element;
  };

  return <Link {...props} ref={setRef} />;
}
