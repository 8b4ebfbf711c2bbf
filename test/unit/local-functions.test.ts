import { describe, expect, it } from 'vitest';
import { capabilitiesOf } from '../../shared/capabilities';
import { lazyFunction } from '../../infra/local/functions';

const fixture = (file: string, instance: string) =>
  `${new URL(`../fixtures/local-functions/${file}.ts`, import.meta.url).href}?instance=${instance}`;
const scope = (name: string, env: Record<string, string> = {}) => ({
  name,
  capabilities: capabilitiesOf({}, { table: 'read' }),
  env,
});
/** How many times the counting handler's module has run, whatever instance. */
const imports = () => (globalThis as { countingHandlerImports?: number }).countingHandlerImports ?? 0;

type Greet = (name: string) => Promise<string>;

/** The error a call failed with; a call that answers fails the test. */
const failureOf = (call: Promise<unknown>): Promise<Error> =>
  call.then(
    (answer) => {
      throw new Error(`expected a failure, got ${String(answer)}`);
    },
    (error: unknown) => error as Error,
  );

describe('local functions, initialised as Lambda initialises them', () => {
  it('imports a handler on its first call, once however many calls arrive together', async () => {
    // Prepare
    const importsBefore = imports();
    const greet = lazyFunction<Greet>(fixture('counting-handler', 'first-call'), scope('greet', { GREETING: 'Hello' }));
    await Promise.resolve();
    expect(imports()).toBe(importsBefore);

    // Act
    const answers = await Promise.all([greet('Ada'), greet('Grace'), greet('Edsger')]);
    const later = await greet('Barbara');

    // Assess
    expect(answers).toEqual(['Hello, Ada (now Hello)', 'Hello, Grace (now Hello)', 'Hello, Edsger (now Hello)']);
    expect(later).toBe('Hello, Barbara (now Hello)');
    expect(imports()).toBe(importsBefore + 1);
  });

  it('gives each function its own environment, at import and on every call, when both start at once', async () => {
    // Prepare
    const english = lazyFunction<Greet>(fixture('counting-handler', 'english'), scope('english', { GREETING: 'Hello' }));
    const french = lazyFunction<Greet>(fixture('counting-handler', 'french'), scope('french', { GREETING: 'Bonjour' }));

    // Act
    const [inEnglish, inFrench] = await Promise.all([english('Ada'), french('Ada')]);

    // Assess
    expect(inEnglish).toBe('Hello, Ada (now Hello)');
    expect(inFrench).toBe('Bonjour, Ada (now Bonjour)');
  });

  it('answers every call with the error of a failed init, and other functions keep working', async () => {
    // Prepare
    const broken = lazyFunction<Greet>(fixture('failing-init-handler', 'broken'), scope('broken'));
    const working = lazyFunction<Greet>(fixture('counting-handler', 'beside-broken'), scope('working', { GREETING: 'Hi' }));

    // Act
    const first = await failureOf(broken('Ada'));
    const second = await failureOf(broken('Ada'));
    const other = await working('Ada');

    // Assess
    expect(first.message).toBe('TABLE_NAME is not set');
    expect(second.message).toBe('TABLE_NAME is not set');
    expect(other).toBe('Hi, Ada (now Hi)');
  });

  it('names the module that exports no handler', async () => {
    // Prepare
    const url = fixture('no-handler', 'missing');
    const missing = lazyFunction<Greet>(url, scope('missing'));

    // Act
    const refused = await failureOf(missing('Ada'));

    // Assess
    expect(refused.message).toBe(`${url} does not export a handler`);
  });
});
