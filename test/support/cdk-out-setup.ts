import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder the suites' CDK apps synthesize into (testApp in cdk-templates.ts). */
    cdkOutRoot: string;
  }
}

/** One folder for every synthesis of the run, removed when the run ends, however its suites ended. */
export default function setup(project: TestProject) {
  const root = mkdtempSync(join(tmpdir(), 'toppubs-cdk-out-'));
  project.provide('cdkOutRoot', root);
  return () => rmSync(root, { recursive: true, force: true });
}
