/** A plan as one line a POSIX shell runs as is: env assignments, then each argument quoted when needed. */
import type { ServingPlan } from './types';

const SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;

export function shellQuote(arg: string): string {
  if (arg !== '' && SAFE.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

export function shellCommand(plan: Pick<ServingPlan, 'args' | 'env'>): string {
  const env = Object.entries(plan.env).map(([k, v]) => `${k}=${shellQuote(v)}`);
  return [...env, ...plan.args.map(shellQuote)].join(' ');
}
