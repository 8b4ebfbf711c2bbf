import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Capabilities } from '../../shared/capabilities';
import { type FunctionScope, runAsFunction } from '../../functions/lib/function-environment';
import { type DeploymentSettings, environmentFor } from '../function-environment';
import { REPO_ROOT } from './repo-root';

/**
 * One function's scope: the process environment Lambda's runtime provides (region, credentials,
 * log settings) plus exactly what its capabilities unlock, built as CDK builds it.
 */
export function functionScope(name: string, capabilities: Capabilities, deployment: DeploymentSettings): FunctionScope {
  return { name, capabilities, env: { ...process.env, ...environmentFor(capabilities, deployment) } };
}

type AnyHandler = (...args: never[]) => Promise<unknown>;

/**
 * Imports a handler as its own function: inside a scope with that function's environment and
 * capabilities, so config read at import time is its own (Lambda gives each function its own
 * process and environment). Every call then runs in the same scope. A handler whose import fails
 * answers every call with that error, as a Lambda whose init fails does, instead of stopping
 * the whole runtime.
 */
export async function importAsFunction<T extends AnyHandler>(handlerPath: string, scope: FunctionScope): Promise<T> {
  const loaded = await runAsFunction(scope, async () => {
    const module = (await import(pathToFileURL(join(REPO_ROOT, 'functions', `${handlerPath}.ts`)).href)) as { handler?: T };
    if (!module.handler) throw new Error(`functions/${handlerPath}.ts does not export a handler`);
    return module.handler;
  }).catch((error: unknown) => error as Error);
  if (loaded instanceof Error) {
    return (async () => {
      throw loaded;
    }) as unknown as T;
  }
  return ((...args: Parameters<T>) => runAsFunction(scope, () => loaded(...args))) as unknown as T;
}
