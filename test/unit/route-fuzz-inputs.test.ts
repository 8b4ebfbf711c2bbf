import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type RouteDefinition, routeEntries } from '../../shared/routes';
import { describeRoute } from '../support/api-client';
import { knownAddressings, type RouteInput, routeInputArbitrary } from '../support/fuzz/route-inputs';
import type { ArbitraryOptions } from '../support/fuzz/schema-arbitrary';

/**
 * The route fuzzer's inputs come from the routes' own schemas: unless they are spoiled on
 * purpose, the route accepts them, so the fuzzer reaches every handler instead of stopping at
 * validation.
 */

const SAMPLES = 60;
const options = (hostile: boolean): ArbitraryOptions => ({ known: new Map(), hostile, urls: ['http://localhost:3000/'] });

/** The input as the server reads it: path and query values arrive as strings. */
function acceptedByRoute(route: RouteDefinition, input: RouteInput): boolean {
  const asText = (values: Record<string, unknown>) =>
    Object.fromEntries(
      Object.entries(values).map(([key, value]) => [key, typeof value === 'object' ? JSON.stringify(value) : String(value)]),
    );
  return (
    route.params.safeParse(asText(input.params)).success &&
    route.query.safeParse(asText(input.query)).success &&
    route.body.safeParse(input.body).success
  );
}

const rows = routeEntries.map(([, route]) => [describeRoute(route), route] as const);

describe('valid-shaped inputs reach the handler', () => {
  it.each(rows)('%s', (_name, route) => {
    // Act
    const samples = fc.sample(routeInputArbitrary(route, options(false)), { seed: 7, numRuns: SAMPLES });

    // Assess
    const accepted = samples.filter((input) => acceptedByRoute(route, input)).length;
    // Refinements (a link's scheme, fields that go together) are not in JSON Schema, so some
    // valid-shaped inputs are refused; none getting through would leave the handler unfuzzed.
    expect(accepted, `${accepted} of ${SAMPLES} inputs passed the route's schemas`).toBeGreaterThan(0);
  });
});

describe('hostile inputs', () => {
  it('are refused by the routes that take input, at least sometimes', () => {
    // Prepare
    const takingInput = rows.filter(([, route]) => route.method !== 'GET' && route.body.safeParse({ x: 1 }).success === false);

    // Act
    const refusedSomewhere = takingInput.filter(([, route]) =>
      fc
        .sample(routeInputArbitrary(route, options(true)), { seed: 7, numRuns: SAMPLES })
        .some((input) => !acceptedByRoute(route, input)),
    );

    // Assess
    expect(refusedSomewhere.map(([name]) => name)).toEqual(takingInput.map(([name]) => name));
  });
});

describe('known values', () => {
  it("address a route with each known id that fits the parameter's schema", () => {
    // Prepare
    const route = routeEntries.find(([name]) => name === 'getTransfer')?.[1] as RouteDefinition;
    const known = new Map([['id', ['AbCdEfGhIj12', 'no', 'KlMnOpQrSt34']]]);

    // Act
    const addressings = knownAddressings(route, known);

    // Assess: 'no' is too short for an id, so only the two others are tried.
    expect(addressings).toEqual([
      { params: { id: 'AbCdEfGhIj12' }, query: {} },
      { params: { id: 'KlMnOpQrSt34' }, query: {} },
    ]);
  });
});
