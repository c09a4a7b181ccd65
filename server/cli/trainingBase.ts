/**
 * A training YAML named where a command wants a model config (`consumers`, `serve`): the base
 * model it fine-tunes, resolved as `check` resolves it (a local folder relative to the YAML, the
 * Hugging Face cache, the built-in catalog, with --hub the Hub), as a model argument. A YAML that
 * defines its model itself, or whose base model is not found, is a usage error that says why.
 */
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { UsageError } from './io';
import { formatOf, parseDocumentText } from '../../shared/document/parse';
import { readTrainingConfig, type TrainingConfig } from '../../shared/config/training';
import { catalogConfigText, findCatalogEntry } from '../../shared/config/catalog';
import { HubContext, ResolvedModelArg, fromPhrase, withHub } from './hub';

export interface TrainingBase {
  /** The base model's config, as a model argument (`ref`: how a command names the model). */
  model: ResolvedModelArg;
  training: TrainingConfig;
  /** The RoPE keys the YAML overrides (they are in the trained checkpoint, not in the base config). */
  overrides: string[];
}

/** The training config `text` at `path` holds, or undefined when it is not one (a model config, other YAML). */
function trainingOf(text: string, path: string): TrainingConfig | undefined {
  if (formatOf(path) !== 'yaml') return undefined;
  const doc = parseDocumentText(text, 'yaml');
  return doc.root ? readTrainingConfig(doc) : undefined;
}

/**
 * The base model of the training YAML at `path`, or undefined when the file is not a training
 * config. `command` names what the model is needed for, in the error messages.
 */
export async function trainingBase(path: string, text: string, hub: HubContext, command: string): Promise<TrainingBase | undefined> {
  const t = trainingOf(text, path);
  if (!t) return undefined;
  if (t.ownModel) {
    throw new UsageError(
      `'${path}' is a training config (${t.tool}) that defines its model itself (pretraining): there is no base model config for ${command}`,
    );
  }
  const refs = [...t.baseModelCandidates, ...(t.baseModel ? [t.baseModel.value] : [])];
  if (!refs.length)
    throw new UsageError(`'${path}' is a training config (${t.tool}) that names no base model (base_model, model_name_or_path…): nothing for ${command}`);
  const abs = resolve(path);
  const hit = await withHub(hub, (resolver) => {
    const h = resolver.resolve(refs, abs);
    if (!h)
      throw new UsageError(
        `'${path}': its base model ${refs[refs.length - 1]} was not found offline (a folder beside the YAML, Hugging Face cache, built-in catalog)`,
      );
    return h;
  });
  const from = fromPhrase(hit);
  let model: ResolvedModelArg;
  if (hit.from.startsWith('catalog:')) {
    const entry = findCatalogEntry(hit.from.slice('catalog:'.length));
    if (!entry) throw new UsageError(`'${path}': its base model ${hit.ref} has no catalog config`);
    model = { kind: 'model', ref: hit.ref, text: catalogConfigText(entry), from };
  } else {
    const file = hit.from.startsWith('hf-cache:') ? hit.from.slice('hf-cache:'.length) : hit.from;
    let configText: string;
    try {
      configText = readFileSync(file, 'utf8');
    } catch (e) {
      throw new UsageError(`'${path}': cannot read its base model's config ${file} (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    // A hub id names the model as an engine downloads it; a local folder by its path from here.
    const folder = relative('.', dirname(file)) || '.';
    const local = folder.startsWith('..') ? dirname(resolve(file)) : folder === '.' || folder.startsWith(sep) ? folder : `.${sep}${folder}`;
    const ref = hit.from.startsWith('hf-cache:') ? hit.ref : local;
    model = { kind: 'model', ref, path: file, text: configText, from };
  }
  const o = t.overrides;
  const overrides = [o.base?.key, o.contextLength?.key, o.scaling ? 'rope_scaling' : undefined, o.scalingCleared ? 'rope_scaling: null' : undefined].filter(
    (k): k is string => !!k,
  );
  return { model, training: t, overrides };
}

/** One stderr line: which base model the YAML named, where it was found, and what the YAML changes on top. */
export function trainingBaseLine(path: string, b: TrainingBase, command: string): string {
  const over = b.overrides.length
    ? `; the YAML's ${b.overrides.join(', ')} ${b.overrides.length === 1 ? 'is' : 'are'} applied when training (they are in the trained checkpoint's config, not in this one)`
    : '';
  return `rope-lens ${command}: ${path} is a training config (${b.training.tool}); ${command} reads its base model ${b.model.ref} (${b.model.from})${over}`;
}
