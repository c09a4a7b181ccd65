/**
 * The engines as the front-ends see them: server/ and the CLI reach shared/serving/ only through
 * this module (the layer test enforces it), so the engine registry has one entry point and a
 * front-end never holds engine knowledge of its own.
 */
export { ENGINES, ENGINE_NAMES, engineById, servingInput, servingPlan } from '../serving/index';
export type { Engine, EngineName, ServingInput, ServingPlan } from '../serving/index';
export { launchScript, servingHoverSection, vllmConfigYaml } from '../serving/present';
export { consumersMarkdown, consumersText, consumerCells } from '../serving/consumersView';
export { CONSUMER_SPEC_FORMS, consumerSpecProblem } from '../serving/pins';
export { contextKeysOf, vllmLengthWithoutRope } from '../serving/contextKeys';
export { shellCommand } from '../serving/shell';
export { grouped } from '../serving/common';
