import type { RouteDefinition } from './define-route';

/** Bot check (reCAPTCHA assessment) for the login modal. */
export const recaptchaRoutes = {} satisfies Record<string, RouteDefinition>;
