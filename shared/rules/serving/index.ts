/** The rules for serving configs, in the order findings are reported. */
import type { ServingRule } from './context';
import { removedOptionRule } from './removedOption';
import { legacyTypeRule } from './legacyType';
import { maxModelLenRule } from './maxModelLen';
import { unresolvedRule } from './unresolved';

export const SERVING_RULES: readonly ServingRule[] = [removedOptionRule, legacyTypeRule, maxModelLenRule, unresolvedRule];
export const SERVING_RULE_CODES: readonly string[] = SERVING_RULES.flatMap((r) => r.codes);
