import { assessRecaptchaBodySchema, assessRecaptchaResponseSchema } from '../schemas/recaptcha';
import { defineRoute } from './define-route';

// Bot check (reCAPTCHA assessment) for the login modal.

export const assessRecaptcha = defineRoute({
  method: 'POST',
  path: '/api/e/recaptcha/assess',
  access: 'public',
  handler: 'account/assess-recaptcha',
  summary:
    'Scores a reCAPTCHA token: the login modal disables Google login below 0.5. With reCAPTCHA configured, limited per client network, and a passing login score sets a short-lived one-time pass cookie that starting a Google login needs. Locally always 1, no pass needed.',
  body: assessRecaptchaBodySchema,
  response: assessRecaptchaResponseSchema,
  // With reCAPTCHA configured it counts calls and stores the one-time pass.
  capabilities: { table: 'read-write', settings: ['recaptcha'] },
});

/**
 * The group in listing order (the API reference, and CDK's stacks, which chunk an app's routes
 * in this order): a new route goes at the end, so no existing route moves to another stack.
 */
export const allRecaptchaRoutes = {
  assessRecaptcha,
};
