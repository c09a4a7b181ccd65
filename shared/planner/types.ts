/** The context-extension plan: what `rope-lens plan` prints and the Inspector's plan view draws. */
import type { FixVerdict } from '../core/findings';

export type PlanMethod = 'as-shipped' | 'ntk-aware' | 'gradient' | 'robust-base' | 'yarn' | 'linear' | 'llama3' | 'dynamic' | 'ntk-fixed' | 'ntk-mixed';

export type Trainer = 'axolotl' | 'llama-factory' | 'torchtune';
export const TRAINERS: readonly Trainer[] = ['axolotl', 'llama-factory', 'torchtune'];

export interface PlanOption {
  method: PlanMethod;
  label: string;
  /** The rope_theta this option writes (base options). */
  ropeTheta?: number;
  /** The Hugging Face rope_scaling dict this option writes (scaling options). */
  ropeScaling?: Record<string, string | number>;
  /** θᵢ / θᵢ′ for each pair, where no config key expresses the option (NTK-fixed / NTK-mixed). */
  perDimensionFactors?: number[];
  /** First m < length where Σ cos(m·θᵢ′) < 0 on the option's effective frequencies; = length when none. */
  lmax: number;
  /** lmax reaches the stage length: the generalised bound holds for every m < length. */
  meetsBound: boolean;
  /** Liu et al.'s critical dimension at the stage length: channels whose period fits in it. */
  criticalDim: number;
  /** transformers' attention factor on cos/sin (YaRN: 0.1·ln s + 1). */
  attentionFactor: number;
  /** Su's log-n attention scale max(1, log_T L) at the stage length (NTK-fixed / NTK-mixed). */
  lognScale?: number;
  /** Mean |ln(θᵢ′/θᵢ)| over pairs: how far the frequencies move from the trained ones. */
  change: number;
  /** A Hugging Face config can express it (rope_theta or rope_scaling). */
  expressible: boolean;
  /** Usable while training (dynamic NTK is inference only). */
  trainable: boolean;
  /** Trainers whose YAML can write this option. */
  trainers: Trainer[];
  notes: string[];
  /** Wavelengths 2π/θᵢ′ (for the plan view; left out of the CLI's JSON). */
  wavelengths: number[];
  /**
   * A base option that would be recommended: is every base within ±10% of ropeTheta valid at the
   * stage length? 'proven', a base there that is not (`invalidAt`), or 'unproven' (past the plan's
   * proof length). Only a proven base is recommended: a base valid at one point sits on a narrow island.
   */
  neighbourhood?: 'proven' | 'unproven' | { invalidAt: number };
}

export interface PlanStage {
  length: number;
  /** s = length / T: every scaling factor is relative to the trained context. */
  factor: number;
  options: PlanOption[];
  /** The recommended method, or null when no option can meet the bound (see recommendedReason). */
  recommended: PlanMethod | null;
  recommendedReason: string;
  /** Trainer YAML fragments for this stage. */
  snippets: Partial<Record<Trainer, string>>;
  /** Why a trainer's snippet differs from the recommendation, or why there is none. */
  snippetNotes: Partial<Record<Trainer, string>>;
}

export interface Plan {
  model: string;
  /** Where the model's config was read (path, hf-cache:…, catalog:…). */
  from: string;
  modelType?: string;
  base: number;
  rotaryDim: number;
  trainedContext: number;
  trainedContextSource: string;
  /** The context the model's config ships (max_position_embeddings). */
  shippedContext: number;
  /** The model's own scaling, when it ships one. */
  shippedScaling?: string;
  target: number;
  /** Liu et al.'s critical dimension of the original base at T. */
  criticalDimAtTrained: number;
  stages: PlanStage[];
  notes: string[];
  /** The question this plan answers: training at the target (stages, options and trainer snippets). */
  question: string;
  /**
   * Running the checkpoint at the target without training: the one rewrite `check`, `serve` and the
   * Inspector recommend (advice/advice.ts), or null with the reason when none is needed.
   */
  withoutTraining: {
    kind: string;
    label: string;
    why: string;
    factor: number;
    original?: number;
    base?: number;
    recipe: boolean;
    /** Its verdict, as check's fix and serve's rewrite carry it (advice/scalingVerdict.ts): judged by reach. */
    verdict?: FixVerdict;
  } | null;
  withoutTrainingReason?: string;
  /** Every RoPE layer attends within a window the checkpoint was trained on: no full-attention frequencies to judge. */
  noFullAttention?: string;
}
