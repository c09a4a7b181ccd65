/**
 * Launch files (shell scripts, Dockerfiles, compose and Kubernetes YAML, Modelfiles): every
 * invocation is judged on its own. The document adapters (shared/launch/…) have already turned
 * the file into invocations; each serving engine module reads its own grammar out of them
 * (serving/launch.ts), the model is resolved offline as for serving YAML (local folder relative to
 * the file, Hugging Face cache, catalog; a GGUF or folder name naming a catalog model is used as
 * an assumed identity, said so), the engine module says what it builds and derives for the
 * command, and the launch rules judge it. Training launchers plug in through `trainerAnalyzers`
 * (or the TRAINER_LAUNCH_ANALYZERS list) and add their own launches and findings.
 */
import { recognisedOnly } from '../serving/recognisedOnly';
import type { LaunchFile, Invocation, Token } from '../launch/types';
import type { LaunchRequest } from '../launch/request';
import type { Range } from '../core/range';
import type { BaseModelResolver, ResolvedBaseModel } from '../config/resolve';
import { familyAssumptionOf } from '../config/catalog';
import { noRopeModelOf, noRopeSentence } from '../config/noRopeModel';
import { parseHubRef } from '../config/resolve';
import { modelNameOf } from '../config/modelName';
import type { FamilyAssumption } from '../config/modelFamilies';
import type { TransformersVariant } from '../rope/spec';
import type { BoundOracle, FileAnalysis, Finding, LaunchDescription, PendingBound } from './types';
import { analyzeTrainerLaunches } from './analyzeTrainerLaunch';
import type { EngineName } from '../serving/types';
import { engineModelIdentity, engineOf, launchEffect, readModelfileLaunch, readServingLaunch, relateServingLaunches } from '../serving/launch';
import { engineById } from '../serving/engines';
import { detached, scalingWords } from '../serving/launchModel';
import { scalingFacts, trainedContextOf } from '../serving/common';
import { launchHoverMarkdown } from '../serving/present';
import { LaunchEditor } from '../fixes/launchEdits';
import { InvocationEditor, RequestEditor } from '../fixes/requestEditor';
import { applyTextEdits } from '../fixes/textEdits';
import { appendDetail } from '../rules/context';
import { LAUNCH_RULES, unjudgedReason } from '../rules/launch/index';
import { replacesOwnScaling } from '../rules/launch/overrideReplaces';
import { BASE_UNRESOLVED } from '../rules/trainerSpecific';
import type { LaunchRuleContext } from '../rules/launch/context';
import { keepOnePreferred } from './verifyFixes';
import { enUS } from '../core/format';
import { recognise } from '../config/trainers/launch/launchers';
import { launchNotReadFinding } from './notRead';
import { trimTrailing } from '../core/text';

export interface LaunchAnalysisOptions {
  fileName: string;
  resolver: BaseModelResolver;
  oracle: BoundOracle;
  variant: TransformersVariant;
  log?: (m: string) => void;
  /** Training launchers (swift, llamafactory-cli, axolotl, torchtune, accelerate/torchrun): appended at merge. */
  trainerAnalyzers?: readonly LaunchAnalyzer[];
  /**
   * The adapter that turns text into a LaunchFile (shell, Dockerfile, …), when the caller has one:
   * each fix is then applied and re-analysed, and kept only if the file still reads as launches
   * and has fewer findings of that code.
   */
  reparse?: (text: string) => LaunchFile | undefined;
}

/** A reader for launches other than serving engines (training launchers): its launches and findings. */
export type LaunchAnalyzer = (
  file: LaunchFile,
  text: string,
  opts: LaunchAnalysisOptions,
) => { launches: LaunchDescription[]; diagnostics: Finding[]; pendingBounds?: PendingBound[] };

/**
 * Analyzers every launch file goes through besides the serving engines: the training launchers
 * (swift, llamafactory-cli, axolotl, torchtune, accelerate/torchrun/deepspeed scripts). They see
 * only the invocations no serving engine claimed, so `python -m vllm…` is never a "training script".
 */
export const TRAINER_LAUNCH_ANALYZERS: readonly LaunchAnalyzer[] = [analyzeTrainerLaunches];

/** A hover for each judged launch: where it is and what the engine will do with it. */
export interface LaunchHover {
  range: Range;
  markdown: string;
}

