/**
 * A count with its noun, by the language's plural rules ('1 likes'): one helper for
 * every place a count meets a noun, on the pages and in the e-mails. The forms come from
 * `Intl.PluralRules`: English has 'one' and 'other' ('1 like', '0 likes', '2 likes'); Vietnamese
 * has no plural form, 'other' for every count ('1 lượt thích', '2 lượt thích'). A noun carries
 * its language, so a Vietnamese label never gets an English plural rule. Pure.
 */
export type NounLanguage = 'en' | 'vi';

export interface Noun {
  language: NounLanguage;
  /** The word for each plural category the language has; 'other' always. */
  forms: Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };
}

const LOCALES: Record<NounLanguage, string> = { en: 'en-US', vi: 'vi-VN' };
const RULES: Record<NounLanguage, Intl.PluralRules> = { en: new Intl.PluralRules(LOCALES.en), vi: new Intl.PluralRules(LOCALES.vi) };
const NUMBERS: Record<NounLanguage, Intl.NumberFormat> = { en: new Intl.NumberFormat(LOCALES.en), vi: new Intl.NumberFormat(LOCALES.vi) };

/** An English noun: its singular and plural ('like' → 'likes' unless told: 'reply', 'replies'). */
export function englishNoun(one: string, other = `${one}s`): Noun {
  return { language: 'en', forms: { one, other } };
}

/** A Vietnamese noun: one form for every count. */
export function vietnameseNoun(word: string): Noun {
  return { language: 'vi', forms: { other: word } };
}

/** The noun's form for `count` ('like' for 1, 'likes' otherwise; Vietnamese: always the same word). */
export function nounFor(count: number, noun: Noun): string {
  return noun.forms[RULES[noun.language].select(count)] ?? noun.forms.other;
}

/** The count, written the noun's language's way ('1,234' / '1.234'). */
export function formatCountIn(count: number, language: NounLanguage): string {
  return NUMBERS[language].format(count);
}

/** '1 like', '2 likes', '1,234 likes'; '1 lượt thích', '1.234 lượt thích'. */
export function countNoun(count: number, noun: Noun): string {
  return `${formatCountIn(count, noun.language)} ${nounFor(count, noun)}`;
}
