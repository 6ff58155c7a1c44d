/**
 * The decision policy (docs/ARCHITECTURE.md, "Decisions"): which verdicts PAY, REVIEW or HOLD.
 * The default is safe: only a name the matcher rates GOOD or better is paid, a changed holder is
 * held, and anything the tool could not verify is held. `--policy FILE` (JSON) changes it; a
 * changed holder can be REVIEW or HOLD, never PAY.
 */
import { z } from 'zod';
import type { NameMatchResult } from '../match/verdict.js';
import type { Decision } from './codes.js';

export interface DecisionPolicy {
  /** The decision for a verified account by its name verdict. */
  nameMatch: Record<NameMatchResult, Decision>;
  /** A verified account with no name to compare (no name column, an empty name, or no holder from the bank). Default REVIEW. */
  noNameToCheck: Decision;
  /** A holder or status that differs from an earlier check. Default HOLD; never PAY. */
  holderChanged: Exclude<Decision, 'PAY'>;
  /** Different reviewers who must accept a payee before it is paid (`vas-verify review`). Default 1. */
  approvals: 1 | 2;
}

export const DEFAULT_POLICY: DecisionPolicy = Object.freeze({
  nameMatch: Object.freeze({
    DIRECT_MATCH: 'PAY',
    GOOD_PARTIAL_MATCH: 'PAY',
    MODERATE_PARTIAL_MATCH: 'REVIEW',
    POOR_PARTIAL_MATCH: 'HOLD',
    NO_MATCH: 'HOLD',
  }),
  noNameToCheck: 'REVIEW',
  holderChanged: 'HOLD',
  approvals: 1,
}) as DecisionPolicy;

const decision = z.enum(['PAY', 'REVIEW', 'HOLD']);
const policyFile = z
  .object({
    nameMatch: z
      .object({
        DIRECT_MATCH: decision,
        GOOD_PARTIAL_MATCH: decision,
        MODERATE_PARTIAL_MATCH: decision,
        POOR_PARTIAL_MATCH: decision,
        NO_MATCH: decision,
      })
      .partial()
      .strict(),
    noNameToCheck: decision,
    holderChanged: z.enum(['REVIEW', 'HOLD'], { message: 'a changed holder is REVIEW or HOLD, never PAY' }),
    approvals: z.union([z.literal(1), z.literal(2)], { message: 'approvals is 1 or 2' }),
  })
  .partial()
  .strict();

/**
 * The policy a file's text asks for, over the defaults: `{ok: false, problem}` names the field
 * that is wrong (pure; the CLI reads the file and says what to do).
 */
export function parsePolicy(text: string): { ok: true; policy: DecisionPolicy } | { ok: false; problem: string } {
  let json: unknown;
  try {
    // A file saved as "UTF-8 with BOM" (Notepad, PowerShell) starts with U+FEFF, which JSON.parse refuses.
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    return { ok: false, problem: `it is not JSON (${(error as Error).message})` };
  }
  const parsed = policyFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length > 0 ? issue.path.join('.') : 'the file';
    const detail = issue.code === 'unrecognized_keys' ? `unknown field ${issue.keys.map((k) => `"${k}"`).join(', ')}` : issue.message;
    return { ok: false, problem: `${where}: ${detail}` };
  }
  const given = parsed.data;
  return {
    ok: true,
    policy: {
      nameMatch: Object.fromEntries(
        Object.entries(DEFAULT_POLICY.nameMatch).map(([verdict, d]) => [verdict, given.nameMatch?.[verdict as NameMatchResult] ?? d]),
      ) as DecisionPolicy['nameMatch'],
      noNameToCheck: given.noNameToCheck ?? DEFAULT_POLICY.noNameToCheck,
      holderChanged: given.holderChanged ?? DEFAULT_POLICY.holderChanged,
      approvals: given.approvals ?? DEFAULT_POLICY.approvals,
    },
  };
}

/** Whether two policies decide alike (the summary says when a run used a policy other than the default). */
export function samePolicy(a: DecisionPolicy, b: DecisionPolicy): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The policy a run recorded in the state (its JSON; a `source` field is ignored), for the review
 * page, the import and the release: the default when it recorded none, a problem when this version
 * cannot read it. `source` says which it is, for people.
 */
export function recordedPolicy(text: string | null): { ok: true; policy: DecisionPolicy; source: string } | { ok: false; problem: string } {
  if (text === null) return { ok: true, policy: DEFAULT_POLICY, source: 'default (the run recorded none)' };
  let fields: Record<string, unknown>;
  try {
    fields = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { ok: false, problem: 'it is not JSON' };
  }
  const { source, ...policy } = fields;
  const parsed = parsePolicy(JSON.stringify(policy));
  if (!parsed.ok) return parsed;
  const from = typeof source === 'string' ? source : samePolicy(parsed.policy, DEFAULT_POLICY) ? 'default' : "the run's own (its --policy file)";
  return { ok: true, policy: parsed.policy, source: from };
}

/** `--approvals N` over a policy: a company's controls may ask more approvals than the run's policy, never fewer. */
export function withApprovals(policy: DecisionPolicy, approvals: number | undefined): DecisionPolicy {
  return approvals === undefined || approvals <= policy.approvals ? policy : { ...policy, approvals: 2 };
}
