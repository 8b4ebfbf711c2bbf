import * as z from '../zod';

/** The reCAPTCHA action the login modal makes its token for and has assessed. */
export const RECAPTCHA_LOGIN_ACTION = 'login';
/** The lowest score that counts as a person: the modal disables Google login below it, the API refuses it. */
export const RECAPTCHA_PASSING_SCORE = 0.5;

/** What the login modal sends: a reCAPTCHA token and the action it was made for. */
export const assessRecaptchaBodySchema = z.strictObject({
  token: z.string().check(z.minLength(1, 'Send a reCAPTCHA token'), z.maxLength(4000, 'At most 4000 characters')),
  actionName: z.string().check(z.minLength(1, 'Send the action name'), z.maxLength(100, 'At most 100 characters')),
});
export type AssessRecaptchaBody = z.infer<typeof assessRecaptchaBodySchema>;

/** The risk analysis: 1 is very likely a human, 0 very likely a bot; reasons are reCAPTCHA's codes. */
export const riskAnalysisSchema = z.strictObject({
  score: z.number().check(z.minimum(0), z.maximum(1)),
  reasons: z.array(z.string()),
});
export type RiskAnalysis = z.infer<typeof riskAnalysisSchema>;

export const assessRecaptchaResponseSchema = z.strictObject({ riskAnalysis: riskAnalysisSchema });
