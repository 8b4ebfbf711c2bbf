import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type ReactNode, useEffect } from 'react';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { routes } from '@shared/routes';
import { deferred, stubApi } from '../../features/account/test-utils/stub-api';
import { ANALYTICS_EVENT_TYPE, type TrackedEvent } from '../../lib/analytics';
import { useLoginModal } from '../../lib/login-modal';
import { RECAPTCHA_UNAVAILABLE_WARNING } from '../../lib/recaptcha';
import { createTestQueryClient } from '../../test/render-shell';
import { type StubReply, type StubResult, stubRoute } from '../../test/stub-routes';
import { AppProviders } from '../providers';
import { LoginModal } from './login-modal';

function OpenOnMount({ children }: { children: ReactNode }) {
  const { open } = useLoginModal();
  useEffect(open, [open]);
  return children;
}

function OpenButton() {
  const { open } = useLoginModal();
  return <button onClick={open}>Open login</button>;
}

type SendAnswer = StubResult<typeof routes.sendLoginEmail>;

const GOOGLE_AUTH_URL = 'https://accounts.google.com/o/oauth2/v2/auth?client_id=abc&state=xyz';
const human = (): StubReply<typeof routes.assessRecaptcha> => ({ body: { riskAnalysis: { score: 0.9, reasons: [] } } });

interface Answers {
  /** The bot check's answer: a human (0.9) by default. */
  assess?: () => StubResult<typeof routes.assessRecaptcha>;
  googleUrl?: () => StubResult<typeof routes.googleLoginUrl>;
}

/** The modal, open, with the send endpoint answering `answer` (sent by default). */
function renderModal(answer: () => SendAnswer = () => ({ body: { sent: true } }), answers: Answers = {}) {
  const api = stubApi(
    stubRoute(routes.sendLoginEmail, () => answer()),
    stubRoute(routes.assessRecaptcha, () => (answers.assess ?? human)()),
    stubRoute(routes.googleLoginUrl, () => (answers.googleUrl ?? (() => ({ body: { url: GOOGLE_AUTH_URL } })))()),
  );
  render(
    <AppProviders queryClient={createTestQueryClient()}>
      <OpenButton />
      <OpenOnMount>
        <LoginModal />
      </OpenOnMount>
    </AppProviders>,
  );
  const sends = () => api.calls(routes.sendLoginEmail);
  const assessments = () => api.calls(routes.assessRecaptcha);
  return { api, sends, assessments, user: userEvent.setup() };
}

/** The first view's Google button. */
const googleButton = () =>
  within(screen.getByRole('dialog', { name: 'Log in to TopPubs' })).getByRole('button', { name: 'Continue with Google' });

/** A page inside a frame: window.top is another window, whose location the test reads. */
function stubTopWindow() {
  const top = { location: { href: 'https://host.example/page' } };
  vi.spyOn(window, 'top', 'get').mockReturnValue(top as unknown as Window);
  return top;
}

async function goToEmailView(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'Continue with email' }));
  return screen.getByRole('dialog', { name: 'Log in with email' });
}

const rateLimited = {
  status: 429,
  body: { message: 'Too many login links. Try again in 5 minutes.', code: 'RATE_LIMITED', retryAfterSeconds: 300 },
};

afterEach(() => {
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  delete window.grecaptcha;
  document.querySelectorAll('script[data-recaptcha]').forEach((script) => script.remove());
});

