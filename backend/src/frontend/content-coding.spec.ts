import { randomBytes } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { compressBody, MIN_COMPRESSED_BYTES, negotiateCoding, variantEtag } from './content-coding';
import { etagOf, PageCache, withEncodings, type CachedPage } from './page-cache';

describe('negotiateCoding', () => {
  it.each([
    ['br, gzip', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, deflate', 'gzip'],
    ['GZIP', 'gzip'],
    ['x-gzip', 'gzip'],
    ['deflate', 'identity'],
    ['identity', 'identity'],
    ['', 'identity'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['br;q=0.8, gzip;q=0.8', 'br'],
    ['gzip;q=0, br;q=0', 'identity'],
    ['*', 'br'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['gzip;q=0, *', 'br'],
    ['*;q=0', 'identity'],
    ['br;q=banana, gzip', 'gzip'],
    ['br;q=2, gzip', 'gzip'],
    [' br ; q=1 , gzip ; q=0.1 ', 'br'],
  ])('%j -> %s', (header, coding) => {
    expect(negotiateCoding(header)).toBe(coding);
  });

  it('sends identity without the header and reads repeated headers as one list', () => {
    expect(negotiateCoding(undefined)).toBe('identity');
    expect(negotiateCoding(['deflate', 'gzip'])).toBe('gzip');
  });
});

describe('variantEtag', () => {
  it('suffixes the identity ETag per coding and keeps a weak one weak', () => {
    expect(variantEtag('"abc"', 'br')).toBe('"abc-br"');
    expect(variantEtag('"abc"', 'gzip')).toBe('"abc-gz"');
    expect(variantEtag('W/"abc"', 'gzip')).toBe('W/"abc-gz"');
  });
});

describe('withEncodings', () => {
  const html = Buffer.from(
    `<!doctype html><main>${'<article><h2>A post title</h2><p>Some words of the summary, again and again.</p></article>'.repeat(200)}</main>`,
  );
  const page = (body: Buffer): CachedPage => ({ status: 200, body, etag: etagOf(body), headers: { 'content-type': 'text/html' } });

  it('adds br and gzip bodies that decompress to the identity bytes, each with its suffixed ETag', async () => {
    const encoded = await withEncodings(page(html));
    expect(encoded.body).toBe(html);
    expect(brotliDecompressSync(encoded.encoded!.br!.body).equals(html)).toBe(true);
    expect(gunzipSync(encoded.encoded!.gzip!.body).equals(html)).toBe(true);
    expect(encoded.encoded!.br!.etag).toBe(variantEtag(etagOf(html), 'br'));
    expect(encoded.encoded!.gzip!.etag).toBe(variantEtag(etagOf(html), 'gzip'));
    expect(encoded.encoded!.br!.body.length).toBeLessThan(html.length / 5);
  });

  it('makes the same bytes each time (so a variant ETag always names the same bytes)', async () => {
    expect((await compressBody(html, 'br')).equals(await compressBody(html, 'br'))).toBe(true);
    expect((await compressBody(html, 'gzip')).equals(await compressBody(html, 'gzip'))).toBe(true);
  });

  it('compresses only the codings asked for, and nothing under the threshold', async () => {
    const onlyGzip = await withEncodings(page(html), ['gzip']);
    expect(Object.keys(onlyGzip.encoded!)).toEqual(['gzip']);
    const small = Buffer.from('x'.repeat(MIN_COMPRESSED_BYTES - 1));
    expect((await withEncodings(page(small))).encoded).toBeUndefined();
  });

  it('leaves out a coding that does not make the body smaller', async () => {
    const noise = randomBytes(4096);
    const encoded = await withEncodings(page(noise));
    expect(encoded.encoded).toEqual({});
  });

  it('counts the compressed bodies in the cache budget', async () => {
    const cache = new PageCache({ maxBytes: 10_000_000, maxEntries: 10 });
    cache.set('/plain', page(html));
    const plain = cache.totalBytes;
    cache.clear();
    const encoded = await withEncodings(page(html));
    cache.set('/encoded', encoded);
    expect(cache.totalBytes).toBe(
      plain -
        '/plain'.length +
        '/encoded'.length +
        encoded.encoded!.br!.body.length +
        encoded.encoded!.gzip!.body.length +
        encoded.encoded!.br!.etag.length +
        encoded.encoded!.gzip!.etag.length,
    );
  });
});
