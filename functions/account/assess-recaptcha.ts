import { recaptchaRoutes } from '../../shared/routes/recaptcha';
import { getConfig } from '../lib/config';
import { ServiceUnavailable } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { logger } from '../lib/logger';
import { assessorFromConfig, type RecaptchaAssessor, RecaptchaUnavailable } from './lib/recaptcha-assessors';

// Module scope: a half-configured reCAPTCHA fails the cold start loudly.
const assessor: RecaptchaAssessor = assessorFromConfig(getConfig());

/**
 * The login modal's bot check: scores a reCAPTCHA token for an action.
 * When Google cannot answer in time the caller gets a 503 and lets the user log in anyway.
 */
export const handler = createHandler(recaptchaRoutes.assessRecaptcha, async ({ body, event, headers }) => {
  try {
    const riskAnalysis = await assessor.assess({
      token: body.token,
      actionName: body.actionName,
      userIpAddress: event.requestContext.http.sourceIp || undefined,
      userAgent: headers['user-agent'] || undefined,
    });
    return { riskAnalysis };
  } catch (error) {
    if (!(error instanceof RecaptchaUnavailable)) throw error;
    logger.warn('reCAPTCHA assessment unavailable', { reason: error.message });
    throw new ServiceUnavailable('The bot check is briefly unavailable. Please try again.', { cause: error });
  }
});
