import { afterEach, describe, expect, it, vi } from 'vitest';
import { ANALYTICS_EVENT_TYPE, type AnalyticsEventDetail, TRANSFER_EVENTS, trackTransferEvent } from './transfer-events';

describe('trackTransferEvent', () => {
  const listeners: EventListener[] = [];
  const listen = (listener: EventListener) => {
    listeners.push(listener);
    window.addEventListener(ANALYTICS_EVENT_TYPE, listener);
  };

  afterEach(() => {
    for (const listener of listeners.splice(0)) window.removeEventListener(ANALYTICS_EVENT_TYPE, listener);
    vi.restoreAllMocks();
  });

  it("dispatches an 'analytics' CustomEvent on window with the name and properties", () => {
    // Prepare
    const seen: AnalyticsEventDetail[] = [];
    listen((event) => seen.push((event as CustomEvent<AnalyticsEventDetail>).detail));

    // Act
    trackTransferEvent(TRANSFER_EVENTS.send, { fileCount: 2, totalBytes: 2_000, resumed: false });

    // Assess
    expect(seen).toEqual([{ name: 'transfer_form_send', properties: { fileCount: 2, totalBytes: 2_000, resumed: false } }]);
  });

  it('sends an empty property set when none is given, and a copy of the one given', () => {
    // Prepare
    const seen: AnalyticsEventDetail[] = [];
    listen((event) => seen.push((event as CustomEvent<AnalyticsEventDetail>).detail));
    const properties = { position: 0 };

    // Act
    trackTransferEvent(TRANSFER_EVENTS.proUpsellShown);
    trackTransferEvent(TRANSFER_EVENTS.contactsUsed, properties);
    properties.position = 5;

    // Assess
    expect(seen).toEqual([
      { name: 'transfer_form_pro_upsell_shown', properties: {} },
      { name: 'transfer_form_contacts_used', properties: { position: 0 } },
    ]);
  });

  it('names the four events of the transfer form', () => {
    expect(Object.values(TRANSFER_EVENTS)).toEqual([
      'transfer_form_send',
      'transfer_form_contacts_used',
      'transfer_form_pro_upsell_shown',
      'transfer_form_pro_upsell_clicked',
    ]);
  });

  it('never throws into the form when the event cannot be dispatched', () => {
    // Prepare
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.spyOn(window, 'dispatchEvent').mockImplementation(() => {
      throw new Error('broken listener');
    });

    // Act
    const track = () => trackTransferEvent(TRANSFER_EVENTS.proUpsellClicked);

    // Assess
    expect(track).not.toThrow();
    expect(warn).toHaveBeenCalled();
  });
});
