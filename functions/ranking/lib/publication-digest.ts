import { APP_NAME } from '../../../shared/constants';
import * as z from '../../../shared/zod';
import { formatCount } from '../../../shared/format-count';
import { DEFAULT_EMAIL_PREFERENCES, type EmailPreferences } from '../../../shared/schemas/account';
import { getConfig } from '../../lib/config';
import { getUsers } from '../../lib/db/users';
import type { Db } from '../../lib/db/service';
import { RateLimited } from '../../lib/errors';
import { logger } from '../../lib/logger';
import { html, mailLink } from '../../lib/mail/template';
import { defineMailKind, sendMail } from '../../lib/mailer';
import { sendWorkMessages, type WorkMessage } from '../../lib/work-queue';
import { toDay } from './domain/days';
import { computeStanding, type Standing } from './domain/standing';
import { listPublicationFollowers, listPublicationFollows } from './publication-follows';
import { readWatches } from './announce-climbs';
import { getBoardReader } from './ranking-context';
import { readPublications } from './publication-reads';
import { inGroups } from '../../lib/in-groups';

/** One followed publication's week, as the digest lists it. */
export interface DigestLine {
  slug: string;
  name: string;
  followers: number;
  gainedThisWeek: number;
  /** Rank on the most-followed board, when ranked. */
  rank: number | null;
  isActive: boolean;
}

interface DigestMailData {
  lines: DigestLine[];
  pageUrl: (slug: string) => string;
  preferencesUrl: string;
}

const signed = (value: number) => `${value > 0 ? '+' : value < 0 ? '−' : '±'}${formatCount(Math.abs(value))}`;

/** "UX Collective: 298,900 followers (+1,200 this week), #12 most followed." */
export function describeDigestLine(line: DigestLine): string {
  const rank = line.rank === null ? 'not ranked yet' : `#${formatCount(line.rank)} most followed`;
  const dormant = line.isActive ? '' : ', dormant';
  return `${line.name}: ${formatCount(line.followers)} followers (${signed(line.gainedThisWeek)} this week), ${rank}${dormant}.`;
}

/** The most climbers first: what moved is what a reader opens a digest for. */
export function orderDigest(lines: readonly DigestLine[]): DigestLine[] {
  return [...lines].sort((a, b) => b.gainedThisWeek - a.gainedThisWeek || a.name.localeCompare(b.name));
}

/**
 * The weekly digest of followed publications. The cooldown of six days makes a second run in
 * the same week (a retry, a manual run) send nothing twice.
 */
export const publicationDigestEmail = defineMailKind<DigestMailData>({
  name: 'publication-digest',
  template: ({ lines, pageUrl, preferencesUrl }) => {
    const preferences = mailLink(preferencesUrl);
    const text = [
      `Your publications this week on ${APP_NAME}:`,
      '',
      ...lines.map((line) => `- ${describeDigestLine(line)} ${mailLink(pageUrl(line.slug))}`),
      '',
      `You get this weekly digest because it is on in your email preferences: ${preferences}`,
      '',
    ].join('\n');
    const items = lines.map(
      (line) =>
        html`<li>
          <a href="${mailLink(pageUrl(line.slug))}">${line.name}</a>: ${describeDigestLine(line).slice(line.name.length + 2)}
        </li>`,
    );
    const body = html`<!doctype html>
      <html>
        <body style="font-family:system-ui,sans-serif;line-height:1.5">
          <p>Your publications this week on ${APP_NAME}:</p>
          <ul>
            ${items}
          </ul>
          <p style="color:#555;font-size:14px">
            You get this weekly digest because it is on in your <a href="${preferences}">email preferences</a>.
          </p>
        </body>
      </html>`;
    return { subject: `Your publications this week on ${APP_NAME}`, text, html: body.markup };
  },
  cooldown: { seconds: 6 * 24 * 3600, message: () => 'This week’s digest was already sent to this address.' },
  hourlyOverall: { limit: 20_000, message: () => 'Too many digests are being sent right now.' },
  unavailableMessage: 'The weekly digest could not be sent.',
});

function wantsDigest(preferences: unknown): boolean {
  const stored = (preferences ?? {}) as Partial<EmailPreferences>;
  return stored.weeklyDigest ?? DEFAULT_EMAIL_PREFERENCES.weeklyDigest;
}

/** Readers per digest page message: one BatchGetItem of their users, then their follows and publications. */
export const DIGEST_READERS_PER_PAGE = 100;
/** Digests mailed at once within a page. */
const DIGESTS_AT_ONCE = 8;
/** Followed publications whose followers are read at once when the week's digest is planned. */
const FOLLOWER_READS_AT_ONCE = 8;

