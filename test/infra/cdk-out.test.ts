import { Stack } from 'aws-cdk-lib';
import * as sns from 'aws-cdk-lib/aws-sns';
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { testApp } from '../support/cdk-templates';

describe('testApp', () => {
  it("synthesizes into a folder of the run's, not a cdk.out folder left in the system's temp folder", () => {
    // Prepare
    const app = testApp();
    new sns.Topic(new Stack(app, 'Probe'), 'Topic');

    // Act
    const assembly = app.synth();

    // Assess
    const inRun = relative(inject('cdkOutRoot'), assembly.directory);
    expect(inRun).toMatch(/^app-[^/]+$/);
    expect(existsSync(join(assembly.directory, 'Probe.template.json'))).toBe(true);
  });
});
