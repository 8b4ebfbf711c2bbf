import {
  acceptInviteAnswerSchema,
  acceptInviteBodySchema,
  addRecipientBodySchema,
  base64ImageBodySchema,
  contactsQuerySchema,
  contactsSchema,
  createBRecordBodySchema,
  createFilesBodySchema,
  createTransferBodySchema,
  dislikeParamsSchema,
  downloadAllSchema,
  downloadLogSchema,
  downloadLinkSchema,
  downloadQuerySchema,
  fileAnswerSchema,
  fileIdParamsSchema,
  finalizeAnswerSchema,
  finalizeTimingBodySchema,
  imageFileBodySchema,
  imageUrlBodySchema,
  likeParamsSchema,
  memberAnswerSchema,
  membersSchema,
  myVotesSchema,
  openLinkAnswerSchema,
  openLinkBodySchema,
  packageScreenSchema,
  packageViewSchema,
  previewLinkSchema,
  senderProfileParamsSchema,
  senderProfileScreenSchema,
  setTransferDeliveryBodySchema,
  setTransferPasswordBodySchema,
  signedPartsSchema,
  signPartsBodySchema,
  sitemapSchema,
  storedImageSchema,
  transferHomeScreenSchema,
  transferIdParamsSchema,
  transferListQuerySchema,
  transferListSchema,
  transferSummarySchema,
  transferViewSchema,
  unlockAnswerSchema,
  unlockPackageBodySchema,
  uploadedPartsSchema,
  uploadingFileSchema,
  uploadingFilesSchema,
  voteAnswerSchema,
} from '../schemas/transfers';
import { defineRoute } from './define-route';

/**
 * The transfer app's routes, all served by functions/transfers/: transfers and their packages
 * (/api/i/transfer), the files in them and the images anyone may upload (/api/i/file), and the
 * app's screens and sitemap (/api/i/ourTransfers).
 */

// ---------------------------------------------------------------------------------------------
// Transfers

const NOT_YOURS = '404 for anyone else, as for a transfer that does not exist';
/** A draft a file request's upload is filling is the uploader's until it is finished. */
const UPLOAD_UNDER_WAY = "409 while an upload through one of the caller's file requests is filling the draft";
/** The package routes: for a signed-in user, or for the holder of that transfer's package grant (acceptTransferInvite, openTransferLink). */
const GRANT =
  "Also opens to that transfer's package grant (the cookie a spent emailed link, or a link transfer's opened link, sets), which nothing else accepts; 401 with neither";
/** What a download limit does to the download routes. */
const LIMIT =
  "Under the transfer's download limit each download counts once (the zip as one; the same visitor's same file again within an hour not again; the sender's own never), by a conditional write before the link is given: 410 DOWNLOAD_LIMIT_REACHED once the limit is spent. Each counted download goes to the sender's download log";
/** The package routes of a transfer with a password (setTransferPassword, unlockTransferPackage). */
const LOCKED =
  "A password-protected package answers 403 with code PASSWORD_REQUIRED and the transfer's id, nothing else, to anyone but its sender until this browser unlocks it";

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
  access: 'public',
  handler: 'transfers/get-transfer-package',
  summary: `A sent transfer's package as its recipients see it: ready files with like and dislike counts and the caller's votes. For recipients and the sender; ${NOT_YOURS}. 410 with the date once it has expired. ${GRANT}. ${LOCKED}.`,
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
  access: 'public',
  handler: 'transfers/list-my-votes',
  summary: `The caller's vote per file of a package, by file id ('like' or 'dislike'; files without a vote are left out). ${NOT_YOURS}. ${GRANT}. ${LOCKED}.`,
  params: transferIdParamsSchema,
  response: myVotesSchema,
});

export const createTransfer = defineRoute({
  method: 'POST',
  path: '/api/i/transfer/transfer',
  access: 'user',
  handler: 'transfers/create-transfer',
  summary:
    "Creates a draft transfer with a title, a message and an expiry in days (the plan's default when absent; 1-7 days on the free plan, up to 365 on pro: 400 beyond), its delivery ('email' to recipients, the default, or 'link': sent with a link anyone holding it may open, recipients optional), optionally a download limit (1-1000 downloads, on every plan) and, on Pro, an optional password its recipients must enter (403 with code PRO_FEATURE on Free). Answers 201 with it.",
  body: createTransferBodySchema,
  response: transferSummarySchema,
});

