/**
 * Where the file bucket keeps a file's bytes. The browser sends bytes to upload keys only, under
 * `transfers/` (a transfer's files) and `images/`. Finalize copies a presigned POST's upload,
 * once checked, to its final key under `files/`: no upload form or part URL is ever signed for
 * a key there, and the functions that sign them may not write there (their grant stops at the
 * upload prefixes), so what recipients download cannot change after the check. A multipart
 * upload's key is final once finalize has completed it: its part URLs die with its upload id.
 * A shop's files (what a grade delivers after purchase) are uploaded under `store/<shop id>/`.
 */
export const UPLOAD_KEY_PREFIXES = ['transfers/', 'images/', 'store/'] as const;
export const FINAL_KEY_PREFIX = 'files/';
/** Every prefix the file functions reach. */
export const FILE_KEY_PREFIXES = [...UPLOAD_KEY_PREFIXES, FINAL_KEY_PREFIX] as const;

/** Where finalize copies the bytes uploaded to `uploadKey`. */
export const finalKeyOf = (uploadKey: string) => `${FINAL_KEY_PREFIX}${uploadKey}`;
