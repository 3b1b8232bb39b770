/**
 * Latin letters for the scripts a former site's slugs are commonly in, so an imported post keeps a
 * readable address here (slugs here hold only a-z, 0-9 and hyphens; the original address stays as
 * a redirect). Greek (ELOT 743, simplified) and Cyrillic (Russian, Ukrainian, Belarusian, Serbian,
 * Macedonian, Bulgarian: scientific-style, simplified); Latin letters with accents, Vietnamese
 * included, are left to slugify, which drops the accents. Other scripts are left as they are.
 */
const LETTERS: Record<string, string> = {
  // Greek (an accented vowel is read as its base letter)
  α: 'a',
  β: 'v',
  γ: 'g',
  δ: 'd',
  ε: 'e',
  ζ: 'z',
  η: 'i',
  θ: 'th',
  ι: 'i',
  κ: 'k',
  λ: 'l',
  μ: 'm',
  ν: 'n',
  ξ: 'x',
  ο: 'o',
  π: 'p',
  ρ: 'r',
  σ: 's',
  ς: 's',
  τ: 't',
  υ: 'y',
  φ: 'f',
  χ: 'ch',
  ψ: 'ps',
  ω: 'o',
  // Cyrillic
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  ґ: 'g',
  д: 'd',
  ђ: 'dj',
  е: 'e',
  ё: 'yo',
  є: 'ye',
  ж: 'zh',
  з: 'z',
  ѕ: 'dz',
  и: 'i',
  і: 'i',
  ї: 'yi',
  й: 'y',
  ј: 'j',
  к: 'k',
  л: 'l',
  љ: 'lj',
  м: 'm',
  н: 'n',
  њ: 'nj',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  ћ: 'c',
  ќ: 'kj',
  у: 'u',
  ў: 'u',
  ф: 'f',
  х: 'kh',
  ц: 'ts',
  ч: 'ch',
  џ: 'dz',
  ш: 'sh',
  щ: 'shch',
  ъ: '',
  ы: 'y',
  ь: '',
  э: 'e',
  ю: 'yu',
  я: 'ya',
  ѓ: 'gj',
};

/** `text` with Greek and Cyrillic letters written in Latin ones (lower-cased); anything else unchanged. */
export function transliterate(text: string): string {
  // An accented letter not in the table (Greek ά, ΐ) is read as its base letter.
  return text
    .normalize('NFC')
    .toLowerCase()
    .replace(/[\u0370-\u03ff\u0400-\u04ff]/g, (letter) => LETTERS[letter] ?? LETTERS[letter.normalize('NFD').charAt(0)] ?? letter);
}
