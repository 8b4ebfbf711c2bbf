import { describe, expect, it } from 'vitest';
import { pickerWords } from './image-picker';

describe('pickerWords', () => {
  it('offers to choose a logo, then to replace it, naming the file chosen', () => {
    // Act
    const none = pickerWords({ label: 'Logo', single: true, count: 0, max: 1, names: [] });
    const chosen = pickerWords({ label: 'Logo', single: true, count: 1, max: 1, names: ['logo.png'] });
    const kept = pickerWords({ label: 'Logo', single: true, count: 1, max: 1, names: [] });

    // Assess
    expect(none).toEqual({ button: 'Choose logo…', status: 'No logo chosen' });
    expect(chosen).toEqual({ button: 'Replace logo', status: 'Chosen: logo.png' });
    expect(kept).toEqual({ button: 'Replace logo', status: 'Logo chosen' });
  });

  it('counts a product’s images against the most it may have, naming the last ones chosen', () => {
    // Act
    const none = pickerWords({ label: 'Images', single: false, count: 0, max: 8, names: [] });
    const some = pickerWords({ label: 'Images', single: false, count: 2, max: 8, names: ['a.png', 'b.jpg'] });
    const one = pickerWords({ label: 'Images', single: false, count: 1, max: 8, names: [] });
    const full = pickerWords({ label: 'Images', single: false, count: 8, max: 8, names: ['h.png'] });

    // Assess
    expect(none).toEqual({ button: 'Choose images…', status: 'No images chosen' });
    expect(some).toEqual({ button: 'Add images…', status: '2 of 8 images chosen, last a.png, b.jpg' });
    expect(one.status).toBe('1 of 8 images chosen');
    expect(full.status).toBe('8 of 8 images chosen: remove one to add another');
  });
});
