/** Every rule, in the order findings are reported. */
import type { Rule } from './context';
import { baseBoundRule } from './baseBound';
import { scalingTypeRule } from './scalingType';
import { scalingKeysRule } from './scalingKeys';
import { scalingValuesRule } from './scalingValues';
import { originalContextRule } from './originalContext';
import { partialRotaryRule } from './partialRotary';
import { contextExceededRule } from './contextExceeded';
import { trainingScalingRule } from './trainingScaling';
import { trainerSpecificRule } from './trainerSpecific';
import { trainerRuntimeRule } from './trainerRuntime';
import { invalidValuesRule } from './invalidValues';
import { contextExtendedRule } from './contextExtended';
import { consumerMisreadRule } from './consumerMisread';
import { consumerRefusedRule } from './consumerRefused';
import { consumerRotaryDimsRule } from './consumerRotaryDims';
import { consumerAttentionFactorRule } from './consumerAttentionFactor';

export const RULES: readonly Rule[] = [
  invalidValuesRule,
  scalingTypeRule,
  scalingKeysRule,
  scalingValuesRule,
  originalContextRule,
  partialRotaryRule,
  contextExtendedRule,
  baseBoundRule,
  contextExceededRule,
  trainingScalingRule,
  trainerSpecificRule,
  trainerRuntimeRule,
  consumerMisreadRule,
  consumerRefusedRule,
  consumerRotaryDimsRule,
  consumerAttentionFactorRule,
];

export const RULE_CODES: readonly string[] = RULES.flatMap((r) => r.codes);
export type { Rule, RuleContext } from './context';
