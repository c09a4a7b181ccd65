/**
 * What a fix builder needs from the document it edits: set, merge or remove a value at a key path
 * and look up what is there. DocumentEditor does it for JSON and YAML; CommandLineEditor does it
 * for a training command, where a key path names one of the command's options.
 */
import type { TextEdit } from '../core/findings';
import type { ConfigNode } from '../document/configNode';
import type { PlainObject, PlainValue } from './render';

export type KeyPath = readonly string[];

export interface ConfigEditor {
  /** Sets `path` to `value`, replacing an existing value or adding what is missing. */
  set(path: KeyPath, value: PlainValue): TextEdit[];
  /** The node at `path`, if the document has one. */
  nodeAt(path: KeyPath): ConfigNode | undefined;
  /** Makes the object at `path` hold `entries`, dropping the `owned` keys it does not set, keeping the rest. */
  mergeObject(path: KeyPath, entries: PlainObject, owned: readonly string[]): TextEdit[];
  /** Removes the value at `path` (no edit when absent). */
  remove(path: KeyPath): TextEdit[];
  /** Makes the object at `path` hold `entries` and, of its other keys, only those in `keep`. */
  setObject(path: KeyPath, entries: PlainObject, keep?: readonly string[]): TextEdit[];
}
