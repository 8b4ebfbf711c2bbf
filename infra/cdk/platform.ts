import { Tags } from 'aws-cdk-lib';
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
