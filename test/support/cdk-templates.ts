import { type Stack, Stage } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';

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
