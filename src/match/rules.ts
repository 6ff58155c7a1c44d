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
  'leading-name-differs': 'one side starts with a given name the other lacks and the rest matches: a daughter, son or wife carrying the father\u2019s or husband\u2019s name, another person',
  'initials-only': 'only initials and filler words matched',
  'business-type-differs': 'the businesses have different descriptors (Traders vs Motors)',
  'business-vs-person': 'one side is a business and the other a person',
  'generation-differs': 'Sr/Jr (or II) differ: father and son share the rest of the name',
  'generation-missing': 'only one side carries Sr/Jr/II: it may be the other generation',
  'gender-differs': 'a given name is in its other gender\u2019s form on one side (Vimal/Vimala, Kumar/Kumari): another person',
  'near-miss-name': 'a given name or surname is one or two letters from the other side\u2019s (Ramesh/Rajesh): another name, not a typo',
  'initial-given-name': 'the given name is known only by its initial: many people fit',
  'business-type-missing': 'one firm name has a line of business the other lacks',
  'joint-holder': 'a joint account: the payee is one of its holders',
  'final-vowel': 'a given name ends in -a on one side only and it is not known whether that is a feminine form (Vimal/Vimala) or a spelling (Anand/Ananda)',
  'b-v-spelling': 'the names differ by b/v, an Eastern spelling (Bikash/Vikash) that also separates two names (Bipin/Vipin)',
} as const;

export type NameMatchRule = keyof typeof NAME_MATCH_RULES;
