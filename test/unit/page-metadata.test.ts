import { describe, expect, it } from 'vitest';
import { readPageMetadata } from '../../functions/stories/lib/page-metadata';

const PAGE_URL = 'https://blog.example.org/posts/how-we-ship';

describe('readPageMetadata', () => {
  it('reads Open Graph first, resolving relative urls against the page', () => {
    // Prepare
    const html = `<!doctype html><html><head>
      <title>How we ship | Example Blog</title>
      <meta property="og:title" content="How we ship &amp; why">
      <meta property="og:description" content="  Small  steps,
        every day. ">
      <meta property="og:image" content="/images/ship.png">
      <meta property="og:site_name" content="Example Blog">
      <meta property="article:published_time" content="2026-11-20T08:30:00+01:00">
      <meta name="author" content="Ana Lima">
      <link rel="canonical" href="/posts/how-we-ship">
      <meta name="twitter:title" content="Not this one">
    </head><body><h1>ignored</h1></body></html>`;

    // Act
    const metadata = readPageMetadata(html, PAGE_URL);

    // Assess
    expect(metadata).toEqual({
      title: 'How we ship & why',
      description: 'Small steps, every day.',
      imageUrl: 'https://blog.example.org/images/ship.png',
      siteName: 'Example Blog',
      author: 'Ana Lima',
      publishedAt: '2026-11-20T07:30:00.000Z',
      canonicalUrl: 'https://blog.example.org/posts/how-we-ship',
    });
  });

  it('falls back to Twitter cards, then JSON-LD (in a @graph too), then the HTML title', () => {
    // Prepare
    const twitter = `<head><meta name="twitter:title" content="From the card"><meta name="twitter:image" content="https://cdn.example.org/a.jpg"></head>`;
    const jsonLd = `<head><title>Plain title</title><script type="application/ld+json">
      {"@context":"https://schema.org","@graph":[{"@type":"WebSite","name":"Site"},
       {"@type":["BlogPosting"],"headline":"From JSON-LD","description":"LD description",
        "image":[{"@type":"ImageObject","url":"https://cdn.example.org/ld.jpg"}],
        "author":[{"@type":"Person","name":"Rui Costa"}],"publisher":{"@type":"Organization","name":"LD Press"},
        "datePublished":"2026-01-02"}]}
    </script></head>`;
    const plain = `<html><head><title> Only a title </title><meta name="description" content="Meta description"></head></html>`;

    // Act
    const fromTwitter = readPageMetadata(twitter, PAGE_URL);
    const fromJsonLd = readPageMetadata(jsonLd, PAGE_URL);
    const fromPlain = readPageMetadata(plain, PAGE_URL);

    // Assess
    expect(fromTwitter).toMatchObject({ title: 'From the card', imageUrl: 'https://cdn.example.org/a.jpg' });
    expect(fromJsonLd).toMatchObject({
      title: 'From JSON-LD',
      description: 'LD description',
      imageUrl: 'https://cdn.example.org/ld.jpg',
      author: 'Rui Costa',
      siteName: 'LD Press',
      publishedAt: '2026-01-02T00:00:00.000Z',
    });
    expect(fromPlain).toMatchObject({ title: 'Only a title', description: 'Meta description', imageUrl: undefined });
  });

  it('ignores what cannot be trusted: scripts, bad JSON-LD, non-http images, profile urls as author, bad dates', () => {
    // Prepare
    const html = `<head>
      <meta property="og:image" content="javascript:alert(1)">
      <meta property="article:author" content="https://facebook.com/ana">
      <meta property="article:published_time" content="yesterday-ish">
      <script type="application/ld+json">{ not json </script>
      <script>document.title = "<title>Injected</title>"</script>
      <title>Real</title>
    </head>`;

    // Act
    const metadata = readPageMetadata(html, PAGE_URL);

    // Assess
    expect(metadata).toEqual({
      title: 'Real',
      description: undefined,
      imageUrl: undefined,
      siteName: undefined,
      author: undefined,
      publishedAt: undefined,
      canonicalUrl: undefined,
    });
  });

  it('caps long fields', () => {
    // Act
    const metadata = readPageMetadata(`<meta property="og:title" content="${'word '.repeat(200)}">`, PAGE_URL);

    // Assess
    expect(metadata.title?.length).toBeLessThanOrEqual(300);
    expect(metadata.title?.endsWith('…')).toBe(true);
  });
});
