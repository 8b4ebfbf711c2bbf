import {
  acceptInviteBodySchema,
  addRecipientBodySchema,
  contactsQuerySchema,
  contactsSchema,
  createTransferBodySchema,
  dislikeParamsSchema,
  downloadAllSchema,
  finalizeTimingBodySchema,
  likeParamsSchema,
  memberAnswerSchema,
  membersSchema,
  myVotesSchema,
  packageViewSchema,
  transferIdParamsSchema,
  transferListQuerySchema,
  transferListSchema,
  transferSummarySchema,
  transferViewSchema,
  voteAnswerSchema,
} from '../schemas/transfers';
import { defineRoute } from './define-route';

const NOT_YOURS = '404 for anyone else, as for a transfer that does not exist';

export const getTransfer = defineRoute({
  method: 'GET',
  path: '/api/i/transfer/transfer/{id}/v',
  access: 'user',
  handler: 'transfers/get-transfer',
  summary: `The sender's view of their transfer: its files (with votes), its recipients and what each downloaded when, and the plan's limits. ${NOT_YOURS}.`,
  params: transferIdParamsSchema,
  response: transferViewSchema,
});

export const getTransferPackage = defineRoute({
  method: 'GET',
  path: '/api/i/transfer/transfer/{id}/v/package',
  access: 'user',
  handler: 'transfers/get-transfer-package',
  summary: `A sent transfer's package as its recipients see it: ready files with like and dislike counts and the caller's votes. For recipients and the sender; ${NOT_YOURS}. 410 with the date once it has expired.`,
  params: transferIdParamsSchema,
  response: packageViewSchema,
});

export const listContacts = defineRoute({
  method: 'GET',
  path: '/api/i/transfer/transfers/contacts',
  access: 'user',
  handler: 'transfers/list-contacts',
  summary:
    'The people the caller has sent to, most recent first (at most 20), optionally those whose address or name starts with `q`.',
  query: contactsQuerySchema,
  response: contactsSchema,
});

export const listOwnTransfers = defineRoute({
  method: 'GET',
  path: '/api/i/transfer/transfers/for_owner',
  access: 'user',
  handler: 'transfers/list-own-transfers',
  summary: "The caller's transfers, newest first, 20 a page (`cursor` for the next page), drafts and expired ones included.",
  query: transferListQuerySchema,
  response: transferListSchema,
});

export const listReceivedTransfers = defineRoute({
  method: 'GET',
  path: '/api/i/transfer/transfers/for_member',
  access: 'user',
  handler: 'transfers/list-received-transfers',
  summary: 'The sent transfers the caller is a recipient of, newest first, 20 a page (`cursor` for the next page).',
  query: transferListQuerySchema,
  response: transferListSchema,
});

export const listTransferMembers = defineRoute({
  method: 'GET',
  path: '/api/i/transfer/transfer/{id}/v/owner/members',
  access: 'user',
  handler: 'transfers/list-transfer-members',
  summary: `The recipients of the caller's transfer, in the order they were added, with what each downloaded when. ${NOT_YOURS}.`,
  params: transferIdParamsSchema,
  response: membersSchema,
});

export const listMyVotes = defineRoute({
  method: 'GET',
  path: '/api/i/transfer/transfer/{id}/records/my_votes',
  access: 'user',
  handler: 'transfers/list-my-votes',
  summary: `The caller's vote per file of a package, by file id ('like' or 'dislike'; files without a vote are left out). ${NOT_YOURS}.`,
  params: transferIdParamsSchema,
  response: myVotesSchema,
});

export const createTransfer = defineRoute({
  method: 'POST',
  path: '/api/i/transfer/transfer',
  access: 'user',
  handler: 'transfers/create-transfer',
  summary:
    "Creates a draft transfer with a title, a message and an expiry in days (the plan's default when absent; 1-7 days on the free plan, up to 365 on pro: 400 beyond). Answers 201 with it.",
  body: createTransferBodySchema,
  response: transferSummarySchema,
});

export const addRecipient = defineRoute({
  method: 'POST',
  path: '/api/i/transfer/transfer/{id}/addRecipient',
  access: 'user',
  handler: 'transfers/add-recipient',
  summary: `Adds a recipient by email to the caller's transfer (adding one twice answers the same recipient). Up to the plan's limit (400 beyond). Once the transfer is sent, the new recipient is emailed at once. ${NOT_YOURS}; 410 once it has expired.`,
  params: transferIdParamsSchema,
  body: addRecipientBodySchema,
  response: memberAnswerSchema,
  capabilities: { email: true, realtime: true },
});

