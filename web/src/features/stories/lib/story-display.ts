import { PAGE_PROBLEMS } from '@shared/stories/page-problems';
import type { SiteSort, Story } from '../api/story-keys';

/** A site's page: its stories newest first, or hottest first at /hot (the page renderer writes them alike). */
export function sitePath(host: string, sort: SiteSort = 'new'): string {
  return `/stories/site/${encodeURIComponent(host)}${sort === 'hot' ? '/hot' : ''}`;
}

/** Only https images: the page's policy loads no other (and an http one would be mixed content). */
export function secureImage(url: string | null): string | null {
  return url?.startsWith('https://') ? url : null;
}

/** Where a story is from: the site's own name, else the host of its address. */
export function storySite(story: Pick<Story, 'siteName' | 'url'>): string {
  if (story.siteName) return story.siteName;
  try {
    return new URL(story.url).hostname;
  } catch {
    return story.url;
  }
}

/** A person as a story names them: their name, else their @username. */
export function personName(person: { name: string; username: string }): string {
  return person.name || `@${person.username}`;
}

/** Where a story's links point: the redirect route records the open, which lets the reader like it. */
export function storyLink(story: Pick<Story, 'id'>): string {
  return `/api/i/stories/story/${encodeURIComponent(story.id)}/go`;
}

/** An address as a title: host and path, without the scheme, www., query or fragment ("medium.com/@ana/how-we-ship"). */
export function addressTitle(url: string): string {
  try {
    const parsed = new URL(url);
    const host = parsed.hostname.replace(/^www\./, '');
    let path = parsed.pathname.replace(/\/+$/, '');
    try {
      path = decodeURI(path);
    } catch {
      // Not valid percent-encoding: shown as written.
    }
    return `${host}${path}`;
  } catch {
    return url;
  }
}

/** A story's title: the page's own, else its address as a title (the page could not be read). */
export function storyTitle(story: Pick<Story, 'title' | 'url'>): string {
  return story.title ?? addressTitle(story.url);
}

/** Why a story shows its address for a title, in plain words: what went wrong, with whom, and what was done. */
export function unreadPageNote(story: Pick<Story, 'url' | 'fetchProblem'>): string {
  let host: string;
  try {
    host = new URL(story.url).hostname.replace(/^www\./, '');
  } catch {
    host = 'the site';
  }
  const what =
    story.fetchProblem === PAGE_PROBLEMS.timedOut
      ? `${host} took too long to answer, so we couldn't read the story's title.`
      : story.fetchProblem === PAGE_PROBLEMS.notHtml
        ? `That address on ${host} is not a web page, so there was no title to read.`
        : story.fetchProblem === PAGE_PROBLEMS.tooLarge
          ? `The page on ${host} is too large for us to read the story's title.`
          : `We couldn't reach ${host} to read the story's title.`;
  return `${what} It was shared with its address as the title.`;
}
