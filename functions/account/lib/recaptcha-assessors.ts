import { ConfigError } from '../../lib/config';

/** What the bot check learns about a token: 1 is very likely a human, 0 very likely a bot. */
export interface RecaptchaAssessment {
  score: number;
  reasons: string[];
}

export interface AssessInput {
  token: string;
  /** The action the page asked reCAPTCHA for (the login modal's is 'login'). */
  actionName: string;
  userIpAddress: string | undefined;
  userAgent: string | undefined;
}

/** Pluggable: the handler does not know whether Google is asked or not. */
export interface RecaptchaAssessor {
  readonly kind: 'local' | 'enterprise';
  assess(input: AssessInput): Promise<RecaptchaAssessment>;
}

/** The assessment service could not answer (network, timeout, non-2xx, unreadable answer): a 503. */
export class RecaptchaUnavailable extends Error {
  override readonly name = 'RecaptchaUnavailable';
}

/** Reason given when a valid token was made for another action than the one asked about. */
export const ACTION_MISMATCH = 'ACTION_MISMATCH';
/** Reason given for an invalid token when Google does not say why. */
export const INVALID_TOKEN = 'INVALID_REASON_UNSPECIFIED';
export const RECAPTCHA_TIMEOUT_MS = 3_000;
export const RECAPTCHA_API_ORIGIN = 'https://recaptchaenterprise.googleapis.com';

/**
 * Locally (no RECAPTCHA_PROJECT_ID) nobody is asked: the local stack has no network beyond
 * the npm registry, there is no reCAPTCHA project or site key, and the page sends the
 * placeholder token 'local'. Every token scores 1 (the score the page assumes without a check), so
 * the whole login flow, the endpoint included, runs locally and in tests.
 */
export const localAssessor: RecaptchaAssessor = {
  kind: 'local',
  assess: async () => ({ score: 1, reasons: [] }),
};

export interface EnterpriseAssessorOptions {
  projectId: string;
  apiKey: string;
  siteKey: string;
  timeoutMs?: number;
}

/** The parts of reCAPTCHA Enterprise's Assessment resource the mapping reads. */
interface EnterpriseAssessment {
  tokenProperties?: { valid?: boolean; invalidReason?: string; action?: string };
  riskAnalysis?: { score?: number; reasons?: string[] };
}

const clampScore = (score: number) => Math.min(1, Math.max(0, score));

/** Google's answer as the bot check's: invalid tokens and other actions' tokens score 0. */
export function toAssessment(answer: EnterpriseAssessment, expectedAction: string): RecaptchaAssessment {
  const token = answer.tokenProperties;
  if (!token?.valid) return { score: 0, reasons: [token?.invalidReason || INVALID_TOKEN] };
  if (token.action !== expectedAction) return { score: 0, reasons: [ACTION_MISMATCH] };
  const score = answer.riskAnalysis?.score;
  if (typeof score !== 'number' || !Number.isFinite(score)) {
    throw new RecaptchaUnavailable('reCAPTCHA answered a valid token without a score');
  }
  const reasons = (answer.riskAnalysis?.reasons ?? []).filter((reason): reason is string => typeof reason === 'string');
  return { score: clampScore(score), reasons };
}

/**
 * reCAPTCHA Enterprise (projects.assessments.create with an API key). Bounded by a timeout, so
 * a slow Google is a 503, never a hanging login modal. The token and the key are never logged.
 */
export function createEnterpriseAssessor(options: EnterpriseAssessorOptions): RecaptchaAssessor {
  const url = `${RECAPTCHA_API_ORIGIN}/v1/projects/${encodeURIComponent(options.projectId)}/assessments?key=${encodeURIComponent(options.apiKey)}`;
  const timeoutMs = options.timeoutMs ?? RECAPTCHA_TIMEOUT_MS;
  return {
    kind: 'enterprise',
    assess: async ({ token, actionName, userIpAddress, userAgent }) => {
      const event = {
        token,
        siteKey: options.siteKey,
        expectedAction: actionName,
        ...(userIpAddress ? { userIpAddress } : {}),
        ...(userAgent ? { userAgent } : {}),
      };
      let response: Response;
      let answer: EnterpriseAssessment;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json; charset=utf-8' },
          body: JSON.stringify({ event }),
          signal: AbortSignal.timeout(timeoutMs),
        });
        if (!response.ok) {
          // Drain the body so the connection can be reused; its text is not needed.
          await response.text().catch(() => undefined);
          throw new RecaptchaUnavailable(`reCAPTCHA answered ${response.status}`);
        }
        answer = (await response.json()) as EnterpriseAssessment;
      } catch (error) {
        if (error instanceof RecaptchaUnavailable) throw error;
        // Only the error's name: a message might quote the request URL, which holds the key.
        const name = (error as { name?: string } | undefined)?.name ?? 'Error';
        throw new RecaptchaUnavailable(`reCAPTCHA could not be reached (${name})`);
      }
      if (!answer || typeof answer !== 'object') throw new RecaptchaUnavailable('reCAPTCHA answered something unreadable');
      return toAssessment(answer, actionName);
    },
  };
}

export interface RecaptchaSettings {
  recaptchaProjectId: string | undefined;
  recaptchaApiKey: string | undefined;
  recaptchaSiteKey: string | undefined;
}

/** Enterprise when a project is configured (then its key and site key are required), else local. */
export function assessorFromConfig(settings: RecaptchaSettings): RecaptchaAssessor {
  const { recaptchaProjectId: projectId, recaptchaApiKey: apiKey, recaptchaSiteKey: siteKey } = settings;
  if (!projectId) return localAssessor;
  if (!apiKey || !siteKey) {
    throw new ConfigError('RECAPTCHA_PROJECT_ID is set: also set RECAPTCHA_API_KEY and RECAPTCHA_SITE_KEY');
  }
  return createEnterpriseAssessor({ projectId, apiKey, siteKey });
}