export type LaunchFileAnalysis = FileAnalysis & { launches: LaunchDescription[]; launchHovers: LaunchHover[] };

const EMPTY_RANGE: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/** A pre-GGUF GGML file's format word (`llama-2-13b-chat.ggmlv3.q4_0.bin`): a container, not the model's name. */
const GGML_TAG = /[-_.]ggml(?:v\d+)?$/i;
/** llama.cpp's converter names its output `ggml-model-<type>.gguf` unless told otherwise: the folder holds the name. */
const CONVERTER_DEFAULT = /^ggml-model$/i;

/**
 * Names to try after the one written: a GGUF (or GGML `.bin`) file without its quantisation, split and
 * format suffixes, a converter's default file name by its folder, a `-hf` repo without `:quant`, and
 * the `-hf` repo a converted file is named after (TheBloke's `llama-2-7b-chat.Q4_K_M.gguf` comes from
 * `Llama-2-7b-chat-hf`).
 */
export function identityCandidates(ref: string): string[] {
  const out: string[] = [];
  const r = ref.trim().replace(/:[A-Za-z0-9_.-]+$/, (m) => (/^:(i?q\d|f16|f32|bf16|fp16)/i.test(m) ? '' : m));
  if (r !== ref.trim()) out.push(r);
  const segs = trimTrailing(r.replace(/\\/g, '/'), '/').split('/');
  const base = segs.pop() ?? r;
  const file = /\.(?:gguf|bin)$/i.test(base);
  let name = base.replace(/\.(?:gguf|bin)$/i, '').replace(/-\d{5}-of-\d{5}$/i, '');
  // A file name is at most 255 characters: the tag pattern (quadratic on `_q1_q1…!`) runs on no more.
  if (name.length <= 255) name = name.replace(/[-_.](i?q\d(_[a-z0-9]+)*|f16|f32|bf16|fp16|q\d_k(_[sml])?)$/i, '');
  name = name.replace(GGML_TAG, '').replace(/-gguf$/i, '');
  if (file && CONVERTER_DEFAULT.test(name)) name = segs.pop() ?? '';
  if (name && name !== base) out.push(name);
  if (base !== r && !out.includes(base)) out.push(base);
  if (file && name && !/-hf$/i.test(name)) out.push(`${name}-hf`);
  return out;
}

/** "the Qwen2.5 family: trained at 32,768, base 1,000,000, …" (completes "assumed from …"). */
function familyHow(a: FamilyAssumption): string {
  return `the ${a.generation} family: ${a.assumed.join(', ')}`;
}

function resolveModel(
  ref: string,
  engine: EngineName,
  opts: JudgeOptions,
): { resolved?: ResolvedBaseModel; assumed?: LaunchRuleContext['assumed']; named?: string } {
  const attempt = (refs: string[]): ResolvedBaseModel | undefined => {
    try {
      return opts.resolver.resolve(refs, opts.fileName);
    } catch (e) {
      opts.log?.(`resolving ${refs.join(', ')}: ${(e as Error).message}`);
      return undefined;
    }
  };
  const direct = attempt([ref]);
  const family = (hit: ResolvedBaseModel) => familyAssumptionOf(hit.from);
  if (direct) {
    // Not in the catalog but named after a known generation: its values are the family's, said so.
    // A file name (a GGUF, a folder) that names a catalog model is an assumption too.
    const fam = family(direct);
    const byName = direct.from.startsWith('catalog:') && !parseHubRef(ref.trim());
    if (!fam && !byName) return { resolved: direct };
    const id = direct.from.slice('catalog:'.length);
    const how = fam ? (byName ? `the name ${ref} and ${familyHow(fam)}` : familyHow(fam)) : `the name ${ref}`;
    return { resolved: direct, assumed: { written: ref, id: fam && byName ? (modelNameOf(ref)?.name ?? id) : id, how } };
  }
  // The engine's own naming first (an Ollama library tag is not a file name to trim).
  const own = engineModelIdentity(engine, ref);
  if (own) {
    const hit = attempt([own.id]);
    if (!hit) return { named: own.id };
    const fam = family(hit);
    return { resolved: hit, assumed: { written: ref, id: own.id, how: fam ? `${own.how} and ${familyHow(fam)}` : own.how } };
  }
  for (const c of identityCandidates(ref)) {
    const hit = attempt([c]);
    // The catalog's id, else the name that found it (a folder beside the file, a cache entry): never an absolute path.
    if (hit) {
      const fam = family(hit);
      const how = fam ? `the name ${ref} and ${familyHow(fam)}` : `the name ${ref}`;
      return { resolved: hit, assumed: { written: ref, id: hit.from.startsWith('catalog:') ? hit.from.slice('catalog:'.length) : c, how } };
    }
  }
  return {};
}

