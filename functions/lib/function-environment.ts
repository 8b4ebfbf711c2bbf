import type { Capabilities } from '../../shared/capabilities';
import { processWideStorage } from './process-wide-storage';

/**
 * The function a piece of code runs as. In AWS every function has its own process, so there is
 * nothing to track: the environment is process.env and IAM enforces the grants. The local
 * runtime runs every function in one process, so it runs each invocation (and each handler's
 * import) inside a scope carrying that function's own environment and capabilities, which
 * config and the local grant checks read.
 */
export interface FunctionScope {
  /** The route or job name, for error messages. */
  name: string;
  env: Readonly<Record<string, string | undefined>>;
  capabilities: Capabilities;
}

const scopes = processWideStorage<FunctionScope>('function-scope');

export function runAsFunction<T, A extends unknown[]>(scope: FunctionScope, work: (...args: A) => T, ...args: A): T {
  return scopes.run(scope, work, ...args);
}

/** The scope set by the local runtime, or undefined in AWS (one function per process). */
export function currentFunction(): FunctionScope | undefined {
  return scopes.getStore();
}

export function functionEnvironment(): Readonly<Record<string, string | undefined>> {
  return scopes.getStore()?.env ?? process.env;
}
