/**
 * What the serving-config rules receive: the vLLM YAML, the model it names resolved offline, and
 * the model as vLLM will build it (the YAML's hf-overrides applied), with vLLM's derived length.
 */
import type { ParsedDocument } from '../../document/configNode';
import type { ModelRope } from '../../config/modelRope';
import type { ResolvedBaseModel } from '../../config/resolve';
import type { VllmServingConfig } from '../../config/serving/vllmYaml';
import type { ScalingFacts } from '../../serving/common';
import type { Finding, TextEdit } from '../../core/findings';
import { DocumentEditor } from '../../fixes/documentEditor';

export interface ServingRuleContext {
  doc: ParsedDocument;
  editor: DocumentEditor;
  serving: VllmServingConfig;
  resolved?: ResolvedBaseModel;
  /** The resolved model with the YAML's overrides (scaling, rope_theta, max_position_embeddings). */
  effective?: ModelRope;
  /** The scaling vLLM will apply (the override's, else the model's). */
  facts?: ScalingFacts;
  /** vLLM's derived max_model_len for the effective model. */
  derived?: number;
  /** The length the checkpoint was trained at. */
  trained?: number;
  /** Writes `hf-overrides.<key>` = value in the file's own form (mapping or JSON string). */
  setOverride(key: string, value: Record<string, unknown> | number): TextEdit[];
  /** Writes several `hf-overrides` keys in one edit, keeping the others. */
  setOverrides(values: Record<string, unknown>): TextEdit[];
}

export interface ServingRule {
  codes: readonly string[];
  check(ctx: ServingRuleContext): Finding[];
}
