/**
 * The serving model in the editor: a hover section on the RoPE block (per engine: derived maximum
 * and the command) and `source` code actions that write a vLLM `--config` YAML and an SGLang launch
 * script beside the model config, carrying the config's scaling as overrides.
 */
import { CodeAction, CodeActionKind, CreateFile, TextDocumentEdit, TextEdit } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { FileAnalysis } from '../shared/service/types';
import { launchScript, servingHoverSection, servingInput, servingPlan, vllmConfigYaml } from '../shared/service/engines';
import type { ServingInput } from '../shared/service/engines';
import { fileNameOf } from './uri';
import { hubIdFromCachePath } from '../shared/config/identity';

export const SERVING_SOURCE_KIND = `${CodeActionKind.Source}.ropeLens.serving`;

/**
 * The model the commands name, as `rope-lens serve` does: the config's folder (a Hugging Face cache
 * snapshot by the hub id its folder names), never an identity a fingerprint guessed.
 */
function inputFor(doc: TextDocument, analysis: FileAnalysis): ServingInput | undefined {
  if (analysis.kind !== 'model-config' || !analysis.rope) return undefined;
  const rope = analysis.rope;
  const file = fileNameOf(doc.uri);
  const folder = file.replace(/[\\/][^\\/]*$/, '') || undefined;
  return servingInput(rope, { model: hubIdFromCachePath(file) ?? folder });
}

/** Markdown appended to the hover on the scaling block or the context length, or undefined. */
export function servingHover(doc: TextDocument, analysis: FileAnalysis): string | undefined {
  const input = inputFor(doc, analysis);
  if (!input || !Number.isFinite(input.rope.contextLength.value)) return undefined;
  try {
    return servingHoverSection(input);
  } catch {
    return undefined;
  }
}

function sibling(uri: string, name: string): string {
  return uri.replace(/[^/]*$/, name);
}

/** Source actions: write vllm-serve.yaml / sglang-serve.sh beside the config (clients that can create files). */
export function servingSourceActions(doc: TextDocument, analysis: FileAnalysis, canCreateFiles: boolean): CodeAction[] {
  if (!canCreateFiles) return [];
  const input = inputFor(doc, analysis);
  if (!input) return [];
  const source = doc.uri.replace(/^.*\//, '');
  const out: CodeAction[] = [];
  const write = (title: string, name: string, text: string): CodeAction => {
    const uri = sibling(doc.uri, name);
    return {
      title,
      kind: SERVING_SOURCE_KIND,
      edit: {
        documentChanges: [
          CreateFile.create(uri, { overwrite: true }),
          TextDocumentEdit.create({ uri, version: null }, [TextEdit.insert({ line: 0, character: 0 }, text)]),
        ],
      },
    };
  };
  const vllm = servingPlan('vllm', input);
  out.push(
    write(`Write vLLM serve config with this scaling (vllm-serve.yaml, max-model-len ${vllm.context})`, 'vllm-serve.yaml', vllmConfigYaml(vllm, source)),
  );
  const sglang = servingPlan('sglang', input);
  out.push(
    write(
      `Write SGLang launch script with this scaling (sglang-serve.sh, --context-length ${sglang.context})`,
      'sglang-serve.sh',
      launchScript(sglang, source),
    ),
  );
  return out;
}
