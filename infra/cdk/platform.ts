import { SecretValue, Tags } from 'aws-cdk-lib';
import type { App } from 'aws-cdk-lib';
import path from 'node:path';
import { SETTING_GROUPS, type SettingGroup, type SettingName } from '../../shared/capabilities';
import { APP_NAME } from '../../shared/constants';
import { routeEntries } from '../../shared/routes/index';
import { WORK_QUEUES } from '../../shared/queues';
import type { WorkQueue } from '../../shared/queues';
import { JOB_SCHEDULES } from '../../shared/schedules';
import type { JobSchedule } from '../../shared/schedules';
import { REPO_ROOT } from '../build/bundle-functions';
import type { CodeFor } from './code-source';
import type { DeploymentSettings } from '../function-environment';
import type { FunctionEnvironment } from './constructs/handler-function';
import { ApiStack } from './stacks/api-stack';
import { DataStack, fileBucketArnExportName } from './stacks/data-stack';
import { analyticsExportNames } from './constructs/analytics';
import { EmailStack } from './stacks/email-stack';
import { JobsStack } from './stacks/jobs-stack';
import { MonitoringStack } from './stacks/monitoring-stack';
import { QueuesStack } from './stacks/queues-stack';
import { RealtimeStack } from './stacks/realtime-stack';
import { REALTIME_HANDLERS } from '../../shared/realtime';
import { MAX_ROUTES_PER_STACK, planRouteStacks, RouteStack } from './stacks/route-stack';
import type { NamedRoute } from './stacks/route-stack';
import { WebStack } from './stacks/web-stack';

export interface PlatformProps {
  stage: string;
  allowedOrigins: readonly string[];
  mailDomain: string;
  /**
   * ARN of the ACM certificate (us-east-1) for the web app's own domain, the host of the first
   * allowed origin. Production needs it: without it CloudFront's default certificate allows TLS 1.0.
   */
  siteCertificateArn?: string | undefined;
  /** ARN of the optional web ACL (infra/cdk/waf-app.ts deploys it in us-east-1). */
  webAclArn?: string | undefined;
  /** Email address told when an alarm fires (SNS subscription, confirmed from the first mail). */
  alarmEmail?: string | undefined;
  /** Optional monthly cost budget in US dollars; needs alarmEmail. */
  monthlyBudgetUsd?: number | undefined;
  /** Parent domain shared by the sibling apps, for the session cookie (single sign-on). */
  sessionCookieDomain?: string | undefined;
  /** Optional provider settings; each reaches only the routes that declare its group. */
  providers?: ProviderSettings;
  /** Defaults to the real route table. */
  routes?: readonly NamedRoute[];
  /** Defaults to shared/schedules.ts. */
  jobs?: readonly JobSchedule[];
  /** Defaults to shared/queues.ts. */
  workQueues?: readonly WorkQueue[];
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
  /** The work queues of shared/queues.ts, with their consumers. */
  queues: QueuesStack;
  realtime: RealtimeStack;
  web: WebStack;
  email: EmailStack;
  monitoring: MonitoringStack;
}

/** Optional settings by variable name (non-secret values only); each reaches only the routes that declare its group. */
export type ProviderSettings = Partial<Record<SettingName, string>> & {
  /**
   * Name of a Secrets Manager secret whose JSON fields hold the secrets (GOOGLE_CLIENT_SECRET,
   * TWITTER_CLIENT_SECRET, RECAPTCHA_API_KEY). CloudFormation resolves them at
   * deploy time, so no secret is in the repo or the synthesized template.
   */
  secretName?: string | undefined;
};

/**
 * Setting values with each configured group's secrets as deploy-time references. A group counts
 * as configured when any of its non-secret variables has a value.
 */
