import { PLAN_LIMITS } from '@shared/transfers/plans';
import type {
  FileView,
  MemberView,
  PackageFile,
  PackageView,
  TransferSummary,
  TransferView,
  UploadingFile,
} from '../api/transfer-keys';

/** The sender in the tests (the shell's signed-in Jane). */
export const janePerson = { userId: 'user-jane', username: 'jane', name: 'Jane Doe', imageUrl: null };

/** Ids the routes accept: 10 to 40 characters of base64url. */
export const id = (name: string) => `${name}`.padEnd(12, '0');

export const makeTransfer = (transferId: string, overrides: Partial<TransferSummary> = {}): TransferSummary => ({
  id: transferId,
  title: 'Holiday photos',
  message: 'Here they are.',
  status: 'draft',
  owner: janePerson,
  createdAt: '2026-03-01T10:00:00.000Z',
  finalizedAt: null,
  expiresAt: '2026-03-08T10:00:00.000Z',
  expired: false,
  fileCount: 0,
  totalBytes: 0,
  recipientCount: 0,
  sendTimingMs: null,
  delivery: 'email',
  downloadLimit: null,
  downloadCount: 0,
  previewCount: 0,
  ...overrides,
});

export const makeFile = (fileId: string, overrides: Partial<FileView> = {}): FileView => ({
  id: fileId,
  purpose: 'transfer',
  transferId: id('t1'),
  name: `${fileId}.bin`,
  size: 1_000,
  type: 'application/octet-stream',
  status: 'ready',
  uploadMethod: 'post',
  lastModified: 1_700_000_000_000,
  checksum: null,
  createdAt: '2026-03-01T10:00:00.000Z',
  readyAt: '2026-03-01T10:01:00.000Z',
  ...overrides,
});

export const makePackageFile = (fileId: string, overrides: Partial<PackageFile> = {}): PackageFile => ({
  ...makeFile(fileId),
  likes: 0,
  dislikes: 0,
  myVote: null,
  ...overrides,
});

/** A pending file's record with a presigned POST, as createFiles answers it. */
export const makeUploading = (file: FileView): UploadingFile => ({
  file: { ...file, status: 'pending', readyAt: null },
  upload: { method: 'post', url: 'https://bucket.example.com/', fields: { key: file.id }, expiresAt: '2026-03-01T11:00:00.000Z' },
});

export const makeMember = (email: string, overrides: Partial<MemberView> = {}): MemberView => ({
  email,
  userId: null,
  name: null,
  addedAt: '2026-03-01T10:00:00.000Z',
  notifiedAt: '2026-03-01T10:05:00.000Z',
  firstDownloadAt: null,
  downloads: [],
  ...overrides,
});

export const makeView = (transfer: TransferSummary, overrides: Partial<TransferView> = {}): TransferView => ({
  transfer,
  files: [],
  members: [],
  limits: PLAN_LIMITS.free,
  ...overrides,
});

export const makePackage = (
  transfer: TransferSummary,
  files: PackageFile[],
  overrides: Partial<PackageView> = {},
): PackageView => ({
  transfer,
  files,
  isOwner: false,
  ...overrides,
});

/** A File of `size` bytes without holding them: jsdom's File is given the size the test needs. */
export function fakeFile(name: string, size: number, options: { type?: string; lastModified?: number } = {}): File {
  const file = new File(['x'], name, {
    type: options.type ?? 'application/octet-stream',
    lastModified: options.lastModified ?? 1_700_000_000_000,
  });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}
