import { describe, expect, it } from 'vitest';
import {
  AddressRefused,
  NameNotResolved,
  ResponseTooLarge,
  SafeFetchError,
  TimedOut,
  TooManyRedirects,
  UnexpectedContentType,
  UnexpectedStatus,
} from '../../functions/lib/http/safe-fetch';
import { pageProblemFor, shownPageProblem } from '../../functions/stories/lib/page-problem';

describe('pageProblemFor', () => {
  it.each([
    [
      new AddressRefused('non-public', 'Refusing blog.example: it resolves to a non-public address'),
      'The page could not be reached',
    ],
    [new NameNotResolved('blog.invalid'), 'The page could not be reached'],
    [new SafeFetchError('fetch failed: getaddrinfo ENOTFOUND blog.invalid'), 'The page could not be reached'],
    [new UnexpectedStatus(404, undefined), 'The page could not be reached'],
    [new TooManyRedirects(5), 'The page could not be reached'],
    [new TimedOut(5_000), 'The page did not answer in time'],
    [new UnexpectedContentType('image/png'), 'The page is not a web page'],
    [new ResponseTooLarge(1024), 'The page is too large to read'],
  ])('gives %s a public reason', (error, reason) => {
    // Act / Assess
    expect(pageProblemFor(error)).toBe(reason);
  });
});

describe('shownPageProblem', () => {
  it('shows a raw error stored before the public reasons as one of them', () => {
    // Act / Assess
    expect(shownPageProblem('Refusing blog.example: it resolves to a non-public address')).toBe('The page could not be reached');
    expect(shownPageProblem('The page did not answer in time')).toBe('The page did not answer in time');
    expect(shownPageProblem(undefined)).toBeNull();
  });
});
