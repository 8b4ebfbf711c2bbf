import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import { PLAN_LIMITS } from '@shared/transfers/plans';
import { setMatchMedia } from '../../../test/dom-polyfills';
import { jane, renderShell } from '../../../test/render-shell';
import { type StubAnswer, stubRoute, stubRoutes } from '../../../test/stub-routes';
import type { UploadFn } from '../lib/send-transfer';
import { ANALYTICS_EVENT_TYPE, type TrackedEvent } from '../../../lib/analytics';
import { fakeFile, id, makeFile, makeMember, makeTransfer, makeUploading, makeView } from '../test-utils/fixtures';
import { TransferHomePage } from './transfer-home-page';

const T1 = id('t1');

/** An upload client that reports every byte sent at once and answers the ready file; `log` records each upload. */
function instantUpload(log: string[]): UploadFn {
  return vi.fn<UploadFn>(async ({ file, uploading, onProgress }) => {
    log.push(`upload ${file.name}`);
    onProgress?.({ fileId: uploading.file.id, sentBytes: file.size, totalBytes: file.size, phase: 'sending' });
    return { ...uploading.file, status: 'ready' };
  });
}

function renderHome(
  options: {
    user?: typeof jane | null;
    upload?: UploadFn;
    own?: StubAnswer<typeof routes.listOwnTransfers>;
    view?: StubAnswer<typeof routes.getTransfer>;
    /** The limits of the sender's plan now (Free unless told). */
    limits?: typeof PLAN_LIMITS.free;
    createFiles?: StubAnswer<typeof routes.createFiles>;
    /** Where the API stubs record each call, in order (the upload stand-in may write to it too). */
    log?: string[];
  } = {},
) {
  const log = options.log ?? [];
  const user = options.user === undefined ? jane : options.user;
  const upload = options.upload ?? instantUpload(log);
  let fileNumber = 0;
  const api = stubRoutes(
    stubRoute(routes.listOwnTransfers, options.own ?? { body: { transfers: [], cursor: null } }),
    stubRoute(routes.showTransferHome, {
      body: {
        seo: { title: 'Send files', description: '', keywords: [], imageUrl: '' },
        limits: options.limits ?? PLAN_LIMITS.free,
        signedIn: user !== null,
        sent: [],
        received: [],
        draft: null,
      },
    }),
    stubRoute(routes.getTransfer, options.view ?? { status: 404, body: { message: 'No such transfer', code: 'NOT_FOUND' } }),
    stubRoute(routes.listContacts, {
      body: {
        contacts: [
          { email: 'ana@example.com', name: 'Ana Lima', lastSentAt: '2026-02-20T10:00:00.000Z' },
          { email: 'bo@example.com', name: null, lastSentAt: '2026-02-10T10:00:00.000Z' },
        ],
      },
    }),
    stubRoute(routes.createTransfer, (request) => {
      log.push('create');
      const body = request.body as { title: string; message: string; expiresInDays: number; password?: string };
      return {
        status: 201,
        body: makeTransfer(T1, {
          title: body.title,
          message: body.message,
          ...(body.password ? { passwordProtected: true } : {}),
        }),
      };
    }),
    stubRoute(routes.addRecipient, (request) => {
      const { email } = request.body as { email: string };
      log.push(`addRecipient ${email}`);
      return { body: { member: makeMember(email) } };
    }),
    stubRoute(
      routes.createFiles,
      options.createFiles ??
        ((request) => {
          const body = request.body as { files: { name: string; size: number }[] };
          log.push(`files ${body.files.map((file) => file.name).join(',')}`);
          return {
            body: {
              files: body.files.map((file) =>
                makeUploading(makeFile(id(`f${(fileNumber += 1)}`), { name: file.name, size: file.size })),
              ),
            },
          };
        }),
    ),
    stubRoute(routes.finalizeTransfer, () => {
      log.push('finalize');
      return {
        body: {
          ...makeTransfer(T1, { status: 'sent', fileCount: 2, recipientCount: 1, finalizedAt: '2026-03-01T10:02:00.000Z' }),
          link: null,
        },
      };
    }),
    stubRoute(routes.recordFinalizeTiming, (request) => {
      log.push(`timing ${typeof (request.body as { elapsedMs: unknown }).elapsedMs}`);
      return { body: makeTransfer(T1, { status: 'sent', sendTimingMs: 1 }) };
    }),
    stubRoute(routes.setTransferPassword, (request) => {
      const { password } = request.body as { password: string | null };
      log.push(`password ${password === null ? 'removed' : 'set'}`);
      return { body: makeTransfer(request.params.id ?? T1, password === null ? {} : { passwordProtected: true }) };
    }),
    stubRoute(routes.abortUpload, (request) => {
      log.push(`abort ${request.params.id}`);
      return { body: { file: makeFile(request.params.id ?? '') } };
    }),
    stubRoute(routes.getMe, user ? { body: user } : { status: 401, body: { message: 'Log in', code: 'UNAUTHORIZED' } }),
    stubRoute(routes.assessRecaptcha, { body: { riskAnalysis: { score: 0.9, reasons: [] } } }),
  );
  const events: TrackedEvent[] = [];
  const listener = (event: Event) => events.push((event as CustomEvent<TrackedEvent>).detail);
  window.addEventListener(ANALYTICS_EVENT_TYPE, listener);
  cleanups.push(() => window.removeEventListener(ANALYTICS_EVENT_TYPE, listener));
  const rendered = renderShell({
    path: '/transfer',
    user,
    pages: [{ path: 'transfer', element: <TransferHomePage upload={upload} /> }],
  });
  return { ...rendered, api, log, events, upload, user: userEvent.setup(), page: within(screen.getByRole('main')) };
}