/** Findings about the command's own flags, which hold whatever model or length it runs. */
const GRAMMAR_CODES: ReadonlySet<string> = new Set([
  'launch/foreign-flag',
  'launch/removed-flag',
  'launch/misspelled-flag',
  'launch/unknown-env',
  'launch/bad-value',
  'launch/override-key-ignored',
  'vllm/removed-option',
  'vllm/legacy-rope-type',
]);

/**
 * Values that came from a `${VAR:-default}` whose variable the file never sets: judged as the
 * default, and said so (the environment that runs the script may set it otherwise).
 */
function defaultNotes(req: LaunchRequest): string[] {
  const out: string[] = [];
  const say = (what: string, t: Token | undefined) => {
    const d = t?.via?.find((v) => v.defaulted);
    if (d && t)
      out.push(
        `The ${what} ${t.value} is the default of \${${d.name}:-…}: ${d.name} is not set in this file, so the environment that runs it may choose another.`,
      );
  };
  say('model', req.model);
  say('length', req.length?.option.value);
  return out;
}

export interface Judged {
  request: LaunchRequest;
  description: LaunchDescription;
  diagnostics: Finding[];
  hover: LaunchHover;
  /** What the rules saw: the resolved model, the engine's effect, the trained context. */
  context: LaunchRuleContext;
}

/** Options for judging one request; the launch file's, of which the oracle is not needed here. */
export type JudgeOptions = Omit<LaunchAnalysisOptions, 'oracle'>;

/**
 * One serving request judged by the one rule set, whatever file it came from: a command of a
 * launch file (editor: its tokens) or an engine's config file (editor: its keys; `where` is the
 * range findings about the whole request take).
 */
