import { setMatchMedia, setScreenWidth } from '../../test/dom-polyfills';
import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { currentUserQueryKey, type CurrentUser } from '../../lib/current-user';
import { jane, renderShell } from '../../test/render-shell';

function scrollTo(y: number) {
  Object.defineProperty(window, 'scrollY', { value: y, configurable: true, writable: true });
  fireEvent.scroll(window);
}

/** matchMedia answering for a screen width that can change during the test. */
function setChangingScreenWidth(width: () => number) {
  return setMatchMedia((query) => {
    const max = /max-width:\s*(\d+)px/.exec(query);
    return max ? width() <= Number(max[1]) : false;
  });
}

/** Menu items in order, each with its accessible name and its link. */
function expectItems(items: HTMLElement[], expected: [name: string, href: string][]) {
  expect(items).toHaveLength(expected.length);
  expected.forEach(([name, href], index) => {
    expect(items[index]).toHaveAccessibleName(name);
    expect(items[index]).toHaveAttribute('href', href);
  });
}

function banner() {
  return screen.getByRole('banner');
}

describe('TopBar, logged out', () => {
  beforeEach(() => setScreenWidth(1280));

  it('shows the logo, the main links, search and a Login button that opens the login dialog', async () => {
    // Prepare
    const user = userEvent.setup();
    renderShell({ user: null });
    const nav = screen.getByRole('navigation', { name: 'Main' });

    // Assess the bar
    expect(screen.getByRole('link', { name: 'TopPubs home' })).toHaveAttribute('href', '/');
    expect(within(nav).getByRole('link', { name: 'Active' })).toHaveAttribute('href', '/active');
    expect(within(nav).getByRole('link', { name: 'Topics' })).toHaveAttribute('href', '/topics');
    expect(within(nav).getByRole('link', { name: 'Top Growing' })).toHaveAttribute('href', '/growing');
    expect(within(nav).getByRole('link', { name: 'Stories' })).toHaveAttribute('href', '/stories');
    expect(within(banner()).getByRole('search', { name: 'Publications' })).toHaveAttribute('action', '/search');
    expect(within(banner()).getByRole('combobox', { name: 'Search publications' })).toHaveValue('');
    expect(screen.queryByRole('button', { name: /Account menu/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Notifications/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    // Act
    await user.click(screen.getByRole('button', { name: 'Login' }));

    // Assess
    const dialog = await screen.findByRole('dialog', { name: 'Log in to TopPubs' });
    expect(within(dialog).getByRole('button', { name: 'Continue with Google' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Continue with email' })).toBeInTheDocument();
  });

  it("lists this host's apps, each with its description, linked to its page here, and none of one's own places", async () => {
    // Prepare
    const user = userEvent.setup();
    renderShell({ user: null });

    // Act
    await user.click(screen.getByRole('button', { name: 'Our products' }));

    // Assess
    const menu = await screen.findByRole('menu', { name: 'Our products' });
    expectItems(within(menu).getAllByRole('menuitem'), [
      ['Rankings', '/'],
      ['Stories', '/stories'],
      ['Send files', '/transfer'],
      ['Pro', '/upgrades'],
      ['Shops', '/merchant'],
    ]);
    expect(within(menu).getByRole('menuitem', { name: 'Send files' })).toHaveAccessibleDescription(
      'Send large files with a link',
    );
    expect(within(menu).getByRole('menuitem', { name: 'Pro' })).toHaveAccessibleDescription('Bigger transfers, kept longer');
    expect(within(menu).queryByRole('menuitem', { name: 'Your transfers' })).not.toBeInTheDocument();
    expect(within(menu).queryByRole('menuitem', { name: 'Your orders' })).not.toBeInTheDocument();
    expect(within(menu).queryByText('ManyStories for Chrome')).not.toBeInTheDocument();
    for (const image of menu.querySelectorAll('img')) expect(image.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
  });

  it('shows a visitor no personal places: no account menu, and the footer lists the apps without them', () => {
    // Prepare
    renderShell({ user: null });

    // Assess
    expect(screen.queryByRole('button', { name: /Account menu/ })).not.toBeInTheDocument();
    const apps = screen.getByRole('navigation', { name: 'Apps' });
    expect(within(apps).getByRole('link', { name: 'Send files' })).toHaveAttribute('href', '/transfer');
    expect(within(apps).getByRole('link', { name: 'Shops' })).toHaveAttribute('href', '/merchant');
    expect(within(apps).queryByRole('link', { name: 'Your transfers' })).not.toBeInTheDocument();
    expect(within(apps).queryByRole('link', { name: 'Your orders' })).not.toBeInTheDocument();
  });
});

describe('TopBar products menu', () => {
  beforeEach(() => setScreenWidth(1280));
  afterEach(() => vi.unstubAllEnvs());

  it("adds a signed-in person's transfers and orders, and opens an app on this host without reloading", async () => {
    // Prepare
    const user = userEvent.setup();
    const { router } = renderShell({
      user: jane,
      pages: [{ path: 'transfer', element: <h1>Send files page</h1> }],
    });
    await user.click(screen.getByRole('button', { name: 'Our products' }));
    const menu = await screen.findByRole('menu', { name: 'Our products' });
    expect(within(menu).getByRole('menuitem', { name: 'Your transfers' })).toHaveAttribute('href', '/transfers');
    expect(within(menu).getByRole('menuitem', { name: 'Your orders' })).toHaveAttribute('href', '/store/orders');

    // Act
    await user.click(within(menu).getByRole('menuitem', { name: 'Send files' }));

    // Assess: the in-memory router followed the link, so no page load was needed
    expect(await screen.findByRole('heading', { name: 'Send files page' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/transfer');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  });

  it('links an app configured on a sibling host (VITE_PRODUCT_HOSTS) to that host, the others stay here', async () => {
    // Prepare
    vi.stubEnv('VITE_PRODUCT_HOSTS', 'transfers=https://files.example.com,shops=https://shops.example.com');
    const user = userEvent.setup();
    renderShell({ user: jane });

    // Act
    await user.click(screen.getByRole('button', { name: 'Our products' }));

    // Assess
    const menu = await screen.findByRole('menu', { name: 'Our products' });
    expectItems(within(menu).getAllByRole('menuitem'), [
      ['Rankings', '/'],
      ['Stories', '/stories'],
      ['Send files', 'https://files.example.com/transfer'],
      ['Your transfers', 'https://files.example.com/transfers'],
      ['Pro', 'https://files.example.com/upgrades'],
      ['Shops', 'https://shops.example.com/merchant'],
      ['Your orders', 'https://shops.example.com/store/orders'],
    ]);
  });
});

describe('TopBar, logged in', () => {
  beforeEach(() => setScreenWidth(1280));
  afterEach(() => vi.unstubAllEnvs());

  it('shows the bell without a count when nothing is unseen', () => {
    // Prepare
    renderShell({ user: jane });

    // Assess
    const bell = screen.getByRole('link', { name: 'Notifications' });
    expect(bell).toHaveAttribute('href', '/notifications');
    expect(screen.queryByTestId('unseen-dot')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Login' })).not.toBeInTheDocument();
  });

  it('shows the count when either app has unseen notifications, and opening notifications clears both counts', async () => {
    // Prepare
    const user = userEvent.setup();
    const { queryClient } = renderShell({ user: { ...jane, numUnseenNotifications: 0, ssoAppNumUnseenNotifications: 2 } });
    // The name carries the count for a screen reader; the badge shows it.
    const bell = screen.getByRole('link', { name: 'Notifications (2 unseen)' });
    expect(within(bell).getByTestId('unseen-dot')).toHaveTextContent(/^2$/);

    // Act
    await user.click(bell);

    // Assess
    expect(await screen.findByRole('heading', { name: 'Notifications page' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Notifications' })).toBeInTheDocument();
    expect(screen.queryByTestId('unseen-dot')).not.toBeInTheDocument();
    expect(queryClient.getQueryData<CurrentUser>(currentUserQueryKey)).toMatchObject({
      numUnseenNotifications: 0,
      ssoAppNumUnseenNotifications: 0,
    });
  });

  it.each([
    [3, 4, '7'],
    [9, 0, '9'],
    [6, 5, '9+'],
  ])('adds both apps\' unseen counts on the bell (%d + %d shows %s), the name giving the exact count', (own, sso, shown) => {
    // Prepare
    renderShell({ user: { ...jane, numUnseenNotifications: own, ssoAppNumUnseenNotifications: sso } });

    // Assess
    const bell = screen.getByRole('link', { name: `Notifications (${own + sso} unseen)` });
    expect(within(bell).getByTestId('unseen-dot')).toHaveTextContent(new RegExp(`^${shown.replace('+', '\\+')}$`));
  });

  it('opens the avatar menu with every item in order, the right links, and Blog in a new tab', async () => {
    // Prepare
    const user = userEvent.setup();
    renderShell({ user: jane });

    // Act
    await user.click(screen.getByRole('button', { name: 'Account menu for jane' }));

    // Assess
    const menu = await screen.findByRole('menu', { name: 'Account menu for jane' });
    const items = within(menu).getAllByRole('menuitem');
    expect(items.map((item) => item.textContent?.replace(' (opens in a new tab)', ''))).toEqual([
      'Account',
      'Your transfers',
      'Your subscription',
      'Your orders',
      'Your shop',
      'Active Publications',
      'Fastest Growing Publications',
      'Fastest Growing Active Publications',
      'Recently Active Publications',
      'Topics',
      'Suggest a Publication',
      'About',
      'Blog',
      'Help',
      'Logout',
    ]);
    expect(items.map((item) => item.getAttribute('href'))).toEqual([
      'https://penname.example/account/jane',
      '/transfers',
      '/subscription',
      '/store/orders',
      '/merchant',
      '/active',
      '/growing',
      '/growing/active',
      '/recent',
      '/topics',
      '/suggest',
      '/about',
      'https://blog.toppubs.example',
      'mailto:support@toppubs.example',
      '/logout',
    ]);
    const blog = within(menu).getByRole('menuitem', { name: /^Blog/ });
    expect(blog).toHaveAttribute('target', '_blank');
    expect(blog.getAttribute('rel')).toContain('noopener');
    expect(within(menu).getByRole('menuitem', { name: 'Account' })).not.toHaveAttribute('target');
  });

  it("adds the editors' and moderators' queues to a superuser's menu, after Account", async () => {
    // Prepare
    const user = userEvent.setup();
    renderShell({ user: { ...jane, isSuperUser: true } });

    // Act
    await user.click(screen.getByRole('button', { name: 'Account menu for jane' }));

    // Assess
    const menu = await screen.findByRole('menu', { name: 'Account menu for jane' });
    const items = within(menu).getAllByRole('menuitem').slice(0, 7);
    expect(items.map((item) => [item.textContent, item.getAttribute('href')])).toEqual([
      ['Account', 'https://penname.example/account/jane'],
      ['Review queue', '/stories/review'],
      ['Suggestions to review', '/suggestions/review'],
      ['Moderation', '/moderation'],
      ['Analytics', '/analytics'],
      ['Pro discount codes', '/pro-codes'],
      ['Pro refunds', '/pro-refunds'],
    ]);
  });

  it("follows a personal place on this host, or on the app's sibling host when the build sets one", async () => {
    // Prepare
    vi.stubEnv('VITE_PRODUCT_HOSTS', 'shops=https://shops.example.com');
    const user = userEvent.setup();
    renderShell({ user: jane, pages: [{ path: 'transfers', element: <h1>Your transfers page</h1> }] });
    await user.click(screen.getByRole('button', { name: 'Account menu for jane' }));
    const menu = await screen.findByRole('menu', { name: 'Account menu for jane' });
    expect(within(menu).getByRole('menuitem', { name: 'Your shop' })).toHaveAttribute(
      'href',
      'https://shops.example.com/merchant',
    );

    // Act
    await user.click(within(menu).getByRole('menuitem', { name: 'Your transfers' }));

    // Assess
    expect(await screen.findByRole('heading', { name: 'Your transfers page' })).toBeInTheDocument();
  });

  it('navigates from an avatar menu item and closes the menu', async () => {
    // Prepare
    const user = userEvent.setup();
    renderShell({ user: jane });
    await user.click(screen.getByRole('button', { name: 'Account menu for jane' }));

    // Act
    await user.click(await screen.findByRole('menuitem', { name: 'Active Publications' }));

    // Assess
    expect(await screen.findByRole('heading', { name: 'Active page' })).toBeInTheDocument();
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  });
});

describe('TopBar menus from the keyboard', () => {
  beforeEach(() => setScreenWidth(1280));

  it('opens the avatar menu with Enter, closes it with Escape back on its button, and opens it again', async () => {
    // Prepare
    const user = userEvent.setup();
    renderShell({ user: jane });
    const trigger = screen.getByRole('button', { name: 'Account menu for jane' });
    expect(trigger).toHaveAttribute('aria-haspopup', 'menu');

    // Act
    trigger.focus();
    await user.keyboard('{Enter}');

    // Assess
    expect(await screen.findByRole('menu', { name: 'Account menu for jane' })).toBeInTheDocument();

    // Act
    await user.keyboard('{Escape}');

    // Assess
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    const realTrigger = screen.getByRole('button', { name: 'Account menu for jane' });
    expect(realTrigger).toHaveFocus();
    expect(realTrigger).toHaveAttribute('aria-expanded', 'false');

    // Act
    await user.keyboard('{Enter}');

    // Assess
    expect(await screen.findByRole('menu', { name: 'Account menu for jane' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Account menu for jane' })).toHaveAttribute('aria-expanded', 'true');
  });
});

describe('TopBar on small screens', () => {
  it('collapses the main links into a Menu dropdown below 768 px', async () => {
    // Prepare
    setScreenWidth(767);
    const user = userEvent.setup();
    renderShell();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).queryByRole('link', { name: 'Active' })).not.toBeInTheDocument();

    // Act
    await user.click(within(nav).getByRole('button', { name: 'Menu' }));

    // Assess
    const menu = await screen.findByRole('menu', { name: 'Menu' });
    const items = within(menu).getAllByRole('menuitem');
    expect(items.map((item) => [item.textContent, item.getAttribute('href')])).toEqual([
      ['Active', '/active'],
      ['Topics', '/topics'],
      ['Top Growing', '/growing'],
      ['Stories', '/stories'],
      ['Rankings', '/'],
      ['Send files', '/transfer'],
      ['Pro', '/upgrades'],
      ['Shops', '/merchant'],
    ]);
    expect(within(menu).getByRole('group', { name: 'Our products' })).toBeInTheDocument();
  });

  it("adds a signed-in person's transfers and orders to the phone menu", async () => {
    // Prepare
    setScreenWidth(767);
    const user = userEvent.setup();
    renderShell({ user: jane });

    // Act
    await user.click(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('button', { name: 'Menu' }));

    // Assess
    const menu = await screen.findByRole('menu', { name: 'Menu' });
    expect(within(menu).getByRole('menuitem', { name: 'Your transfers' })).toHaveAttribute('href', '/transfers');
    expect(within(menu).getByRole('menuitem', { name: 'Your orders' })).toHaveAttribute('href', '/store/orders');
  });

  it('shows the links inline at 768 px and wider', () => {
    // Prepare
    setScreenWidth(768);
    renderShell();

    // Assess
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Active' })).toBeInTheDocument();
    expect(within(nav).queryByRole('button', { name: 'Menu' })).not.toBeInTheDocument();
  });

  it('switches variant when the screen crosses the breakpoint', () => {
    // Prepare
    let width = 1024;
    const fireChange = setChangingScreenWidth(() => width);
    renderShell();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Topics' })).toBeInTheDocument();

    // Act
    width = 500;
    act(() => fireChange());

    // Assess
    expect(within(nav).getByRole('button', { name: 'Menu' })).toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: 'Topics' })).not.toBeInTheDocument();
  });
});

describe('TopBar on scroll', () => {
  beforeEach(() => {
    setScreenWidth(1280);
    vi.useFakeTimers();
    scrollTo(0);
  });
  afterEach(() => {
    vi.useRealTimers();
    Object.defineProperty(window, 'scrollY', { value: 0, configurable: true, writable: true });
  });

  it('hides after scrolling down past 100 px once the 300 ms debounce settles, and shows again on scrolling up', () => {
    // Prepare
    renderShell();
    expect(banner()).toHaveAttribute('data-hidden', 'false');

    // Act: scroll down past the threshold, but the debounce has not elapsed yet
    act(() => scrollTo(150));
    act(() => vi.advanceTimersByTime(299));

    // Assess
    expect(banner()).toHaveAttribute('data-hidden', 'false');

    // Act
    act(() => vi.advanceTimersByTime(1));

    // Assess
    expect(banner()).toHaveAttribute('data-hidden', 'true');

    // Act: scroll back up a little
    act(() => scrollTo(120));
    act(() => vi.advanceTimersByTime(300));

    // Assess
    expect(banner()).toHaveAttribute('data-hidden', 'false');
  });

  it('stays visible when scrolling down but not past 100 px', () => {
    // Prepare
    renderShell();

    // Act
    act(() => scrollTo(90));
    act(() => vi.advanceTimersByTime(300));

    // Assess
    expect(banner()).toHaveAttribute('data-hidden', 'false');
  });

  it('judges only the settled position when scroll events keep coming', () => {
    // Prepare
    renderShell();

    // Act: a burst of events, each within 300 ms of the previous one
    for (const y of [40, 80, 120, 160, 200]) {
      act(() => scrollTo(y));
      act(() => vi.advanceTimersByTime(200));
    }

    // Assess: nothing judged yet
    expect(banner()).toHaveAttribute('data-hidden', 'false');
    act(() => vi.advanceTimersByTime(100));
    expect(banner()).toHaveAttribute('data-hidden', 'true');
  });

  it('gets a bottom border once scrolled past its own 60 px height', () => {
    // Prepare
    renderShell();
    expect(banner()).toHaveAttribute('data-scrolled', 'false');

    // Act
    act(() => scrollTo(60));

    // Assess: at exactly its height, still no border
    expect(banner()).toHaveAttribute('data-scrolled', 'false');

    // Act
    act(() => scrollTo(61));

    // Assess
    expect(banner()).toHaveAttribute('data-scrolled', 'true');

    // Act
    act(() => scrollTo(0));

    // Assess
    expect(banner()).toHaveAttribute('data-scrolled', 'false');
  });
});
