/**
 * Look-alike e-mail addresses: the one rule for which writing systems an address may mix, and
 * the form in which the back office shows addresses so that look-alikes stand out. Pure, for the
 * API's validation and the pages' forms and tables alike.
 *
 * The rule is UTS #39 docs/requirements.md#decision-passwords.2 'highly restrictive', applied to the local part as a whole and to each
 * domain label: a label is written in one script, or in Latin + Han + Hiragana + Katakana, Latin +
 * Han + Bopomofo or Latin + Han + Hangul. Common and Inherited characters (digits, '.', '-', '_',
 * '+', combining accents) go with any script. Scripts come from the characters' Script_Extensions,
 * read through the JavaScript engine's own Unicode tables (`\p{scx=…}`), so no table is kept here.
 */

/** What the API and the forms answer when an address mixes scripts (the e-mail forms are English, docs/requirements.md#validation-register). */
export const MIXED_SCRIPT_EMAIL_TEXT =
  'Email mixes letters from different alphabets (such as Latin and Cyrillic); please type it in one alphabet';

/**
 * ISO 15924 codes of the Unicode scripts (Unicode 15). An engine older than a script simply does
 * not know its name; that script is skipped, and a letter of it matches no script (refused below).
 */
const SCRIPT_CODES =
  'Adlm Aghb Ahom Arab Armi Armn Avst Bali Bamu Bass Batk Beng Bhks Bopo Brah Brai Bugi Buhd Cakm Cans Cari Cham Cher Chrs Copt Cpmn ' +
  'Cprt Cyrl Deva Diak Dogr Dsrt Dupl Egyp Elba Elym Ethi Geor Glag Gong Gonm Goth Gran Grek Gujr Guru Hang Hani Hano Hatr Hebr Hira ' +
  'Hluw Hmng Hmnp Hung Ital Java Kali Kana Kawi Khar Khmr Khoj Kits Knda Kthi Lana Laoo Latn Lepc Limb Lina Linb Lisu Lyci Lydi Mahj ' +
  'Maka Mand Mani Marc Medf Mend Merc Mero Mlym Modi Mong Mroo Mtei Mult Mymr Nagm Nand Narb Nbat Newa Nkoo Nshu Ogam Olck Orkh Orya ' +
  'Osge Osma Ougr Palm Pauc Perm Phag Phli Phlp Phnx Plrd Prti Rjng Rohg Runr Samr Sarb Saur Sgnw Shaw Shrd Sidd Sind Sinh Sogd Sogo ' +
  'Sora Soyo Sund Sylo Syrc Tagb Takr Tale Talu Taml Tang Tavt Telu Tfng Tglg Thaa Thai Tibt Tirh Tnsa Toto Ugar Vaii Vith Wara Wcho ' +
  'Xpeo Xsux Yezi Yiii Zanb';

/** Characters that go with every script: Script_Extensions Common or Inherited. */
const ANY_SCRIPT = /^[\p{scx=Zyyy}\p{scx=Zinh}]$/u;
// eslint-disable-next-line no-control-regex
const ASCII = /^[\x00-\x7f]*$/;
const ASCII_LETTER = /^[A-Za-z]$/;

let probes: ReadonlyArray<readonly [string, RegExp]> | undefined;
/** One matcher per script the engine knows, built on first use. */
function scriptProbes(): ReadonlyArray<readonly [string, RegExp]> {
  if (!probes) {
    const known: Array<readonly [string, RegExp]> = [];
    for (const code of SCRIPT_CODES.split(' ')) {
      try {
        known.push([code, new RegExp(`^\\p{scx=${code}}$`, 'u')]);
      } catch {
        // Not in this engine's Unicode version.
      }
    }
    probes = known;
  }
  return probes;
}

/** The scripts a character may be written in (its Script_Extensions); undefined for Common and Inherited. */
function scriptsOf(character: string): ReadonlySet<string> | undefined {
  if (ASCII.test(character)) return ASCII_LETTER.test(character) ? new Set(['Latn']) : undefined;
  if (ANY_SCRIPT.test(character)) return undefined;
  return new Set(
    scriptProbes()
      .filter(([, probe]) => probe.test(character))
      .map(([code]) => code),
  );
}

/**
 * UTS #39 docs/requirements.md#validation.1's augmented sets: Han is also written inside Japanese (Jpan), Korean (Kore) and
 * Han-with-Bopomofo (Hanb); kana are Japanese, Hangul Korean, Bopomofo Hanb.
 */
