/**
 * What the bench scripts that drive a running local runtime share: its table (`DYNAMODB_ENDPOINT`,
 * `TABLE_NAME`), its API (`API_URL`), and people signed in for real.
 */
import { issueLoginLink } from '../../functions/account/lib/login-links';
import { createDocumentClient } from '../../functions/lib/db/client';
import { createDb } from '../../functions/lib/db/service';
import { APPLICATION_ID_HEADER, SESSION_HEADER, WEB_APPLICATION_ID } from '../../shared/constants';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
const { API_URL, DYNAMODB_ENDPOINT, TABLE_NAME } = process.env;
if (!API_URL || !DYNAMODB_ENDPOINT || !TABLE_NAME) {
  throw new Error('Usage: API_URL=... DYNAMODB_ENDPOINT=... TABLE_NAME=... tsx <bench script>');
}
export const apiUrl = API_URL;
export const db = createDb(createDocumentClient({ endpoint: DYNAMODB_ENDPOINT, region: 'us-east-1' }), TABLE_NAME);

/** The headers the web app sends as a signed-in person. */
export const headers = (token: string) => ({ [APPLICATION_ID_HEADER]: WEB_APPLICATION_ID, cookie: `${SESSION_HEADER}=${token}` });

/** A new account signed in for real (a login link spent at the confirm endpoint): its session and id. */
export async function signIn(label: string): Promise<{ token: string; userId: string }> {
  const { token } = await issueLoginLink(db, { email: `bench-${label}-${Date.now()}@example.com` });
  const answer = await fetch(`${apiUrl}/api/i/user/auth/login/email/confirm`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [APPLICATION_ID_HEADER]: WEB_APPLICATION_ID },
    body: JSON.stringify({ token }),
  });
  const session = /ssoat=([^;]+)/.exec(answer.headers.get('set-cookie') ?? '')?.[1];
  if (!session) throw new Error(`Sign-in failed with ${answer.status}: ${await answer.text()}`);
  const { user } = (await answer.json()) as { user: { userId: string } };
  return { token: session, userId: user.userId };
}

/** Opens a story's link as `token`, which lets that person like it. */
export async function openStory(storyId: string, token: string): Promise<void> {
  await fetch(`${apiUrl}/api/i/stories/story/${storyId}/go`, { headers: headers(token), redirect: 'manual' });
}
