/**
 * A trainer's command line read as a training config: the TrainingConfig the YAML readers would
 * produce for the same values (so the same rules judge it), a positioned stand-in document whose
 * nodes sit on the command's own tokens (so findings land on them), and how this command line
 * writes an option it does not have yet (so fixes are token edits in the trainer's own syntax).
 */
import type { ParsedDocument } from '../../../document/configNode';
import type { Invocation, Token } from '../../../launch/types';
import type { LaunchRequest } from '../../../launch/request';
import type { TrainingConfig } from '../../training';
import type { ResolvedBaseModel } from '../../resolve';
import type { ArgOption } from './argv';
import type { TrainerProgram } from './launchers';

/** How a command line spells an option it does not have yet; undefined: it cannot set that key. */
export interface OptionWriter {
  /** Argument words (unquoted) that set `key` to `value`: `['--rope_scaling', 'yarn']`, `['rope_scaling=yarn']`. */
  write(key: string, value: string): string[] | undefined;
  /** Keys whose value is JSON text on this command line (ms-swift `--rope_scaling '{…}'`). */
  jsonKeys: readonly string[];
  /**
   * A scaling block as options, for commands without a JSON option (Megatron:
   * `--rotary-seq-len-interpolation-factor` for linear); undefined when the block cannot be written.
   */
  scaling?(block: Record<string, unknown>): [key: string, value: string | null][] | undefined;
  /** A number as this command line must spell it for `key` (Megatron's --rotary-base is type=int). */
  number?(key: string, value: number): string;
}

export interface TrainerLaunch {
  program: TrainerProgram;
  invocation: Invocation;
  training: TrainingConfig;
  /** Stand-in document: one child of the root per option read, positioned on the option's value. */
  doc: ParsedDocument;
  /** The options read, by the key the TrainingConfig's paths use (`cutoff_len`, `rope_scaling`, `rotary-base`). */
  options: Map<string, ArgOption>;
  request: LaunchRequest;
  writer: OptionWriter;
  /** The YAML the command starts from (`llamafactory-cli train cfg.yaml`, `axolotl train cfg.yml`, `tune run … --config`). */
  configFile?: Token;
  /** Read without knowing the script's grammar: its name, said in every finding. */
  generic?: string;
  /** Said when a fix would have to go into the config file, not the command line. */
  fixElsewhere?: string;
  /** Settles what depends on the base model (ms-swift derives the factor from its context). */
  complete?(resolved: ResolvedBaseModel | undefined): void;
}
