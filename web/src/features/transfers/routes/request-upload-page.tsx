import { useId, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { APP_NAME } from '@shared/constants';
import { Button } from '../../../components/button';
import { PageMeta } from '../../../components/page-meta';
import { PageSpinner } from '../../../components/spinner';
import { EmptyState, ErrorState, NotFoundState } from '../../../components/state-message';
import { ApiError } from '../../../lib/api-client';
import { formatBytes } from '../../../lib/format-bytes';
import { createRequestUploadFiles } from '../api/create-request-upload-files';
import type { PublicFileRequest, RequestUploadView } from '../api/file-request-keys';
import { finishRequestUpload } from '../api/finish-request-upload';
import { usePublicFileRequest } from '../api/show-file-request';
import { startRequestUpload } from '../api/start-request-upload';
import { FilePicker } from '../components/file-picker';
import { ProgressBar } from '../components/progress-bar';
import { formatDate, plural } from '../lib/format';
import { requestUploadApi } from '../lib/request-upload-api';
import { type RequestUploadDeps, sendRequestUpload } from '../lib/send-request-upload';
import { type PickedFile, pickedKey, type UploadFn } from '../lib/send-transfer';
import { uploadFile } from '../../../lib/uploads/upload-client';
import { xhrTransport } from '../../../lib/uploads/upload-transport';
import fieldStyles from '../../../components/field.module.css';
import pageStyles from '../../../components/page.module.css';
import styles from '../components/transfers.module.css';

/** The API modules, and the upload client the page is given (tests give one that sends nothing). */
const depsWith = (upload: UploadFn): RequestUploadDeps => ({
  start: startRequestUpload,
  createFiles: (uploadId, files) => createRequestUploadFiles(uploadId, files),
  finish: (uploadId) => finishRequestUpload(uploadId),
  upload,
  uploadApi: requestUploadApi,
  transport: xhrTransport,
});

const requesterName = (request: PublicFileRequest) => request.requester.name || `@${request.requester.username}`;

/** The uploader's confirmation: what they sent, and nothing else of the request. */
function DoneScreen({ request, upload }: { request: PublicFileRequest; upload: RequestUploadView }) {
  return (
    <section className={styles.card} aria-labelledby="request-upload-done">
      <h2 id="request-upload-done" className={styles.sectionTitle}>
        Files sent
      </h2>
      <p>
        {requesterName(request)} has your {plural(upload.files.length, 'file')} and has been told. Thank you,{' '}
        {upload.uploaderName}.
      </p>
      <ul className={styles.list} aria-label="Your files">
        {upload.files.map((file) => (
          <li key={file.id} className={styles.item}>
            <span className={styles.itemMain}>
              <span className={styles.itemName}>{file.name}</span>
              <span className={styles.itemMeta}>{formatBytes(file.size)}</span>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function UploadForm({ request, deps }: { request: PublicFileRequest; deps: RequestUploadDeps }) {
  const nameId = useId();
  const noteId = useId();
  const [name, setName] = useState('');
  const [note, setNote] = useState('');
  const [files, setFiles] = useState<PickedFile[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [progress, setProgress] = useState<{ sent: number; total: number } | null>(null);
  const [done, setDone] = useState<RequestUploadView | null>(null);
  const sending = useRef(false);

  if (done) return <DoneScreen request={request} upload={done} />;

  const busy = progress !== null;
  const total = files.reduce((sum, { file }) => sum + file.size, 0);
  const send = async () => {
    if (sending.current) return;
    if (!name.trim()) return setProblem('Enter your name, so they know who sent the files.');
    if (!files.length) return setProblem('Add at least one file.');
    if (total > request.maxUploadBytes) return setProblem(`An upload here holds at most ${formatBytes(request.maxUploadBytes)}.`);
    setProblem(null);
    sending.current = true;
    setProgress({ sent: 0, total });
    try {
      const upload = await sendRequestUpload(
        {
          requestId: request.id,
          name: name.trim(),
          note: note.trim(),
          files,
          onProgress: (sent, all) => setProgress({ sent, total: all }),
        },
        deps,
      );
      setDone(upload);
    } catch (error) {
      setProblem(error instanceof Error && error.message ? error.message : 'The files were not sent. Try again.');
    } finally {
      sending.current = false;
      setProgress(null);
    }
  };

  return (
    <form
      className={styles.card}
      aria-label={`Send files to ${requesterName(request)}`}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      <div className={fieldStyles.field}>
        <label htmlFor={nameId} className={fieldStyles.label}>
          Your name
        </label>
        <input
          id={nameId}
          className={styles.input}
          value={name}
          maxLength={100}
          required
          autoComplete="name"
          disabled={busy}
          onChange={(event) => setName(event.target.value)}
        />
      </div>
      <div className={fieldStyles.field}>
        <label htmlFor={noteId} className={fieldStyles.label}>
          Note (optional)
        </label>
        <textarea
          id={noteId}
          className={styles.textarea}
          value={note}
          maxLength={1_000}
          disabled={busy}
          onChange={(event) => setNote(event.target.value)}
        />
      </div>
      <FilePicker
        files={files}
        disabled={busy}
        onAdd={(added) =>
          setFiles((current) => {
            const known = new Set(current.map((picked) => picked.key));
            const fresh = added.map((file) => ({ key: pickedKey(file), file })).filter((picked) => !known.has(picked.key));
            return [...current, ...fresh];
          })
        }
        onRemove={(key) => setFiles((current) => current.filter((picked) => picked.key !== key))}
      />
      <p className={styles.hint}>
        Up to {formatBytes(request.maxUploadBytes)} per upload. Open until {formatDate(request.expiresAt)}.
      </p>
      {problem ? (
        <p className={pageStyles.alert} role="alert">
          {problem}
        </p>
      ) : null}
      {progress ? (
        <ProgressBar
          label="Uploading"
          fraction={progress.total ? progress.sent / progress.total : 0}
          valueText={`${formatBytes(progress.sent)} of ${formatBytes(progress.total)}`}
        />
      ) : null}
      <Button type="submit" disabled={busy}>
        {busy ? 'Sending…' : 'Send files'}
      </Button>
    </form>
  );
}

/**
 * /transfer/request/:id: the page a file request's link opens. Anyone may send files here with
 * their name and a note, no account needed; closed, expired or full requests say so.
 */
export function RequestUploadPage({ upload = uploadFile }: { upload?: UploadFn }) {
  const { id = '' } = useParams();
  const query = usePublicFileRequest(id);

  let content;
  if (query.isPending) content = <PageSpinner label="Loading the request" />;
  else if (query.isError) {
    const error = query.error;
    if (error instanceof ApiError && error.status === 404)
      content = <NotFoundState title="There is no such file request">Check the link you were given.</NotFoundState>;
    else if (error instanceof ApiError && error.status === 410)
      content = <EmptyState title="This request takes no more files">{error.message}</EmptyState>;
    else content = <ErrorState title="The request could not be loaded" error={error} onRetry={() => void query.refetch()} />;
  } else
    content = (
      <>
        <p className={styles.lede}>{requesterName(query.data)} asks you for files.</p>
        {query.data.message ? <p className={styles.message}>{query.data.message}</p> : null}
        <UploadForm request={query.data} deps={depsWith(upload)} />
      </>
    );

  return (
    <>
      <PageMeta seo={{ title: `${query.data?.title || 'Send files'} · ${APP_NAME}` }} />
      <div className={styles.page}>
        <header className={styles.header}>
          <h1 className={styles.title}>{query.data?.title || 'Send files'}</h1>
        </header>
        {content}
      </div>
    </>
  );
}
