/**
 * How "hot" a story is: Hacker News's gravity formula. Likes count for more when they come
 * fast; every story's score decays with age, so yesterday's favourite yields to today's.
 * A new story starts as if it had one like (HN counts the submitter's vote), so it can be seen
 * before anyone has liked it.
 */
export const HOT_GRAVITY = 1.8;
/** Hours added to every age, so a story minutes old does not divide by almost nothing. */
const AGE_OFFSET_HOURS = 2;

export function hotScore(likeCount: number, ageHours: number): number {
  return (Math.max(0, likeCount) + 1) / (Math.max(0, ageHours) + AGE_OFFSET_HOURS) ** HOT_GRAVITY;
}

/** Stories older than this are never hot: the hot list is made from the last week's stories. */
export const HOT_WINDOW_DAYS = 7;
/** How many stories the hot list keeps (25 pages of 20). */
export const HOT_LIST_SIZE = 500;

/** The ids of the hottest stories first; ties go to the newer story. */
export function rankHot(
  stories: readonly { storyId: string; likeCount: number; createdAt: string }[],
  now: Date,
  size = HOT_LIST_SIZE,
): string[] {
  return stories
    .map((story) => ({
      storyId: story.storyId,
      createdAt: story.createdAt,
      score: hotScore(story.likeCount, (now.getTime() - Date.parse(story.createdAt)) / 3_600_000),
    }))
    .sort((a, b) => b.score - a.score || (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0))
    .slice(0, size)
    .map((story) => story.storyId);
}
