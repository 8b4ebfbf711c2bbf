import type * as z from '@shared/zod';
import type { contactSchema, downloadAllSchema, transferListSchema, TransferView } from '@shared/schemas/transfers';

export type { MemberView, PackageFile, PackageView, TransferSummary, TransferView, Vote } from '@shared/schemas/transfers';
export type { FileView, UploadingFile } from '@shared/schemas/transfers';
export type TransferListPage = z.infer<typeof transferListSchema>;
export type Contact = z.infer<typeof contactSchema>;
export type ZipManifest = z.infer<typeof downloadAllSchema>;
export type PlanLimitsView = TransferView['limits'];

/**
 * Query keys of the transfers feature, all under ['transfers']. Lists and contacts belong to one
 * signed-in person and carry their id; a transfer's views are keyed by the transfer, which the
 * server only shows to its sender and recipients.
 */
export const transferKeys = {
  all: ['transfers'] as const,
  lists: ['transfers', 'list'] as const,
  own: (userId: string) => ['transfers', 'list', 'own', userId] as const,
  received: (userId: string) => ['transfers', 'list', 'received', userId] as const,
  contacts: (userId: string, q: string) => ['transfers', 'contacts', userId, q] as const,
  view: (id: string) => ['transfers', 'view', id] as const,
  /** The sender's download log of a transfer. */
  downloads: (id: string) => ['transfers', 'downloads', id] as const,
  package: (id: string) => ['transfers', 'package', id] as const,
  preview: (fileId: string) => ['transfers', 'preview', fileId] as const,
  resume: (userId: string) => ['transfers', 'resume', userId] as const,
  sender: (userId: string) => ['transfers', 'sender', userId] as const,
  /** The transfer home as one person (or a signed-out visitor) sees it: their plan's limits. */
  home: (userId: string | null) => ['transfers', 'home', userId ?? 'signed-out'] as const,
};
