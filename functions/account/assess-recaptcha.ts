import * as recaptchaRoutes from '../../shared/routes/recaptcha';
import { RECAPTCHA_LOGIN_ACTION } from '../../shared/schemas/recaptcha';
import { getConfig } from '../lib/config';
import { getDb } from '../lib/db/service';
import { ServiceUnavailable } from '../lib/errors';
import { clientAddress } from '../lib/http/client-address';
import { createHandler } from '../lib/http/create-handler';
import { reply } from '../lib/http/responses';
import { logger } from '../lib/logger';
import { claimLimits } from '../lib/rate-limit';
import { assessmentLimits, clearedBotPassCookie, isBotCheckEnforced, issueBotPass, passesBotCheck } from './lib/bot-check';
import { assessorFromConfig, type RecaptchaAssessor, RecaptchaUnavailable } from './lib/recaptcha-assessors';

const config = getConfig();
// Module scope: a half-configured reCAPTCHA fails the cold start loudly.
const assessor: RecaptchaAssessor = assessorFromConfig(config);
const enforced = isBotCheckEnforced(config);

/**
 * The login modal's bot check: scores a reCAPTCHA token for an action. With reCAPTCHA
 * configured, calls are limited per client network (each one costs an assessment), and a
 * passing score for the login action leaves a one-time pass in an HttpOnly cookie: starting a
 * Google login spends it, so the score is enforced by the server, not only by the modal. When
 * Google cannot answer in time the caller gets a 503, and no pass.
 */
export const handler = createHandler(recaptchaRoutes.assessRecaptcha, async ({ body, event, headers }) => {
  const db = getDb();
  const sourceIp = clientAddress(event, config.edgeOriginToken);
  if (enforced) await claimLimits(db, assessmentLimits(sourceIp));
  let riskAnalysis;
  try {
    riskAnalysis = await assessor.assess({
      token: body.token,
      actionName: body.actionName,
      userIpAddress: sourceIp || undefined,
      userAgent: headers['user-agent'] || undefined,
    });
  } catch (error) {
    if (!(error instanceof RecaptchaUnavailable)) throw error;
    logger.warn('reCAPTCHA assessment unavailable', { reason: error.message });
    throw new ServiceUnavailable('The bot check is briefly unavailable. Please try again.', { cause: error });
  }
  if (!enforced) return { riskAnalysis };
  const passed = body.actionName === RECAPTCHA_LOGIN_ACTION && passesBotCheck(riskAnalysis.score);
  const cookie = passed ? (await issueBotPass(db)).cookie : clearedBotPassCookie();
  return reply({ riskAnalysis }, { cookies: [cookie] });
});
