/**
 * Deterministic branch details per IFSC: the same code always gets the same bank, city, branch
 * and flags, so CSV output is reproducible across runs and seeds.
 */
import type { IfscDetails } from '../api/schemas.js';
import { ifscRegistry } from '../input/ifsc-registry.js';
import { bankByCode, type Bank } from './data/banks.js';
import { PLACES, type Place } from './data/places.js';
import { createRandom, hashString, intBetween, pick } from './prng.js';

/** The shape the live service accepts: 4 letters, a zero, 6 letters or digits. */
export const IFSC_PATTERN = /^[A-Z]{4}0[A-Z0-9]{6}$/;

/**
 * The bank of a four-letter code: every bank of the shipped IFSC registry (its name comes from
 * there, as the client's bank_name does), with SWIFT and home states where data/banks.ts has them.
 */
function sandboxBank(code: string): Bank | undefined {
  const registry = ifscRegistry();
  const known = bankByCode(code);
  if (!registry.isBank(code)) return known;
  const facts = registry.bank(code);
  return { code, name: facts?.name ?? known?.name ?? code, swift: known?.swift ?? null, home: known?.home ?? [], paymentsBank: known?.paymentsBank ?? facts?.type === 'PB' };
}

/**
 * Branch details for an IFSC, or null when it is malformed or its bank code is unknown
 * (which the sandbox answers with `Invalid IFSC`). Any branch of a known bank is accepted.
 */
export function ifscDetailsFor(ifsc: string): IfscDetails | null {
  if (!IFSC_PATTERN.test(ifsc)) return null;
  const bank = sandboxBank(ifsc.slice(0, 4));
  if (bank === undefined) return null;
  const random = createRandom(hashString(ifsc));

  // Regional banks mostly have branches in their home states; a few elsewhere.
  const homePlaces: readonly Place[] = PLACES.filter((place) => bank.home.includes(place.iso3166));
  const place = homePlaces.length > 0 && random() < 0.8 ? pick(random, homePlaces) : pick(random, PLACES);
  const branch = pick(random, place.branches);

  const payments = bank.paymentsBank === true;
  const micrBank = String(100 + (hashString(bank.code) % 900));
  const micr =
    !payments && random() < 0.85 ? `${place.micrCity}${micrBank}${String(intBetween(random, 1, 999)).padStart(3, '0')}` : null;
  // Only some branches are SWIFT-enabled; the BIC gets a branch suffix from the IFSC.
  const swift = bank.swift !== null && random() < 0.35 ? `${bank.swift}${ifsc.slice(-3)}` : null;

  return {
    ifsc,
    name: bank.name,
    branch,
    district: place.district,
    state: place.state,
    city: place.city,
    imps: random() > 0.03,
    rtgs: !payments && random() > 0.08,
    neft: random() > 0.02,
    upi: random() > 0.05,
    micr,
    iso3166: place.iso3166,
    swift,
  };
}
