import { describe, expect, it } from 'vitest';
import { matchRanges } from './highlight';

describe('matchRanges', () => {
  it('marks the start of the name when the name starts with the query', () => {
    expect(matchRanges('Towards Data Science', 'towards da')).toEqual([[0, 10]]);
  });

  it('marks the start of each word a query word begins', () => {
    expect(matchRanges('Towards Data Science', 'sci data')).toEqual([
      [8, 12],
      [13, 16],
    ]);
  });

  it('marks nothing when only the slug matched, or for an empty query', () => {
    expect(matchRanges('The Startup', 'medium-startup-x')).toEqual([]);
    expect(matchRanges('The Startup', '   ')).toEqual([]);
  });
});