const cleanups: (() => void)[] = [];

afterEach(() => {
  cleanups.splice(0).forEach((cleanup) => cleanup());
  vi.unstubAllGlobals();
});

async function addRecipient(user: ReturnType<typeof userEvent.setup>, page: ReturnType<typeof within>, email: string) {
  await user.type(page.getByRole('combobox', { name: 'Recipient email' }), `${email}{Enter}`);
}

describe('TransferHomePage', () => {
  it('asks a visitor to log in, with a word on what it does', async () => {
    // Prepare
    const { user, page } = renderHome({ user: null });
    const login = await page.findByRole('button', { name: 'Log in' });
    expect(page.getByRole('heading', { name: 'Send big files, simply' })).toBeInTheDocument();

    // Act
    await user.click(login);

    // Assess
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
  });

  it("offers a Pro sender Pro's expiry the moment they subscribe, before they have sent anything", async () => {
    // Prepare
    const { page } = renderHome({ limits: PLAN_LIMITS.pro });

    // Act
    const expiry = await page.findByRole('combobox', { name: 'Expires after' });

    // Assess
    await waitFor(() => expect(within(expiry).getAllByRole('option')).toHaveLength(PLAN_LIMITS.pro.maxExpiryDays));
  });

  it('lets a Pro sender protect the transfer with a password, which goes with the new draft', async () => {
    // Prepare
    const { user, page, api } = renderHome({ limits: PLAN_LIMITS.pro });
    await user.upload(await page.findByLabelText('Add files'), [fakeFile('a.txt', 1_000)]);
    await addRecipient(user, page, 'ana@example.com');

    // Act
    await user.type(page.getByLabelText('Password (optional)'), 'correct horse');
    await user.click(page.getByRole('button', { name: 'Send' }));

    // Assess
    expect(await page.findByRole('heading', { name: 'Sent' })).toBeInTheDocument();
    expect(api.calls(routes.createTransfer)[0]?.body).toEqual({
      title: '',
      message: '',
      expiresInDays: 7,
      delivery: 'email',
      password: 'correct horse',
    });
  });

  it('shows a Free sender that passwords come with Pro, and no password field', async () => {
    // Prepare
    const { page } = renderHome();

    // Act
    const note = await page.findByRole('note', { name: 'Password protection' });

    // Assess
    expect(note).toHaveTextContent('Protect a transfer with a password with Pro');
    expect(within(note).getByRole('link', { name: 'See Pro' })).toHaveAttribute('href', '/upgrades');
    expect(page.queryByLabelText('Password (optional)')).not.toBeInTheDocument();
  });

  it('offers a Free sender at most 7 days', async () => {
    // Prepare
    const { page } = renderHome();

    // Act
    const expiry = await page.findByRole('combobox', { name: 'Expires after' });

    // Assess
    await waitFor(() => expect(within(expiry).getAllByRole('option')).toHaveLength(PLAN_LIMITS.free.maxExpiryDays));
  });

  it('lists the files added with their sizes and removes one', async () => {
    // Prepare
    const { user, page } = renderHome();

    // Act
    await user.upload(await page.findByLabelText('Add files'), [fakeFile('report.pdf', 1_500_000), fakeFile('photo.jpg', 2_400)]);

    // Assess
    const list = page.getByRole('list', { name: 'Files to send' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['report.pdf1.5 MB', 'photo.jpg2.4 kB']);

    // Act
    await user.click(page.getByRole('button', { name: 'Remove report.pdf' }));

    // Assess
    expect(within(page.getByRole('list', { name: 'Files to send' })).getAllByRole('listitem')).toHaveLength(1);
    expect(page.queryByText('report.pdf')).not.toBeInTheDocument();
  });

  it('adds files dropped on the drop zone, and refuses programs', async () => {
    // Prepare
    const { page } = renderHome();
    const zone = await page.findByRole('group', { name: 'Drop files here' });
    const { fireEvent } = await import('@testing-library/react');

    // Act
    fireEvent.drop(zone, { dataTransfer: { files: [fakeFile('notes.txt', 10), fakeFile('setup.exe', 10)], types: ['Files'] } });

    // Assess
    expect(within(page.getByRole('list', { name: 'Files to send' })).getByText('notes.txt')).toBeInTheDocument();
    expect(page.getByRole('alert')).toHaveTextContent('setup.exe: programs and installers cannot be sent.');
  });

  it('adds typed recipients, says when an address is wrong, and removes one', async () => {
    // Prepare
    const { user, page } = renderHome();

    // Act
    await addRecipient(user, page, 'ana@example.com');
    await addRecipient(user, page, 'not-an-address');

    // Assess
    expect(within(page.getByRole('list', { name: 'Recipients' })).getByText('ana@example.com')).toBeInTheDocument();
    expect(page.getByRole('alert')).toHaveTextContent('“not-an-address” is not an email address.');

    // Act
    await user.click(page.getByRole('button', { name: 'Remove ana@example.com' }));

    // Assess
    expect(page.queryByRole('list', { name: 'Recipients' })).not.toBeInTheDocument();
  });

  it('suggests contacts as the sender types and adds the one chosen', async () => {
    // Prepare
    const { user, page, events, api } = renderHome();
    const field = await page.findByRole('combobox', { name: 'Recipient email' });

    // Act
    await user.type(field, 'a');
    await waitFor(() =>
      expect(api.calls(routes.listContacts).map((request) => request.url.searchParams.get('q'))).toContain('a'),
    );
    await user.click(await page.findByRole('option', { name: /Ana Lima/ }));

    // Assess
    expect(within(page.getByRole('list', { name: 'Recipients' })).getByText('ana@example.com')).toBeInTheDocument();
    expect(field).toHaveValue('');
    expect(events.map((event) => event.name)).toContain('Contacts Used');
  });

  it('offers Pro and disables Send once the files pass the free 2 GB', async () => {
    // Prepare
    const { user, page, events } = renderHome();

    // Act
    await user.upload(await page.findByLabelText('Add files'), [
      fakeFile('film.mov', 1_600_000_000),
      fakeFile('cut.mov', 900_000_000),
    ]);

    // Assess
    expect(page.getByText(/These files come to 2.5 GB/)).toBeInTheDocument();
    expect(page.getByRole('link', { name: 'Pro sends up to 200 GB' })).toBeInTheDocument();
    expect(page.getByRole('button', { name: 'Send' })).toBeDisabled();
    expect(events.filter((event) => event.name === 'Pro Upsell Shown')).toHaveLength(1);

    // Act
    await user.click(page.getByRole('button', { name: 'Remove film.mov' }));

    // Assess
    expect(page.queryByRole('link', { name: 'Pro sends up to 200 GB' })).not.toBeInTheDocument();
    expect(page.getByRole('button', { name: 'Send' })).toBeEnabled();
  });

  it('reports a click on the Pro offer', async () => {
    // Prepare
    const { user, page, events } = renderHome();
    await user.upload(await page.findByLabelText('Add files'), [fakeFile('film.mov', 2_100_000_000)]);

    // Act
    await user.click(page.getByRole('link', { name: 'Pro sends up to 200 GB' }));

    // Assess
    expect(events.map((event) => event.name)).toContain('Pro Upsell Clicked');
  });

  it('sends: creates the transfer, adds the recipients, creates the files, uploads them, finalizes, then shows Sent', async () => {
    // Prepare: the first upload stops half way until the test lets it go on
    const log: string[] = [];
    let release!: () => void;
    const halfway = new Promise<void>((resolve) => {
      release = resolve;
    });
    const upload = vi.fn<UploadFn>(async ({ file, uploading, onProgress }) => {
      log.push(`upload ${file.name}`);
      if (file.name === 'a.txt') {
        onProgress?.({ fileId: uploading.file.id, sentBytes: 500, totalBytes: 1_000, phase: 'sending' });
        await halfway;
      }
      onProgress?.({ fileId: uploading.file.id, sentBytes: file.size, totalBytes: file.size, phase: 'sending' });
      return { ...uploading.file, status: 'ready' };
    });
    const rendered = renderHome({ upload, log });
    const { user, page, events } = rendered;
    await user.upload(await page.findByLabelText('Add files'), [fakeFile('a.txt', 1_000), fakeFile('b.txt', 1_000)]);
    await addRecipient(user, page, 'ana@example.com');
    await user.type(page.getByRole('textbox', { name: 'Title' }), 'Drafts');

    // Act
    await user.click(page.getByRole('button', { name: 'Send' }));

    // Assess: the whole transfer's bar and each file's
    const total = await page.findByRole('progressbar', { name: 'Transfer progress' });
    await waitFor(() => expect(total).toHaveAttribute('aria-valuenow', '75'));
    expect(page.getByRole('progressbar', { name: 'Upload of a.txt' })).toHaveAttribute('aria-valuenow', '50');
    expect(page.getByRole('progressbar', { name: 'Upload of b.txt' })).toHaveAttribute('aria-valuenow', '100');

    // Act
    release();

    // Assess
    expect(await page.findByRole('heading', { name: 'Sent' })).toBeInTheDocument();
    expect(page.getByRole('textbox', { name: 'Package link' })).toHaveValue(`${window.location.origin}/transfer/${T1}/package`);
    expect(log).toEqual([
      'create',
      'addRecipient ana@example.com',
      'files a.txt,b.txt',
      'upload a.txt',
      'upload b.txt',
      'finalize',
      'timing number',
    ]);
    expect(rendered.api.calls(routes.createTransfer)[0]?.body).toEqual({
      title: 'Drafts',
      message: '',
      expiresInDays: 7,
      delivery: 'email',
    });
    expect(rendered.api.calls(routes.createFiles)[0]?.body).toMatchObject({
      transferId: T1,
      files: [
        { name: 'a.txt', size: 1_000 },
        { name: 'b.txt', size: 1_000 },
      ],
    });
    expect(events.filter((event) => event.name !== 'Page Viewed')).toEqual([
      { name: 'Transfer Form Opened', properties: {} },
      { name: 'Transfer Files Added', properties: { files: 2, bytes: 2_000 } },
      { name: 'Transfer Send Clicked', properties: { files: 2, recipients: 1 } },
      { name: 'Transfer Finalized', properties: { elapsedMs: expect.any(Number) as number } },
    ]);
  });

  /** An upload that reports half of its file sent and waits there until the test lets it go. */
  function halfwayUpload() {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const upload = vi.fn<UploadFn>(async ({ file, uploading, onProgress }) => {
      onProgress?.({ fileId: uploading.file.id, sentBytes: file.size / 2, totalBytes: file.size, phase: 'sending' });
      await held;
      return { ...uploading.file, status: 'ready' };
    });
    return { upload, release: () => release() };
  }

  it('brings the overall progress into view and focus when Send is pressed, and announces how far it is', async () => {
    // Prepare
    const scrolled = vi.spyOn(Element.prototype, 'scrollIntoView');
    cleanups.push(() => scrolled.mockRestore());
    const { upload, release } = halfwayUpload();
    cleanups.push(release);
    const { user, page } = renderHome({ upload });
    await user.upload(await page.findByLabelText('Add files'), [fakeFile('a.txt', 1_000)]);
    await addRecipient(user, page, 'ana@example.com');

    // Act
    await user.click(page.getByRole('button', { name: 'Send' }));

    // Assess
    const sending = await page.findByRole('region', { name: 'Sending' });
    expect(sending).toHaveFocus();
    expect(within(sending).getByRole('progressbar', { name: 'Transfer progress' })).toBeInTheDocument();
    expect(scrolled.mock.contexts).toContain(sending);
    expect(scrolled).toHaveBeenCalledWith({ behavior: 'smooth', block: 'start' });
    await waitFor(() => expect(within(sending).getByRole('status')).toHaveTextContent('Uploading: 50% sent'));
  });

  it('jumps to the overall progress without a smooth scroll for a visitor who asks for reduced motion', async () => {
    // Prepare
    setMatchMedia((query) => query === '(prefers-reduced-motion: reduce)');
    const scrolled = vi.spyOn(Element.prototype, 'scrollIntoView');
    cleanups.push(() => scrolled.mockRestore());
    const { upload, release } = halfwayUpload();
    cleanups.push(release);
    const { user, page } = renderHome({ upload });
    await user.upload(await page.findByLabelText('Add files'), [fakeFile('a.txt', 1_000)]);
    await addRecipient(user, page, 'ana@example.com');

    // Act
    await user.click(page.getByRole('button', { name: 'Send' }));

    // Assess
    const sending = await page.findByRole('region', { name: 'Sending' });
    expect(sending).toHaveFocus();
    expect(scrolled).toHaveBeenCalledWith({ behavior: 'auto', block: 'start' });
    expect(scrolled).not.toHaveBeenCalledWith(expect.objectContaining({ behavior: 'smooth' }));
  });

  it('shows what the server refused, keeps the files, and carries on from there on the next Send', async () => {
    // Prepare
    let refuse = true;
    const rendered = renderHome({
      createFiles: (request) => {
        if (refuse) return { status: 400, body: { message: 'That transfer is over its plan’s 2 GB.', code: 'BAD_REQUEST' } };
        const body = request.body as { files: { name: string; size: number }[] };
        return { body: { files: body.files.map((file, index) => makeUploading(makeFile(id(`g${index}`), { ...file }))) } };
      },
    });
    const { user, page, api } = rendered;
    await user.upload(await page.findByLabelText('Add files'), [fakeFile('a.txt', 1_000)]);
    await addRecipient(user, page, 'ana@example.com');

    // Act
    await user.click(page.getByRole('button', { name: 'Send' }));

    // Assess
    expect(await page.findByRole('alert')).toHaveTextContent('That transfer is over its plan’s 2 GB.');
    expect(within(page.getByRole('list', { name: 'Files to send' })).getByText('a.txt')).toBeInTheDocument();
    expect(within(page.getByRole('list', { name: 'Recipients' })).getByText('ana@example.com')).toBeInTheDocument();

    // Act
    refuse = false;
    await user.click(page.getByRole('button', { name: 'Send' }));

    // Assess: the same draft and recipient, not new ones
    expect(await page.findByRole('heading', { name: 'Sent' })).toBeInTheDocument();
    expect(api.calls(routes.createTransfer)).toHaveLength(1);
    expect(api.calls(routes.addRecipient)).toHaveLength(1);
  });

  it('offers to resume an unfinished draft and uploads only the files still pending', async () => {
    // Prepare: the draft holds one ready file and one multipart file whose upload stopped
    const draft = makeTransfer(id('draft1'), { title: 'Big film', fileCount: 2 });
    const pending = makeFile(id('pend1'), {
      transferId: draft.id,
      name: 'film.mov',
      size: 40_000_000,
      status: 'pending',
      uploadMethod: 'multipart',
      lastModified: 1_700_000_000_000,
      readyAt: null,
    });
    const done = makeFile(id('done1'), { transferId: draft.id, name: 'poster.png', size: 2_000 });
    const log: string[] = [];
    const upload = instantUpload(log);
    const { user, page, api } = renderHome({
      upload,
      own: { body: { transfers: [draft], cursor: null } },
      view: makeViewAnswer(draft, [pending, done]),
    });

    // Act
    await user.click(await page.findByRole('button', { name: 'Resume the transfer you started' }));
    await user.upload(page.getByLabelText('Add files'), [fakeFile('film.mov', 40_000_000, { lastModified: 1_700_000_000_000 })]);
    await user.click(page.getByRole('button', { name: 'Send' }));

    // Assess
    expect(await page.findByRole('heading', { name: 'Sent' })).toBeInTheDocument();
    expect(api.calls(routes.createTransfer)).toHaveLength(0);
    expect(api.calls(routes.createFiles)).toHaveLength(0);
    expect(api.calls(routes.addRecipient)).toHaveLength(0);
    expect(vi.mocked(upload).mock.calls[0]?.[0].uploading).toMatchObject({
      file: { id: pending.id },
      upload: { method: 'multipart' },
    });
    expect(api.calls(routes.finalizeTransfer)[0]?.params).toEqual({ id: draft.id });
  });
});

describe('resuming a password-protected draft', () => {
  const draft = makeTransfer(id('locked1'), { title: 'Contracts', fileCount: 1, passwordProtected: true });
  const pending = makeFile(id('pend2'), {
    transferId: draft.id,
    name: 'contract.pdf',
    size: 3_000,
    status: 'pending',
    lastModified: 1_700_000_000_000,
    readyAt: null,
  });

  /** Resumes the draft as a Pro sender and picks its waiting file again. */
  async function resume() {
    const rendered = renderHome({
      limits: PLAN_LIMITS.pro,
      own: { body: { transfers: [draft], cursor: null } },
      view: makeViewAnswer(draft, [pending]),
    });
    const { user, page } = rendered;
    await user.click(await page.findByRole('button', { name: 'Resume the transfer you started' }));
    await user.upload(page.getByLabelText('Add files'), [fakeFile('contract.pdf', 3_000, { lastModified: 1_700_000_000_000 })]);
    return rendered;
  }

  it('says it has a password and keeps it when the sender leaves it alone', async () => {
    // Prepare
    const { user, page, api } = await resume();
    const password = page.getByRole('group', { name: 'Password' });
    expect(password).toHaveAccessibleDescription(
      'This transfer is protected by a password. It keeps it unless you type a new one or remove it.',
    );

    // Act
    await user.click(page.getByRole('button', { name: 'Send' }));

    // Assess
    expect(await page.findByRole('heading', { name: 'Sent' })).toBeInTheDocument();
    expect(api.calls(routes.setTransferPassword)).toEqual([]);
  });

  it('changes it to the one typed before the draft is sent', async () => {
    // Prepare
    const { user, page, api, log } = await resume();
    await user.type(page.getByLabelText('New password (optional)'), 'new-secret-42');

    // Act
    await user.click(page.getByRole('button', { name: 'Send' }));

    // Assess
    expect(await page.findByRole('heading', { name: 'Sent' })).toBeInTheDocument();
    expect(api.calls(routes.setTransferPassword).map((call) => [call.params.id, call.body])).toEqual([
      [draft.id, { password: 'new-secret-42' }],
    ]);
    expect(log.indexOf('password set')).toBeLessThan(log.indexOf('finalize'));
  });

  it('removes it when the sender asks, and says so before the send', async () => {
    // Prepare
    const { user, page, api, log } = await resume();

    // Act
    await user.click(page.getByRole('checkbox', { name: 'Remove the password' }));

    // Assess
    expect(page.getByRole('group', { name: 'Password' })).toHaveAccessibleDescription(
      'The password is removed when you send: anyone the transfer reaches opens it without one.',
    );
    expect(page.getByLabelText('New password (optional)')).toBeDisabled();

    // Act
    await user.click(page.getByRole('button', { name: 'Send' }));

    // Assess
    expect(await page.findByRole('heading', { name: 'Sent' })).toBeInTheDocument();
    expect(api.calls(routes.setTransferPassword).map((call) => call.body)).toEqual([{ password: null }]);
    expect(log.indexOf('password removed')).toBeLessThan(log.indexOf('finalize'));
  });

  it('removes the password a failed try set when the sender clears it before trying again', async () => {
    // Prepare: a new transfer with a password, whose first send fails after the draft was made
    const log: string[] = [];
    const upload = vi.fn<UploadFn>().mockRejectedValueOnce(new Error('The connection dropped.'));
    upload.mockImplementation(instantUpload(log));
    const { user, page, api } = renderHome({ limits: PLAN_LIMITS.pro, upload, log });
    await user.upload(await page.findByLabelText('Add files'), [fakeFile('a.txt', 1_000)]);
    await addRecipient(user, page, 'ana@example.com');
    await user.type(page.getByLabelText('Password (optional)'), 'first-secret');
    await user.click(page.getByRole('button', { name: 'Send' }));
    expect(await page.findByRole('alert')).toHaveTextContent('The connection dropped.');

    // Act
    await user.clear(page.getByLabelText('Password (optional)'));
    await user.click(page.getByRole('button', { name: 'Send' }));

    // Assess
    expect(await page.findByRole('heading', { name: 'Sent' })).toBeInTheDocument();
    expect(api.calls(routes.createTransfer)[0]?.body).toMatchObject({ password: 'first-secret' });
    expect(api.calls(routes.setTransferPassword).map((call) => call.body)).toEqual([{ password: null }]);
  });
});

function makeViewAnswer(draft: ReturnType<typeof makeTransfer>, files: ReturnType<typeof makeFile>[]) {
  return {
    body: makeView(draft, {
      files: files.map((file) => ({ ...file, likes: 0, dislikes: 0, myVote: null })),
      members: [makeMember('ana@example.com')],
    }),
  };
}
