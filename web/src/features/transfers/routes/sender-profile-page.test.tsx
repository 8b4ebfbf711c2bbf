import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import { renderShell } from '../../../test/render-shell';
import { type StubAnswer, stubRoute, stubRoutes } from '../../../test/stub-routes';
import { SenderProfilePage } from './sender-profile-page';

const ana = {
  seo: {
    title: 'Ana Lima on TopPubs Transfer',
    description: 'Ana Lima sends files with TopPubs Transfer.',
    keywords: ['file transfer', 'Ana Lima'],
    imageUrl: 'https://toppubs.example/og.png',
  },
  person: { userId: 'u-ana', username: 'ana', name: 'Ana Lima', imageUrl: null },
  memberSince: '2024-03-15T12:00:00.000Z',
};

function renderSender(options: { path?: string; profile?: StubAnswer<typeof routes.showSenderProfile> } = {}) {
  const api = stubRoutes(stubRoute(routes.showSenderProfile, options.profile ?? { body: ana }));
  const rendered = renderShell({
    path: options.path ?? '/transfers/people/u-ana',
    // A public page: nobody signed in.
    user: null,
    pages: [{ path: 'transfers/people/:userId', Component: SenderProfilePage }],
  });
  return { ...rendered, api, user: userEvent.setup(), page: within(screen.getByRole('main')) };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('SenderProfilePage', () => {
  it('shows the name, the username linking to the profile, the month they started, and the call to send files', async () => {
    // Prepare
    const { page, api } = renderSender();

    // Assess
    const card = within(await page.findByRole('region', { name: 'Ana Lima' }));
    expect(card.getByRole('heading', { name: 'Ana Lima', level: 1 })).toBeInTheDocument();
    expect(card.getByRole('link', { name: '@ana' })).toHaveAttribute('href', '/@ana');
    expect(card.getByText(/Sending files with us since/)).toHaveTextContent('Sending files with us since March 2024');
    expect(card.getByText('March 2024')).toHaveAttribute('datetime', ana.memberSince);
    expect(card.getByText('AL')).toBeInTheDocument();
    expect(card.getByRole('link', { name: 'Send files' })).toHaveAttribute('href', '/transfer');
    expect(api.calls(routes.showSenderProfile, { userId: 'u-ana' })).toHaveLength(1);
  });

  it('takes the title and the description from the answer', async () => {
    // Prepare
    const { page } = renderSender();
    await page.findByRole('heading', { name: 'Ana Lima', level: 1 });

    // Assess
    await waitFor(() => expect(document.title).toBe('Ana Lima on TopPubs Transfer'));
    expect(document.querySelector('meta[name="description"]')).toHaveAttribute(
      'content',
      'Ana Lima sends files with TopPubs Transfer.',
    );
  });

  it('shows the picture when the sender has one, and the username when they have no name', async () => {
    // Prepare
    const { page } = renderSender({
      profile: { body: { ...ana, person: { ...ana.person, name: '', imageUrl: 'https://img.example/ana.png' } } },
    });

    // Assess
    expect(await page.findByRole('heading', { name: '@ana', level: 1 })).toBeInTheDocument();
    expect(page.getByRole('link', { name: '@ana' })).toHaveAttribute('href', '/@ana');
    expect(document.querySelector('main img[src="https://img.example/ana.png"]')).toHaveAttribute('alt', '');
  });

  it('says there is no such person on a 404', async () => {
    // Prepare
    const { page } = renderSender({
      path: '/transfers/people/u-ghost',
      profile: { status: 404, body: { message: 'There is no such user.', code: 'NOT_FOUND' } },
    });

    // Assess
    expect(await page.findByRole('heading', { name: 'There is no such person.', level: 1 })).toBeInTheDocument();
    expect(page.getByRole('link', { name: 'Send files' })).toHaveAttribute('href', '/transfer');
    expect(page.queryByRole('region')).not.toBeInTheDocument();
  });

  it("shows the server's error with Retry for other failures, and loads again", async () => {
    // Prepare
    let fail = true;
    const { page, user } = renderSender({
      profile: () => (fail ? { status: 503, body: { message: 'The service is busy.', code: 'UNAVAILABLE' } } : { body: ana }),
    });
    expect(await page.findByRole('alert')).toHaveTextContent('The service is busy.');

    // Act
    fail = false;
    await user.click(page.getByRole('button', { name: 'Retry' }));

    // Assess
    expect(await page.findByRole('heading', { name: 'Ana Lima', level: 1 })).toBeInTheDocument();
  });
});
