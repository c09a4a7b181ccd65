/** Small helpers shared by the trainer command-line readers. */
import type { Located } from '../../modelRope';
import type { Invocation } from '../../../launch/types';
import type { LaunchRequest, OptionUse } from '../../../launch/request';
import { keyPathOf, numberOf, stringOf } from '../../modelValues';
import type { ArgOption } from './argv';
import type { LaunchDocBuilder } from './launchDoc';
import type { TrainerProgram } from './launchers';

/** The option as the request records it (canonical name, flag and value tokens). */
export function optionUse(name: string, o: ArgOption): OptionUse {
  return o.value ? { name, flag: o.flag, value: o.value } : { name, flag: o.flag };
}

/** Adds `o` under `key` and reads it as a positive number (Python's int()/float()). */
export function numberOption(b: LaunchDocBuilder, key: string, o: ArgOption | undefined): Located<number> | undefined {
  if (!o) return undefined;
  const node = b.add(key, o);
  const value = numberOf(node);
  return value === undefined ? undefined : { value, node, key: keyPathOf(node) };
}

export function stringOption(b: LaunchDocBuilder, key: string, o: ArgOption | undefined): Located<string> | undefined {
  if (!o) return undefined;
  const node = b.add(key, o);
  const value = stringOf(node);
  return value === undefined || value.trim() === '' ? undefined : { value, node, key: keyPathOf(node) };
}

export function emptyRequest(program: TrainerProgram, invocation: Invocation): LaunchRequest {
  return { program, role: 'training', invocation, rope: {}, problems: [], notes: [] };
}

/** Records the length option on the request. */
export function setLength(r: LaunchRequest, name: string, o: ArgOption | undefined, value: number | undefined): void {
  if (o && value !== undefined) r.length = { value, option: optionUse(name, o) };
}

/** Shell words for a new `--flag value` option. */
export function flagValue(flag: string, value: string): string[] {
  return [flag, value];
}