export const addRecipient = defineRoute({
  method: 'POST',
  path: '/api/i/transfer/transfer/{id}/addRecipient',
  access: 'user',
  handler: 'transfers/add-recipient',
  summary: `Adds a recipient by email to the caller's transfer (adding one twice answers the same recipient). Up to the plan's limit (400 beyond). Once the transfer is sent, the new recipient is emailed at once. ${NOT_YOURS}; 410 once it has expired. ${UPLOAD_UNDER_WAY}.`,
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
  summary: `Sends the caller's draft transfer: it needs at least one file, every file ready (else 409 naming the others) and a recipient, unless it is a link transfer. The recipients are emailed and notified, and the transfer cannot grow any more. A link transfer's answer carries its link (the package page with a random key), this once: only the key's hash is kept. 409 when it was already sent. ${NOT_YOURS}. ${UPLOAD_UNDER_WAY}.`,
  params: transferIdParamsSchema,
  response: finalizeAnswerSchema,
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
  access: 'public',
  handler: 'transfers/like-transfer-file',
  summary: `A recipient likes ('on', replacing a dislike) or stops liking ('off') a file of a sent package; repeating either changes nothing. Answers the file with its counts. ${NOT_YOURS}; 410 once it has expired. ${GRANT}. ${LOCKED}.`,
  params: likeParamsSchema,
  response: voteAnswerSchema,
});

export const dislikeTransferFile = defineRoute({
  method: 'PUT',
  path: '/api/i/transfer/transfer/{id}/record/{recordId}/v/dislike/{status}',
  access: 'public',
  handler: 'transfers/dislike-transfer-file',
  summary: `A recipient dislikes ('on', replacing a like) or withdraws the dislike ('off') of a file of a sent package, as like does. ${NOT_YOURS}. ${GRANT}. ${LOCKED}.`,
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
  access: 'public',
  handler: 'transfers/download-all-files',
  summary: `Presigned GETs (valid 1 hour) for every file of a sent package, for the browser to stream into one zip without the server holding a byte. For recipients and the sender; ${NOT_YOURS}; 410 once expired. A recipient's first download tells the sender. ${LIMIT}. ${GRANT}. ${LOCKED}.`,
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
    "Spends the link a recipient was emailed (once) for a package grant: an HttpOnly cookie that opens this transfer's package (view, vote, download) for that recipient and nothing else. It signs no one in: an account the address already has is reached only by logging in; an address without one gets an account made for it (its votes are kept there), which the answer says. Answers the package and the grant; for a password-protected package, the grant and `passwordRequired` only (unlockTransferPackage opens it). 400 for a link that is unknown, used or not for this transfer.",
  params: transferIdParamsSchema,
  body: acceptInviteBodySchema,
  response: acceptInviteAnswerSchema,
});

// ---------------------------------------------------------------------------------------------
// Files and images

/** Reading a page by url waits on someone else's server. */
const IMAGE_FETCH_TIMEOUT_SECONDS = 20;

export const getFile = defineRoute({
  method: 'GET',
  path: '/api/i/file/file/{id}/v',
  access: 'public',
  handler: 'transfers/get-file',
  summary:
    `A file's record. Images (avatars, product images) are public; a transfer's file only for its sender and the transfer's recipients: 404 for anyone else, as for a file that does not exist. ${LOCKED}.`,
  params: fileIdParamsSchema,
  response: fileAnswerSchema,
});

export const createFiles = defineRoute({
  method: 'POST',
  path: '/api/i/file/files',
  access: 'user',
  handler: 'transfers/create-files',
  summary:
    `Creates several files of the caller's draft transfer at once (at most 50 per call), each as createBRecord does, and answers each with its upload target. All or nothing: one refused file refuses the call. ${UPLOAD_UNDER_WAY}.`,
  body: createFilesBodySchema,
  response: uploadingFilesSchema,
  capabilities: { bucket: 'write' },
});

export const createBRecord = defineRoute({
  method: 'POST',
  path: '/api/i/file/file/upload/createBRecord',
  access: 'user',
  handler: 'transfers/create-b-record',
  summary:
    `Creates a pending file in the caller's draft transfer and answers where to send its bytes, straight to S3: a presigned POST (size and type pinned) up to 16 MiB, a multipart upload above (parts signed by sign-parts). 400 for a refused type or a size over the plan's limit for the transfer; 404 for a transfer that is not the caller's; 409 once it is sent. ${UPLOAD_UNDER_WAY}.`,
  body: createBRecordBodySchema,
  response: uploadingFileSchema,
  capabilities: { bucket: 'write' },
});

