/**
 * Benchmark: "download all" of a package, zipped as the web app's service worker zips it
 * (client-zip over the presigned GETs, one file at a time), here in Node, in a process that does
 * nothing else. Reads the links transfer-zip-seed.ts printed (a file path as its argument).
 * Prints one JSON line: the zip's size, the time to stream it and the process's peak memory.
 */
import { readFileSync } from 'node:fs';
import { downloadZip } from 'client-zip';
import { memoryPeak } from './memory-peak';

const linksFile = process.argv[2];
if (!linksFile) throw new Error('Usage: tsx test/bench/transfer-zip.ts <links.json>');
const links = JSON.parse(readFileSync(linksFile, 'utf8')) as { files: { name: string; size: number; url: string }[] };
const contentBytes = links.files.reduce((sum, file) => sum + file.size, 0);
const memory = memoryPeak();
const started = performance.now();
// Lazily, one GET at a time, as the service worker does: a file is fetched when the zip reaches it.
async function* entries() {
  for (const link of links.files) {
    const response = await fetch(link.url);
    if (!response.ok) throw new Error(`GET ${link.name} answered ${response.status}`);
    yield { name: link.name, size: link.size, input: response };
  }
}
const zip = downloadZip(entries()).body;
if (!zip) throw new Error('client-zip made no body');
let zipBytes = 0;
for await (const chunk of zip as unknown as AsyncIterable<Uint8Array>) zipBytes += chunk.byteLength;
const seconds = (performance.now() - started) / 1000;
memory.stop();
console.log(
  JSON.stringify({
    files: links.files.length,
    contentBytes,
    zipBytes,
    seconds: Math.round(seconds * 10) / 10,
    MBps: Math.round(zipBytes / 1e6 / seconds),
    peakRssMb: Math.round(memory.peakMb()),
  }),
);
