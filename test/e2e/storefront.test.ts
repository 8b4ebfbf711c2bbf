import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Browser, Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../shared/routes';
import { checkEveryPageTheSuiteVisits, expectAccessible } from '../support/accessibility';
import { createApiClient, expectError } from '../support/api-client';
import { launchBrowser, screenshotPath } from '../support/browser';
import { fact, recordFailedAnswers, shown } from '../support/page-steps';
import { logInByEmailFromModal } from '../support/email-login';
import { mailsTo } from '../support/mail';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { addGrade as addGradeByApi, addProduct, openShop } from '../support/penpay';
import { signedInBrowser } from '../support/signed-in-browser';

/** Local test cards (shared/payments/local-gateway.ts), as the card form's buttons name them. */
const DECLINED_CARD = /^4000 1111 1111 1115/;
const GOOD_CARD = /^4111 1111 1111 1111/;

const DESKTOP = { width: 1280, height: 800 };

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

/** The subjects of the emails `to` has had so far, oldest first. */
const subjectsTo = async (to: string) => (await mailsTo(runtime.mailDir, to)).map((mail) => mail.headers.subject ?? '');

/** A page of its own in a browser context of its own: one person's browser. */
async function personsPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  recordFailedAnswers(page);
  return page;
}

/**
 * Adds a grade from the product page's "New grade" dialog, waiting for the dialog to close. A
 * product with no grade leads with "Add the first grade", which opens the same dialog.
 */
async function addGrade(
  page: Page,
  grade: { name: string; price: string; subscription?: { plan: RegExp; addOn: string } },
): Promise<void> {
  await page.getByRole('button', { name: /^(New grade|Add the first grade)$/ }).click();
  const dialog = page.getByRole('dialog', { name: 'New grade' });
  await shown(page, dialog);
  await dialog.getByRole('textbox', { name: 'Name' }).fill(grade.name);
  if (grade.subscription) {
    await dialog.getByRole('radio', { name: /^Subscription/ }).check();
    // The local test account's demo plans, in the shop's currency.
    const plan = dialog.getByRole('radio', { name: grade.subscription.plan });
    await shown(page, plan);
    await expect(
      dialog
        .getByRole('group', { name: 'Plan', exact: true })
        .getByRole('radio')
        .evaluateAll((radios) => radios.map((radio) => (radio as HTMLInputElement).value)),
    ).resolves.toEqual(['monthly', 'quarterly', 'yearly']);
    await plan.check();
    await expect(dialog.getByRole('group', { name: 'Add-ons to offer' }).getByRole('checkbox').count()).resolves.toBe(2);
    await dialog.getByRole('checkbox', { name: grade.subscription.addOn }).check();
    await expectAccessible(page, 'the new grade dialog, for a subscription');
  }
  await dialog.getByRole('textbox', { name: 'Price (USD)' }).fill(grade.price);
  await dialog.getByRole('button', { name: 'Add grade' }).click();
  await dialog.waitFor({ state: 'detached', timeout: 30_000 });
}

/** The bytes of a download the browser saved, once it has finished. */
async function savedBytes(download: Download): Promise<Buffer> {
  const failure = await download.failure();
  if (failure) throw new Error(`The download of ${download.suggestedFilename()} failed: ${failure}`);
  return readFile(await download.path());
}

