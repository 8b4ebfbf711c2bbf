import { describe, expect, it } from 'vitest';
import { formatTimeLeft, looksLikeEmail, transferName, transferStatus } from './format';

describe('formatTimeLeft', () => {
  it('rounds to what a person reads at a glance', () => {
    expect(formatTimeLeft(4)).toBe('a few seconds');
    expect(formatTimeLeft(41)).toBe('50 seconds');
    expect(formatTimeLeft(61)).toBe('2 minutes');
    expect(formatTimeLeft(3_600)).toBe('1 h');
    expect(formatTimeLeft(4_800)).toBe('1 h 20 min');
  });
});

describe('transfer names and statuses', () => {
  it('names a transfer by its title, else by its files', () => {
    expect(transferName({ title: 'Photos', fileCount: 3 })).toBe('Photos');
    expect(transferName({ title: '  ', fileCount: 1 })).toBe('1 file');
  });

  it('says draft, sent or expired to the sender, received or expired to a recipient', () => {
    expect(transferStatus({ status: 'draft', expired: false })).toBe('Draft');
    expect(transferStatus({ status: 'sent', expired: false })).toBe('Sent');
    expect(transferStatus({ status: 'sent', expired: true })).toBe('Expired');
    expect(transferStatus({ status: 'sent', expired: false }, 'recipient')).toBe('Received');
    expect(transferStatus({ status: 'sent', expired: true }, 'recipient')).toBe('Expired');
  });
});

describe('looksLikeEmail', () => {
  it('accepts an address and refuses the rest', () => {
    expect(looksLikeEmail('ana@example.com')).toBe(true);
    expect(looksLikeEmail('ana@example')).toBe(false);
    expect(looksLikeEmail('ana example.com')).toBe(false);
  });
});
