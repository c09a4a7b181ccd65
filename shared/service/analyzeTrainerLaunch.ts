/**
 * Training launches in a launch file, judged as training YAML is: each invocation that starts a
 * trainer (LLaMA-Factory, ms-swift, axolotl, torchtune, or a train script read generically) is
 * read into the TrainingConfig the YAML readers would produce, its base model is resolved the
 * same way (local folder, Hugging Face cache, catalog), and the training rules run on it, with a
 * CommandLineEditor in place of the YAML editor so every fix is a token edit in the trainer's own
 * syntax. Fixes the command line cannot express are dropped whole (the finding then says where
 * the setting goes instead).
 */
import { dedupePending } from './pendingBounds';
import type { LaunchFile } from '../launch/types';
import type { GrammarProblem, OptionUse } from '../launch/request';
import type { BoundOracle, Finding, Fix, PendingBound } from '../core/findings';
import type { TransformersVariant } from '../rope/spec';
import type { BaseModelResolver, ResolvedBaseModel } from '../config/resolve';
import type { ModelRope } from '../config/modelRope';
import { LineIndex } from '../document/positions';
import { readTrainerLaunch, TrainerLaunch } from '../config/trainers/launch/index';
import { effectiveModel, overridesOnly } from '../config/effectiveModel';
import { trainedContextOf } from '../config/trainedContext';
import { RULES } from '../rules/index';
import { appendDetail, splitSentence, type RuleContext } from '../rules/context';
import { BASE_UNRESOLVED } from '../rules/trainerSpecific';
import { CONTEXT_EXCEEDED } from '../rules/contextExceeded';
import { CommandLineEditor, isWritable } from '../fixes/commandLineEditor';
import type { LaunchDescription } from './types';
import { beforeFirst } from '../core/text';

/** A trainer refuses the command as written (ms-swift's --rope_scaling without --max_model_len, a name outside its choices). */
export const TRAINER_OPTION_REFUSED = 'training/launch-option-refused';
/** The trainer never applies an option as written (axolotl train's `--sequence_len`: click passes it to the launcher). */
export const TRAINER_OPTION_IGNORED = 'training/launch-option-ignored';
export const TRAINER_LAUNCH_CODES = [TRAINER_OPTION_REFUSED, TRAINER_OPTION_IGNORED] as const;

export interface TrainerLaunchOptions {
  fileName: string;
  resolver: BaseModelResolver;
  oracle: BoundOracle;
  variant: TransformersVariant;
  log?: (message: string) => void;
}

export interface TrainerLaunchAnalysis {
  launches: LaunchDescription[];
  diagnostics: Finding[];
  pendingBounds: PendingBound[];
}

export function analyzeTrainerLaunches(file: LaunchFile, text: string, opts: TrainerLaunchOptions): TrainerLaunchAnalysis {
  const lines = new LineIndex(text);
  const out: TrainerLaunchAnalysis = { launches: [], diagnostics: [], pendingBounds: [] };
  for (const inv of file.invocations) {
    try {
      const launch = readTrainerLaunch(inv, lines);
      if (!launch) continue;
      const { findings, resolved, effective } = judge(launch, opts, out.pendingBounds);
      out.diagnostics.push(...findings);
      out.launches.push(describe(launch, resolved, effective));
    } catch (e) {
      // One odd command must not hide the others' findings.
      opts.log?.(
        `reading the training launch at ${inv.range.start.line + 1}:${inv.range.start.character + 1} of ${opts.fileName} failed: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`,
      );
    }
  }
  out.pendingBounds = dedupePending(out.pendingBounds);
  return out;
}

