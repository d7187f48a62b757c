import type { ParsedIntent } from './goals.js';

/**
 * Words of an intent and their normalisation to English (spec §4.8 "Multi-language input";
 * docs/intents.md "Parsing"). The tables are built once at load; a call tokenises, folds each word
 * (lower case, accents off, German umlauts to ae/oe/ue/ss, so "für" = "fuer" and "échanger" =
 * "echanger") and looks it up whole, which is word-boundary safe by construction: "cambiar" never
 * matches inside "intercambiar". Phrases of several words are tried longest first.
 */

export type Language = ParsedIntent['language'];

export interface Word {
  /** the text as written: symbols, names and addresses are read from here */
  raw: string;
  /** the English keyword it normalised to, or the folded text */
  en: string;
  /** character offsets in the intent string */
  start: number;
  end: number;
  /** a Japanese postposition (de, ni, kara, o): it belongs after its noun (docs/intents.md) */
  particle?: boolean;
}

/** Canonical English verbs the grammar knows (spec §4.8 verb table). */
type Verb = 'buy' | 'sell' | 'swap' | 'send' | 'stake' | 'bridge';

interface VerbEntry {
  en: Verb;
  langs: Language[];
}

/**
 * spec §4.8 verbs per language, plus the usual imperative forms a user types. The spec's verb table
 * has no bridge column; the bridge verbs are this node's (docs/intents.md "Bridge").
 */
const VERB_FORMS: Record<Exclude<Language, 'en'>, Partial<Record<Verb, string[]>>> = {
  es: {
    buy: ['comprar', 'compra', 'compre'],
    sell: ['vender', 'vende'],
    swap: ['intercambiar', 'intercambia', 'cambiar', 'cambia'],
    send: ['enviar', 'envia'],
    stake: ['apostar', 'apuesta', 'depositar'],
    bridge: ['puentear', 'puentea'],
  },
  pt: {
    buy: ['comprar', 'compre', 'compra'],
    sell: ['venda', 'vender', 'vende'],
    swap: ['trocar', 'troque', 'troca'],
    send: ['envie', 'enviar', 'envia'],
    stake: ['depositar', 'deposite'],
    bridge: ['transpor', 'transponha'],
  },
  fr: {
    buy: ['acheter', 'achete', 'achetez'],
    sell: ['vendre', 'vends', 'vendez'],
    swap: ['echanger', 'echange', 'echangez'],
    send: ['envoyer', 'envoie', 'envoyez'],
    stake: ['staker', 'deposer', 'deposez'],
    bridge: ['ponter', 'pontez'],
  },
  de: {
    buy: ['kaufen', 'kaufe', 'kauf'],
    sell: ['verkaufen', 'verkaufe', 'verkauf'],
    swap: ['tauschen', 'tausche', 'tausch'],
    send: ['senden', 'sende', 'schicken', 'schicke'],
    stake: ['staken', 'einzahlen'],
    bridge: ['bruecken', 'bruecke', 'bridgen'],
  },
  it: {
    buy: ['comprare', 'compra', 'compri'],
    sell: ['vendere', 'vendi'],
    swap: ['scambiare', 'scambia'],
    send: ['inviare', 'invia'],
    stake: ['depositare', 'deposita'],
    bridge: ['pontare', 'ponta'],
  },
  ja: {
    buy: ['kau', 'kaimasu'],
    sell: ['uru', 'urimasu'],
    swap: ['koukan', 'koukansuru', 'koukanshite'],
    send: ['okuru', 'okurimasu'],
    stake: ['suteeku', 'azukeru'],
    bridge: ['burijji', 'burijjisuru', 'burijjishite'],
  },
};

/** English verbs: every language's sentence may use them too. */
const ENGLISH_VERBS = ['buy', 'get', 'purchase', 'sell', 'dump', 'swap', 'convert', 'trade', 'exchange', 'send', 'pay', 'transfer', 'stake', 'deposit'];

/**
 * Connectors (spec §4.8: es con/por/para/cada, pt com/cada, fr avec/pour, de mit/fuer, it con/per)
 * and the words the other patterns need (and, from, if, price, below/above, time units, slippage).
 * A value with a space expands to several English words; '' drops the word.
 */
