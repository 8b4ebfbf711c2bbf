import {
  packageScreenSchema,
  senderProfileParamsSchema,
  senderProfileScreenSchema,
  sitemapSchema,
  transferHomeScreenSchema,
} from '../schemas/our-transfers';
import { transferIdParamsSchema } from '../schemas/transfers';
import { defineRoute } from './define-route';

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
  access: 'user',
  handler: 'transfers/show-package-screen',
  summary:
    "The package page's data: the package as GET /transfer/{id}/v/package answers it, with page metadata (kept out of search indexes). Same 404 and 410.",
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

export const allOurTransferRoutes = { showTransferHome, showSenderProfile, showPackageScreen, transferSitemap };
