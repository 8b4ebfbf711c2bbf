import { randomBytes } from 'node:crypto';

/**
 * A refusal worded as S3 words it: the status, the error code SDKs map to their exception
 * classes, and the extra elements S3 adds to the XML body (an UploadId, a ProposedSize...).
 */
export class S3Error extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly detail: Readonly<Record<string, string | number>> = {},
  ) {
    super(message);
    this.name = 'S3Error';
  }
}

export function xmlEscape(value: string | number): string {
  return String(value)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
export const S3_NAMESPACE = 'http://s3.amazonaws.com/doc/2006-03-01/';

/** S3's request ids are 16 upper-case hex characters; SDKs log them with every error. */
export function newRequestId(): string {
  return randomBytes(8).toString('hex').toUpperCase();
}

export function errorXml(error: S3Error, requestId: string): string {
  const detail = Object.entries(error.detail)
    .map(([name, value]) => `<${name}>${xmlEscape(value)}</${name}>`)
    .join('');
  return (
    `${XML_DECLARATION}<Error><Code>${xmlEscape(error.code)}</Code><Message>${xmlEscape(error.message)}</Message>` +
    `${detail}<RequestId>${requestId}</RequestId><HostId>${requestId}</HostId></Error>`
  );
}

export const accessDenied = (message = 'Access Denied', detail: Record<string, string | number> = {}) =>
  new S3Error('AccessDenied', message, 403, detail);

export const signatureDoesNotMatch = (accessKeyId: string) =>
  new S3Error(
    'SignatureDoesNotMatch',
    'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
    403,
    { AWSAccessKeyId: accessKeyId },
  );

export const invalidAccessKeyId = (accessKeyId: string) =>
  new S3Error('InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.', 403, {
    AWSAccessKeyId: accessKeyId,
  });

export const invalidArgument = (message: string, name?: string, value?: string) =>
  new S3Error('InvalidArgument', message, 400, name === undefined ? {} : { ArgumentName: name, ArgumentValue: value ?? '' });

export const invalidRequest = (message: string) => new S3Error('InvalidRequest', message, 400);

export const malformedXml = () =>
  new S3Error('MalformedXML', 'The XML you provided was not well-formed or did not validate against our published schema.', 400);

export const noSuchUpload = (uploadId: string) =>
  new S3Error(
    'NoSuchUpload',
    'The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.',
    404,
    { UploadId: uploadId },
  );
