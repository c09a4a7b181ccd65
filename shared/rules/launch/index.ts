/** The rules for launch requests (commands and Modelfiles), in the order findings are reported. */
import type { LaunchRule } from './context';
import { grammarRule } from './grammar';
import { launchLegacyTypeRule } from './legacyType';
import { lengthRule } from './length';
import { beyondTrainedRule } from './beyondTrained';
import { implicitLinearRule } from './implicitLinear';
import { scalingMismatchRule } from './scalingMismatch';
import { overrideReplacesRule } from './overrideReplaces';
import { overrideDropsKeysRule } from './overrideDropsKeys';
import { cmdAfterEntrypointRule } from './cmdAfterEntrypoint';
export { unjudgedReason, LAUNCH_MODEL_UNRESOLVED, SERVING_MODEL_UNRESOLVED } from './unresolved';

export const LAUNCH_RULES: readonly LaunchRule[] = [
  cmdAfterEntrypointRule,
  grammarRule,
  launchLegacyTypeRule,
  lengthRule,
  beyondTrainedRule,
  implicitLinearRule,
  scalingMismatchRule,
  overrideReplacesRule,
  overrideDropsKeysRule,
];
export const LAUNCH_RULE_CODES: readonly string[] = [...new Set(LAUNCH_RULES.flatMap((r) => r.codes))];
export type { LaunchRule, LaunchRuleContext } from './context';