export function resolveProviderSettings(providers: ProviderSettings): DeploymentSettings['settings'] {
  const settings: Partial<Record<SettingName, string>> = {};
  for (const group of Object.keys(SETTING_GROUPS) as SettingGroup[]) {
    const { variables, secrets } = SETTING_GROUPS[group];
    let configured = false;
    for (const name of variables) {
      const value = providers[name]?.trim();
      if (value) {
        settings[name] = value;
        configured = true;
      }
    }
    if (!configured || !providers.secretName) continue;
    for (const name of secrets) {
      settings[name] = SecretValue.secretsManager(providers.secretName, { jsonField: name }).unsafeUnwrap();
    }
  }
  return settings;
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
  const routes = props.routes ?? routeEntries;
  const monitoring = new MonitoringStack(app, `${prefix}-Monitoring`, {
    prefix,
    httpApi: api.httpApi,
    table: data.table,
    apps: [...new Set(routes.map(([, route]) => route.handler.split('/')[0] ?? route.handler))],
    alarmEmail: props.alarmEmail,
    monthlyBudgetUsd: props.monthlyBudgetUsd,
    mailReputation: { bounceRate: email.bounceRate, complaintRate: email.complaintRate },
  });
  const baseEnvironment: FunctionEnvironment = {
    alarmTopic: monitoring.alarmTopic,
    table: data.table,
    mailIdentity: email.identity,
    mailConfigurationSet: email.configurationSet,
    fileBucketArnExport: fileBucketArnExportName(data.node.id),
    paymentSecret: data.braintreeSecret,
    merchantKeysKey: data.merchantKeysKey,
    analyticsExports: analyticsExportNames(data.node.id),
    deployment: {
      common: {
        STAGE: props.stage,
        TABLE_NAME: data.table.tableName,
        ALLOWED_ORIGINS: props.allowedOrigins.join(','),
        // Links in emails point at the web app, served on the first allowed origin.
        WEB_ORIGIN: props.allowedOrigins[0] ?? '',
        ...(props.sessionCookieDomain ? { SESSION_COOKIE_DOMAIN: props.sessionCookieDomain } : {}),
        // Resolved by CloudFormation at deploy time, as the provider secrets are.
        EDGE_ORIGIN_TOKEN: data.edgeOriginToken.secretValue.unsafeUnwrap(),
      },
      email: {
        MAIL_FROM: `${APP_NAME} <login@${props.mailDomain}>`,
        MAIL_CONFIGURATION_SET: email.configurationSet.configurationSetName,
      },
      bucket: { FILE_BUCKET_NAME: data.fileBucket.bucketName },
      realtime: {},
      payments: { PAYMENT_GATEWAY: 'braintree', BRAINTREE_SECRET_ARN: data.braintreeSecret.secretArn },
      merchantKeys: { MERCHANT_KEYS: 'kms', MERCHANT_KEYS_KMS_KEY_ARN: data.merchantKeysKey.keyArn },
      analytics: {
        ANALYTICS_BUCKET_NAME: data.analytics.bucket.bucketName,
        ANALYTICS_STREAM_NAME: data.analytics.deliveryStreamName,
      },
      // Filled in once the queues stack exists (below): the realtime functions send to none.
      queues: {},
      settings: resolveProviderSettings(props.providers ?? {}),
    },
  };
  const realtime = new RealtimeStack(app, `${prefix}-Realtime`, {
    stage: props.stage,
    environment: baseEnvironment,
    handlers: REALTIME_HANDLERS,
    codeFor: props.codeFor,
  });
  // Every other function knows where browsers connect; those that push also get the management API.
  const environment: FunctionEnvironment = {
    ...baseEnvironment,
    realtimePushPolicy: realtime.pushPolicy,
    deployment: {
      ...baseEnvironment.deployment,
      common: { ...baseEnvironment.deployment.common, REALTIME_URL: realtime.stage.url },
      realtime: { REALTIME_MANAGEMENT_ENDPOINT: realtime.stage.callbackUrl },
    },
  };

  // The queues stack sits between the realtime stack and the stacks of the functions that send:
  // its consumers read the table and REALTIME_URL like every other function (so it follows the
  // data and realtime stacks), and the senders' stacks (jobs, routes) import each queue's URL and
  // ARN from it. A queue in the jobs stack would make the route stacks depend on the jobs stack;
  // a realtime function sending to a queue would close a cycle (realtime -> queues -> realtime),
  // which is why the realtime stack gets no queues and such a declaration fails synth, naming it.
  const queues = new QueuesStack(app, `${prefix}-Queues`, {
    environment,
    queues: props.workQueues ?? WORK_QUEUES,
    codeFor: props.codeFor,
  });
  // Routes and jobs may send to a queue: its URL only reaches those that declare it (environmentFor),
  // and sqs:SendMessage on it only those (HandlerFunction).
  const sendingEnvironment: FunctionEnvironment = {
    ...environment,
    queues: queues.sendTargets,
    deployment: { ...environment.deployment, queues: queues.deploymentQueues },
  };

  const routeStacks = planRouteStacks(routes, props.maxRoutesPerStack ?? MAX_ROUTES_PER_STACK).map(
    (plan) =>
      new RouteStack(app, `${prefix}-Routes-${plan.key}`, {
        httpApi: api.httpApi,
        environment: sendingEnvironment,
        routes: plan.routes,
        codeFor: props.codeFor,
      }),
  );

  const jobs = new JobsStack(app, `${prefix}-Jobs`, {
    environment: sendingEnvironment,
    jobs: props.jobs ?? JOB_SCHEDULES,
    codeFor: props.codeFor,
  });
  const siteOrigin = props.allowedOrigins[0];
  const web = new WebStack(app, `${prefix}-Web`, {
    httpApi: api.httpApi,
    edgeOriginToken: data.edgeOriginToken.secretValue.unsafeUnwrap(),
    logBucket: data.logBucket,
    webAclArn: props.webAclArn,
    realtimeOrigin: realtime.api.apiEndpoint,
    // Presigned URLs name the bucket's regional virtual-hosted endpoint.
    fileBucketOrigin: `https://${data.fileBucket.bucketRegionalDomainName}`,
    domain:
      props.siteCertificateArn && siteOrigin
        ? { name: new URL(siteOrigin).hostname, certificateArn: props.siteCertificateArn }
        : undefined,
    webDistDir: props.webDistDir ?? path.join(REPO_ROOT, 'web', 'dist'),
  });
  return { data, api, routeStacks, jobs, queues, realtime, web, email, monitoring };
}