export function judgeRequest(req: LaunchRequest, editor: RequestEditor, opts: JudgeOptions, where?: Range): Judged {
  const engine = engineOf(req)!;
  const inv: Invocation | undefined = req.invocation;
  const commandRange = inv?.argv[0] && inv.argv[0].offset >= 0 ? inv.argv[0].range : (inv?.range ?? req.modelfile?.range ?? where ?? EMPTY_RANGE);
  const ctx: LaunchRuleContext = {
    request: req,
    engine,
    editor,
    variant: opts.variant,
    commandRange,
    modelName: req.model?.value ?? 'the model',
  };
  const notes = [...req.notes, ...(inv?.notes ?? []), ...defaultNotes(req)];
  if (req.model) {
    const { resolved, assumed, named } = resolveModel(req.model.value, engine, opts);
    if (named) ctx.named = named;
    // Not a base-model hit, but a model the catalog knows to have no RoPE: said as `serve` says it.
    if (!resolved) {
      const noRope = noRopeModelOf([req.model.value, ...identityCandidates(req.model.value)]);
      if (noRope) ctx.noRope = noRope;
    }
    if (resolved) {
      ctx.resolved = resolved;
      ctx.model = detached(resolved.rope, resolved.from);
      ctx.trained = trainedContextOf(resolved.rope);
      ctx.modelFacts = scalingFacts(resolved.rope);
      if (assumed) {
        ctx.assumed = assumed;
        ctx.modelName = `${assumed.id} (assumed from ${assumed.how})`;
        notes.push(`${assumed.written} is read as ${assumed.id} from ${assumed.how}: its config is assumed, not read.`);
      }
      try {
        ctx.effect = launchEffect(engine, req, { rope: ctx.model, trainedContext: ctx.trained });
        notes.push(...ctx.effect.notes);
      } catch (e) {
        opts.log?.(`${engine} launch effect failed: ${(e as Error).message}`);
      }
    }
  }
  const diagnostics: Finding[] = [];
  for (const rule of LAUNCH_RULES) {
    try {
      diagnostics.push(...rule.check(ctx));
    } catch (e) {
      // One rule tripping over an odd command must not take the others down.
      opts.log?.(`launch rule ${rule.codes.join('/')} failed: ${(e as Error).message}`);
    }
  }
  // Findings judged on a `${VAR:-default}` say so where the user reads them.
  const defaults = defaultNotes(req);
  // (Not on grammar findings: a flag the engine refuses is wrong whatever the model or length.)
  if (defaults.length) for (const d of diagnostics) if (!GRAMMAR_CODES.has(d.code)) d.detail = appendDetail(d.detail, defaults.join(' '));
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(inv?.env ?? {})) if (engineById(engine).env.test(k)) env[k] = v.value;
  const ropeOptions: Record<string, string> = {};
  for (const [k, u] of Object.entries(req.rope)) ropeOptions[k] = u.value?.value ?? 'true';
  const description: LaunchDescription = {
    program: req.program,
    role: req.role,
    source: inv?.source ?? req.modelfile?.source ?? 'shell',
    model: req.model?.value ?? null,
    resolvedFrom: ctx.resolved?.from ?? null,
    requestedLength: req.length?.value ?? null,
    lengthOption: req.length?.option.name ?? null,
    derivedMaxLen: ctx.effect?.derived ?? null,
    trainedContext: ctx.trained ?? null,
    ropeOptions,
    overrides: req.overrides?.value ?? null,
    env,
    range: inv?.range ?? req.modelfile?.range ?? EMPTY_RANGE,
    notes,
    ...(replacesOwnScaling(ctx) ? { replacesModelScaling: true as const } : {}),
  };
  const unjudged = unjudgedReason(ctx);
  if (unjudged) description.unjudged = unjudged.reason;
  if (unjudged?.notFoundOffline) description.notFoundOffline = true;
  const markdown = launchHoverMarkdown({
    engine,
    model: description.model,
    resolvedFrom: description.resolvedFrom,
    ...(ctx.assumed ? { assumed: `assumed from ${ctx.assumed.how}` } : {}),
    requested: description.requestedLength,
    lengthOption: description.lengthOption,
    derived: description.derivedMaxLen,
    ...(ctx.effect ? { derivedBasis: ctx.effect.basis } : {}),
    trained: description.trainedContext,
    scaling: ctx.effect ? scalingWords(ctx.effect.facts) : null,
    scalingFromCommand: ctx.effect?.scalingFromCommand ?? false,
    notes,
  });
  return { request: req, description, diagnostics, hover: { range: description.range, markdown }, context: ctx };
}

/** Every launch in the file, judged one by one; the training launchers' analyzers add theirs. */
export function analyzeLaunchFile(file: LaunchFile, text: string, opts: LaunchAnalysisOptions): LaunchFileAnalysis {
  const result = analyzeLaunchOnce(file, text, opts);
  if (opts.reparse && result.diagnostics.some((d) => d.fixes.length)) verifyLaunchFixes(text, result, opts);
  // As for config files (analyze.ts verifyFixes): a finding's only fix is its preferred one.
  for (const d of result.diagnostics) if (d.fixes.length === 1 && !d.fixes[0].preferred) d.fixes[0].preferred = true;
  return result;
}