const CONNECTORS: Record<Exclude<Language, 'en'>, Record<string, string>> = {
  es: {
    con: 'with', por: 'for', para: 'to', cada: 'every', a: 'to', y: 'and', e: 'and', desde: 'from', de: 'from',
    si: 'if', precio: 'price', bajo: 'below', sobre: 'above', durante: 'for',
    hora: 'hour', horas: 'hours', dia: 'day', dias: 'days', semana: 'week', semanas: 'weeks',
    minutos: 'minutes', segundos: 'seconds', deslizamiento: 'slippage', diario: 'daily', semanal: 'weekly',
    validador: 'validator',
  },
  pt: {
    com: 'with', cada: 'every', por: 'for', para: 'to', e: 'and', de: 'from', se: 'if', preco: 'price',
    abaixo: 'below', acima: 'above', durante: 'for',
    hora: 'hour', horas: 'hours', dia: 'day', dias: 'days', semana: 'week', semanas: 'weeks',
    minutos: 'minutes', segundos: 'seconds', derrapagem: 'slippage', diario: 'daily', semanal: 'weekly',
    validador: 'validator',
  },
  fr: {
    avec: 'with', pour: 'for', a: 'to', chaque: 'every', et: 'and', de: 'from', depuis: 'from', si: 'if', prix: 'price',
    sous: 'below', 'au-dessus': 'above', pendant: 'for', contre: 'for', en: 'to',
    heure: 'hour', heures: 'hours', jour: 'day', jours: 'days', semaine: 'week', semaines: 'weeks',
    minutes: 'minutes', secondes: 'seconds', glissement: 'slippage', quotidien: 'daily', validateur: 'validator',
  },
  de: {
    mit: 'with', fuer: 'for', gegen: 'for', in: 'to', an: 'to', zu: 'to', nach: 'to', und: 'and', von: 'from', aus: 'from',
    jede: 'every', jeden: 'every', jeder: 'every', jedes: 'every', alle: 'every', wenn: 'if', falls: 'if', preis: 'price',
    unter: 'below', ueber: 'above', lang: '',
    stunde: 'hour', stunden: 'hours', tag: 'day', tage: 'days', tagen: 'days', woche: 'week', wochen: 'weeks',
    minuten: 'minutes', sekunden: 'seconds', taeglich: 'daily', woechentlich: 'weekly', stuendlich: 'hourly',
  },
  it: {
    con: 'with', per: 'for', a: 'to', in: 'to', ogni: 'every', e: 'and', da: 'from', se: 'if', prezzo: 'price',
    sotto: 'below', sopra: 'above',
    ora: 'hour', ore: 'hours', giorno: 'day', giorni: 'days', settimana: 'week', settimane: 'weeks',
    minuti: 'minutes', secondi: 'seconds', slittamento: 'slippage', di: 'of', validatore: 'validator',
  },
  ja: {
    // postpositions (particle) — see PARTICLES
    de: 'with', ni: 'to', kara: 'from', o: '', wo: '', soshite: 'and',
    mainichi: 'every day', maishuu: 'every week', maijikan: 'every hour', goto: '',
    jikan: 'hours', nichi: 'days', nichikan: 'days', shuukan: 'weeks', kan: '',
    kakaku: 'price', ika: 'below', ijou: 'above', moshi: 'if', suberi: 'slippage', fun: 'minutes', byou: 'seconds',
  },
};

/** Japanese postpositions: "USDC de" = "with USDC" (docs/intents.md "Japanese"). */
const PARTICLES = new Set(['de', 'ni', 'kara', 'o', 'wo']);

/** English phrases normalised before the grammar; longest first. */
const EN_PHRASES: Array<[string[], string]> = [
  [['spending', 'at', 'most'], 'atmost'],
  [['paying', 'at', 'most'], 'atmost'],
  [['for', 'at', 'most'], 'atmost'],
  [['at', 'most'], 'atmost'],
  [['no', 'more', 'than'], 'atmost'],
  [['get', 'me'], 'get'],
  [['i', 'need'], 'get'],
  [['i', 'want'], 'get'],
  [['i', 'want', 'to'], ''],
];

