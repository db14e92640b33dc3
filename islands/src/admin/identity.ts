// NIP and REGON checked in the form as the server checks them: the weights and the messages
// come from the Rust (content::identity, through schema.ts), only the arithmetic is here.
import { IDENTITY_RULES } from "../generated/schema";

interface Rule {
  readonly weights: readonly (readonly number[])[];
  readonly tenIsZero: boolean;
  readonly lengthMessage: string;
  readonly checksumMessage: string;
}

/** What is wrong with `value` under `rule`, in Polish; `null` when it is right. */
export function numberProblem(rule: Rule, value: string): string | null {
  const text = value.replace(/[- ]/g, "");
  if (!/^\d+$/.test(text)) return rule.lengthMessage;
  const digits = [...text].map(Number);
  const weights = rule.weights.find((w) => w.length + 1 === digits.length);
  if (!weights) return rule.lengthMessage;
  const rest = weights.reduce((sum, w, i) => sum + w * (digits[i] ?? 0), 0) % 11;
  const check = rest === 10 && rule.tenIsZero ? 0 : rest;
  return digits[digits.length - 1] === check ? null : rule.checksumMessage;
}

export const nipProblem = (value: string) => numberProblem(IDENTITY_RULES.nip, value);
export const regonProblem = (value: string) => numberProblem(IDENTITY_RULES.regon, value);