function analyzeLaunchOnce(file: LaunchFile, text: string, opts: LaunchAnalysisOptions): LaunchFileAnalysis {
  const editor = new LaunchEditor(text);
  const requests: LaunchRequest[] = [];
  const unclaimed: Invocation[] = [];
  for (const inv of file.invocations) {
    try {
      const req = readServingLaunch(inv);
      if (req) requests.push(req);
      else unclaimed.push(inv);
    } catch (e) {
      opts.log?.(`reading a launch in ${opts.fileName} failed: ${(e as Error).message}`);
    }
  }
  if (file.modelfile) requests.push(readModelfileLaunch(file.modelfile));
  relateServingLaunches(requests, text, opts.fileName);
  const launches: LaunchDescription[] = [];
  const diagnostics: Finding[] = [];
  const launchHovers: LaunchHover[] = [];
  for (const req of requests) {
    const j = judgeRequest(req, new InvocationEditor(editor, req.invocation), opts);
    launches.push(j.description);
    diagnostics.push(...j.diagnostics);
    launchHovers.push(j.hover);
  }
  const pendingBounds: PendingBound[] = [];
  const rest: LaunchFile = { ...file, invocations: unclaimed, modelfile: undefined };
  for (const analyzer of [...TRAINER_LAUNCH_ANALYZERS, ...(opts.trainerAnalyzers ?? [])]) {
    if (!rest.invocations.length) break;
    try {
      const r = analyzer(rest, text, opts);
      // A training launch whose base model was not found offline is not judged: no finding per launch (see LaunchDescription.unjudged).
      for (const l of r.launches)
        if (l.model && !l.resolvedFrom && !l.unjudged) {
          const noRope = noRopeModelOf([l.model, ...identityCandidates(l.model)]);
          l.unjudged = noRope
            ? `Base model ${noRopeSentence(JSON.stringify(l.model), noRope.why)}: there is no RoPE to judge.`
            : `Base model ${JSON.stringify(l.model)} was not found offline (local path, Hugging Face cache, built-in catalog): its trained context and RoPE settings are unknown.`;
          if (!noRope) l.notFoundOffline = true;
        }
      launches.push(...r.launches);
      // Training launches get a hover too: what the trainer was read to do, and with which model.
      for (const l of r.launches) launchHovers.push({ range: l.range, markdown: trainingHoverMarkdown(l) });
      diagnostics.push(...r.diagnostics.filter((d) => d.code !== BASE_UNRESOLVED));
      pendingBounds.push(...(r.pendingBounds ?? []));
    } catch (e) {
      opts.log?.(`a training-launch analyzer failed on ${opts.fileName}: ${(e as Error).message}`);
    }
  }
  // Lines that look like launches and are not read as one: said, never silent.
  for (const u of unreadLaunches(file, unclaimed, launches)) {
    launches.push(u);
    launchHovers.push({ range: u.range, markdown: `**Not read as a launch:** \`${u.program}\`\n\n${u.unjudged}` });
  }
  // Launches in file order, whichever reader claimed them.
  launches.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
  // A file whose launches are all said, none judged, gets one note (launch/not-read): never silent.
  diagnostics.push(...launchNotReadFinding(launches));
  return { kind: 'launch', rope: null, training: null, launches, launchHovers, diagnostics, pendingBounds };
}

/**
 * What the adapters marked as looking like a launch without being one (LaunchFile.unread), and
 * arguments given to an image whose entrypoint is unknown that no engine read (nor a trainer):
 * each a description with the reason as `unjudged`, so the CLI summary, `--verbose`, `--json` and
 * the hover say it.
 */
function unreadLaunches(file: LaunchFile, unclaimed: Invocation[], read: LaunchDescription[]): LaunchDescription[] {
  const said = (program: string, source: string, range: Range, why: string): LaunchDescription => ({
    program,
    role: 'serving',
    source,
    model: null,
    resolvedFrom: null,
    requestedLength: null,
    lengthOption: null,
    derivedMaxLen: null,
    trainedContext: null,
    ropeOptions: {},
    overrides: null,
    env: {},
    range,
    notes: [],
    unjudged: why,
    unread: true,
  });
  const out = (file.unread ?? []).map((u) => said(u.program, file.format, u.range, u.message));
  const claimed = (r: Range) => read.some((l) => l.range.start.line === r.start.line && l.range.start.character === r.start.character);
  // A trainer's command line its reader took nothing from (`trl sft --config run.yaml`, a train
  // script given neither a model nor a length): said once, when nothing else in the file was read.
  const trainerLike = read.length ? undefined : unclaimed.find((inv) => inv.entrypoint === 'program' && recognise(inv.argv) !== undefined);
  if (trainerLike) {
    const words = trainerLike.argv.slice(0, 3).map((t) => t.value);
    // verl, RL2 and other Hydra-configured trainers take `key=value` (`+key=value`) overrides: say which model one names.
    const overrides = trainerLike.argv.filter((t) => HYDRA_OVERRIDE.test(t.value));
    const model = overrides.find((t) => HYDRA_MODEL.test(t.value.replace(/^\++/, '')));
    const why =
      overrides.length >= 2
        ? `\`${words.join(' ')} …\` starts a trainer configured by key=value overrides (Hydra/OmegaConf${model ? `; the model is ${model.value.replace(/^\++/, '')}` : ''}), which RoPE Lens does not read for this trainer, so this launch was not judged.`
        : `\`${words.join(' ')} …\` starts a trainer, but names neither a base model nor a training length RoPE Lens reads on the command line (a config file it names is judged when opened), so this launch was not judged.`;
    out.push(said(words.join(' '), trainerLike.source, trainerLike.range, why));
  }
  for (const inv of unclaimed) {
    const known = claimed(inv.range) ? undefined : recognisedOnly(inv);
    if (known) {
      out.push(said(known.program, inv.source, inv.range, known.why));
      continue;
    }
    if (inv.entrypoint !== 'image' || !inv.image || !inv.argv[0]?.value.startsWith('-') || claimed(inv.range)) continue;
    const args = inv.argv.map((t) => t.value).join(' ');
    out.push(
      said(
        inv.image.value,
        inv.source,
        inv.range,
        `Arguments for the image ${inv.image.value}, whose entrypoint is unknown, are not read: they hold no option that only one engine takes, so which program reads \`${args.length > 80 ? `${args.slice(0, 77)}…` : args}\` is unknown (an engine's image name, or its program in the command, makes it read).`,
      ),
    );
  }
  return out;
}

