import { routes } from '@shared/routes';
import { type RouteStub, type StubbedRequest, stubRoute, stubRoutes } from '../../../test/stub-routes';

/** The login modal asks for a bot check whenever it opens: a human score unless a test says otherwise. */
const humanBotCheck = stubRoute(routes.assessRecaptcha, { body: { riskAnalysis: { score: 0.9, reasons: [] } } });

/** Stubs fetch with these routes (the first match answers); the bot check passes unless a stub answers it. */
export function stubApi(...stubs: RouteStub[]) {
  return stubRoutes(...stubs, humanBotCheck);
}

/** Requests other than the login modal's bot check: what a test about the page itself cares about. */
export function pageRequests(requests: readonly StubbedRequest[]): StubbedRequest[] {
  return requests.filter((request) => request.url.pathname !== routes.assessRecaptcha.path);
}

/** A promise the test settles when it wants: to see the in-between state. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
