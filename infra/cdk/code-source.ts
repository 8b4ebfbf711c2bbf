import * as lambda from 'aws-cdk-lib/aws-lambda';
import { bundleFolder, DEFAULT_BUNDLE_DIR } from '../build/bundle-functions';

/** Deployment package for one handler path under functions/ (e.g. 'ranking/show-home'). */
export type CodeFor = (handler: string) => lambda.Code;

/** The esbuild bundles; they must exist before synth (app.ts bundles first). */
export function bundledCode(outDir: string = DEFAULT_BUNDLE_DIR): CodeFor {
  return (handler) => lambda.Code.fromAsset(bundleFolder(outDir, handler));
}

/**
 * A deployable stand-in that answers 503, for synth checks and tests that must not bundle
 * every handler. CommonJS because inline code is stored as index.js.
 */
export const placeholderCode: CodeFor = () =>
  lambda.Code.fromInline('exports.handler = async () => ({ statusCode: 503, body: "not deployed" });');