/** A Hydra/OmegaConf override (`data.max_response_length=8192`, `+actor_rollout_ref.model.override_config.rope_scaling.factor=4`). */
const HYDRA_OVERRIDE = /^\+{0,2}[A-Za-z_][\w.]*=/;
/** Override keys that name the model a trainer starts from (verl `actor_rollout_ref.model.path`, RL2 `actor.model_name`). */
const HYDRA_MODEL = /^(?:[\w]+\.)*(?:model\.path|model_name|model_name_or_path|partial_pretrain)=/;

const TRAINER_LABEL: Record<string, string> = {
  swift: 'ms-swift',
  llamafactory: 'LLaMA-Factory',
  axolotl: 'axolotl',
  torchtune: 'torchtune',
  litgpt: 'LitGPT',
  verl: 'verl',
  'generic-trainer': 'Training script',
};

/** The hover on a training launch: the model, its trained context, the length and RoPE options read. */
function trainingHoverMarkdown(l: LaunchDescription): string {
  const label = TRAINER_LABEL[l.program] ?? l.program;
  const lines = [`**${label} launch**${l.model ? ` of \`${l.model}\`` : ''}`, ''];
  if (l.model && !l.resolvedFrom)
    lines.push(
      'The base model was not found offline: its trained context and RoPE settings are unknown, so this launch is not judged (`rope-lens check --hub`, or `ropeLens.hub.allowNetwork`, fetches its config).',
      '',
    );
  const rows: [string, string][] = [];
  if (l.resolvedFrom) rows.push(['model config', l.resolvedFrom]);
  if (l.requestedLength !== null) rows.push(['training length', `${enUS(l.requestedLength)}${l.lengthOption ? ` (${l.lengthOption})` : ''}`]);
  if (l.trainedContext !== null) rows.push(['trained context', enUS(l.trainedContext)]);
  for (const [k, v] of Object.entries(l.ropeOptions)) rows.push([k, `\`${v}\``]);
  if (rows.length) lines.push('| | |', '|---|---|', ...rows.map(([k, v]) => `| ${k} | ${v} |`));
  for (const n of l.notes) lines.push('', n);
  return lines.join('\n');
}

/** Keeps only fixes that, applied and re-read, leave the file a launch file with fewer findings of that code. */
function verifyLaunchFixes(text: string, analysis: LaunchFileAnalysis, opts: LaunchAnalysisOptions): void {
  const lines = new LaunchEditor(text).lines;
  const count = (a: FileAnalysis, code: string) => a.diagnostics.filter((d) => d.code === code).length;
  const training = (analysis.launches ?? []).some((l) => l.role === 'training');
  for (const d of analysis.diagnostics) {
    const before = count(analysis, d.code);
    const hadPreferred = d.fixes.some((f) => f.preferred);
    d.fixes = d.fixes.filter((fix) => {
      try {
        const next = applyTextEdits(text, lines, fix.edits);
        const file = opts.reparse!(next);
        if (!file) return false;
        return count(analyzeLaunchOnce(file, next, opts), d.code) < before;
      } catch {
        return false;
      }
    });
    // As verifyFixes does for every file: the next-ranked fix is preferred when the preferred one went.
    keepOnePreferred(d, hadPreferred, training);
  }
}
