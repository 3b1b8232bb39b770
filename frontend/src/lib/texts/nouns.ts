/**
 * The nouns the pages count, each with its plural forms: `countNoun(3, Nouns.LIKE)` →
 * '3 likes'. The plural rules are isomorphic/plural.ts (Intl.PluralRules), for the pages and e-mails.
 */
import { englishNoun } from '../../../../isomorphic/plural';

export { countNoun, nounFor } from '../../../../isomorphic/plural';

export const Nouns = {
  LIKE: englishNoun('like'),
  COMMENT: englishNoun('comment'),
  VIEW: englishNoun('view'),
  POST: englishNoun('post'),
  PUBLISHED_POST: englishNoun('published post'),
  LIKED_POST: englishNoun('liked post'),
  MORE_POST: englishNoun('more post'),
  MORE_COMMENT: englishNoun('more comment'),
  REPLY: englishNoun('reply', 'replies'),
  RESULT: englishNoun('result'),
  SUGGESTION: englishNoun('suggestion'),
  TAG: englishNoun('tag'),
  USER: englishNoun('user'),
  NEW_USER: englishNoun('new user'),
  WORD: englishNoun('word'),
  MINUTE: englishNoun('minute'),
  HOUR: englishNoun('hour'),
  DAY: englishNoun('day'),
  REPORT: englishNoun('report'),
  UNREAD: englishNoun('unread', 'unread'),
  SELECTED: englishNoun('selected', 'selected'),
} as const;
