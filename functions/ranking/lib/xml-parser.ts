/**
 * The XML parser feeds are read with (feed-document.ts), loaded by the first feed read rather
 * than when the function is imported: it and what it brings are some 60 KB that every cold
 * start of a ranking route would otherwise compile, most of which never read a feed. In a
 * Lambda bundle, a chunk of its own.
 */
export { XMLParser } from 'fast-xml-parser';
