/**
 * Loaded into `npm start` with --import by the process tests, to cause what no request should
 * be able to: a file system error while serving a file, and a failure outside any request.
 * Nothing in the product knows about it.
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

/** Serving /assets/__injected_fault__.js finds the file, then fails to stat it. */
const FAULTY_FILE = '__injected_fault__.js';
const { existsSync, statSync } = fs;
fs.existsSync = (path) => String(path).endsWith(FAULTY_FILE) || existsSync(path);
fs.statSync = (path, ...rest) => {
  if (String(path).endsWith(FAULTY_FILE)) {
    throw Object.assign(new Error(`EIO: i/o error, stat '${String(path)}'`), { code: 'EIO' });
  }
  return statSync(path, ...rest);
};
syncBuiltinESMExports();

/** SIGUSR2 fails outside any request: a throw, or a rejection nobody handles (INJECTED_FAULT=rejection). */
process.on('SIGUSR2', () => {
  if (process.env.INJECTED_FAULT === 'rejection') void Promise.reject(new Error('Injected rejection outside any request'));
  else throw new Error('Injected exception outside any request');
});