export const finalizeTransfer = defineRoute({
  method: 'POST',
  path: '/api/i/transfer/transfer/{id}/finalize',
  access: 'user',
  handler: 'transfers/finalize-transfer',
  summary: `Sends the caller's draft transfer: it needs at least one file, every file ready (else 409 naming the others) and a recipient. The recipients are emailed and notified, and the transfer cannot grow any more. 409 when it was already sent. ${NOT_YOURS}.`,
  params: transferIdParamsSchema,
  response: transferSummarySchema,
  capabilities: { email: true, realtime: true },
  // Up to 500 recipients are emailed, ten at a time, before the answer.
  timeoutSeconds: 25,
});

export const recordFinalizeTiming = defineRoute({
  method: 'POST',
  path: '/api/i/transfer/transfer/{id}/finalize/timing',
  access: 'user',
  handler: 'transfers/record-finalize-timing',
  summary: `Records how long the send took, from the click to the finalized transfer (milliseconds, as the browser measured), on the transfer and as a metric. Once per transfer: later reports are ignored. ${NOT_YOURS}.`,
  params: transferIdParamsSchema,
  body: finalizeTimingBodySchema,
  response: transferSummarySchema,
});

export const likeTransferFile = defineRoute({
  method: 'PUT',
  path: '/api/i/transfer/transfer/{id}/relationId/{relationId}/v/like/{status}',
  access: 'user',
  handler: 'transfers/like-transfer-file',
  summary: `A recipient likes ('on', replacing a dislike) or stops liking ('off') a file of a sent package; repeating either changes nothing. Answers the file with its counts. ${NOT_YOURS}; 410 once it has expired.`,
  params: likeParamsSchema,
  response: voteAnswerSchema,
});

export const dislikeTransferFile = defineRoute({
  method: 'PUT',
  path: '/api/i/transfer/transfer/{id}/record/{recordId}/v/dislike/{status}',
  access: 'user',
  handler: 'transfers/dislike-transfer-file',
  summary: `A recipient dislikes ('on', replacing a like) or withdraws the dislike ('off') of a file of a sent package, as like does. ${NOT_YOURS}.`,
  params: dislikeParamsSchema,
  response: voteAnswerSchema,
});

export const deleteTransfer = defineRoute({
  method: 'DELETE',
  path: '/api/i/transfer/transfer/{id}',
  access: 'user',
  handler: 'transfers/delete-transfer',
  summary: `Deletes the caller's transfer at once, sent or not: its files' bytes, its files and its recipients' access. ${NOT_YOURS}.`,
  params: transferIdParamsSchema,
  response: transferSummarySchema,
  capabilities: { bucket: 'read-write' },
  // A package of 1,000 files is some 20 batched deletes: more than the default, under API Gateway's 29 s.
  timeoutSeconds: 25,
});

export const downloadAllFiles = defineRoute({
  method: 'GET',
  path: '/api/i/transfer/transfer/{id}/v/package/download',
  access: 'user',
  handler: 'transfers/download-all-files',
  summary: `Presigned GETs (valid 1 hour) for every file of a sent package, for the browser to stream into one zip without the server holding a byte. For recipients and the sender; ${NOT_YOURS}; 410 once expired. A recipient's first download tells the sender.`,
  params: transferIdParamsSchema,
  response: downloadAllSchema,
  capabilities: { table: 'read-write', bucket: 'read', email: true, realtime: true },
});

export const acceptTransferInvite = defineRoute({
  method: 'POST',
  path: '/api/i/transfer/transfer/{id}/invite/accept',
  access: 'public',
  handler: 'transfers/accept-transfer-invite',
  summary:
    'Spends the link a recipient was emailed (once): signs them in (creating their account for that address when they have none) and answers the package. 400 for a link that is unknown, used or not for this transfer.',
  params: transferIdParamsSchema,
  body: acceptInviteBodySchema,
  response: packageViewSchema,
});

export const allTransferRoutes = {
  getTransfer,
  getTransferPackage,
  listContacts,
  listOwnTransfers,
  listReceivedTransfers,
  listTransferMembers,
  listMyVotes,
  createTransfer,
  addRecipient,
  finalizeTransfer,
  recordFinalizeTiming,
  likeTransferFile,
  dislikeTransferFile,
  deleteTransfer,
  downloadAllFiles,
  acceptTransferInvite,
};
