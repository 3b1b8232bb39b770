import { BadRequestException } from '@nestjs/common';
import { findMalformedText, textProblem, WellFormedTextPipe } from './well-formed-text.pipe';

describe('textProblem', () => {
  it.each([
    ['plain', null],
    ['Tiếng Việt 😀', null],
    ['', null],
    ['a\u0000b', 'nul'],
    ['\ud800', 'lone-surrogate'],
    ['x\udc00', 'lone-surrogate'],
    ['\udc00\ud800', 'lone-surrogate'],
  ])('%j → %p', (text, problem) => {
    expect(textProblem(text)).toBe(problem);
  });
});

describe('findMalformedText', () => {
  it('names the first bad value or key by its path', () => {
    expect(findMalformedText({ a: 'ok', tags: ['x', 'y\u0000'] }, '')).toEqual({ path: 'tags.1', problem: 'nul' });
    expect(findMalformedText({ nested: { '\ud800': 1 } }, '')).toEqual({ path: 'nested.\\ud800', problem: 'lone-surrogate' });
    expect(findMalformedText('\u0000', 'slug')).toEqual({ path: 'slug', problem: 'nul' });
    expect(findMalformedText({ n: 1, b: true, z: null }, '')).toBeNull();
  });
});

describe('WellFormedTextPipe', () => {
  const pipe = new WellFormedTextPipe();

  it('passes good values and ignores custom parameters', () => {
    expect(pipe.transform({ bio: 'fine' }, { type: 'body' })).toEqual({ bio: 'fine' });
    expect(pipe.transform('\u0000', { type: 'custom' })).toBe('\u0000');
  });

  it('answers 400 with a field error', () => {
    try {
      pipe.transform('a\u0000', { type: 'param', data: 'slug' });
      throw new Error('not refused');
    } catch (error) {
      expect(error).toBeInstanceOf(BadRequestException);
      const message = 'slug must not contain the NUL character (U+0000)';
      expect((error as BadRequestException).getResponse()).toEqual({ message, errors: { slug: [message] } });
    }
  });
});
