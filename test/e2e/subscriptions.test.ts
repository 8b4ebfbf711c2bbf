import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../shared/routes';
import { checkEveryPageTheSuiteVisits, expectAccessible } from '../support/accessibility';
import { createApiClient, expectOk, type Session } from '../support/api-client';
import { launchBrowser, screenshotPath } from '../support/browser';
import { fact, recordFailedAnswers, shown } from '../support/page-steps';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { logInByEmailFromModal } from '../support/email-login';

/** Local test cards (shared/payments/local-gateway.ts). */
const DECLINED_CARD = '4000 1111 1111 1115';
/** Vaults, then every later charge is declined (local only): the renewal a month on fails. */
const DECLINES_LATER_CARD = '4000 0000 0000 0341';
const GOOD_CARD = '4111 1111 1111 1111';

/** An iPhone 12-15 screen, in CSS pixels. */
const PHONE = { width: 390, height: 844 };

let runtime: TestRuntime;
let browser: Browser;

beforeAll(async () => {
  [runtime, browser] = await Promise.all([startTestRuntime(), launchBrowser()]);
});

// Every page these tests leave open is checked for WCAG 2.1 AA (test/support/accessibility.ts).
checkEveryPageTheSuiteVisits(() => browser);

afterAll(async () => {
  await browser?.close();
  await runtime?.close();
});

/** Types a card into the local gateway's card form: any future expiry, a 3-digit security code. */
async function fillCard(form: Locator, number: string): Promise<void> {
  await form.getByRole('textbox', { name: 'Card number' }).fill(number);
  await form.getByRole('textbox', { name: 'Expiry date (MM/YY)' }).fill('12/30');
  await form.getByRole('textbox', { name: 'Security code' }).fill('123');
}

