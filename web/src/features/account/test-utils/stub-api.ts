import { vi } from 'vitest';

export interface RecordedRequest {
  method: string;
  url: URL;
  body: unknown;
}

type Answer = { status?: number; body: unknown } | Promise<{ status?: number; body: unknown }>;
type Handler = (request: RecordedRequest) => Answer | undefined;

/** Stubs fetch: answers by handler (404 when it has none) and records every request. */
export function stubApi(handler: Handler) {
  const requests: RecordedRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const request: RecordedRequest = {
      method: init.method ?? 'GET',
      url: new URL(String(input), 'http://localhost'),
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    };
    requests.push(request);
    const answer =
      (await handler(request)) ??
      // The login modal asks for a bot check whenever it opens: a human score unless a test says otherwise.
      (request.url.pathname === RECAPTCHA_ASSESS_PATH
        ? { body: { riskAnalysis: { score: 0.9, reasons: [] } } }
        : { status: 404, body: { message: 'Not found', code: 'NOT_FOUND' } });
    return new Response(JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    fetchMock,
    requests,
    calls: (path: string) => requests.filter((request) => request.url.pathname === path),
  };
}

export const SEND_LOGIN_EMAIL_PATH = '/api/i/user/auth/login/email';
export const CONFIRM_LOGIN_EMAIL_PATH = '/api/i/user/auth/login/email/confirm';
export const LOGOUT_PATH = '/api/i/user/auth/logout';
export const CURRENT_USER_PATH = '/api/i/user/me/v';
export const RECAPTCHA_ASSESS_PATH = '/api/e/recaptcha/assess';

/** Requests other than the login modal's bot check: what a test about the page itself cares about. */
export function pageRequests(requests: readonly RecordedRequest[]): RecordedRequest[] {
  return requests.filter((request) => request.url.pathname !== RECAPTCHA_ASSESS_PATH);
}

/** A promise the test settles when it wants: to see the in-between state. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
