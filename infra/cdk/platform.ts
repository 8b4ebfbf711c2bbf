import { SecretValue, Tags } from 'aws-cdk-lib';
import type { App } from 'aws-cdk-lib';
import path from 'node:path';
import { APP_NAME } from '../../shared/constants';
import { routeEntries } from '../../shared/routes/index';
import { JOB_SCHEDULES } from '../../shared/schedules';
import type { JobSchedule } from '../../shared/schedules';
import { REPO_ROOT } from '../build/bundle-functions';
import type { CodeFor } from './code-source';
import type { FunctionEnvironment } from './constructs/handler-function';
import { ApiStack } from './stacks/api-stack';
import { DataStack } from './stacks/data-stack';
import { EmailStack } from './stacks/email-stack';
import { JobsStack } from './stacks/jobs-stack';
import { MAX_ROUTES_PER_STACK, planRouteStacks, RouteStack } from './stacks/route-stack';
import type { NamedRoute } from './stacks/route-stack';
import { WebStack } from './stacks/web-stack';

export interface PlatformProps {
  stage: string;
  allowedOrigins: readonly string[];
  mailDomain: string;
  /** Parent domain shared by the sibling apps, for the session cookie (single sign-on). */
  sessionCookieDomain?: string | undefined;
  /** Optional provider settings; each reaches only the handler folders that use it. */
  providers?: ProviderSettings;
  /** Defaults to the real route table. */
  routes?: readonly NamedRoute[];
  /** Defaults to shared/schedules.ts. */
  jobs?: readonly JobSchedule[];
  /** Defaults to the esbuild bundles under dist/functions. */
  codeFor?: CodeFor;
  /** Defaults to web/dist. */
  webDistDir?: string;
  maxRoutesPerStack?: number;
}

export interface Platform {
  data: DataStack;
  api: ApiStack;
  routeStacks: RouteStack[];
  jobs: JobsStack;
  web: WebStack;
  email: EmailStack;
}

export interface ProviderSettings {
  googleIssuer?: string;
  googleClientId?: string;
  googleRedirectUri?: string;
  ssoAppOrigins?: string;
  pusherAppKey?: string;
  recaptchaProjectId?: string;
  recaptchaSiteKey?: string;
  /**
   * Name of a Secrets Manager secret holding GOOGLE_CLIENT_SECRET, PUSHER_SECRET and
   * RECAPTCHA_API_KEY as JSON fields. CloudFormation resolves them at deploy time, so no secret
   * is in the repo or the synthesized template.
   */
  secretName?: string;
}

/** Which settings each handler folder needs: a function never sees another provider's secret. */
function providerSettingsFor(settings: ProviderSettings): (handler: string) => Record<string, string> {
  const secret = (field: string) =>
    settings.secretName ? SecretValue.secretsManager(settings.secretName, { jsonField: field }).unsafeUnwrap() : undefined;
  const pick = (entries: Record<string, string | undefined>) =>
    Object.fromEntries(Object.entries(entries).filter((entry): entry is [string, string] => Boolean(entry[1])));
  const byFolder: Record<string, () => Record<string, string>> = {
    oauth: () =>
      pick({
        GOOGLE_ISSUER: settings.googleIssuer,
        GOOGLE_CLIENT_ID: settings.googleClientId,
        GOOGLE_REDIRECT_URI: settings.googleRedirectUri,
        GOOGLE_CLIENT_SECRET: settings.googleClientId ? secret('GOOGLE_CLIENT_SECRET') : undefined,
      }),
    sso: () =>
      pick({
        SSO_APP_ORIGINS: settings.ssoAppOrigins,
        PUSHER_APP_KEY: settings.pusherAppKey,
        PUSHER_SECRET: settings.pusherAppKey ? secret('PUSHER_SECRET') : undefined,
      }),
    recaptcha: () =>
      pick({
        RECAPTCHA_PROJECT_ID: settings.recaptchaProjectId,
        RECAPTCHA_SITE_KEY: settings.recaptchaSiteKey,
        RECAPTCHA_API_KEY: settings.recaptchaProjectId ? secret('RECAPTCHA_API_KEY') : undefined,
      }),
  };
  const groupOf = (handler: string) =>
    /^account\/(google|twitter)-/.test(handler)
      ? 'oauth'
      : /^account\/(sso-|pusher-auth|send-verification-email|complete-action)/.test(handler)
        ? 'sso'
        : handler === 'account/assess-recaptcha'
          ? 'recaptcha'
          : '';
  return (handler) => byFolder[groupOf(handler)]?.() ?? {};
}

const STAGE_PATTERN = /^[a-z][a-z0-9-]{0,19}$/;

/**
 * Every stack of one stage. Stacks are environment-agnostic and make no lookups, so synth
 * needs neither an AWS account nor the network.
 */
export function createPlatform(app: App, props: PlatformProps): Platform {
  if (!STAGE_PATTERN.test(props.stage)) {
    throw new Error(`Stage "${props.stage}" must be lower-case letters, digits and dashes, starting with a letter`);
  }
  const prefix = `${APP_NAME}-${props.stage}`;
  Tags.of(app).add('app', APP_NAME);
  Tags.of(app).add('stage', props.stage);

  const data = new DataStack(app, `${prefix}-Data`, { allowedOrigins: props.allowedOrigins });
  const api = new ApiStack(app, `${prefix}-Api`, { stage: props.stage, allowedOrigins: props.allowedOrigins });
  const email = new EmailStack(app, `${prefix}-Email`, { mailDomain: props.mailDomain });
  const environment: FunctionEnvironment = {
    stage: props.stage,
    allowedOrigins: props.allowedOrigins,
    table: data.table,
    mail: { identity: email.identity, from: `${APP_NAME} <login@${props.mailDomain}>` },
    sessionCookieDomain: props.sessionCookieDomain,
    settingsFor: providerSettingsFor(props.providers ?? {}),
  };

  const routeStacks = planRouteStacks(props.routes ?? routeEntries, props.maxRoutesPerStack ?? MAX_ROUTES_PER_STACK).map(
    (plan) =>
      new RouteStack(app, `${prefix}-Routes-${plan.key}`, {
        httpApi: api.httpApi,
        environment,
        routes: plan.routes,
        codeFor: props.codeFor,
      }),
  );

  const jobs = new JobsStack(app, `${prefix}-Jobs`, {
    environment,
    jobs: props.jobs ?? JOB_SCHEDULES,
    codeFor: props.codeFor,
  });
  const web = new WebStack(app, `${prefix}-Web`, {
    httpApi: api.httpApi,
    webDistDir: props.webDistDir ?? path.join(REPO_ROOT, 'web', 'dist'),
  });
  return { data, api, routeStacks, jobs, web, email };
}
