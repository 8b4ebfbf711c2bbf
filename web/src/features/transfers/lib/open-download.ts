/**
 * Starts a download from a presigned url: the url answers with Content-Disposition: attachment,
 * so the browser saves the file and the page stays where it is.
 */
export function openDownload(url: string): void {
  window.location.assign(url);
}