/**
 * A page of readers for the publication-digest queue's consumer: only their ids. Each one's
 * follows are read by the consumer (one Query of their own partition), only for those who want
 * the digest, so a page stays small whatever they follow (up to 500 publications each).
 */
export const digestPageMessageSchema = z.object({
  userIds: z.array(z.string().check(z.minLength(1))).check(z.minLength(1), z.maxLength(DIGEST_READERS_PER_PAGE)),
});

export type DigestPageMessage = z.infer<typeof digestPageMessageSchema>;

/**
 * The weekly job's part: everyone who follows a publication, in pages of DIGEST_READERS_PER_PAGE
 * to the publication-digest queue, whose consumer mails them (sendDigestPage). The job reads the
 * followed publications' followers and sends a message per page, so its time grows with the
 * follows it reads, never with the mails: 100,000 readers are 1,000 messages, where mailing them
 * from the job would outlast Lambda's 15 minutes.
 */
export async function enqueuePublicationDigests(db: Db): Promise<{ readers: number; pages: number }> {
  const watches = (await readWatches(db)).filter((watch) => (watch.followerCount ?? 0) > 0);
  const readers = new Set<string>();
  // A few publications' followers at a time: one after the other, thousands of followed
  // publications took longer than the job's five minutes.
  await inGroups(watches, FOLLOWER_READS_AT_ONCE, async (watch) => {
    for (const userId of await listPublicationFollowers(db, { slug: watch.slug })) readers.add(userId);
  });
  const userIds = [...readers];
  const pages: WorkMessage[] = [];
  for (let start = 0; start < userIds.length; start += DIGEST_READERS_PER_PAGE) {
    const body: DigestPageMessage = { userIds: userIds.slice(start, start + DIGEST_READERS_PER_PAGE) };
    pages.push({ body });
  }
  await sendWorkMessages('publication-digest', pages);
  return { readers: userIds.length, pages: pages.length };
}

/**
 * A page's part: mails each of these readers who has a verified address and the weekly digest on
 * a digest of what they follow now. Reads the people in a batch, each wanting reader's follows,
 * and their publications in batches; one reader's failed send never stops the others, and the
 * mail's six-day cooldown makes a second delivery of the page (or a second run in the week) send
 * nothing twice.
 */
export async function sendDigestPage(db: Db, userIds: readonly string[]): Promise<{ recipients: number; sent: number }> {
  const recipients = (await getUsers(db, { userIds })).filter(
    (user) => user.email && user.emailVerified && wantsDigest(user.emailPreferences),
  );
  if (recipients.length === 0) return { recipients: 0, sent: 0 };
  const slugsByUser = new Map<string, string[]>();
  await inGroups(recipients, DIGESTS_AT_ONCE, async ({ userId }) => {
    const follows = await listPublicationFollows(db, { userId });
    slugsByUser.set(
      userId,
      follows.map((follow) => follow.slug),
    );
  });

  const { entries, manifest } = await getBoardReader().readSearchIndex();
  const rankOf = new Map(entries.map(([slug, , , followersRank]) => [slug, followersRank]));
  const wanted = [...new Set([...slugsByUser.values()].flat())];
  const publications = await readPublications(db, wanted);
  const today = toDay(manifest.generatedAt);
  const standings = new Map<string, Standing>(
    Array.from(publications, ([slug, publication]) => [slug, computeStanding(publication, today)]),
  );
  const origin = getConfig().webOrigin;

  let sent = 0;
  await inGroups(recipients, DIGESTS_AT_ONCE, async (user) => {
    const lines = (slugsByUser.get(user.userId) ?? []).flatMap((slug): DigestLine[] => {
      const standing = standings.get(slug);
      if (!standing) return [];
      return [
        {
          slug,
          name: standing.name,
          followers: standing.followers,
          gainedThisWeek: standing.followers - standing.followers7dAgo,
          rank: rankOf.get(slug) ?? null,
          isActive: standing.isActive,
        },
      ];
    });
    if (lines.length === 0) return;
    try {
      await sendMail(db, publicationDigestEmail, {
        to: user.email as string,
        data: () => ({
          lines: orderDigest(lines),
          pageUrl: (slug: string) => `${origin}/pub/${encodeURIComponent(slug)}`,
          preferencesUrl: `${origin}/me`,
        }),
      });
      sent += 1;
    } catch (error) {
      if (!(error instanceof RateLimited)) {
        logger.warn('Could not send a weekly digest', { errorName: (error as Error).name });
      }
    }
  });
  return { recipients: recipients.length, sent };
}