describe('LoginModal', () => {
  it('first offers Google or email; email leads to an email input and a Send button', async () => {
    // Prepare
    const { user } = renderModal();
    const first = screen.getByRole('dialog', { name: 'Log in to TopPubs' });
    expect(within(first).getByRole('button', { name: 'Continue with Google' })).toBeEnabled();

    // Act
    const dialog = await goToEmailView(user);

    // Assess
    const input = within(dialog).getByRole('textbox', { name: 'Email' });
    expect(input).toHaveAttribute('type', 'email');
    expect(input).toHaveFocus();
    expect(within(dialog).getByRole('button', { name: 'Send' })).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Continue with email' })).not.toBeInTheDocument();
  });

  it("sends the link and shows 'Login link sent to {email}' with Ok and Resend link", async () => {
    // Prepare
    const pending = deferred<StubReply<typeof routes.sendLoginEmail>>();
    const { user, sends } = renderModal(() => pending.promise);
    const dialog = await goToEmailView(user);
    await user.type(within(dialog).getByRole('textbox', { name: 'Email' }), ' jane@example.com ');

    // Act
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));

    // Assess: progress while sending
    const busy = within(dialog).getByRole('button', { name: 'Sending…' });
    expect(busy).toBeDisabled();

    // Act
    pending.resolve({ body: { sent: true } });

    // Assess
    const sent = await screen.findByRole('dialog', { name: 'Login link sent to jane@example.com' });
    expect(sends()).toHaveLength(1);
    expect(sends()[0]?.method).toBe('POST');
    expect(sends()[0]?.url.searchParams.get('email')).toBe('jane@example.com');
    expect(sends()[0]?.body).toEqual({ contextData: { pagePath: '/' } });
    expect(within(sent).getByRole('button', { name: 'Ok' })).toBeInTheDocument();
    expect(within(sent).getByRole('button', { name: 'Resend link' })).toBeInTheDocument();
    expect(within(sent).queryByRole('textbox')).not.toBeInTheDocument();
  });

  it('Resend link sends again to the same address and says so', async () => {
    // Prepare
    const { user, sends } = renderModal();
    const dialog = await goToEmailView(user);
    await user.type(within(dialog).getByRole('textbox', { name: 'Email' }), 'jane@example.com{Enter}');
    const sent = await screen.findByRole('dialog', { name: 'Login link sent to jane@example.com' });

    // Act
    await user.click(within(sent).getByRole('button', { name: 'Resend link' }));

    // Assess
    expect(await within(sent).findByRole('status')).toHaveTextContent('We sent a new link.');
    expect(sends()).toHaveLength(2);
    expect(sends()[1]?.url.searchParams.get('email')).toBe('jane@example.com');
    expect(within(sent).queryByRole('alert')).not.toBeInTheDocument();
  });

  it("Resend link shows the server's message when it answers 429", async () => {
    // Prepare
    let answers = 0;
    const { user, sends } = renderModal(() => ((answers += 1) === 1 ? { body: { sent: true } } : rateLimited));
    const dialog = await goToEmailView(user);
    await user.type(within(dialog).getByRole('textbox', { name: 'Email' }), 'jane@example.com{Enter}');
    const sent = await screen.findByRole('dialog', { name: 'Login link sent to jane@example.com' });

    // Act
    await user.click(within(sent).getByRole('button', { name: 'Resend link' }));

    // Assess
    expect(await within(sent).findByRole('alert')).toHaveTextContent('Too many login links. Try again in 5 minutes.');
    expect(within(sent).queryByText('We sent a new link.')).not.toBeInTheDocument();
    expect(sends()).toHaveLength(2);
  });

  it("stays on the email view with the server's message when the first send answers 429", async () => {
    // Prepare
    const { user } = renderModal(() => rateLimited);
    const dialog = await goToEmailView(user);

    // Act
    await user.type(within(dialog).getByRole('textbox', { name: 'Email' }), 'jane@example.com{Enter}');

    // Assess
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Too many login links. Try again in 5 minutes.');
    expect(screen.getByRole('dialog', { name: 'Log in with email' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Send' })).toBeEnabled();
  });

  it('does not send an address that is not an email', async () => {
    // Prepare
    const { user, sends } = renderModal();
    const dialog = await goToEmailView(user);
    const input = within(dialog).getByRole('textbox', { name: 'Email' });

    // Act: the browser refuses this one
    await user.type(input, 'not-an-email');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));

    // Assess
    expect(sends()).toHaveLength(0);
    expect(screen.getByRole('dialog', { name: 'Log in with email' })).toBeInTheDocument();

    // Act: the browser accepts this one, the simple check does not
    await user.clear(input);
    await user.type(input, 'jane@example');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));

    // Assess
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Enter a valid email address');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(sends()).toHaveLength(0);
  });

  it.each([
    ['a server error', () => ({ status: 500, body: { message: 'Internal error', code: 'INTERNAL' } }), 'server'],
    ['a network failure', () => Promise.reject(new TypeError('Failed to fetch')), 'network'],
  ])('shows the sent view after %s and only tracks it, without the address', async (_case, answer, reason) => {
    // Prepare
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const tracked: TrackedEvent[] = [];
    const listener = (event: Event) => tracked.push((event as CustomEvent<TrackedEvent>).detail);
    window.addEventListener(ANALYTICS_EVENT_TYPE, listener);
    onTestFinished(() => window.removeEventListener(ANALYTICS_EVENT_TYPE, listener));
    const { user, sends } = renderModal(answer as () => SendAnswer);
    const dialog = await goToEmailView(user);

    // Act
    await user.type(within(dialog).getByRole('textbox', { name: 'Email' }), 'jane@example.com{Enter}');

    // Assess
    expect(await screen.findByRole('dialog', { name: 'Login link sent to jane@example.com' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(sends()).toHaveLength(1);
    expect(tracked).toEqual([{ name: 'Login Link Failed', properties: { reason } }]);
    expect(JSON.stringify(tracked)).not.toContain('jane');
    expect(warn).toHaveBeenCalledWith('Sending the login link failed', expect.anything());
  });

  it('tracks nothing when the link is sent', async () => {
    // Prepare
    const tracked: TrackedEvent[] = [];
    const listener = (event: Event) => tracked.push((event as CustomEvent<TrackedEvent>).detail);
    window.addEventListener(ANALYTICS_EVENT_TYPE, listener);
    onTestFinished(() => window.removeEventListener(ANALYTICS_EVENT_TYPE, listener));
    const { user } = renderModal();
    const dialog = await goToEmailView(user);

    // Act
    await user.type(within(dialog).getByRole('textbox', { name: 'Email' }), 'jane@example.com{Enter}');

    // Assess
    expect(await screen.findByRole('dialog', { name: 'Login link sent to jane@example.com' })).toBeInTheDocument();
    expect(tracked.filter((event) => event.name === 'Login Link Failed')).toEqual([]);
  });

  it('Ok closes the modal, and it reopens on the first view', async () => {
    // Prepare
    const { user } = renderModal();
    const dialog = await goToEmailView(user);
    await user.type(within(dialog).getByRole('textbox', { name: 'Email' }), 'jane@example.com{Enter}');

    // Act
    await user.click(await screen.findByRole('button', { name: 'Ok' }));

    // Assess
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    // Act
    await user.click(screen.getByRole('button', { name: 'Open login' }));

    // Assess
    expect(screen.getByRole('dialog', { name: 'Log in to TopPubs' })).toBeInTheDocument();
  });

  it('All login options goes back to the first view from the email view and from the sent view', async () => {
    // Prepare
    const { user } = renderModal();
    let dialog = await goToEmailView(user);

    // Act
    await user.click(within(dialog).getByRole('button', { name: 'All login options' }));

    // Assess
    expect(screen.getByRole('dialog', { name: 'Log in to TopPubs' })).toBeInTheDocument();

    // Prepare
    dialog = await goToEmailView(user);
    await user.type(within(dialog).getByRole('textbox', { name: 'Email' }), 'jane@example.com{Enter}');
    const sent = await screen.findByRole('dialog', { name: 'Login link sent to jane@example.com' });

    // Act
    await user.click(within(sent).getByRole('button', { name: 'All login options' }));

    // Assess
    expect(screen.getByRole('dialog', { name: 'Log in to TopPubs' })).toBeInTheDocument();
  });

  it('closes with Escape and with the Close button, over an overlay at z-index 900', async () => {
    // Prepare
    const { user } = renderModal();
    expect(screen.getByTestId('login-overlay')).toHaveStyle({ zIndex: '900' });

    // Act
    await user.keyboard('{Escape}');

    // Assess
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    // Act
    await user.click(screen.getByRole('button', { name: 'Open login' }));
    await user.click(screen.getByRole('button', { name: 'Close' }));

    // Assess
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  describe('bot check', () => {
    it("assesses a token for 'login' when it opens (the placeholder 'local' without a site key)", async () => {
      // Prepare
      const { assessments } = renderModal();

      // Assess
      await waitFor(() => expect(assessments()).toHaveLength(1));
      expect(assessments()[0]?.method).toBe('POST');
      expect(assessments()[0]?.body).toEqual({ token: 'local', actionName: 'login' });
    });

    it("uses reCAPTCHA Enterprise's token when the site key and the script are present", async () => {
      // Prepare
      vi.stubEnv('VITE_RECAPTCHA_SITE_KEY', 'site-key-1');
      const execute = vi.fn(async () => 'google-token-1');
      window.grecaptcha = { enterprise: { ready: (callback) => callback(), execute } };

      // Act
      const { assessments } = renderModal();

      // Assess
      await waitFor(() => expect(assessments()).toHaveLength(1));
      expect(execute).toHaveBeenCalledWith('site-key-1', { action: 'login' });
      expect(assessments()[0]?.body).toEqual({ token: 'google-token-1', actionName: 'login' });
    });

    it('disables Google and shows the bot notice below 0.5; email stays available', async () => {
      // Prepare
      renderModal(undefined, { assess: () => ({ body: { riskAnalysis: { score: 0.3, reasons: ['AUTOMATION'] } } }) });

      // Assess
      const notice = await screen.findByText(
        "[rcs:0.3] We think you're a bot. If we're wrong, please reach out to us at support@toppubs.example",
      );
      expect(notice).toHaveTextContent(
        /^\[rcs:0\.3\] We think you're a bot\. If we're wrong, please reach out to us at support@toppubs\.example$/,
      );
      expect(googleButton()).toBeDisabled();
      expect(screen.getByRole('button', { name: 'Continue with email' })).toBeEnabled();
    });

    it('keeps Google enabled and shows no notice at 0.9', async () => {
      // Prepare
      const { assessments } = renderModal(undefined, { assess: human });

      // Assess
      await waitFor(() => expect(assessments()).toHaveLength(1));
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(googleButton()).toBeEnabled();
      expect(screen.queryByText(/We think you're a bot/)).not.toBeInTheDocument();
    });

    it('logs a warning and does not block login when the assessment fails', async () => {
      // Prepare
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      const { assessments } = renderModal(undefined, {
        assess: () => ({ status: 503, body: { message: 'Unavailable', code: 'SERVICE_UNAVAILABLE' } }),
      });

      // Assess
      await waitFor(() => expect(warn).toHaveBeenCalledWith(RECAPTCHA_UNAVAILABLE_WARNING, expect.anything()));
      expect(assessments()).toHaveLength(1);
      expect(googleButton()).toBeEnabled();
      expect(screen.queryByText(/We think you're a bot/)).not.toBeInTheDocument();
    });

    it('logs a warning, skips the assessment and does not block login when the script is unavailable', async () => {
      // Prepare
      vi.stubEnv('VITE_RECAPTCHA_SITE_KEY', 'site-key-1');
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      const { assessments } = renderModal();
      const script = await waitFor(() => {
        const found = document.querySelector<HTMLScriptElement>('script[data-recaptcha="enterprise"]');
        if (!found) throw new Error('No reCAPTCHA script tag yet');
        return found;
      });
      expect(script.src).toBe('https://www.google.com/recaptcha/enterprise.js?render=site-key-1');

      // Act: blocked by the network or an extension
      script.dispatchEvent(new Event('error'));

      // Assess
      await waitFor(() => expect(warn).toHaveBeenCalledWith(RECAPTCHA_UNAVAILABLE_WARNING, expect.any(Error)));
      expect(assessments()).toHaveLength(0);
      expect(googleButton()).toBeEnabled();
      expect(screen.queryByText(/We think you're a bot/)).not.toBeInTheDocument();
    });
  });

  describe('Google login', () => {
    it("fetches Google's URL for the current page and sends the top window there", async () => {
      // Prepare
      window.history.pushState({}, '', '/topic/tech?sort=new');
      const top = stubTopWindow();
      const { api, user } = renderModal();

      // Act
      await user.click(googleButton());

      // Assess
      await waitFor(() => expect(top.location.href).toBe(GOOGLE_AUTH_URL));
      const calls = api.calls(routes.googleLoginUrl);
      expect(calls).toHaveLength(1);
      expect(calls[0]?.method).toBe('GET');
      expect(calls[0]?.url.searchParams.get('returnTo')).toBe('/topic/tech?sort=new');
      window.history.pushState({}, '', '/');
    });

    it('checks for a bot again and retries once when the API wants a fresh pass', async () => {
      // Prepare: the pass from opening the modal was spent (or expired) before this click.
      const top = stubTopWindow();
      let googleCalls = 0;
      const { api, assessments, user } = renderModal(undefined, {
        googleUrl: () =>
          (googleCalls += 1) === 1
            ? { status: 403, body: { message: 'We could not confirm that a person is signing in.', code: 'BOT_CHECK_REQUIRED' } }
            : { body: { url: GOOGLE_AUTH_URL } },
      });
      await waitFor(() => expect(assessments()).toHaveLength(1));

      // Act
      await user.click(googleButton());

      // Assess
      await waitFor(() => expect(top.location.href).toBe(GOOGLE_AUTH_URL));
      expect(assessments()).toHaveLength(2);
      expect(api.calls(routes.googleLoginUrl)).toHaveLength(2);
    });

    it('shows a short error and lets the user retry when the URL cannot be had', async () => {
      // Prepare
      vi.spyOn(console, 'warn').mockImplementation(() => {});
      const top = stubTopWindow();
      const { user } = renderModal(undefined, {
        googleUrl: () => ({ status: 503, body: { message: 'Google login is not configured', code: 'SERVICE_UNAVAILABLE' } }),
      });

      // Act
      await user.click(googleButton());

      // Assess
      expect(await screen.findByRole('alert')).toHaveTextContent('Google login could not start.');
      expect(googleButton()).toBeEnabled();
      expect(top.location.href).toBe('https://host.example/page');
    });
  });
});