/** A billing day (YYYY-MM-DD) as the pages write it: "25 December 2026". */
function asPageWritesDay(day: string): string {
  return new Date(`${day}T00:00:00.000Z`).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** The session the browser's login left in its cookie, for checking the API's side of things. */
async function sessionOf(page: Page): Promise<Session> {
  const cookie = (await page.context().cookies(runtime.url)).find((candidate) => candidate.name === 'ssoat');
  if (!cookie) throw new Error('The browser has no session cookie after the login');
  return { token: cookie.value };
}

describe('the Pro plan in a real browser', () => {
  it('a visitor logs in from the checkout, is declined once, pays; a renewal fails; a new card brings Pro back; then cancels', async () => {
    const api = createApiClient(runtime);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    recordFailedAnswers(page);

    // Act: a visitor compares the plans and chooses Pro
    await page.goto(`${runtime.url}/upgrades`);
    await page.getByRole('heading', { level: 1, name: 'Transfer Pro' }).waitFor();
    const pro = page.getByRole('region', { name: 'Pro' });
    await expect(pro.innerText()).resolves.toMatch(fact('Largest transfer', '200 GB'));
    await expect(page.getByRole('region', { name: 'Free' }).innerText()).resolves.toMatch(fact('Largest transfer', '2 GB'));
    await expectAccessible(page, 'the upgrades page, for a visitor');
    await page.screenshot({ path: screenshotPath('upgrades') });
    await pro.getByRole('link', { name: 'Upgrade to Pro' }).click();

    // Act: the checkout asks them to log in first; they log in by email
    await page.waitForURL(`${runtime.url}/checkout?price=pro-monthly`);
    const email = `e2e-pro-${Date.now()}@example.com`;
    await logInByEmailFromModal(page, runtime, email);

    // Assess: back on the checkout they started from, signed in, with the order and the local card form
    await page.waitForURL(`${runtime.url}/checkout?price=pro-monthly`);
    const session = await sessionOf(page);
    const summary = page.getByRole('region', { name: 'Order summary' });
    await shown(page, summary);
    await expect(summary.innerText()).resolves.toContain('$12.00 today, then $12.00 every month, cancel any time.');
    const form = page.getByRole('form', { name: 'Card details' });
    await expect(form.innerText()).resolves.toContain('No real card is charged');
    await expectAccessible(page, 'the checkout');
    await page.screenshot({ path: screenshotPath('checkout') });

    // Act: a card the bank declines
    await fillCard(form, DECLINED_CARD);
    await form.getByRole('button', { name: 'Pay $12.00' }).click();

    // Assess: the bank's decline in an alert beside the form, which stays for another try
    const alert = form.getByRole('alert');
    await shown(page, alert);
    await expect(alert.innerText()).resolves.toMatch(/declined/i);
    await expect(form.getByRole('button', { name: 'Pay $12.00' }).isEnabled()).resolves.toBe(true);
    await expectAccessible(page, 'the checkout after a declined card');
    await page.screenshot({ path: screenshotPath('checkout-declined') });

    // Act: the card that pays now and declines every later charge
    await fillCard(form, DECLINES_LATER_CARD);
    await form.getByRole('button', { name: 'Pay $12.00' }).click();

    // Assess: welcomed on the subscription page, active, with the card and the payment
    await page.waitForURL(`${runtime.url}/subscription`, { timeout: 30_000 });
    await page.getByText('Welcome to Pro').waitFor();
    const plan = page.getByRole('region', { name: 'Your plan' });
    await shown(page, plan);
    await expect(plan.innerText()).resolves.toMatch(fact('Status', 'Active'));
    await expect(plan.innerText()).resolves.toMatch(fact('Plan', 'Pro'));
    await expect(page.getByRole('region', { name: 'Card' }).innerText()).resolves.toContain('Visa ending 0341, expires 12/2030');
    await expect(page.getByRole('table', { name: 'Payments' }).getByRole('row').count()).resolves.toBe(2);
    await expectAccessible(page, 'the subscription page, active');

    // Assess: the transfer app's limits are Pro's
    const home = await api.call(routes.showTransferHome, { as: session });
    expectOk(home);
    expect(home.body.limits.planId).toBe('pro');

    // Act: a month and a bit passes at the gateway; the renewal is declined, and its webhooks
    // reach the API before the clock call answers
    const clock = await fetch(`${runtime.paymentGatewayEndpoint}/__control/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advanceDays: 32 }),
    });
    const clockAnswer = await clock.text();
    expect(clock.status, clockAnswer).toBe(200);
    await page.reload();

    // Assess: past due, said in an alert; the person has a notification of it
    const pastDue = page.getByRole('main').getByRole('alert');
    await shown(page, pastDue);
    await expect(pastDue.innerText()).resolves.toMatch(/^Your last payment failed\. Update your card by .+ to keep Pro\.$/);
    await expect(plan.innerText()).resolves.toMatch(fact('Status', 'Past due'));
    const notifications = await api.call(routes.getNotificationsScreen, { as: session });
    expectOk(notifications);
    expect(notifications.body.unseen.items.map((notification) => notification.kind)).toContain('subscription-payment-failed');
    await expectAccessible(page, 'the subscription page, past due');
    await page.screenshot({ path: screenshotPath('subscription-past-due') });

    // Act: a new card, in the dialog
    await page.getByRole('button', { name: 'Update card' }).click();
    const dialog = page.getByRole('dialog', { name: 'Update your card' });
    const newCard = dialog.getByRole('form', { name: 'New card' });
    await shown(page, newCard);
    await expectAccessible(page, 'the update-card dialog');
    await fillCard(newCard, GOOD_CARD);
    await newCard.getByRole('button', { name: 'Save card' }).click();

    // Assess: active again, no alert, the new card on file
    await dialog.waitFor({ state: 'detached', timeout: 30_000 });
    await expect.poll(() => plan.innerText()).toMatch(fact('Status', 'Active'));
    await expect(page.getByRole('main').getByRole('alert').count()).resolves.toBe(0);
    await expect(page.getByRole('region', { name: 'Card' }).innerText()).resolves.toContain('Visa ending 1111, expires 12/2030');

    // Act: cancel, confirming in the dialog
    await page.getByRole('button', { name: 'Cancel subscription' }).click();
    const confirm = page.getByRole('dialog', { name: 'Cancel your subscription?' });
    await confirm.waitFor();
    await expect(confirm.innerText()).resolves.toContain('Pro stays until the end of the period you have paid for');
    await confirm.getByRole('button', { name: 'Cancel subscription' }).click();
    await confirm.waitFor({ state: 'detached', timeout: 30_000 });

    // Assess: canceled, still Pro until the last day paid for
    const screen = await api.call(routes.showSubscriptionScreen, { as: session });
    expectOk(screen);
    const paidThrough = screen.body.subscription?.paidThroughDate;
    expect(paidThrough, JSON.stringify(screen.body.subscription)).toEqual(expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/));
    await expect.poll(() => plan.innerText()).toMatch(fact('Status', 'Canceled'));
    await expect(plan.innerText()).resolves.toMatch(fact('Plan', 'Pro'));
    await expect(plan.innerText()).resolves.toContain(`Pro until ${asPageWritesDay(paidThrough ?? '')}`);
    await expect(page.getByRole('button', { name: 'Cancel subscription' }).count()).resolves.toBe(0);
    await expectAccessible(page, 'the subscription page, canceled');
    await page.screenshot({ path: screenshotPath('subscription-canceled') });
    await context.close();
  }, 180_000);

  it('lays the plans out for a phone, with nothing wider than the screen', async () => {
    // Prepare
    const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    const page = await context.newPage();

    // Act
    await page.goto(`${runtime.url}/upgrades`);
    await page.getByRole('region', { name: 'Pro' }).waitFor();

    // Assess: one column (Free above Pro), no sideways scrolling
    const [free, pro] = await Promise.all(
      ['Free', 'Pro'].map((name) => page.getByRole('region', { name, exact: true }).boundingBox()),
    );
    expect(free && pro && pro.y >= free.y + free.height).toBe(true);
    await expect(page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).resolves.toBe(true);
    await page.screenshot({ path: screenshotPath('upgrades-phone'), fullPage: true });
    await context.close();
  });
});