export const signUploadParts = defineRoute({
  method: 'POST',
  path: '/api/i/file/file/{id}/mod/upload/parts',
  access: 'user',
  handler: 'transfers/sign-upload-parts',
  summary:
    "Presigned PUT urls (valid 15 minutes: a part's upload starts within that time) for parts of a pending multipart file of the caller's: up to 100 part numbers per call, each within the file's part count.",
  params: fileIdParamsSchema,
  body: signPartsBodySchema,
  response: signedPartsSchema,
  capabilities: { bucket: 'write' },
});

export const signUploadForm = defineRoute({
  method: 'POST',
  path: '/api/i/file/file/{id}/mod/upload/form',
  access: 'user',
  handler: 'transfers/sign-upload-form',
  summary:
    "A new presigned POST (valid 15 minutes: the upload starts within that time) for a pending single-upload file of the caller's, for when the one it was created with ran out before its turn: the same key, size and type. 409 for a file uploaded in parts or already ready; the transfer must still be a draft.",
  params: fileIdParamsSchema,
  response: uploadingFileSchema,
  capabilities: { bucket: 'write' },
});

export const listUploadedParts = defineRoute({
  method: 'GET',
  path: '/api/i/file/file/{id}/mod/upload/parts',
  access: 'user',
  handler: 'transfers/list-uploaded-parts',
  summary:
    "The parts of a pending multipart file that S3 already holds (number, size, ETag), so an interrupted upload sends only the missing ones. The caller's own files only.",
  params: fileIdParamsSchema,
  response: uploadedPartsSchema,
  capabilities: { bucket: 'read' },
});

export const abortUpload = defineRoute({
  method: 'DELETE',
  path: '/api/i/file/file/{id}/mod/upload',
  access: 'user',
  handler: 'transfers/abort-upload',
  summary:
    "Cancels the upload of a pending file of the caller's: S3 drops the parts it holds and the file leaves the transfer. 409 for a file that is already ready (delete it instead).",
  params: fileIdParamsSchema,
  response: fileAnswerSchema,
  capabilities: { bucket: 'read-write' },
});

export const finalizeBRecord = defineRoute({
  method: 'PUT',
  path: '/api/i/file/file/{id}/mod/finalizeBRecord',
  access: 'user',
  handler: 'transfers/finalize-b-record',
  summary:
    "Checks what S3 holds for a pending file of the caller's (a multipart upload is completed first): the size must equal the declared one and the type the declared type; images are sniffed from their first bytes. Then the file is ready, with its checksum, and what recipients download is what was checked: a presigned POST's bytes are copied to a key no upload form names (the form, valid a while longer, no longer changes the file), and a completed multipart upload takes no more parts. An object that does not match is deleted and the answer is 400 with why; a missing one is 409, and so is one that changed while it was checked (finalize again). Finalizing a ready file answers it again. 503 when S3 cannot be reached (the file stays pending).",
  params: fileIdParamsSchema,
  response: fileAnswerSchema,
  capabilities: { bucket: 'read-write' },
});

export const deleteFile = defineRoute({
  method: 'DELETE',
  path: '/api/i/file/file/{id}/mod',
  access: 'user',
  handler: 'transfers/delete-file',
  summary:
    "Deletes a file of the caller's and its bytes. A transfer's file only while the transfer is a draft (409 after it is sent).",
  params: fileIdParamsSchema,
  response: fileAnswerSchema,
  capabilities: { bucket: 'read-write' },
});

export const downloadFile = defineRoute({
  method: 'GET',
  path: '/api/i/file/file/{id}/download',
  access: 'public',
  handler: 'transfers/download-file',
  summary:
    `A presigned GET (valid 5 minutes) for a ready file, carrying its original name: for the transfer's sender and recipients (404 for anyone else), 410 once the transfer has expired. A recipient's first download tells the sender. ${LIMIT} (an inline preview never counts, but is refused too once the limit is spent). ${GRANT}. ${LOCKED}.`,
  params: fileIdParamsSchema,
  query: downloadQuerySchema,
  response: downloadLinkSchema,
  capabilities: { table: 'read-write', bucket: 'read', email: true, realtime: true },
});