const VERBS = new Map<string, VerbEntry>();
for (const [lang, forms] of Object.entries(VERB_FORMS) as Array<[Exclude<Language, 'en'>, Partial<Record<Verb, string[]>>]>) {
  for (const [en, list] of Object.entries(forms) as Array<[Verb, string[]]>) {
    for (const form of list) {
      const entry = VERBS.get(form);
      if (entry) {
        if (entry.en !== en) throw new Error(`verb table: "${form}" means both ${entry.en} and ${en}`);
        entry.langs.push(lang);
      } else {
        VERBS.set(form, { en, langs: [lang] });
      }
    }
  }
}
const CONNECTOR_MAPS = new Map<Language, Map<string, string>>(
  (Object.entries(CONNECTORS) as Array<[Language, Record<string, string>]>).map(([lang, table]) => [lang, new Map(Object.entries(table))]),
);
const ENGLISH_VERB_SET = new Set(ENGLISH_VERBS);
const LANGUAGE_ORDER: Language[] = ['es', 'pt', 'fr', 'de', 'it', 'ja'];

/** Every verb the grammar may see after normalisation (for verb-final sentences). */
export const GOAL_VERBS = new Set([...ENGLISH_VERBS, 'buy', 'sell', 'swap', 'send', 'stake', 'bridge']);

const NON_ASCII = /[^\x00-\x7f]/;
const UMLAUTS = /[äöüß]/g;
const UMLAUT_MAP: Record<string, string> = { ä: 'ae', ö: 'oe', ü: 'ue', ß: 'ss' };
const COMBINING = /[\u0300-\u036f]/g;

/** Lower case, umlauts to ae/oe/ue/ss, other accents removed. */
export function fold(text: string): string {
  const lower = text.toLowerCase();
  if (!NON_ASCII.test(lower)) return lower;
  return lower.replace(UMLAUTS, (c) => UMLAUT_MAP[c]!).normalize('NFD').replace(COMBINING, '');
}

