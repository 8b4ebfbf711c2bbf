import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../infra/build/bundle-functions';

const outDirs: string[] = [];

/** What CloudFormation's own rules (aws-cdk-lib's built-in template validation) said of one synthesis. */
interface CloudFormationRules {
  conclusion: string;
  violations: unknown[];
}

/** The built-in validation's part of the report synthesis writes beside the templates. */
function cloudFormationRulesOf(outDir: string): CloudFormationRules | undefined {
  const file = path.join(outDir, 'validation-report.json');
  if (!existsSync(file)) return undefined;
  const report = JSON.parse(readFileSync(file, 'utf8')) as { pluginReports: (CloudFormationRules & { pluginName: string })[] };
  const rules = report.pluginReports.find((plugin) => plugin.pluginName === 'CloudFormation Validate');
  return rules && { conclusion: rules.conclusion, violations: rules.violations };
}

/**
 * Runs the CDK entry point as `cdk synth` does: a child process, the context in CDK_CONTEXT_JSON
 * and the output folder in CDK_OUTDIR. inlineCode keeps it quick: no handler is bundled. Unlike
 * the in-process suites (vitest.config.ts), it runs CloudFormation's own rules as a deploy does,
 * which fail synthesis on a finding (cdk.json): the production synthesis below is the one that
 * checks the deployable app against them.
 */
function synth(context: Record<string, string>, entry = 'infra/cdk/app.ts') {
  const outDir = mkdtempSync(path.join(tmpdir(), 'cdk-out-'));
  outDirs.push(outDir);
  const run = spawnSync(path.join(REPO_ROOT, 'node_modules', '.bin', 'tsx'), [entry], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    timeout: 150_000,
    env: {
      ...Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'CDK_VALIDATION')),
      CDK_CONTEXT_JSON: JSON.stringify({ inlineCode: 'true', ...context }),
      CDK_OUTDIR: outDir,
    },
  });
  return {
    status: run.status,
    stderr: run.stderr,
    synthesized: existsSync(path.join(outDir, 'manifest.json')),
    cloudFormationRules: cloudFormationRulesOf(outDir),
  };
}

afterEach(() => {
  for (const outDir of outDirs.splice(0)) rmSync(outDir, { recursive: true, force: true });
});

describe('cdk synth of the deployable app', () => {
  it('fails without allowedOrigins, mailDomain and the site certificate, naming each, instead of shipping localhost defaults', () => {
    // Act
    const result = synth({});

    // Assess
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('allowedOrigins');
    expect(result.stderr).toContain('mailDomain');
    expect(result.stderr).toContain('siteCertificateArn is missing');
    expect(result.synthesized).toBe(false);
  }, 180_000);

  it('fails when the web origin, the first allowed origin, is not https', () => {
    // Act
    const result = synth({ allowedOrigins: 'http://localhost:3000', mailDomain: 'toppubs.example' });

    // Assess
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain("allowedOrigins: the first origin (the web app's, used in login links) must be https");
    expect(result.synthesized).toBe(false);
  }, 180_000);

  it('synthesizes with the production settings, templates in which CloudFormation rules find nothing', () => {
    // Act
    const result = synth({
      allowedOrigins: 'https://toppubs.example,http://localhost:3000',
      mailDomain: 'toppubs.example',
      siteCertificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/site',
    });

    // Assess
    expect(result.stderr).not.toContain('Error');
    expect(result.status).toBe(0);
    expect(result.synthesized).toBe(true);
    expect(result.cloudFormationRules).toEqual({ conclusion: 'success', violations: [] });
  }, 180_000);

  it('synthesizes the optional WAF app offline, and refuses a web ACL ARN that CloudFront cannot use', () => {
    // Act
    const waf = synth({ stage: 'prod' }, 'infra/cdk/waf-app.ts');
    const wrongRegion = synth({
      allowedOrigins: 'https://toppubs.example',
      mailDomain: 'toppubs.example',
      siteCertificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/site',
      webAclArn: 'arn:aws:wafv2:eu-west-1:123456789012:regional/webacl/toppubs/abc',
    });

    // Assess
    expect(waf.status).toBe(0);
    expect(waf.synthesized).toBe(true);
    expect(wrongRegion.status).not.toBe(0);
    expect(wrongRegion.stderr).toContain('is not a CloudFront web ACL ARN');
  }, 180_000);
});