export const previewFile = defineRoute({
  method: 'GET',
  path: '/api/i/file/file/{id}/preview',
  access: 'public',
  handler: 'transfers/preview-file',
  summary:
    `A presigned GET (valid 5 minutes) to preview a ready file in the page, for those who may download it (the transfer's sender and recipients; 404 for anyone else, as for a file that does not exist; 410 once the transfer has expired). Images, PDFs, audio and video answer inline with their type, and honour Range (seeking); text and code answer as text/plain attachments for the page to read the first 64 KB with a Range GET. HTML, SVG and XML are only ever text, never inline. 409 for a type with no preview (download it instead). A preview is a view, not a download: it adds to the transfer's previewCount, is not counted as a download and does not tell the sender, but once a download limit is spent it is refused as downloads are (410 DOWNLOAD_LIMIT_REACHED). ${GRANT}. ${LOCKED}.`,
  params: fileIdParamsSchema,
  response: previewLinkSchema,
  capabilities: { table: 'read-write', bucket: 'read' },
});

export const uploadImageByBase64 = defineRoute({
  method: 'POST',
  path: '/api/i/file/file/upload/by/base64',
  access: 'user',
  handler: 'transfers/upload-image-by-base64',
  summary:
    'Stores an image sent as base64 (optionally a data: url): PNG, JPEG, GIF, WebP or AVIF, recognised from its bytes (the name and declared type are not trusted), at most 4 MiB. SVG is refused. Answers the ready file and a url to show it.',
  body: base64ImageBodySchema,
  response: storedImageSchema,
  capabilities: { bucket: 'read-write' },
});

export const uploadImageByUrl = defineRoute({
  method: 'POST',
  path: '/api/i/file/file/upload/by/imageUrl',
  access: 'user',
  handler: 'transfers/upload-image-by-url',
  summary:
    'Fetches an image from a public http(s) url (private and loopback addresses refused, redirects checked again, at most 10 MiB, 10 seconds) and stores it as by/base64 does.',
  body: imageUrlBodySchema,
  response: storedImageSchema,
  capabilities: { bucket: 'read-write' },
  timeoutSeconds: IMAGE_FETCH_TIMEOUT_SECONDS,
});

export const uploadImageByFile = defineRoute({
  method: 'POST',
  path: '/api/i/file/file/upload/by/imageFile',
  access: 'user',
  handler: 'transfers/upload-image-by-file',
  summary:
    'Creates a pending image file and a presigned POST for its bytes (at most 10 MiB, one of the image types); finalizeBRecord then checks the bytes really are that image.',
  body: imageFileBodySchema,
  response: uploadingFileSchema,
  capabilities: { bucket: 'write' },
});

// ---------------------------------------------------------------------------------------------
// Screens

/** The sitemap changes only with a deployment. */
const SITEMAP_CACHE_SECONDS = 3_600;

export const showTransferHome = defineRoute({
  method: 'GET',
  path: '/api/i/ourTransfers/show/home',
  access: 'public',
  handler: 'transfers/show-transfer-home',
  summary:
    "The transfer home's data: the plan's limits and page metadata for anyone; for a signed-in sender also their five latest sent and received transfers and their newest unfinished draft (to resume its uploads).",
  response: transferHomeScreenSchema,
});

export const showSenderProfile = defineRoute({
  method: 'GET',
  path: '/api/i/ourTransfers/show/profile/{userId}/v',
  access: 'public',
  handler: 'transfers/show-sender-profile',
  summary:
    "A sender's public card in the transfer app (name, username, picture, member since): never their address or transfers. 404 for an unknown user.",
  params: senderProfileParamsSchema,
  response: senderProfileScreenSchema,
});

export const showPackageScreen = defineRoute({
  method: 'GET',
  path: '/api/i/ourTransfers/show/transfer/{id}/package',
  access: 'public',
  handler: 'transfers/show-package-screen',
  summary:
    `The package page's data: the package as GET /transfer/{id}/v/package answers it, with page metadata (kept out of search indexes). Same 404 and 410. ${GRANT}. ${LOCKED}.`,
  params: transferIdParamsSchema,
  response: packageScreenSchema,
});

export const transferSitemap = defineRoute({
  method: 'GET',
  path: '/api/i/ourTransfers/sitemap/xml',
  access: 'public',
  handler: 'transfers/transfer-sitemap',
  summary:
    "The transfer app's sitemap (XML): its public pages. Packages and everything signed-in are left out: they are private.",
  response: sitemapSchema,
  cacheSeconds: SITEMAP_CACHE_SECONDS,
});