describe('the storefront in a real browser', () => {
  it('a merchant opens a shop and sells a product once and by subscription; a customer is declined, pays, adds an add-on, then cancels', async () => {
    const suffix = randomUUID().slice(0, 6);
    const shopName = `Ink Works ${suffix}`;
    const handle = `ink-works-${suffix}`;
    const productTitle = 'Zine club';
    const merchantEmail = `e2e-merchant-${suffix}@example.com`;
    const customerEmail = `e2e-customer-${suffix}@example.com`;

    // Act: a visitor opens the merchant area and logs in by email from it
    const merchant = await personsPage();
    await merchant.goto(`${runtime.url}/merchant`);
    await shown(merchant, merchant.getByRole('heading', { level: 1, name: 'Log in to sell on your own shop' }));
    await expectAccessible(merchant, 'the merchant area, for a visitor');
    await merchant.getByRole('main').getByRole('button', { name: 'Log in' }).click();
    await logInByEmailFromModal(merchant, runtime, merchantEmail);

    // Assess: back in the merchant area, asked to open a shop
    await merchant.waitForURL(`${runtime.url}/merchant`);
    const register = merchant.getByRole('form', { name: 'Open your shop' });
    await shown(merchant, register);
    await expectAccessible(merchant, 'the form opening a shop');

    // Act: the shop's name (its address follows it), currency and description
    await register.getByRole('textbox', { name: 'Shop name' }).fill(shopName);
    await expect(register.getByRole('textbox', { name: 'Shop address' }).inputValue()).resolves.toBe(handle);
    await register.getByRole('combobox', { name: 'Currency' }).selectOption('USD');
    await register.getByRole('textbox', { name: 'Description' }).fill('Small-press zines, by the issue or by the month.');
    await merchant.screenshot({ path: screenshotPath('store-open-shop') });
    await register.getByRole('button', { name: 'Open shop' }).click();

    // Assess: the shop is open at its address; payments come next
    await shown(merchant, merchant.getByRole('heading', { level: 1, name: 'Connect your payment account' }), 30_000);
    await expect(merchant.getByRole('main').getByRole('status').innerText()).resolves.toBe(
      `Your shop is open at /shop/${handle}.`,
    );
    await expectAccessible(merchant, 'connecting payments');

    // Act: a local test account, as on `npm start`
    await merchant.getByRole('button', { name: 'Use a local test account' }).click();

    // Assess: connected, and said which account
    await shown(merchant, merchant.getByRole('heading', { level: 1, name: 'Payments connected' }), 30_000);
    const account = merchant.getByRole('region', { name: 'Your payment account' });
    await expect(account.innerText()).resolves.toMatch(fact('Account', 'Local test account'));
    await expectAccessible(merchant, 'payments connected');
    await merchant.getByRole('button', { name: 'Go to your dashboard' }).click();

    // Assess: the dashboard, with no sales yet
    await shown(merchant, merchant.getByRole('heading', { level: 1, name: shopName }));
    const figures = merchant.getByRole('region', { name: 'Last 30 days' });
    await shown(merchant, figures);
    await expect(figures.innerText()).resolves.toMatch(fact('Revenue', '$0.00'));
    await expect(merchant.getByRole('region', { name: 'Recent sales' }).innerText()).resolves.toContain('No sales yet.');
    await expect(merchant.getByRole('region', { name: 'Payments' }).innerText()).resolves.toMatch(
      fact('Account', 'Local test account'),
    );
    await expectAccessible(merchant, 'the new shop’s dashboard');

    // Act: a new product, a draft at first
    await merchant.getByRole('region', { name: 'Products' }).getByRole('button', { name: 'New product' }).click();
    const newProduct = merchant.getByRole('dialog', { name: 'New product' });
    await shown(merchant, newProduct);
    await newProduct.getByRole('textbox', { name: 'Title' }).fill(productTitle);
    await newProduct.getByRole('textbox', { name: 'Description' }).fill('A new zine in your letterbox.');
    await expect(newProduct.getByRole('radio', { name: /^Private/ }).isChecked()).resolves.toBe(true);
    await expectAccessible(merchant, 'the new product dialog');
    await newProduct.getByRole('button', { name: 'Create product' }).click();

    // Assess: the product's own page opens
    await merchant.waitForURL(/\/merchant\/products\/[^/]+$/, { timeout: 30_000 });
    const productStockId = decodeURIComponent(new URL(merchant.url()).pathname.split('/').pop() ?? '');
    await shown(merchant, merchant.getByRole('heading', { level: 1, name: productTitle }));
    await shown(merchant, merchant.getByRole('region', { name: 'Product details' }));

    // Act: make it public
    const visibility = merchant.getByRole('region', { name: 'Visibility' });
    await visibility.getByRole('radio', { name: /^Public/ }).check();
    await visibility.getByRole('button', { name: 'Save visibility' }).click();

    // Assess
    await shown(merchant, visibility.getByRole('radio', { name: /^Public \(now\)/ }), 30_000);
    await expect(visibility.getByRole('radio', { name: /^Public \(now\)/ }).isChecked()).resolves.toBe(true);
    // Public and on sale, but with no grade yet: nothing to buy, and the first grade is the next step.
    await shown(merchant, merchant.getByText('Not on sale yet: add a grade', { exact: true }));
    await shown(merchant, merchant.getByRole('button', { name: 'Add the first grade' }));

    // Act: a grade sold once, and one by subscription on the monthly plan with an add-on
    await addGrade(merchant, { name: 'Single issue', price: '12.00' });
    await addGrade(merchant, {
      name: 'Monthly club',
      price: '9.00',
      subscription: {
        plan: /^Monthly every month · USD · id monthly · Braintree price \$10\.00, not charged/,
        addOn: 'Extra seat: $2.00 each, every month',
      },
    });

    // Assess: both on sale, each with its price
    const grades = merchant.getByRole('region', { name: 'Grades' });
    const stocked = grades.getByRole('tabpanel', { name: 'Stocked (2)' });
    await shown(merchant, stocked.getByRole('link', { name: 'Monthly club' }), 30_000);
    // In the order they were added: a grade given no position goes after the others.
    await expect(stocked.getByRole('listitem').allInnerTexts()).resolves.toEqual([
      expect.stringMatching(/^Single issue\s+Public · On sale\s+\$12\.00 once$/),
      expect.stringMatching(/^Monthly club\s+Public · On sale · plan monthly\s+\$9\.00 every month$/),
    ]);
    await expectAccessible(merchant, 'the merchant’s product page');
    await merchant.screenshot({ path: screenshotPath('store-merchant-product'), fullPage: true });

    // Act: a visitor finds the product in the shop
    const customer = await personsPage();
    await customer.goto(`${runtime.url}/shop/${handle}`);
    await shown(customer, customer.getByRole('heading', { level: 1, name: shopName }));
    const listed = customer.getByRole('article', { name: productTitle });
    await shown(customer, listed);
    await expect(listed.innerText()).resolves.toContain('from $9.00');
    await expectAccessible(customer, 'the shop page');
    await listed.getByRole('link', { name: productTitle }).click();

    // Assess: the product page, with its two grades
    await customer.waitForURL(`${runtime.url}/product/${encodeURIComponent(productStockId)}`);
    await shown(customer, customer.getByRole('heading', { level: 1, name: productTitle }));
    const single = customer.getByRole('region', { name: 'Single issue', exact: true });
    const club = customer.getByRole('region', { name: 'Monthly club', exact: true });
    await shown(customer, single);
    await expect(single.innerText()).resolves.toContain('$12.00');
    await expect(club.innerText()).resolves.toMatch(/\$9\.00\s*\/month/);
    await expect(club.innerText()).resolves.toContain('Add-ons you can add later: Extra seat ($2.00/month).');
    await expect(single.getByRole('spinbutton', { name: 'Quantity' }).inputValue()).resolves.toBe('1');
    await expectAccessible(customer, 'the product page, for a visitor');

    // Act: adding to the cart asks the visitor to log in first; they log in by email
    await single.getByRole('button', { name: 'Add to cart' }).click();
    await logInByEmailFromModal(customer, runtime, customerEmail);

    // Assess: back on the product page, signed in
    await customer.waitForURL(`${runtime.url}/product/${encodeURIComponent(productStockId)}`);
    await shown(customer, single.getByRole('button', { name: 'Add to cart' }));
    await expectAccessible(customer, 'the product page, signed in');

    // Act: both grades into the cart
    await single.getByRole('button', { name: 'Add to cart' }).click();
    await shown(customer, single.getByRole('status').getByRole('link', { name: 'View cart' }), 30_000);
    await expect(single.getByRole('status').innerText()).resolves.toMatch(/^In your cart: 1\./);
    await club.getByRole('button', { name: 'Add to cart' }).click();
    await shown(customer, club.getByRole('status').getByRole('link', { name: 'View cart' }), 30_000);
    await expectAccessible(customer, 'the product page, with both grades in the cart');
    await club.getByRole('status').getByRole('link', { name: 'View cart' }).click();

    // Assess: the cart, priced: $21.00 today, then $9.00 every month
    await customer.waitForURL(/\/cart\/[^/]+$/);
    await shown(customer, customer.getByRole('heading', { level: 1, name: 'Your cart' }));
    const summary = customer.getByRole('region', { name: 'Order summary' });
    await shown(customer, summary);
    await expect(summary.innerText()).resolves.toMatch(/Due today\s+\$21\.00/);
    await expect
      .poll(() => summary.getByRole('list', { name: 'After today' }).innerText())
      .toMatch(/^Then \$9\.00 every month for .*Monthly club.*, until you cancel\.$/);
    const items = customer.getByRole('region', { name: 'Items' });
    await expect(items.getByRole('listitem').count()).resolves.toBe(2);
    const form = customer.getByRole('form', { name: 'Card details' });
    await shown(customer, form);
    await expect(form.innerText()).resolves.toContain('No real card is charged');
    await expectAccessible(customer, 'the cart');
    await customer.screenshot({ path: screenshotPath('store-cart'), fullPage: true });

    // Act: a card the bank declines
    await form.getByRole('button', { name: DECLINED_CARD }).click();
    await form.getByRole('button', { name: 'Pay $21.00' }).click();

    // Assess: the decline beside the form, which stays for another try; nothing bought
    const declined = form.getByRole('alert');
    await shown(customer, declined, 30_000);
    await expect(declined.innerText()).resolves.toMatch(/declined/i);
    await expect(form.getByRole('button', { name: 'Pay $21.00' }).isEnabled()).resolves.toBe(true);
    await expect(items.getByRole('listitem').count()).resolves.toBe(2);
    await expect(summary.innerText()).resolves.toMatch(/Due today\s+\$21\.00/);
    await expectAccessible(customer, 'the cart after a declined card');
    await customer.screenshot({ path: screenshotPath('store-cart-declined'), fullPage: true });
    const ordersTab = await customer.context().newPage();
    recordFailedAnswers(ordersTab);
    await ordersTab.goto(`${runtime.url}/store/orders`);
    const noOrders = ordersTab.getByText('No orders yet. What you buy in a shop shows here once it is paid.');
    await shown(ordersTab, noOrders);
    await shown(ordersTab, ordersTab.getByText('No subscriptions. Those you buy in a shop show here, to manage.'));
    await expectAccessible(ordersTab, 'the orders page, nothing bought');
    await ordersTab.close();
    await expect(subjectsTo(customerEmail)).resolves.not.toContainEqual(expect.stringMatching(/receipt/i));

    // Act: the good card
    await form.getByRole('button', { name: GOOD_CARD }).click();
    await form.getByRole('button', { name: 'Pay $21.00' }).click();

    // Assess: paid, with what was bought
    const thanks = customer.getByRole('heading', { level: 1, name: 'Thank you: your order is paid' });
    await shown(customer, thanks, 30_000);
    const confirmation = customer.getByRole('region', { name: 'Thank you: your order is paid' });
    await expect(confirmation.innerText()).resolves.toContain(`You paid $21.00 to ${shopName}.`);
    const bought = confirmation.getByRole('list', { name: 'What you bought' });
    await expect(bought.innerText()).resolves.toMatch(/Single issue[\s\S]*\$12\.00/);
    await expect(bought.innerText()).resolves.toMatch(/Monthly club[\s\S]*\$9\.00/);
    await expect(confirmation.innerText()).resolves.toContain('Your subscription has started.');
    await expectAccessible(customer, 'the order confirmation');
    await customer.screenshot({ path: screenshotPath('store-order-paid') });
    await expect.poll(() => subjectsTo(customerEmail)).toContain(`Your receipt from ${shopName}: $21.00`);
    await expect.poll(() => subjectsTo(merchantEmail)).toContain(`New order at ${shopName}: $21.00`);

    // Act: the merchant looks at the dashboard again
    await merchant.goto(`${runtime.url}/merchant`);

    // Assess: the sale, its revenue and the subscription it started
    await shown(merchant, figures);
    await expect.poll(() => figures.innerText()).toMatch(fact('Revenue', '$21.00'));
    await expect(figures.innerText()).resolves.toMatch(fact('Active subscriptions', '1'));
    await expect(figures.innerText()).resolves.toMatch(fact('Past due', '0'));
    const sales = merchant.getByRole('table', { name: 'Recent sales' });
    await shown(merchant, sales);
    // The header row, and one row per charge: the grade sold once, the subscription's first month.
    await expect(sales.getByRole('row').count()).resolves.toBe(3);
    await expect(sales.innerText()).resolves.toContain(customerEmail);
    await expect(sales.innerText()).resolves.toContain('Single issue');
    await expect(sales.innerText()).resolves.toContain('Monthly club');
    await expect(sales.innerText()).resolves.toContain('$12.00');
    await expect(sales.innerText()).resolves.toContain('$9.00');
    await expectAccessible(merchant, 'the dashboard after the sale');
    await merchant.screenshot({ path: screenshotPath('store-merchant-dashboard'), fullPage: true });

    // Act: the customer goes to their orders
    await confirmation.getByRole('link', { name: 'See your orders' }).click();

    // Assess: the subscription, active, and the order
    await customer.waitForURL(`${runtime.url}/store/orders`);
    const subscription = customer.getByRole('article', { name: `${productTitle}, Monthly club` });
    await shown(customer, subscription);
    await expect(subscription.innerText()).resolves.toContain('Active');
    await expect(subscription.innerText()).resolves.toContain(`From ${shopName}`);
    await expect(subscription.innerText()).resolves.toMatch(fact('Price', '$9.00 every month'));
    await expect(subscription.innerText()).resolves.toMatch(/Next charge\s+\$9\.00 on \d{1,2} \w+ \d{4}/);
    await expect(subscription.innerText()).resolves.toMatch(/Card\s+Visa ending 1111/);
    const order = customer.getByRole('region', { name: 'Orders' }).getByRole('article', { name: shopName });
    await shown(customer, order);
    await expect(order.innerText()).resolves.toMatch(/Total\s+\$21\.00/);
    await expect(order.innerText()).resolves.toContain('Paid with Visa ending 1111');
    await expectAccessible(customer, 'the orders page, subscribed');

    // Act: an add-on, paid for the rest of this month today
    await subscription.getByRole('button', { name: 'Add an add-on' }).click();
    const addOn = customer.getByRole('dialog', { name: 'Add an add-on' });
    await shown(customer, addOn);
    await expect(addOn.getByRole('combobox', { name: 'Add-on' }).inputValue()).resolves.toBe('extra-seat');
    await expect(addOn.getByRole('spinbutton', { name: 'Quantity' }).inputValue()).resolves.toBe('1');
    await expect(addOn.innerText()).resolves.toMatch(
      /\$2\.00 more every month from now on\. Today you are charged for the rest of the current period only, prorated: about \$\d+\.\d{2} for the \d+ days until /,
    );
    await expectAccessible(customer, 'the add-on dialog');
    await addOn.getByRole('button', { name: 'Add and pay now' }).click();

    // Assess: on the subscription, and in the next charge
    await addOn.waitFor({ state: 'detached', timeout: 30_000 });
    const addOns = subscription.getByRole('region', { name: 'Add-ons' });
    await shown(customer, addOns, 30_000);
    await expect(addOns.innerText()).resolves.toMatch(/Extra seat: \$2\.00 every month/);
    await expect.poll(() => subscription.innerText()).toMatch(/Next charge\s+\$11\.00 on /);

    // Assess: the rest of this month's add-on charged today, no more than a whole month of it, with a receipt
    const receipts = async () =>
      (await subjectsTo(customerEmail)).filter((subject) => subject.startsWith(`Your receipt from ${shopName}: `));
    await expect.poll(receipts).toHaveLength(2);
    const proratedText = /: \$(\d+\.\d{2})$/.exec((await receipts())[1] ?? '')?.[1] ?? '';
    const proratedCents = Math.round(Number(proratedText) * 100);
    expect(proratedCents, proratedText).toBeGreaterThan(0);
    expect(proratedCents, proratedText).toBeLessThanOrEqual(200);

    // Act: cancel, confirming in the dialog
    await subscription.getByRole('button', { name: 'Cancel subscription' }).click();
    const cancel = customer.getByRole('dialog', { name: 'Cancel your subscription?' });
    await shown(customer, cancel);
    await expect(cancel.innerText()).resolves.toContain(`Nothing more will be charged for ${productTitle}, Monthly club`);
    await expectAccessible(customer, 'the cancel dialog');
    await cancel.getByRole('button', { name: 'Cancel subscription' }).click();

    // Assess: canceled, nothing more to charge, nothing more to do with it
    await cancel.waitFor({ state: 'detached', timeout: 30_000 });
    await expect.poll(() => subscription.innerText()).toMatch(/Next charge\s+None: canceled on /);
    await expect(subscription.innerText()).resolves.toContain('Canceled');
    await expect(subscription.getByRole('button', { name: 'Cancel subscription' }).count()).resolves.toBe(0);
    await expect(subscription.getByRole('button', { name: 'Add an add-on' }).count()).resolves.toBe(0);
    await expectAccessible(customer, 'the orders page, canceled');
    await customer.screenshot({ path: screenshotPath('store-orders-canceled'), fullPage: true });

    // Assess: the merchant sees the prorated add-on charge, and no subscription running
    await merchant.reload();
    await shown(merchant, figures);
    await expect.poll(() => figures.innerText()).toMatch(fact('Active subscriptions', '0'));
    await expect(sales.getByRole('row').count()).resolves.toBe(4);
    const proratedSale = sales.getByRole('row').filter({ hasText: 'Extra seat (prorated)' });
    // The amount's cell (a refundable sale's row ends with its Refund action).
    await proratedSale.getByRole('cell', { name: `$${proratedText}`, exact: true }).waitFor();
    await expect(figures.innerText()).resolves.toMatch(fact('Revenue', `$${((2_100 + proratedCents) / 100).toFixed(2)}`));
    await merchant.screenshot({ path: screenshotPath('store-merchant-dashboard-after-cancel'), fullPage: true });
    await expect.poll(() => subjectsTo(customerEmail)).toContain(`Your subscription at ${shopName} is canceled`);
  }, 240_000);

  it('a merchant sells a file with a discount code; the buyer pays less, downloads it, is refunded and can no longer download', async () => {
    // Prepare: a merchant with a shop, its payment account and a product sold once, as the test
    // above does in the browser; and a buyer, signed in
    const suite = { runtime, api: createApiClient(runtime) };
    const seller = await signedInBrowser(browser, runtime, 'e2e-seller');
    const shop = await openShop(suite, 'Moth Press', { owner: seller.person });
    const shopName = shop.merchant.shopName;
    const productTitle = 'Field guide to moths';
    const product = await addProduct(suite, shop, productTitle);
    await addGradeByApi(suite, shop, product, 'PDF edition', 1_000);
    const buyer = await signedInBrowser(browser, runtime, 'e2e-buyer');
    // A PDF's header, then every byte value: a file altered on the way (re-encoded as text, cut short) shows.
    const guide = {
      name: 'field-guide.pdf',
      buffer: Buffer.concat([
        Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\nMoths of the hedgerow, plates 1 to 40.\n', 'latin1'),
        Buffer.from(Array.from({ length: 256 }, (_, byte) => byte)),
      ]),
    };
    const code = 'MOTHS20';
    const reason = 'The plates would not open on my reader.';

    // Act: on the dashboard, the merchant creates a code for 20% off everything
    const merchant = await seller.context.newPage();
    recordFailedAnswers(merchant);
    await merchant.goto(`${runtime.url}/merchant`);
    await shown(merchant, merchant.getByRole('heading', { level: 1, name: shopName }));
    const codeForm = merchant.getByRole('form', { name: 'New discount code' });
    await codeForm.getByRole('textbox', { name: 'Code', exact: true }).fill(code);
    await codeForm.getByRole('textbox', { name: 'Percentage off' }).fill('20');
    await codeForm.getByRole('button', { name: 'Create code' }).click();

    // Assess: created, and listed with what it gives
    await shown(merchant, codeForm.getByRole('status').getByText(`Code ${code} created.`), 30_000);
    const codes = merchant.getByRole('list', { name: 'Your discount codes' });
    await shown(merchant, codes.getByRole('listitem').filter({ hasText: code }));
    await expect(codes.innerText()).resolves.toContain(`${code} · 20% off everything`);

    // Act: to the grade's page, by the product's, and add the file it delivers
    await merchant.getByRole('region', { name: 'Products' }).getByRole('link', { name: productTitle }).click();
    await shown(merchant, merchant.getByRole('heading', { level: 1, name: productTitle }), 30_000);
    await merchant.getByRole('region', { name: 'Grades' }).getByRole('link', { name: 'PDF edition' }).click();
    await shown(merchant, merchant.getByRole('heading', { level: 1, name: 'PDF edition' }), 30_000);
    const delivered = merchant.getByRole('region', { name: 'Files delivered after purchase' });
    await shown(merchant, delivered.getByText('No files yet: this grade delivers nothing to download.'));
    await delivered
      .getByLabel('Add files')
      .setInputFiles({ name: guide.name, mimeType: 'application/pdf', buffer: guide.buffer });

    // Assess: the file is ready for buyers, with its size
    const deliveredFile = delivered.getByRole('list', { name: 'Delivered files' }).getByRole('listitem');
    await shown(merchant, deliveredFile.filter({ hasText: guide.name }), 30_000);
    await expect(deliveredFile.innerText()).resolves.toMatch(
      new RegExp(`^${guide.name.replace('.', '\\.')}\\s+${guide.buffer.length} bytes\\s+Remove$`),
    );
    await expectAccessible(merchant, 'the grade page, delivering a file');

    // Act: the buyer puts the grade in the cart
    const customer = await buyer.context.newPage();
    recordFailedAnswers(customer);
    await customer.goto(`${runtime.url}/product/${encodeURIComponent(product.id)}`);
    const edition = customer.getByRole('region', { name: 'PDF edition', exact: true });
    await shown(customer, edition.getByRole('button', { name: 'Add to cart' }));
    await edition.getByRole('button', { name: 'Add to cart' }).click();
    await shown(customer, edition.getByRole('status').getByRole('link', { name: 'View cart' }), 30_000);
    await edition.getByRole('status').getByRole('link', { name: 'View cart' }).click();
    await customer.waitForURL(/\/cart\/[^/]+$/);
    const summary = customer.getByRole('region', { name: 'Order summary' });
    await shown(customer, summary);
    await expect(summary.innerText()).resolves.toMatch(/Due today\s+\$10\.00/);

    // Act: the code, typed as it comes (case does not matter)
    const codeField = customer.getByRole('form', { name: 'Discount code' });
    await codeField.getByRole('textbox', { name: 'Discount code' }).fill(code.toLowerCase());
    await codeField.getByRole('button', { name: 'Apply' }).click();

    // Assess: the saving, and the lower total to pay
    const saving = customer.getByRole('region', { name: 'Discount code' }).getByRole('status');
    await shown(customer, saving, 30_000);
    await expect(saving.innerText()).resolves.toBe(`Code ${code} applied: you save $2.00.`);
    await expect(summary.innerText()).resolves.toMatch(new RegExp(`Discount \\(${code}\\)\\s+−\\$2\\.00`));
    await expect(summary.innerText()).resolves.toMatch(/Due today\s+\$8\.00/);
    const card = customer.getByRole('form', { name: 'Card details' });
    await shown(customer, card.getByRole('button', { name: 'Pay $8.00' }));
    await expectAccessible(customer, 'the cart, with a discount code');

    // Act: pay
    await card.getByRole('button', { name: GOOD_CARD }).click();
    await card.getByRole('button', { name: 'Pay $8.00' }).click();

    // Assess: paid the discounted price
    const confirmation = customer.getByRole('region', { name: 'Thank you: your order is paid' });
    await shown(customer, confirmation, 30_000);
    await expect(confirmation.innerText()).resolves.toContain(`You paid $8.00 to ${shopName}.`);

    // Act: to the orders, where the file is
    await confirmation.getByRole('link', { name: 'See your orders' }).click();
    await customer.waitForURL(`${runtime.url}/store/orders`);
    const order = customer.getByRole('region', { name: 'Orders' }).getByRole('article', { name: shopName });
    const file = order.getByRole('list', { name: 'Your files' }).getByRole('listitem').filter({ hasText: guide.name });
    await shown(customer, file);
    await expect(order.innerText()).resolves.toMatch(new RegExp(`Discount \\(${code}\\)\\s+−\\$2\\.00`));
    await expect(order.innerText()).resolves.toMatch(/Total\s+\$8\.00/);
    await expect(file.innerText()).resolves.toContain('5 downloads left');
    const asked = customer.waitForResponse(
      (response) => response.request().method() === 'POST' && new URL(response.url()).pathname.endsWith('/download'),
    );
    const [download] = await Promise.all([
      customer.waitForEvent('download', { timeout: 15_000 }),
      file.getByRole('button', { name: `Download ${guide.name}` }).click(),
    ]);

    // Assess: the file as uploaded, under its name, and one download fewer left
    expect(download.suggestedFilename()).toBe(guide.name);
    expect((await savedBytes(download)).equals(guide.buffer)).toBe(true);
    await shown(customer, file.getByText('4 downloads left'));
    const [, invoiceId = '', fileId = ''] =
      /\/order\/([^/]+)\/file\/([^/]+)\/download$/.exec(new URL((await asked).url()).pathname) ?? [];

    // Act: the merchant refunds the order from the dashboard's sales
    await merchant.goto(`${runtime.url}/merchant`);
    const sale = merchant.getByRole('table', { name: 'Recent sales' }).getByRole('row').filter({ hasText: buyer.person.email });
    await shown(merchant, sale);
    await expect(sale.innerText()).resolves.toContain('$8.00');
    await sale.getByRole('button', { name: /^Refund / }).click();
    const refund = merchant.getByRole('dialog', { name: 'Refund order' });
    await shown(merchant, refund.getByText('Left to refund: $8.00'));
    await expect(refund.getByRole('radio', { name: /^All that is left/ }).isChecked()).resolves.toBe(true);
    await refund.getByRole('textbox', { name: 'Reason' }).fill(reason);
    await expectAccessible(merchant, 'the refund dialog');
    await refund.getByRole('button', { name: 'Refund', exact: true }).click();

    // Assess: refunded, in the dashboard's figures, and the buyer is told by email
    await refund.waitFor({ state: 'detached', timeout: 30_000 });
    const figures = merchant.getByRole('region', { name: 'Last 30 days' });
    await expect.poll(() => figures.innerText()).toMatch(fact('Refunds', '$8.00 (1)'));
    await expect.poll(() => subjectsTo(buyer.person.email)).toContain(`Your refund from ${shopName}: $8.00`);

    // Act: the buyer looks at the order again
    await customer.reload();

    // Assess: the refund and its reason; the file listed, no longer downloadable
    const refunds = order.getByRole('list', { name: 'Refunds' });
    await shown(customer, refunds);
    await expect(refunds.innerText()).resolves.toMatch(
      new RegExp(`^Refunded .*\\. ${reason.replace('.', '\\.')}\\s+−\\$8\\.00$`),
    );
    await expect(file.innerText()).resolves.toContain('Refunded: no longer available');
    await expect(file.getByRole('button', { name: `Download ${guide.name}` }).isDisabled()).resolves.toBe(true);
    await customer.screenshot({ path: screenshotPath('store-order-refunded') });

    // Assess: and the download route refuses it too, for the page's own request
    const refused = await suite.api.call(routes.downloadOrderFile, { params: { invoiceId, fileId }, as: buyer.person });
    expectError(refused, 410, 'PURCHASE_REFUNDED');
    expect(refused.body.message).toBe(`This purchase was refunded, so ${guide.name} can no longer be downloaded.`);
  }, 120_000);
});
