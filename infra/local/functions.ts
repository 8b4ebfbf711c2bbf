import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Capabilities } from '../../shared/capabilities';
import { type FunctionScope, runAsFunction } from '../../functions/lib/function-environment';
import { type DeploymentSettings, environmentFor } from '../function-environment';
import { REPO_ROOT } from './repo-root';

/**
 * One function's scope: the process environment Lambda's runtime provides (region, credentials,
 * log settings) plus exactly what its capabilities unlock, built as CDK builds it. The runtime
 * makes some 240 of these at each start and passes one copy of process.env for all of them:
 * copying process.env itself, a host object read key by key, for each took 10 to 17 ms a start.
 */
export function functionScope(
  name: string,
  capabilities: Capabilities,
  deployment: DeploymentSettings,
  processEnvironment: Readonly<Record<string, string | undefined>> = process.env,
): FunctionScope {
  return { name, capabilities, env: { ...processEnvironment, ...environmentFor(capabilities, deployment) } };
}

type AnyHandler = (...args: never[]) => Promise<unknown>;

/**
 * Imports run one after another, each in its own function's scope: a module's top-level code
 * runs once, for whichever import reaches it first, so two imports at once could hand one
 * function's module-scope config to the other.
 */
let importQueue: Promise<unknown> = Promise.resolve();

/** The module of a handler named as the route table names it ('ranking/show-home'). */
export function handlerModuleUrl(handlerPath: string): string {
  return pathToFileURL(join(REPO_ROOT, 'functions', `${handlerPath}.ts`)).href;
}

function importInScope<T extends AnyHandler>(moduleUrl: string, scope: FunctionScope): Promise<T> {
  const loading = importQueue.then(() =>
    runAsFunction(scope, async () => {
      const module = (await import(moduleUrl)) as { handler?: T };
      if (!module.handler) throw new Error(`${moduleUrl} does not export a handler`);
      return module.handler;
    }),
  );
  importQueue = loading.catch(() => undefined);
  return loading;
}

/**
 * A handler as its own function, initialised as Lambda initialises one: on its first
 * invocation (a cold start), not when the runtime starts, so a start, and a test suite that
 * calls five routes, imports five handlers rather than every one. The import runs inside a
 * scope with the function's environment and capabilities, so config read at import time is its
 * own (Lambda gives each function its own process and environment); every call then runs in
 * the same scope. A handler whose import fails answers every call with that error, as a Lambda
 * whose init fails does, instead of stopping the whole runtime.
 */
export function lazyFunction<T extends AnyHandler>(moduleUrl: string, scope: FunctionScope): T {
  const call = lazyFunctionIn<T>(moduleUrl, scope);
  return ((...args: Parameters<T>) => call(scope, ...args)) as unknown as T;
}

/**
 * lazyFunction, with the scope given on each call: a copy of the function's scope per
 * invocation, for what is tallied per invocation (table-units.ts). The import still runs in
 * the function's own scope.
 */
export function lazyFunctionIn<T extends AnyHandler>(
  moduleUrl: string,
  scope: FunctionScope,
): (callScope: FunctionScope, ...args: Parameters<T>) => ReturnType<T> {
  let loaded: Promise<T> | undefined;
  let handler: T | undefined;
  // Once imported, a call goes straight into the scope: no await on the settled import, which
  // would cost every warm call a promise and a microtask turn.
  return (callScope, ...args) => {
    if (handler) return runAsFunction(callScope, handler, ...args) as ReturnType<T>;
    loaded ??= importInScope<T>(moduleUrl, scope).then((imported) => (handler = imported));
    return loaded.then((imported) => runAsFunction(callScope, imported, ...args)) as ReturnType<T>;
  };
}
