import { Duration, Stack } from 'aws-cdk-lib';
import type { StackProps } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type { Construct } from 'constructs';
import type { JobSchedule } from '../../../shared/schedules';
import { bundledCode } from '../code-source';
import type { CodeFor } from '../code-source';
import { HandlerFunction } from '../constructs/handler-function';
import type { FunctionEnvironment } from '../constructs/handler-function';

export interface JobsStackProps extends StackProps {
  environment: FunctionEnvironment;
  jobs: readonly JobSchedule[];
  /** Defaults to the esbuild bundles under dist/functions. */
  codeFor?: CodeFor;
}

const JOB_MEMORY_MB = 1024;
const JOB_TIMEOUT = Duration.minutes(5);
/** Feed reads wait on other people's servers. */
const NETWORK_JOB_TIMEOUT = Duration.minutes(10);

/** One function and one EventBridge rate rule per entry of shared/schedules.ts. */
export class JobsStack extends Stack {
  readonly functions = new Map<string, HandlerFunction>();

  constructor(scope: Construct, id: string, props: JobsStackProps) {
    super(scope, id, props);
    const codeFor = props.codeFor ?? bundledCode();

    for (const job of props.jobs) {
      const jobFunction = new HandlerFunction(this, job.name, {
        handler: job.handler,
        code: codeFor(job.handler),
        environment: props.environment,
        capabilities: job.capabilities,
        memoryMb: JOB_MEMORY_MB,
        timeout: job.usesNetwork ? NETWORK_JOB_TIMEOUT : JOB_TIMEOUT,
      });
      new events.Rule(this, `${job.name}-schedule`, {
        description: job.description,
        schedule: events.Schedule.rate(Duration.minutes(job.everyMinutes)),
        targets: [new targets.LambdaFunction(jobFunction.function)],
      });
      this.functions.set(job.name, jobFunction);
    }
  }
}
