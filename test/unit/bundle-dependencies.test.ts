import { describe, expect, it } from 'vitest';
import { capabilitiesOf, type CapabilityDeclaration } from '../../shared/capabilities';
import { EVERY_FUNCTION } from '../../shared/functions';
import { GATED_DEPENDENCIES, packageOf, undeclaredDependencies } from '../support/bundle-dependencies';

const declared = (capabilities: CapabilityDeclaration) => capabilitiesOf(capabilities, { table: 'read' });

/** Input paths as esbuild's metafile names them (node_modules may be a symlink elsewhere). */
const BRAINTREE = '../main/node_modules/braintree/lib/braintree/gateway.js';
const FILE_TYPE = 'node_modules/file-type/core.js';
const IMAGE_SIZE = 'node_modules/image-size/dist/index.mjs';
const S3 = 'node_modules/@aws-sdk/client-s3/dist-es/S3Client.js';
const OURS = 'functions/lib/payments/braintree-gateway.ts';

describe('the npm package of a bundle input', () => {
  it('is the last node_modules folder of its path, with its scope', () => {
    // Assess
    expect(packageOf(BRAINTREE)).toBe('braintree');
    expect(packageOf(S3)).toBe('@aws-sdk/client-s3');
    expect(packageOf('node_modules/braintree/node_modules/xml2js/lib/xml2js.js')).toBe('xml2js');
    expect(packageOf(OURS)).toBeUndefined();
    expect(packageOf('infra/build/shims/electrodb.ts')).toBeUndefined();
  });
});

describe('dependencies a bundle carries without declaring them', () => {
  it("finds Braintree's SDK in a function that calls no gateway, and allows it for the platform's or a merchant's gateway", () => {
    // Act
    const undeclared = undeclaredDependencies(declared({ bucket: 'read' }), [BRAINTREE, OURS]);

    // Assess
    expect(undeclared).toEqual([
      { what: 'the Braintree SDK', package: 'braintree', allowedBy: expect.stringContaining('payments') },
    ]);
    expect(undeclaredDependencies(declared({ payments: true }), [BRAINTREE])).toEqual([]);
    expect(undeclaredDependencies(declared({ merchantKeys: 'seal' }), [BRAINTREE])).toEqual([]);
  });

  it('allows image decoding only where files are stored, and the S3 client only with a bucket or analytics reads', () => {
    // Act
    const reader = undeclaredDependencies(declared({ bucket: 'read' }), [FILE_TYPE, IMAGE_SIZE, S3]);
    const writer = undeclaredDependencies(declared({ bucket: 'write' }), [FILE_TYPE, IMAGE_SIZE, S3]);
    const figures = undeclaredDependencies(declared({ analytics: 'read' }), [S3]);
    const tracker = undeclaredDependencies(declared({ analytics: 'put' }), [S3]);

    // Assess
    expect(reader.map((found) => found.package)).toEqual(['file-type', 'image-size']);
    expect(writer).toEqual([]);
    expect(figures).toEqual([]);
    expect(tracker.map((found) => found.package)).toEqual(['@aws-sdk/client-s3']);
  });

  it('names each package once, however many of its files the bundle holds', () => {
    // Act
    const undeclared = undeclaredDependencies(declared({}), [BRAINTREE, 'node_modules/braintree/lib/braintree.js']);

    // Assess
    expect(undeclared.map((found) => found.package)).toEqual(['braintree']);
  });

  it('judges every function of the product by a declaration it can hold', () => {
    // Assess: each gated dependency is allowed to some function and refused to another, so the
    // rules neither name a capability nobody declares nor allow a package to everyone.
    for (const gated of GATED_DEPENDENCIES) {
      const allowed = EVERY_FUNCTION.filter((entry) => gated.allowed(entry.capabilities));
      expect(allowed.length, gated.what).toBeGreaterThan(0);
      expect(allowed.length, gated.what).toBeLessThan(EVERY_FUNCTION.length);
    }
  });
});
