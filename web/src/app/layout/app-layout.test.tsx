import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { useDrawer } from '../../lib/drawer';
import { useRequireLogin } from '../../lib/require-login';
import { useShareStory } from '../../lib/share-story';
import { QueryClient } from '@tanstack/react-query';
import { routes } from '@shared/routes';
import type { CurrentUser } from '../../lib/current-user';
import { jane, Page, renderShell } from '../../test/render-shell';
import { type StubReply, stubRoute, stubRoutes } from '../../test/stub-routes';

function DrawerPage() {
  const drawer = useDrawer();
  return (
    <Page name="Drawer page">
      <button onClick={() => drawer.open({ title: 'Filters', content: <p>Pick a topic</p> })}>Open filters</button>
    </Page>
  );
}

function SharePage() {
  const share = useShareStory();
  return (
    <Page name="Share page">
      <button onClick={() => share.open({ id: 's1', title: 'How we grew to 1M readers', url: 'https://blog.example/grew' })}>
        Share
      </button>
    </Page>
  );
}

function FollowPage() {
  const requireLogin = useRequireLogin();
  return (
    <Page name="Follow page">
      <button onClick={() => requireLogin(() => (document.title = 'followed'))}>Follow</button>
    </Page>
  );
}

describe('AppLayout', () => {
  it('renders the page between the top bar and the footer', () => {
    // Prepare
    renderShell({ path: '/topics' });

    // Assess
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(within(screen.getByRole('main')).getByRole('heading', { name: 'Topics page' })).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
  });

  it("refuses a path ending in a file extension with 'File paths not supported: {path}'", () => {
    // Prepare
    renderShell({ path: '/some/file.png' });

    // Assess
    expect(
      within(screen.getByRole('main')).getByRole('heading', { name: 'File paths not supported: /some/file.png' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Catch-all page' })).not.toBeInTheDocument();
  });

  it('shows the page, not the refusal, for /topics and a dotted profile path', async () => {
    // Prepare
    const { router } = renderShell({ path: '/topics' });

    // Assess
    expect(screen.getByRole('heading', { name: 'Topics page' })).toBeInTheDocument();
    expect(screen.queryByText(/File paths not supported/)).not.toBeInTheDocument();

    // Act
    await act(() => router.navigate('/@jane.doe'));

    // Assess
    expect(screen.getByRole('heading', { name: 'Catch-all page' })).toBeInTheDocument();
    expect(screen.queryByText(/File paths not supported/)).not.toBeInTheDocument();
  });

  it('opens the drawer with its config and closes it when the config is cleared', async () => {
    // Prepare
    const user = userEvent.setup();
    renderShell({ path: '/drawer', pages: [{ path: 'drawer', element: <DrawerPage /> }] });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    // Act
    await user.click(screen.getByRole('button', { name: 'Open filters' }));

    // Assess
    const drawer = await screen.findByRole('dialog', { name: 'Filters' });
    expect(within(drawer).getByText('Pick a topic')).toBeInTheDocument();

    // Act
    await user.click(within(drawer).getByRole('button', { name: 'Close' }));

    // Assess
    expect(screen.queryByRole('dialog', { name: 'Filters' })).not.toBeInTheDocument();
  });

  it('opens the share-story modal on the address field, filled with the story to share, and closes it', async () => {
    // Prepare
    const user = userEvent.setup();
    renderShell({ path: '/share', pages: [{ path: 'share', element: <SharePage /> }] });

    // Act
    await user.click(screen.getByRole('button', { name: 'Share' }));

    // Assess
    const modal = await screen.findByRole('dialog', { name: 'Share a story' });
    const field = within(modal).getByRole('textbox', { name: 'Story URL' });
    expect(field).toHaveValue('https://blog.example/grew');
    await waitFor(() => expect(field).toHaveFocus());

    // Act
    await user.click(within(modal).getByRole('button', { name: 'Cancel' }));

    // Assess
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('opens the login modal instead of running an action that needs a user', async () => {
    // Prepare
    const user = userEvent.setup();
    document.title = '';
    renderShell({ path: '/follow', pages: [{ path: 'follow', element: <FollowPage /> }] });

    // Act
    await user.click(screen.getByRole('button', { name: 'Follow' }));

    // Assess
    expect(await screen.findByRole('dialog', { name: 'Log in to TopPubs' })).toBeInTheDocument();
    expect(document.title).not.toBe('followed');
  });

  it('runs an action that needs a user when someone is logged in', async () => {
    // Prepare
    const user = userEvent.setup();
    document.title = '';
    renderShell({ path: '/follow', user: jane, pages: [{ path: 'follow', element: <FollowPage /> }] });

    // Act
    await user.click(screen.getByRole('button', { name: 'Follow' }));

    // Assess
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(document.title).toBe('followed');
  });
});

describe('an action that needs a user, clicked before the session has answered', () => {
  /** A signed-in page (the login's hint cookie is there) whose session answer the test releases. */
  function renderWhileSessionLoads() {
    document.cookie = 'ssoh=1; Path=/';
    let answerSession: (reply: StubReply<typeof routes.getMe>) => void = () => undefined;
    const session = new Promise<StubReply<typeof routes.getMe>>((resolve) => (answerSession = resolve));
    stubRoutes(stubRoute(routes.getMe, () => session));
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
    renderShell({ path: '/follow', queryClient, pages: [{ path: 'follow', element: <FollowPage /> }] });
    return { answerSession };
  }

  it('runs the action once the session says someone is signed in, without asking them to log in', async () => {
    // Prepare
    const user = userEvent.setup();
    document.title = '';
    const { answerSession } = renderWhileSessionLoads();

    // Act
    await user.click(screen.getByRole('button', { name: 'Follow' }));
    answerSession({ body: jane satisfies CurrentUser });

    // Assess
    await waitFor(() => expect(document.title).toBe('followed'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('opens the login modal once the session says nobody is signed in', async () => {
    // Prepare
    const user = userEvent.setup();
    document.title = '';
    const { answerSession } = renderWhileSessionLoads();

    // Act
    await user.click(screen.getByRole('button', { name: 'Follow' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    answerSession({ status: 401, body: { message: 'Log in', code: 'UNAUTHORIZED' } });

    // Assess
    expect(await screen.findByRole('dialog', { name: 'Log in to TopPubs' })).toBeInTheDocument();
    expect(document.title).not.toBe('followed');
  });
});

describe('AppLayout inside a frame', () => {
  const realTop = Object.getOwnPropertyDescriptor(window, 'top');
  afterEach(() => {
    if (realTop) Object.defineProperty(window, 'top', realTop);
  });

  it('leaves links alone when the page is not framed', () => {
    // Prepare
    renderShell({ path: '/' });

    // Assess
    expect(screen.getByRole('link', { name: 'TopPubs home' })).not.toHaveAttribute('target');
  });

  it('retargets every link to the parent window, including links added later', async () => {
    // Prepare: window.top is another window, as in an iframe
    Object.defineProperty(window, 'top', { value: {} as Window, configurable: true });
    const user = userEvent.setup();
    renderShell({ path: '/', user: jane });

    // Assess: links rendered with the shell
    expect(screen.getByRole('link', { name: 'TopPubs home' })).toHaveAttribute('target', '_top');
    expect(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Topics' })).toHaveAttribute(
      'target',
      '_top',
    );

    // Act: a menu adds its links to the page after a click
    await user.click(screen.getByRole('button', { name: 'Account menu for jane' }));

    // Assess
    await waitFor(async () =>
      expect(await screen.findByRole('menuitem', { name: 'Active Publications' })).toHaveAttribute('target', '_top'),
    );
    expect(screen.getByRole('menuitem', { name: 'Logout' })).toHaveAttribute('target', '_top');
    // A new-tab link already leaves the frame and keeps opening a new tab.
    expect(screen.getByRole('menuitem', { name: /^Blog/ })).toHaveAttribute('target', '_blank');

    // Act: a plain DOM link appended outside React
    const late = document.createElement('a');
    late.href = '/late';
    late.textContent = 'Late link';
    document.body.append(late);

    // Assess
    await waitFor(() => expect(screen.getByRole('link', { name: 'Late link' })).toHaveAttribute('target', '_top'));
    late.remove();
  });
});
