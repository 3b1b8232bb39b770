import { sniffImageFormat } from './image-pipeline';
import { checkThumbnailDimensions, keyOfThumbnailFile, parseThumbnailName, thumbnailFiles, variantWidthsFor } from './image-rules';

const KEY = '0123456789abcdef0123456789abcdef';

describe('thumbnail dimension rules (800x400; ratios 0.5-3; warning past 30 %; at most 2048x2048)', () => {
  it.each([
    [800, 400, [], []],
    [1040, 520, [], []],
    [560, 280, [], []],
    [1200, 600, [], ['Recommended size is 800x400px for optimal display']],
    [400, 200, [], ['Recommended size is 800x400px for optimal display']],
    [2048, 1024, [], ['Recommended size is 800x400px for optimal display']],
    [399, 200, ['Image dimensions 399x200px are too different from recommended 800x400px'], []],
    [800, 1201, ['Image dimensions 800x1201px are too different from recommended 800x400px'], []],
    [100, 1000, ['Image dimensions 100x1000px are too different from recommended 800x400px'], []],
    [2049, 1000, ['Invalid image dimensions: 2049x1000px exceeds the maximum of 2048x2048px'], []],
    [
      5000,
      5000,
      [
        'Invalid image dimensions: 5000x5000px exceeds the maximum of 2048x2048px',
        'Image dimensions 5000x5000px are too different from recommended 800x400px',
      ],
      [],
    ],
  ])('%ix%i', (width, height, errors, warnings) => {
    expect(checkThumbnailDimensions(width, height)).toEqual({ errors, warnings });
  });

  it('keeps only the variant widths narrower than the image', () => {
    expect(variantWidthsFor(2048)).toEqual([400, 800, 1600]);
    expect(variantWidthsFor(1600)).toEqual([400, 800]);
    expect(variantWidthsFor(800)).toEqual([400]);
    expect(variantWidthsFor(400)).toEqual([]);
  });
});

describe('thumbnail file names', () => {
  it('parses only full-size names of 32 hex digits and a size', () => {
    expect(parseThumbnailName(`${KEY}-1200x600.webp`)).toEqual({ key: KEY, width: 1200, height: 600 });
    for (const bad of [
      `${KEY}.webp`,
      `${KEY}-400w.webp`,
      `${KEY}-0x600.webp`,
      `${KEY}-12000x600.webp`,
      `../${KEY}-1x1.webp`,
      `${KEY.toUpperCase()}-1x1.webp`,
      `${KEY}-1x1.webp/`,
      `${KEY}-1x1.png`,
    ]) {
      expect(parseThumbnailName(bad)).toBeUndefined();
    }
  });

  it('lists a thumbnail with its variants, and finds the key of either', () => {
    expect(thumbnailFiles(`${KEY}-1700x850.webp`, [400, 800, 1600])).toEqual([
      `${KEY}-1700x850.webp`,
      `${KEY}-400w.webp`,
      `${KEY}-800w.webp`,
      `${KEY}-1600w.webp`,
    ]);
    expect(thumbnailFiles('../../etc/passwd', [400])).toEqual([]);
    expect(keyOfThumbnailFile(`${KEY}-800w.webp`)).toBe(KEY);
    expect(keyOfThumbnailFile(`${KEY}-800x400.webp`)).toBe(KEY);
    expect(keyOfThumbnailFile(`.tmp-1-${KEY}-800w.webp`)).toBeUndefined();
  });
});

describe('format by magic bytes', () => {
  it.each([
    ['jpeg', [0xff, 0xd8, 0xff, 0xe0]],
    ['png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]],
    ['gif', [...Buffer.from('GIF89a')]],
    ['gif', [...Buffer.from('GIF87a')]],
    ['webp', [...Buffer.from('RIFF'), 1, 2, 3, 4, ...Buffer.from('WEBPVP8 ')]],
  ])('%s', (format, bytes) => {
    expect(sniffImageFormat(Buffer.from(bytes))).toBe(format);
  });

  it('refuses SVG, HTML, text and near misses', () => {
    for (const text of ['<svg xmlns="http://www.w3.org/2000/svg"/>', '<!DOCTYPE html>', 'hello', 'GIF90a', 'RIFF0000WAVE', '']) {
      expect(sniffImageFormat(Buffer.from(text))).toBeUndefined();
    }
    expect(sniffImageFormat(Buffer.from([0xff, 0xd8]))).toBeUndefined();
  });
});
