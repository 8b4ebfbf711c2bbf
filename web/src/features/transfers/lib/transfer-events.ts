/**
 * The transfer form's analytics events. For now each one is a `CustomEvent('analytics')` on
 * window, `detail: { name, properties }`; the analytics work listens for them and sends them on,
 * so the form never waits for (or breaks with) the analytics code.
 */
export const TRANSFER_EVENTS = {
  /** Send was pressed with files and recipients. */
  send: 'transfer_form_send',
  /** A recipient was picked from the contact suggestions rather than typed. */
  contactsUsed: 'transfer_form_contacts_used',
  /** The files went over the free plan's limit and the Pro notice appeared. */
  proUpsellShown: 'transfer_form_pro_upsell_shown',
  /** The Pro notice's link was followed. */
  proUpsellClicked: 'transfer_form_pro_upsell_clicked',
} as const;

export type TransferEventName = (typeof TRANSFER_EVENTS)[keyof typeof TRANSFER_EVENTS];
export type EventProperties = Record<string, string | number | boolean | null>;

export interface AnalyticsEventDetail {
  name: TransferEventName;
  properties: EventProperties;
}

export const ANALYTICS_EVENT_TYPE = 'analytics';

/** Dispatches one event on window. Never throws: analytics must not stop a transfer. */
export function trackTransferEvent(name: TransferEventName, properties: EventProperties = {}): void {
  if (typeof window === 'undefined') return;
  try {
    window.dispatchEvent(
      new CustomEvent<AnalyticsEventDetail>(ANALYTICS_EVENT_TYPE, { detail: { name, properties: { ...properties } } }),
    );
  } catch (error) {
    console.warn('An analytics listener failed', error);
  }
}
