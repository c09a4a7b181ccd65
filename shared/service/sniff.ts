/**
 * A cheap look at the raw text before parsing: files that cannot be model or training configs
 * (package.json, tsconfig, tokenizer.json, lock files, CI workflows) and big files without any
 * RoPE-related key are "other" at once, so a 50 MB tokenizer.json costs microseconds. Size alone
 * does not make a file "other": a 20 MB config (a padded or annotated copy) is read like its 2 MB
 * copy; the front-ends cap what they read (the CLI's MAX_CHECK_BYTES, the server's as-you-type
 * limit) and say so.
 */
import type { DocumentFormat } from '../document/parse';

const NOT_CONFIG_NAMES =
  /(^|[\/\\])(package(-lock)?\.json|tsconfig[^\/\\]*\.json|jsconfig\.json|tokenizer(_config)?\.json|special_tokens_map\.json|vocab\.json|added_tokens\.json|generation_config\.json|preprocessor_config\.json|composer\.json|\.eslintrc(\.json)?|launch\.json|settings\.json|extensions\.json|tasks\.json|pnpm-lock\.yaml|yarn\.lock|docker-compose\.ya?ml|compose\.ya?ml|\.gitlab-ci\.yml|\.pre-commit-config\.yaml|mkdocs\.yml|environment\.ya?ml|action\.ya?ml|Chart\.yaml|codecov\.yml|dependabot\.yml|\.readthedocs\.ya?ml|model\.safetensors\.index\.json|[^\/\\]*\.schema\.json)$/i;
const CI_FOLDERS = /(^|[\/\\])\.(github|circleci|gitlab)[\/\\]/;

/** Keys whose presence makes a file worth parsing. */
const KEYS =
  /rope|rotary|max_position_embeddings|n_positions|seq_length|max_seq_len|max_sequence_length|sequence_len|cutoff_len|base_model|model_name_or_path|_component_|model_type|architectures|checkpoint_dir|block_size|max_target_length|max[-_]model[-_]len|hf[-_]overrides|context[-_]length/;

/** Only this much of a large file is searched for keys; configs put them near the top anyway. */
const HEAD = 256 * 1024;

export function sniff(text: string, fileName: string, _format: DocumentFormat): 'maybe' | 'other' {
  if (NOT_CONFIG_NAMES.test(fileName) || CI_FOLDERS.test(fileName)) return 'other';
  const head = text.length > HEAD ? text.slice(0, HEAD) : text;
  return KEYS.test(head) ? 'maybe' : 'other';
}