function judge(launch: TrainerLaunch, opts: TrainerLaunchOptions, pending: PendingBound[]) {
  const t = launch.training;
  const refs = [...t.baseModelCandidates, ...(t.baseModel ? [t.baseModel.value] : [])];
  const resolved = t.ownModel || !refs.length ? undefined : opts.resolver.resolve(refs, opts.fileName);
  launch.complete?.(resolved);
  const effective = t.ownModel ?? (resolved ? effectiveModel(t, resolved) : overridesOnly(t));
  const ctx: RuleContext = {
    doc: launch.doc,
    fileKind: 'training-config',
    training: t,
    resolved,
    effective,
    model: t.ownModel,
    oracle: opts.oracle,
    variant: opts.variant,
    pending,
    editor: new CommandLineEditor(launch),
  };
  const findings: Finding[] = launch.request.problems.map((p) => problemFinding(launch, p));
  for (const rule of RULES) {
    try {
      findings.push(...rule.check(ctx).map((f) => onCommandLine(launch, f)));
    } catch (e) {
      opts.log?.(`rule ${rule.codes.join('/')} failed on a ${launch.program} launch: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return { findings, resolved, effective };
}

/** A rule's finding as it reads on a command line: only fixes the command can express, and what the reader could not know. */
function onCommandLine(launch: TrainerLaunch, f: Finding): Finding {
  const had = f.fixes.length;
  const fixes = f.fixes.filter((x) => isWritable(x.edits));
  if (fixes.length && !fixes.some((x) => x.preferred)) preferBest(fixes);
  let detail = f.detail;
  // No fix survives (or none could be built for this trainer): say where the setting goes instead.
  if (!fixes.length && launch.fixElsewhere && (had || f.code === CONTEXT_EXCEEDED)) detail = appendDetail(detail, launch.fixElsewhere);
  if (launch.generic) detail = appendDetail(detail, `Read generically: ${launch.generic}'s own argument names are not known to RoPE Lens.`);
  // A launch line names a model to train: not finding it offline is worth saying, as information.
  const severity = f.code === BASE_UNRESOLVED ? 'information' : f.severity;
  // A rule that found no node for its value points at the start of the file: point at the command instead.
  const range = isStart(f.range) ? launch.invocation.argv[0].range : f.range;
  return { ...f, severity, ...(detail ? { detail } : {}), fixes, range };
}

function isStart(r: Finding['range']): boolean {
  return r.start.line === 0 && r.start.character === 0 && r.end.line === 0 && r.end.character === 0;
}

/** The preferred fix was one the command cannot express: prefer the remaining one that holds furthest. */
function preferBest(fixes: Fix[]): void {
  const reach = (x: Fix) => (x.verdict ? (x.verdict.lmax === null ? Infinity : x.verdict.lmax) : -1);
  const best = fixes.reduce((a, b) => (reach(b) > reach(a) ? b : a));
  best.preferred = true;
}

function problemFinding(launch: TrainerLaunch, p: GrammarProblem): Finding {
  const code = p.kind === 'bad-value' && p.severity === 'error' ? TRAINER_OPTION_REFUSED : TRAINER_OPTION_IGNORED;
  const range = launch.doc.lines.rangeOf(p.token.offset, p.token.length);
  const fixes: Fix[] =
    p.replacement !== undefined ? [{ title: `Write ${p.replacement}`, kind: 'other', preferred: true, edits: [{ range, newText: p.replacement }] }] : [];
  const generic = launch.generic ? `Read generically: ${launch.generic}'s own argument names are not known to RoPE Lens.` : undefined;
  // The trainer's words: the first sentence leads, the rest explains.
  const said = splitSentence(p.message);
  const detail = generic ? appendDetail(said.detail, generic) : said.detail;
  return { code, severity: p.severity, message: said.message, ...(detail ? { detail } : {}), range, fixes };
}

function describe(launch: TrainerLaunch, resolved: ResolvedBaseModel | undefined, effective: ModelRope | undefined): LaunchDescription {
  const r = launch.request;
  const inv = launch.invocation;
  const t = launch.training;
  const trained = effective ? trainedContextOf(effective).value : NaN;
  const lengthFlag = r.length?.option.flag.value;
  const model = t.baseModel?.value ?? r.model?.value ?? null;
  return {
    program: launch.program,
    role: 'training',
    source: inv.source,
    model,
    // A named architecture the command builds from scratch (LitGPT's built-ins) needs no lookup: it is judged as defined.
    resolvedFrom: resolved?.from ?? (t.ownModel && model !== null ? 'defined by this command' : null),
    requestedLength: r.length?.value ?? t.sequenceLength?.value ?? null,
    lengthOption: lengthFlag ? beforeFirst(lengthFlag, '=') : null,
    derivedMaxLen: null,
    trainedContext: Number.isFinite(trained) ? trained : null,
    ropeOptions: Object.fromEntries(Object.entries(r.rope).map(([k, u]) => [k, optionText(u)])),
    overrides: null,
    env: {},
    range: inv.range,
    notes: [...inv.notes, ...r.notes],
    ...(model === null && !t.ownModel && !resolved ? { unjudged: noModelReason(launch) } : {}),
  };
}

/**
 * A training launch that names no model on its line is recognised but not judged: said, never silent.
 * Where the model is named instead (the config the command starts from) is part of the reason.
 */
function noModelReason(launch: TrainerLaunch): string {
  const what = `${launch.generic ?? launch.program} is read as a training launch`;
  const cfg = launch.configFile?.value;
  if (cfg && /\.ya?ml$/i.test(cfg))
    return `${what}, but its model comes from ${cfg}, not from this line: ${cfg} is judged on its own when opened; this command is not judged.`;
  if (cfg)
    return `${what} from the built-in config ${cfg}, whose model RoPE Lens does not know by name: its trained context and RoPE settings are unknown, so it is not judged.`;
  return `${what}, but it names no model (no model option of ${launch.generic ?? launch.program} was found): its trained context and RoPE settings are unknown, so it is not judged.`;
}

/** An option's value as the program receives it: `--k v`, `--k=v`, `k=v`, or a bare flag (true). */
function optionText(u: OptionUse): string {
  if (u.value && u.value !== u.flag) return u.value.value;
  const eq = u.flag.value.indexOf('=');
  return eq >= 0 ? u.flag.value.slice(eq + 1) : 'true';
}
