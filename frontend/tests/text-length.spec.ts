import { expect, test } from './fixtures';
import { commentContentError } from '../src/features/comments/texts';
import { isEmail, nameAndEmailErrors } from '../src/lib/field-rules';
import { charCount, limitChars, trimInvisible } from '../../isomorphic/text';

/** Lengths in characters (code points) and invisible characters, as the API counts them. */
test.describe('text length helpers', () => {
  test('an emoji is one character, so 101 emoji fit a 200-character comment', () => {
    expect(charCount('😀'.repeat(101))).toBe(101);
    expect(charCount('Tiếng Việt')).toBe(10);
    expect(commentContentError('😀'.repeat(101))).toBeUndefined();
    expect(commentContentError('😀'.repeat(201))).toBe('Comment content cannot exceed 200 characters');
    expect(limitChars('😀'.repeat(250), 200)).toBe('😀'.repeat(200));
    expect(limitChars('ab', 200)).toBe('ab');
  });

  test('a comment or name of invisible characters only is empty', () => {
    expect(trimInvisible('\u200B\uFEFF hi \u200D\u2060')).toBe('hi');
    expect(trimInvisible('❤️')).toBe('❤️');
    expect(commentContentError('\u200B\u200B\u200B')).toBe('Comment content cannot be empty');
    expect(nameAndEmailErrors({ fullName: '\u200B\u3164', email: 'a@b.co' }).fullName).toBe('Full name is required');
    expect(nameAndEmailErrors({ fullName: '🙂'.repeat(60), email: 'a@b.co' }).fullName).toBeUndefined();
  });

  test('an e-mail with an invisible character is not an e-mail', () => {
    expect(isEmail('admin@example.com')).toBe(true);
    expect(isEmail('ad\u200Bmin@example.com')).toBe(false);
  });
});