// ---------------------------------------------------------------------------------------------
// Link transfers and downloads

export const openTransferLink = defineRoute({
  method: 'POST',
  path: '/api/i/transfer/transfer/{id}/link/open',
  access: 'public',
  handler: 'transfers/open-transfer-link',
  summary:
    "Opens a link transfer with the key its link carries, for anyone: answers the package and sets a package grant (an HttpOnly cookie for this transfer's package routes alone: view, download, and vote when signed in). No session and no account are made. A password-protected one answers only { passwordRequired, transferId, grant } with the grant, and its package waits for the password (unlockTransferPackage). A missing or wrong key answers 404 exactly as an unknown transfer; 410 with the date once it has expired.",
  params: transferIdParamsSchema,
  body: openLinkBodySchema,
  response: openLinkAnswerSchema,
});

export const listTransferDownloads = defineRoute({
  method: 'GET',
  path: '/api/i/transfer/transfer/{id}/v/owner/downloads',
  access: 'user',
  handler: 'transfers/list-transfer-downloads',
  summary: `The download log of the caller's transfer, newest first, 50 a page (\`cursor\` for the next page): when, which file ('all' for the zip) and who (anonymous, or the signed-in downloader's name). ${NOT_YOURS}.`,
  params: transferIdParamsSchema,
  query: transferListQuerySchema,
  response: downloadLogSchema,
});

// Passwords

export const setTransferPassword = defineRoute({
  method: 'PUT',
  path: '/api/i/transfer/transfer/{id}/password',
  access: 'user',
  handler: 'transfers/set-transfer-password',
  summary: `Sets (a string) or removes (null) the password of the caller's draft: recipients must then enter it to open the package. Pro only (403 with code PRO_FEATURE on Free, for setting; removing is always allowed). Only a slow hash is kept and no route answers it: the transfer says \`passwordProtected\`. 409 once sent. ${NOT_YOURS}. ${UPLOAD_UNDER_WAY}.`,
  params: transferIdParamsSchema,
  body: setTransferPasswordBodySchema,
  response: transferSummarySchema,
});

export const unlockTransferPackage = defineRoute({
  method: 'POST',
  path: '/api/i/transfer/transfer/{id}/v/package/unlock',
  access: 'public',
  handler: 'transfers/unlock-transfer-package',
  summary: `Opens a password-protected package in this browser: the right password sets an HttpOnly cookie (Path=/api/i/) that opens it for 12 hours, in this browser only. A wrong one is 403 with code WRONG_PASSWORD. Guesses are counted before they are compared: 5 per 5 minutes from one client and 30 an hour in all, per transfer; beyond, 429 with the wait (and Retry-After). For whoever may open the package (${NOT_YOURS}; 410 once expired); an unprotected package answers as unlocked. ${GRANT}.`,
  params: transferIdParamsSchema,
  body: unlockPackageBodySchema,
  response: unlockAnswerSchema,
});

// Delivery

export const setTransferDelivery = defineRoute({
  method: 'PUT',
  path: '/api/i/transfer/transfer/{id}/delivery',
  access: 'user',
  handler: 'transfers/set-transfer-delivery',
  summary: `Chooses again how the caller's draft is delivered ('email' to recipients, or 'link') and its download limit (1-1000 downloads, or null for none), as createTransfer does: for a send tried again after the sender changed them. 409 once sent, or while an upload through the caller's file request is filling the draft. ${NOT_YOURS}; 410 once it has expired.`,
  params: transferIdParamsSchema,
  body: setTransferDeliveryBodySchema,
  response: transferSummarySchema,
});

/**
 * The group in listing order (the API reference, and CDK's stacks, which chunk an app's routes
 * in this order): a new route goes at the end, so no existing route moves to another stack.
 */
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
  getFile,
  createFiles,
  createBRecord,
  signUploadParts,
  signUploadForm,
  listUploadedParts,
  abortUpload,
  finalizeBRecord,
  deleteFile,
  downloadFile,
  uploadImageByBase64,
  uploadImageByUrl,
  uploadImageByFile,
  showTransferHome,
  showSenderProfile,
  showPackageScreen,
  transferSitemap,
  previewFile,
  openTransferLink,
  listTransferDownloads,
  setTransferPassword,
  unlockTransferPackage,
  setTransferDelivery,
};
