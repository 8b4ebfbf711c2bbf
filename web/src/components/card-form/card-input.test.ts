import { describe, expect, it } from 'vitest';
import { cardBrandOf, formatCardNumber, formatExpiry, formatSecurityCode, securityCodeSize } from './card-input';

describe('formatCardNumber', () => {
  it('groups a Visa, a Mastercard and a Discover 4-4-4-4 as it is typed', () => {
    // Act
    const grouped = ['4111', '41111', '4111111111111111', '5555555555554444', '6011000991300009'].map(formatCardNumber);

    // Assess
    expect(grouped).toEqual(['4111', '4111 1', '4111 1111 1111 1111', '5555 5555 5555 4444', '6011 0009 9130 0009']);
  });

  it('groups American Express 4-6-5 and stops at its 15 digits', () => {
    // Act
    const grouped = formatCardNumber('3782822463100059999');

    // Assess
    expect(grouped).toBe('3782 822463 10005');
  });

  it('keeps only digits, however they were pasted, and regroups them', () => {
    // Act
    const grouped = formatCardNumber('4111-1111 1111.1111');

    // Assess
    expect(grouped).toBe('4111 1111 1111 1111');
  });

  it('groups by four, up to 19 digits, while the brand is unknown', () => {
    // Act
    const grouped = formatCardNumber('99999999999999999999');

    // Assess
    expect(grouped).toBe('9999 9999 9999 9999 999');
    expect(formatCardNumber('')).toBe('');
  });
});

describe('card brand and security code', () => {
  it('names the brand from the first digits, with its security code length', () => {
    // Act
    const amex = cardBrandOf('3782 822463 10005');
    const visa = cardBrandOf('4111');

    // Assess
    expect(amex).toMatchObject({ name: 'American Express', securityCode: { size: 4 } });
    expect(visa).toMatchObject({ name: 'Visa', securityCode: { size: 3 } });
    expect(cardBrandOf('')).toBeNull();
  });

  it('cuts the security code to the brand’s length: 3, 4 on American Express, 4 while unknown', () => {
    // Act
    const codes = [formatSecurityCode('1234', '4111'), formatSecurityCode('12a345', '3782'), formatSecurityCode('12345', '')];

    // Assess
    expect(codes).toEqual(['123', '1234', '1234']);
    expect(securityCodeSize('5555 5555')).toBe(3);
  });
});

describe('formatExpiry', () => {
  it('puts the slash in for a person who types only digits', () => {
    // Act
    const formatted = ['1', '12', '122', '1228', '122028', '12202899'].map(formatExpiry);

    // Assess
    expect(formatted).toEqual(['1', '12', '12/2', '12/28', '12/2028', '12/2028']);
  });

  it('accepts MM/YY and MM/YYYY as typed, and pads a one-digit month', () => {
    // Act
    const formatted = ['12/28', '12/2028', '1/28', '12/', '4', '428', '01/20'].map(formatExpiry);

    // Assess
    expect(formatted).toEqual(['12/28', '12/2028', '01/28', '12/', '04', '04/28', '01/20']);
  });

  it('lets a person delete back through the slash', () => {
    // Act: "12/2" with its last digit deleted, then the slash
    const afterDigit = formatExpiry('12/');
    const afterSlash = formatExpiry('12');

    // Assess
    expect(afterDigit).toBe('12/');
    expect(afterSlash).toBe('12');
  });

  it('drops what is not a digit or a slash', () => {
    // Act
    const formatted = formatExpiry(' 12 - 28 ');

    // Assess
    expect(formatted).toBe('12/28');
  });
});
