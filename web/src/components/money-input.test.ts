import { describe, expect, it } from 'vitest';
import { currencySymbol, moneyInputText, parseMoneyInput } from './money-input';

describe('parseMoneyInput', () => {
  it('reads amounts as people type them, in cents', () => {
    // Assess
    expect(parseMoneyInput('12')).toBe(1200);
    expect(parseMoneyInput('12.5')).toBe(1250);
    expect(parseMoneyInput(' 12.50 ')).toBe(1250);
    expect(parseMoneyInput('0.07')).toBe(7);
    expect(parseMoneyInput('1,234.50')).toBe(123450);
    expect(parseMoneyInput('1 234.50')).toBe(123450);
    expect(parseMoneyInput('12,50')).toBe(1250);
  });

  it('refuses what is not a plain amount rather than guessing', () => {
    // Assess
    for (const typed of ['', 'free', '-5', '12.505', '1.2.3', '12,5,0', '1e3', '$12', '1234567890']) {
      expect(parseMoneyInput(typed), typed).toBeNull();
    }
  });
});

describe('moneyInputText and currencySymbol', () => {
  it('shows cents for editing and names the currency', () => {
    // Assess
    expect(moneyInputText(1250)).toBe('12.50');
    expect(moneyInputText(7)).toBe('0.07');
    expect(parseMoneyInput(moneyInputText(123456))).toBe(123456);
    expect(currencySymbol('USD')).toBe('$');
    expect(currencySymbol('EUR')).toBe('€');
    expect(currencySymbol('CHF')).toBe('CHF');
  });
});
