import { App, type AppProps, type Stack, Stage } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';

/**
 * An app for a suite, synthesized into a folder of the run's (cdk-out-setup.ts removes them all
 * when the run ends). An app given no folder synthesizes into a new cdk.out folder in the
 * system's temp folder and leaves it there: eight a run, each with a 21 MB copy of the AWS CLI
 * layer that the web stack's deployment carries.
 */
export function testApp(props: Omit<AppProps, 'outdir'> = {}): App {
  return new App({ ...props, outdir: mkdtempSync(join(inject('cdkOutRoot'), 'app-')) });
}

const templates = new WeakMap<Stack, Template>();

/**
 * A stack's template, made once per stack: `Template.fromStack` copies and indexes the whole
 * template on every call, and the suites ask for the same stack's template once per function
 * of the route table. Templates are only read, so one per stack serves every assertion.
 */
export function templateOf(stack: Stack): Template {
  let template = templates.get(stack);
  if (!template) {
    template = Template.fromStack(stack);
    templates.set(stack, template);
  }
  return template;
}

/**
 * The warnings synthesis recorded on a stack, read from the assembly the app was synthesized
 * into once (`Annotations.fromStack` synthesizes the whole app again, seconds for ours).
 */
export function warningsOf(stack: Stack): string[] {
  const stage = Stage.of(stack);
  if (!stage) throw new Error(`${stack.stackName} is not in an app`);
  return stage
    .synth()
    .getStackArtifact(stack.artifactId)
    .messages.filter((message) => message.level === 'warning')
    .map((message) => String(message.entry.data));
}
