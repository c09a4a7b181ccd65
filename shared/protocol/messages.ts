/**
 * The messages between the RoPE Lens language server and its clients (the VS Code extension, the
 * Inspector panel, the test harness), as typed RequestType/NotificationType values that both
 * sides use. Payloads derive from the core types (Wire<ModelRope>, Finding, InspectorData), so a
 * field added there crosses the wire without a hand-written copy.
 *
 * Node and LSP only: the webview bundles never import this module (the layering test checks it).
 */
import { NotificationType, RequestType } from 'vscode-languageserver-protocol';
import type { RopeSpec, TransformersVariant } from '../rope/spec';
import type { ModelRope } from '../config/modelRope';
import type { Wire } from '../config/wire';
import type { Finding, Fix } from '../core/findings';
import type { FileAnalysis, TrainingDescription } from '../service/types';
import type { InspectorControls, InspectorData } from '../inspector/types';
import type { PlanTrainer, PlanViewData } from '../inspector/planTypes';
import { COMMANDS } from './commands';

/** Where the rule docs live: the index, and one page per code (`docs/rules/<code>.md`). */
export const RULES_DOC_PATH = 'docs/rules.md';
export const RULE_PAGES_DIR = 'docs/rules';

/** `source` of every diagnostic the server publishes. */
export const DIAGNOSTIC_SOURCE = 'rope-lens';

/** Code-action kind for "fix every unambiguous finding". */
export const FIX_ALL_KIND = 'source.fixAll.ropeLens';

// ---- ropeLens/describe: the document's RoPE description, for the Inspector ----

export const DESCRIBE_METHOD = 'ropeLens/describe';
/** Command the extension registers; `executeCommand(DESCRIBE_COMMAND, uri?)` → DescribeResult | null. */
export const DESCRIBE_COMMAND = COMMANDS.describeDocument;

export interface DescribeParams {
  uri: string;
  /** Wait until every bound the document needs is computed (default false: answer at once). */
  waitForBounds?: boolean;
}

/** The document's RoPE description: ModelRope with every node replaced by its range. */
export type DescribedRope = Wire<ModelRope>;

/** A finding without its edits (the client asks for code actions when it wants them). */
export type DescribedFinding = Omit<Finding, 'fixes'> & { fixes: (Pick<Fix, 'title' | 'kind'> & { preferred: boolean })[] };

export interface DescribeResult {
  uri: string;
  version: number;
  kind: FileAnalysis['kind'];
  /** A model config without rotary embeddings: why. */
  noRope?: string;
  variant: TransformersVariant;
  rope: DescribedRope | null;
  /** What the frequency math needs, when the document has a readable RoPE setup. */
  spec: RopeSpec | null;
  training: TrainingDescription | null;
  /** b*, threshold and L_max for the document's (context, rotary dim, base); null while not computed. */
  bounds: { length: number; headDim: number; base: number; bstar: number | null; threshold: number | null; lmax: number | null | 'pending' } | null;
  findings: DescribedFinding[];
}

export const DescribeRequest = new RequestType<DescribeParams, DescribeResult | null, void>(DESCRIBE_METHOD);

// ---- ropeLens/checkAsModelConfig: treat a file as a model config regardless of sniffing ----

export const CHECK_AS_MODEL_CONFIG_METHOD = 'ropeLens/checkAsModelConfig';
export interface CheckAsModelConfigParams {
  uri: string;
}
export interface CheckAsModelConfigResult {
  kind: FileAnalysis['kind'];
  findings: number;
}
export const CheckAsModelConfigRequest = new RequestType<CheckAsModelConfigParams, CheckAsModelConfigResult, void>(CHECK_AS_MODEL_CONFIG_METHOD);

// ---- ropeLens/boundStatus: server → client while bounds compute (status-bar item) ----

export const BOUND_STATUS_METHOD = 'ropeLens/boundStatus';
export interface BoundStatusParams {
  /** Bound computations running or queued. 0 = idle. */
  pending: number;
  /** e.g. "b*(131072, 128)". */
  label?: string;
}
export const BoundStatusNotification = new NotificationType<BoundStatusParams>(BOUND_STATUS_METHOD);

// ---- ropeLens/inspector/*: the Inspector panel's data and Apply edits, computed by the server ----

export interface InspectorDataParams {
  uri: string;
  /** The page's controls; missing ones take the document's defaults. */
  controls?: Partial<InspectorControls>;
  /** Title of the panel's source (the workspace-relative path); default: the file's last two path parts. */
  label?: string;
  /** Wait for the exact b* and threshold of the target (the server's bound engine) before answering. */
  waitForExact?: boolean;
}

export type InspectorDataResult =
  | { ok: true; version: number; data: InspectorData /** The exact b* for this target is still computing. */; exactPending: boolean }
  | { ok: false; message: string };

export const INSPECTOR_DATA_METHOD = 'ropeLens/inspector/data';
export const InspectorDataRequest = new RequestType<InspectorDataParams, InspectorDataResult, void>(INSPECTOR_DATA_METHOD);