function augmented(scripts: ReadonlySet<string>): Set<string> {
  const result = new Set(scripts);
  if (scripts.has('Hani')) ['Hanb', 'Jpan', 'Kore'].forEach((code) => result.add(code));
  if (scripts.has('Hira') || scripts.has('Kana')) result.add('Jpan');
  if (scripts.has('Hang')) result.add('Kore');
  if (scripts.has('Bopo')) result.add('Hanb');
  return result;
}

/** The mixes 'highly restrictive' allows beyond a single script. */
const ALLOWED_MIXES: ReadonlyArray<ReadonlySet<string>> = [
  new Set(['Latn', 'Hani', 'Hira', 'Kana']),
  new Set(['Latn', 'Hani', 'Bopo']),
  new Set(['Latn', 'Hani', 'Hang']),
];

/** Whether one label (a local part, a domain label) is 'highly restrictive' (UTS #39 docs/requirements.md#decision-passwords.2). */
export function isHighlyRestrictive(label: string): boolean {
  if (ASCII.test(label)) return true;
  const seen: Array<ReadonlySet<string>> = [];
  let resolved: Set<string> | undefined;
  for (const character of label) {
    const scripts = scriptsOf(character);
    if (!scripts) continue;
    // A letter of no known script (unassigned, or newer than the engine) cannot be judged: refused.
    if (scripts.size === 0) return false;
    seen.push(scripts);
    const extended = augmented(scripts);
    resolved = resolved ? new Set([...resolved].filter((code) => extended.has(code))) : extended;
  }
  if (!resolved || resolved.size > 0) return true;
  return ALLOWED_MIXES.some((mix) => seen.every((scripts) => [...scripts].some((code) => mix.has(code))));
}

/** Local part and domain of an address (split at the last '@'; no '@': all local part). */
function partsOf(email: string): { local: string; domain: string } {
  const at = email.lastIndexOf('@');
  return at < 0 ? { local: email, domain: '' } : { local: email.slice(0, at), domain: email.slice(at + 1) };
}

/** Whether an address mixes scripts in its local part or in any domain label (refused wherever an e-mail is set). */
export function mixesScripts(email: string): boolean {
  if (ASCII.test(email)) return false;
  const { local, domain } = partsOf(email);
  return !isHighlyRestrictive(local) || domain.split('.').some((label) => !isHighlyRestrictive(label));
}

/** A run of an address as shown: ASCII, or non-ASCII characters to mark (with their code points). */
export interface EmailRun {
  text: string;
  ascii: boolean;
  /** 'U+0440 U+0445' for a non-ASCII run. */
  codePoints?: string;
}

export interface EmailForAdmins {
  /** The local part in runs: every non-ASCII run is to be marked visibly. */
  local: EmailRun[];
  /** The domain in its ASCII (punycode) form, as DNS sees it; runs as for the local part when it has none. */
  domain: EmailRun[];
  /** Whether the address is not plain ASCII: a run is marked, or the domain is shown in punycode. */
  flagged: boolean;
}

const codePointsOf = (text: string): string =>
  Array.from(text, (c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`).join(' ');

function runsOf(text: string): EmailRun[] {
  // eslint-disable-next-line no-control-regex
  return (text.match(/[\x00-\x7f]+|[^\x00-\x7f]+/gu) ?? []).map((run) =>
    ASCII.test(run) ? { text: run, ascii: true } : { text: run, ascii: false, codePoints: codePointsOf(run) },
  );
}

/** Only a plain host name is handed to the URL parser (no path, port, user info or brackets to reinterpret). */
const PLAIN_HOST = /^[^\s/\\?#@:[\]%]+$/u;

/**
 * The ASCII form of a domain (IDNA, 'пример.рф' → 'xn--e1afmkfd.xn--p1ai'), read through the WHATWG
 * URL parser both Node and browsers carry; undefined when it has none.
 */
export function asciiDomain(domain: string): string | undefined {
  if (ASCII.test(domain)) return domain;
  if (!PLAIN_HOST.test(domain)) return undefined;
  try {
    const host = new URL(`http://${domain}`).hostname;
    return host && ASCII.test(host) ? host : undefined;
  } catch {
    return undefined;
  }
}

/**
 * An address as the back office shows it, so that look-alikes differ at a glance: the domain in
 * punycode, and every non-ASCII run of the local part (or of a domain with no ASCII form) marked.
 */
export function emailForAdmins(email: string): EmailForAdmins {
  const { local, domain } = partsOf(email);
  const ascii = asciiDomain(domain);
  const localRuns = runsOf(local);
  const domainRuns = ascii !== undefined ? (ascii ? [{ text: ascii, ascii: true }] : []) : runsOf(domain);
  return { local: localRuns, domain: domainRuns, flagged: [...localRuns, ...domainRuns].some((run) => !run.ascii) || ascii !== domain };
}
