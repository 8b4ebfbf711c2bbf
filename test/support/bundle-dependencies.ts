/**
 * Which heavy dependencies a function's bundle may carry, from what its capabilities declare
 * (shared/capabilities.ts): the Braintree SDK only where the function calls a payment gateway,
 * image decoding only where it stores files' bytes, each AWS client only where the function is
 * granted that service. Anything else reaching a bundle came through a shared module that
 * imports more than its importer uses, and costs every cold start of that function.
 *
 * Pure: give it a function's capabilities and the input paths of everything its bundle ships
 * (BundleResult.inputs with `analyze`, the chunks it loads on first use included). The Lambda
 * bundles test calls it on a few bundles; a test that builds every bundle should call it on each.
 */
import type { Capabilities } from '../../shared/capabilities';

export interface GatedDependency {
  /** What the packages do, as a failure names it. */
  what: string;
  /** npm packages (the gated library itself; what only it pulls in follows it). */
  packages: readonly string[];
  /** The capabilities that allow it, in words. */
  allowedBy: string;
  allowed: (capabilities: Capabilities) => boolean;
}

const writesFiles = (capabilities: Capabilities) => capabilities.bucket === 'write' || capabilities.bucket === 'read-write';

export const GATED_DEPENDENCIES: readonly GatedDependency[] = [
  {
    what: 'the Braintree SDK',
    packages: ['braintree'],
    allowedBy: "payments (the platform's gateway) or merchantKeys (a merchant's own gateway)",
    allowed: (capabilities) => capabilities.payments || capabilities.merchantKeys !== 'none',
  },
  {
    // Images are recognised from their bytes before a file is made ready (functions/transfers/
    // lib/image-intake.ts): only a function that puts bytes in the file bucket does that.
    what: 'image decoding',
    packages: ['file-type', 'image-size'],
    allowedBy: "bucket 'write' or 'read-write' (a function that stores files' bytes)",
    allowed: writesFiles,
  },
  {
    what: 'the S3 client',
    packages: ['@aws-sdk/client-s3', '@aws-sdk/s3-presigned-post', '@aws-sdk/s3-request-presigner'],
    allowedBy: "bucket, or analytics 'read' or 'aggregate' (the events bucket)",
    allowed: (capabilities) =>
      capabilities.bucket !== 'none' || capabilities.analytics === 'read' || capabilities.analytics === 'aggregate',
  },
  {
    what: 'the KMS client',
    packages: ['@aws-sdk/client-kms'],
    allowedBy: 'merchantKeys',
    allowed: (capabilities) => capabilities.merchantKeys !== 'none',
  },
  {
    what: 'the Secrets Manager client',
    packages: ['@aws-sdk/client-secrets-manager'],
    allowedBy: "payments (the platform's Braintree keys)",
    allowed: (capabilities) => capabilities.payments,
  },
  {
    what: 'the SES client',
    packages: ['@aws-sdk/client-ses'],
    allowedBy: 'email',
    allowed: (capabilities) => capabilities.email,
  },
  {
    what: 'the API Gateway management client',
    packages: ['@aws-sdk/client-apigatewaymanagementapi'],
    allowedBy: 'realtime',
    allowed: (capabilities) => capabilities.realtime,
  },
  {
    what: 'the SQS client',
    packages: ['@aws-sdk/client-sqs'],
    allowedBy: 'queues',
    allowed: (capabilities) => capabilities.queues.length > 0,
  },
  {
    what: 'the Firehose client',
    packages: ['@aws-sdk/client-firehose'],
    allowedBy: "analytics 'put'",
    allowed: (capabilities) => capabilities.analytics === 'put',
  },
];

/** The npm package an input path belongs to ('node_modules/@aws-sdk/client-s3/dist-es/...' -> '@aws-sdk/client-s3'). */
export function packageOf(input: string): string | undefined {
  const parts = input.split(/(?:^|[\\/])node_modules[\\/]/);
  if (parts.length < 2) return undefined;
  const [first = '', second = ''] = (parts.at(-1) ?? '').split(/[\\/]/);
  return first.startsWith('@') ? `${first}/${second}` : first;
}

export interface UndeclaredDependency {
  what: string;
  package: string;
  allowedBy: string;
}

/**
 * The gated dependencies among a bundle's inputs that the function's capabilities do not allow,
 * each package once; empty when the bundle carries only what it declares.
 */
export function undeclaredDependencies(capabilities: Capabilities, inputs: Iterable<string>): UndeclaredDependency[] {
  const packages = new Set<string>();
  for (const input of inputs) {
    const name = packageOf(input);
    if (name) packages.add(name);
  }
  return GATED_DEPENDENCIES.filter((gated) => !gated.allowed(capabilities)).flatMap((gated) =>
    gated.packages
      .filter((name) => packages.has(name))
      .map((name) => ({ what: gated.what, package: name, allowedBy: gated.allowedBy })),
  );
}
