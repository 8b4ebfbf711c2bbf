/**
 * The site a story is from, as its site page names it: the host of the story's canonical
 * address, lower-case, without a leading "www." (www.example.com and example.com are one
 * site) and without a port. One rule for the share that counts a story, the site page's
 * address and the link on each story card.
 */

/** At most 253 characters of dot-separated labels of letters, digits and inner hyphens (RFC 1123). */
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/**
 * The site host of an address: `https://WWW.Example.com:8080/post` is `example.com`. Undefined
 * for an address that is not a URL or whose host is no name (an IPv6 literal): such a story
 * has no site page.
 */
export function siteHostOf(url: string): string | undefined {
  try {
    return normalSiteHost(new URL(url).hostname);
  } catch {
    return undefined;
  }
}

/**
 * A host as a person may type it in a site page's address (`WWW.Example.com.`), normalised;
 * undefined when it cannot be a host name. Internationalised names are written in their
 * ASCII (xn--) form, as addresses hold them.
 */
export function normalSiteHost(raw: string): string | undefined {
  const host = raw
    .trim()
    .toLowerCase()
    .replace(/\.$/, '')
    .replace(/^www\./, '');
  return HOST_NAME.test(host) ? host : undefined;
}
