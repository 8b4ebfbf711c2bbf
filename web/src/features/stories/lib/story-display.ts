import type { Story } from '../api/story-keys';

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
