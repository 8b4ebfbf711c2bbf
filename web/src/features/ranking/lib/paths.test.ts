import { describe, expect, it } from 'vitest';
import { boardPath } from './paths';

describe('boardPath', () => {
  it.each([
    [{ kind: 'followers', activeOnly: false, topic: null }, '/'],
    [{ kind: 'followers', activeOnly: true, topic: null }, '/active'],
    [{ kind: 'growth', activeOnly: false, topic: null }, '/growing'],
    [{ kind: 'growth', activeOnly: true, topic: null }, '/growing/active'],
    [{ kind: 'activity', activeOnly: false, topic: null }, '/recent'],
    [{ kind: 'activity', activeOnly: true, topic: null }, '/recent/active'],
    [{ kind: 'followers', activeOnly: true, topic: 'ux' }, '/topic/ux?active=true'],
    [{ kind: 'growth', activeOnly: false, topic: 'ux' }, '/topic/ux/growing'],
    [{ kind: 'activity', activeOnly: false, topic: 'ux' }, '/topic/ux/recent'],
    [{ kind: 'activity', activeOnly: true, topic: 'ux' }, '/topic/ux/recent?active=true'],
  ] as const)('gives %o the page %s', (filter, path) => {
    // Act
    const result = boardPath(filter);

    // Assess
    expect(result).toBe(path);
  });
});