export interface InspectorFixParams {
  uri: string;
  controls: InspectorControls;
}
export type InspectorFixResult = { ok: true; version: number; title: string; edits: Fix['edits'] } | { ok: false; message: string };

export const INSPECTOR_FIX_METHOD = 'ropeLens/inspector/fix';
export const InspectorFixRequest = new RequestType<InspectorFixParams, InspectorFixResult, void>(INSPECTOR_FIX_METHOD);

// ---- ropeLens/plan: the context-extension plan for a document, computed by the server ----

export interface PlanParams {
  uri: string;
  /** Target context; absent: answer the defaults only (what the input box proposes). */
  target?: number;
  /** Stage lengths before the target (increasing). */
  stages?: number[];
  /** Title of the source (workspace-relative path); default: the file's last two path parts. */
  label?: string;
}

export interface PlanDefaults {
  /** The model the plan extends (hub id or path) and where its config was read. */
  model: string;
  from: string;
  trainedContext: number;
  /** A training YAML's sequence length. */
  trainingLength?: number;
  /** The input box's default: the training length when it is beyond T, else 4 × T. */
  target: number;
  /** The open file is this trainer's YAML, so a stage can be written into it. */
  trainer?: PlanTrainer;
}

export type PlanResult = { ok: true; version: number; defaults: PlanDefaults; view?: PlanViewData } | { ok: false; message: string };

export const PLAN_METHOD = 'ropeLens/plan';
export const PlanRequest = new RequestType<PlanParams, PlanResult, void>(PLAN_METHOD);

export interface PlanWriteStageParams {
  uri: string;
  target: number;
  stages?: number[];
  /** 0-based stage index. */
  stage: number;
}

export type PlanWriteStageResult = { ok: true; version: number; title: string; edits: Fix['edits'] } | { ok: false; message: string };

export const PLAN_WRITE_STAGE_METHOD = 'ropeLens/plan/writeStage';
export const PlanWriteStageRequest = new RequestType<PlanWriteStageParams, PlanWriteStageResult, void>(PLAN_WRITE_STAGE_METHOD);

/**
 * Node flags for the language-server process (the VS Code client and the server bench use them).
 * --optimize-for-size: V8 grows the heap in smaller steps and keeps less free space in it (about
 * −3 MB RSS with the benchmark's 54 configs open; the bench's latency rows and the time the
 * corpus's bounds take stayed within their run-to-run spread, docs/benchmarks.md). `rope-lens lsp`
 * cannot pass them to itself (docs/gpu.md says how an editor can).
 */
export const SERVER_NODE_FLAGS: string[] = ['--max-semi-space-size=1', '--expose-gc', '--optimize-for-size'];

/**
 * Environment added to the language-server process's (the VS Code client and the server bench use it).
 * Both glibc's, ignored elsewhere. MALLOC_ARENA_MAX=1: the bound worker thread allocates from the main
 * arena instead of keeping its own, which stays mapped after the worker is stopped (−13 MB RSS with the
 * benchmark's 54 configs open, docs/gpu.md). The worker computes in typed arrays, so the shared arena
 * costs it no measurable time. MALLOC_MMAP_THRESHOLD_=65536: blocks of 64 KB and more get their own
 * mapping, returned when freed; without it glibc raises that threshold as the process frees large
 * blocks, and they then stay in the arena (about −3 MB RSS, the same run's numbers).
 */
export const SERVER_ENV: Record<string, string> = { MALLOC_ARENA_MAX: '1', MALLOC_MMAP_THRESHOLD_: '65536' };

// ---- ropeLens/hub/*: fetching base models from the Hugging Face Hub ----

/**
 * Server → client, before the first network use: may these models be fetched from the Hub? The
 * client answers from workspace trust, `ropeLens.hub.allowNetwork` and, for `ask`, the user's
 * answer (remembered per workspace). Sent only to clients that say `hubPermission: true` in their
 * initializationOptions; others get `always` or nothing, by the setting alone.
 */
export const HUB_PERMISSION_METHOD = 'ropeLens/hub/permission';
export interface HubPermissionParams {
  /** Hub references (`org/name`, `org/name@revision`) the open documents need and the cache lacks. */
  refs: string[];
  /** The Hub endpoint that would be asked (HF_ENDPOINT or the Hub itself). */
  endpoint: string;
}
export interface HubPermissionResult {
  allow: boolean;
}
export const HubPermissionRequest = new RequestType<HubPermissionParams, HubPermissionResult, void>(HUB_PERMISSION_METHOD);

/** Server → client, when a fetch is over (the documents that needed it are re-validated). */
export const HUB_FETCHED_METHOD = 'ropeLens/hub/fetched';
export interface HubFetchedParams {
  results: { ref: string; ok: boolean; message: string }[];
}
export const HubFetchedNotification = new NotificationType<HubFetchedParams>(HUB_FETCHED_METHOD);
