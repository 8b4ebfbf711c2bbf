import { fromEnv } from '@aws-sdk/credential-provider-env';

/**
 * Stands in for @aws-sdk/credential-provider-node inside Lambda bundles. Lambda always hands a
 * function its role's credentials in environment variables, so the SSO, INI, process and
 * web-identity providers (with the STS and SSO clients they pull in, ~130 KB minified) are
 * dead weight there.
 */
export const defaultProvider = (): ReturnType<typeof fromEnv> => fromEnv();
