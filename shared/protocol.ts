/**
 * Custom messages between the RoPE Lens language server and its clients (the VS Code extension,
 * the Inspector panel). Plain method names and payload types only, so this module stays free of
 * LSP imports; each side wraps them in `RequestType`/`NotificationType` itself.
 *
 * Inside the extension, other parts (the Inspector) reach the server through the command
 * `ropeLens.describeDocument` (see DESCRIBE_COMMAND) instead of holding the LanguageClient.
 */
import type { Range } from './document/positions';
import type { RopeSpec, TransformersVariant } from './rope/spec';

/** Where the rule docs live; `#<code>` anchors per rule. */
export const RULES_DOC_PATH = 'docs/rules.md';

/** `source` of every diagnostic the server publishes. */
export const DIAGNOSTIC_SOURCE = 'rope-lens';

/** Code-action kind for "fix every unambiguous finding". */
export const FIX_ALL_KIND = 'source.fixAll.ropeLens';

// ---- ropeLens/describe: the document's RoPE description, for the Inspector ----

export const DESCRIBE_METHOD = 'ropeLens/describe';
/** Command the extension registers; `executeCommand(DESCRIBE_COMMAND, uri?)` → DescribeResult | null. */
export const DESCRIBE_COMMAND = 'ropeLens.describeDocument';

export interface DescribeParams {
  uri: string;
  /** Wait until every bound the document needs is computed (default false: answer at once). */
  waitForBounds?: boolean;
}

/** A value of the config with where it was read (no tree nodes: they do not serialize). */
export interface DescribedValue<T> {
  value: T;
  /** Key path as written, e.g. `rope_scaling.factor`. */
  key?: string;
  /** Default or derived: why this value. */
  note?: string;
  range?: Range;
}

export interface DescribedRope {
  modelType?: string;
  base: DescribedValue<number>;
  headDim: DescribedValue<number>;
  rotaryDim: DescribedValue<number>;
  partialRotaryFactor: DescribedValue<number>;
  contextLength: DescribedValue<number>;
  originalContextLength?: DescribedValue<number>;
  slidingWindow?: DescribedValue<number>;
  scaling?: {
    key?: string;
    type?: string;
    rawType?: DescribedValue<string>;
    params: Record<string, DescribedValue<unknown>>;
  };
  layerVariants?: { layerType: string; base: DescribedValue<number> }[];
}

export interface DescribedFinding {
  code: string;
  severity: 'error' | 'warning' | 'information' | 'hint';
  message: string;
  range: Range;
  fixes: { title: string; kind: string; preferred: boolean }[];
}

export interface DescribeResult {
  uri: string;
  version: number;
  kind: 'model-config' | 'training-config' | 'serving-config' | 'other';
  variant: TransformersVariant;
  rope: DescribedRope | null;
  /** What the frequency math needs, when the document has a readable RoPE setup. */
  spec: RopeSpec | null;
  training: { tool: string; sequenceLength?: number; baseModel?: string; resolvedFrom: string | null } | null;
  /** b*, threshold and L_max for the document's (context, rotary dim, base); null while not computed. */
  bounds: { length: number; headDim: number; base: number; bstar: number | null; threshold: number | null; lmax: number | null | 'pending' } | null;
  findings: DescribedFinding[];
}

// ---- ropeLens/checkAsModelConfig: treat a file as a model config regardless of sniffing ----

export const CHECK_AS_MODEL_CONFIG_METHOD = 'ropeLens/checkAsModelConfig';
export interface CheckAsModelConfigParams { uri: string }
export interface CheckAsModelConfigResult { kind: 'model-config' | 'training-config' | 'serving-config' | 'other'; findings: number }

// ---- ropeLens/boundStatus: server → client while bounds compute (status-bar item) ----

export const BOUND_STATUS_METHOD = 'ropeLens/boundStatus';
export interface BoundStatusParams {
  /** Bound computations running or queued. 0 = idle. */
  pending: number;
  /** e.g. "b*(131072, 128)". */
  label?: string;
}

/** Node flags for the language-server process (the VS Code client and the server bench use them). */
export const SERVER_NODE_FLAGS: string[] = ['--max-semi-space-size=1', '--expose-gc'];
