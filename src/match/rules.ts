/**
 * Ids of the rules the matcher reports in `NameMatch.rules`, with the one-line explanation that
 * `--explain` shows. Ids are stable: downstream reports may filter on them.
 */
export const NAME_MATCH_RULES = {
  'blank-expected': 'the expected name is empty (or only a title)',
  'blank-actual': 'the bank returned no name (or only a title)',
  identical: 'the names are written identically',
  'case-punctuation': 'the names differ only in case, punctuation or spacing',
  honorific: 'titles such as Mr, Smt, Shri, Dr, M/s were ignored',
  'relation-marker': 'S/o, D/o, W/o, C/o and the relative named after it were ignored',
  'legal-suffix': 'legal forms such as Pvt Ltd, Limited, LLP, & Co were treated as equivalent',
  abbreviation: 'a standard abbreviation was expanded (Md, Mohd, Kr, Pd …)',
  transliteration: 'spellings differ only by transliteration (ee/i, sh/s, v/w, Laxmi/Lakshmi, Mohammed/Muhammad …)',
  'fuzzy-spelling': 'a word matched with a small spelling difference',
  'known-names-differ': 'two different common names (Rajesh/Rakesh) were not treated as a typo',
  initials: 'an initial matched a full word',
  'joined-words': 'words written together on one side are separate on the other (Rajkumar/Raj Kumar)',
  'word-order': 'the words are in a different order',
  'missing-word': 'a distinctive word on one side is missing on the other',
  'filler-word': 'a common filler word (Kumar, Devi, Singh …) is missing on one side; it weighs little',
  truncated: 'the bank name looks cut at a fixed length; the hidden part was not held against it',
  'different-names': 'each side has a distinctive name the other lacks: most likely different people',
  'filler-differs': 'the sides disagree on a filler or middle word (Devi/Kumari, Kumar/Singh)',
  'leading-name-differs': 'the bank name starts with a name the expected name lacks (e.g. the spouse\u2019s)',
  'initials-only': 'only initials and filler words matched',
  'business-type-differs': 'the businesses have different descriptors (Traders vs Motors)',
  'business-vs-person': 'one side is a business and the other a person',
  'generation-differs': 'Sr/Jr (or II) differ: father and son share the rest of the name',
  'generation-missing': 'only one side carries Sr/Jr/II: it may be the other generation',
} as const;

export type NameMatchRule = keyof typeof NAME_MATCH_RULES;
