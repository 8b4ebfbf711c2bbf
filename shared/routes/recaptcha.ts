import { assessRecaptchaBodySchema, assessRecaptchaResponseSchema } from '../schemas/recaptcha';
import { defineRoute, type RouteDefinition } from './define-route';

/** Bot check (reCAPTCHA assessment) for the login modal. */
export const recaptchaRoutes = {
  assessRecaptcha: defineRoute({
    method: 'POST',
    path: '/api/e/recaptcha/assess',
    access: 'public',
    handler: 'account/assess-recaptcha',
    summary: 'Scores a reCAPTCHA token: the login modal disables Google login below 0.5. Locally always 1.',
    body: assessRecaptchaBodySchema,
    response: assessRecaptchaResponseSchema,
    // Asks Google (or nobody, locally); reads the table only to resolve the caller.
    capabilities: { table: 'read', settings: ['recaptcha'] },
  }),
} satisfies Record<string, RouteDefinition>;
