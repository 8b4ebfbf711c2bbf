/**
 * Whether a publication's follower figures mean anything. They do not for one whose source counts
 * no followers (a plain RSS or Atom feed): its figures are then 0 and it ranks on activity only.
 * Rows cached before the API said so lack the flag, and every one of those was counted.
 */
export function hasFollowerCount(publication: { followersKnown?: boolean | undefined }): boolean {
  return publication.followersKnown !== false;
}

/** Why a feed-only publication shows no follower figures, for its label's title and screen readers. */
export const NO_FOLLOWER_COUNT = 'No follower count: ranked by recent activity';
