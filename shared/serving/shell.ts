/** A plan as one line a POSIX shell runs as is: env assignments, then each argument quoted when needed. */
import type { ServingPlan } from './types';
import { shellQuote } from '../launch/quote';

export { shellQuote };

export function shellCommand(plan: Pick<ServingPlan, 'args' | 'env'>): string {
  const env = Object.entries(plan.env).map(([k, v]) => `${k}=${shellQuote(v)}`);
  return [...env, ...plan.args.map(shellQuote)].join(' ');
}