const CHUNK = /\S+/g;
const DIGIT = /\d/;
const TRAILING = /[.!?;:)]+$/;
const LEADING = /^[(¿¡]+/;

/**
 * Words with their offsets. Commas and `%` are words of their own, except a comma inside a number
 * (`1,000`); trailing sentence punctuation is dropped (but not the dot inside `alice.vex` or `1.5`).
 */
export function tokenize(text: string): Word[] {
  const words: Word[] = [];
  CHUNK.lastIndex = 0;
  for (let m = CHUNK.exec(text); m !== null; m = CHUNK.exec(text)) {
    let chunk = m[0];
    let start = m.index;
    const lead = LEADING.exec(chunk);
    if (lead) {
      chunk = chunk.slice(lead[0].length);
      start += lead[0].length;
    }
    let piece = 0;
    for (let i = 0; i <= chunk.length; i++) {
      const c = chunk[i];
      // A comma between digits stays in the number: "1,000" is one word, and "1,5" reaches the
      // amount parser whole, which refuses a decimal comma with a clear reason.
      const numberComma = c === ',' && i > 0 && DIGIT.test(chunk[i - 1]!) && DIGIT.test(chunk[i + 1] ?? '');
      if (i === chunk.length || (c === ',' && !numberComma) || c === '%') {
        push(words, chunk.slice(piece, i), start + piece);
        if (c === ',' || c === '%') words.push({ raw: c, en: c, start: start + i, end: start + i + 1 });
        piece = i + 1;
      }
    }
  }
  return words;
}

function push(words: Word[], piece: string, start: number): void {
  const trail = TRAILING.exec(piece);
  if (trail && trail.index > 0) piece = piece.slice(0, trail.index);
  else if (trail) return;
  if (piece === '') return;
  words.push({ raw: piece, en: fold(piece), start, end: start + piece.length });
}

/**
 * The language of an intent: the first non-English verb decides; a form several languages share
 * (comprar: es/pt, compra: es/pt/it) goes to the one whose connectors the sentence uses most,
 * ties to the first listed. No foreign verb: English.
 */
export function detectLanguage(words: Word[]): Language {
  for (const w of words) {
    if (ENGLISH_VERB_SET.has(w.en)) return 'en';
    const entry = VERBS.get(w.en);
    if (!entry) continue;
    if (entry.langs.length === 1) return entry.langs[0]!;
    let best = entry.langs[0]!;
    let bestScore = -1;
    for (const lang of LANGUAGE_ORDER) {
      if (!entry.langs.includes(lang)) continue;
      const table = CONNECTOR_MAPS.get(lang)!;
      let score = 0;
      for (const x of words) if (table.has(x.en)) score++;
      if (score > bestScore) {
        best = lang;
        bestScore = score;
      }
    }
    return best;
  }
  return 'en';
}

/**
 * Rewrites the words in place into English keywords: verbs of every language, the connectors of the
 * detected language, English phrases (longest first). Dropped words disappear; expansions keep the
 * offsets of the word they came from.
 */
export function normalize(words: Word[], language: Language): Word[] {
  const table = language === 'en' ? undefined : CONNECTOR_MAPS.get(language);
  const out: Word[] = [];
  for (const w of words) {
    const verb = VERBS.get(w.en);
    if (verb) {
      out.push({ ...w, en: verb.en });
      continue;
    }
    const en = table?.get(w.en);
    if (en === undefined) {
      out.push(w);
      continue;
    }
    const particle = language === 'ja' && PARTICLES.has(w.en);
    if (en === '' && !particle) continue;
    if (particle) {
      out.push({ ...w, en, particle });
      continue;
    }
    for (const part of en.split(' ')) out.push({ ...w, en: part });
  }
  return phrases(out);
}

function phrases(words: Word[]): Word[] {
  const out: Word[] = [];
  outer: for (let i = 0; i < words.length; i++) {
    for (const [phrase, en] of EN_PHRASES_LONGEST_FIRST) {
      if (i + phrase.length > words.length) continue;
      let match = true;
      for (let k = 0; k < phrase.length; k++) if (words[i + k]!.en !== phrase[k]) { match = false; break; }
      if (!match) continue;
      if (en !== '') out.push({ raw: words.slice(i, i + phrase.length).map((x) => x.raw).join(' '), en, start: words[i]!.start, end: words[i + phrase.length - 1]!.end });
      i += phrase.length - 1;
      continue outer;
    }
    out.push(words[i]!);
  }
  return out;
}

const EN_PHRASES_LONGEST_FIRST = [...EN_PHRASES].sort((a, b) => b[0].length - a[0].length);

/** Words that may begin an English goal (the grammar's first words). */
const GOAL_STARTS = new Set([
  ...GOAL_VERBS, 'add', 'provide', 'bridge', 'liquidate', 'rebalance', 'put', 'allocate', 'open', 'long', 'short', 'limit', 'register', 'every',
]);

/**
 * Word order to the English grammar's: a Japanese sentence with its verb after the objects (SOV)
 * has its postpositional phrases turned around ("1 ETH o USDC de kau" → "buy 1 ETH with USDC"),
 * a recurrence ("every day") moved behind; any other sentence whose verb comes last (German
 * "1 ETH mit USDC kaufen") gets the verb moved to the front. Particles left in a verb-first
 * Japanese sentence act as prepositions.
 */
export function reorder(words: Word[], language: Language): Word[] {
  const verbAt = words.findIndex((w) => GOAL_VERBS.has(w.en) && !w.particle);
  if (verbAt <= 0) return dropParticleMarks(words);
  if (language !== 'ja') {
    if (GOAL_STARTS.has(words[0]!.en) || verbAt !== words.length - 1) return words;
    return [words[verbAt]!, ...words.slice(0, verbAt)];
  }
  const before = words.slice(0, verbAt);
  const after = words.slice(verbAt + 1);
  const time: Word[] = [];
  const objects: Word[] = [];
  const phrasesOut: Word[] = [];
  let current: Word[] = [];
  for (let i = 0; i < before.length; i++) {
    const w = before[i]!;
    if (w.en === 'every') {
      time.push(w);
      if (i + 1 < before.length) time.push(before[++i]!);
      continue;
    }
    if (w.particle) {
      if (w.en === '') objects.push(...current);
      else phrasesOut.push({ ...w, particle: false }, ...current);
      current = [];
    } else {
      current.push(w);
    }
  }
  return dropParticleMarks([words[verbAt]!, ...objects, ...current, ...phrasesOut, ...time, ...after]);
}

function dropParticleMarks(words: Word[]): Word[] {
  return words.filter((w) => !(w.particle && w.en === ''));
}
