/**
 * Servers RoPE Lens recognises in a launch file but does not read: their model's context and RoPE
 * settings live in files of their own, not on the command line. A launch of one is said (launch/not-read),
 * never passed over, so a quiet file still means "looked and found nothing".
 */
import type { Invocation } from '../launch/types';

interface RecognisedOnly {
  /** Image name words (`localai/localai`, `quay.io/go-skynet/local-ai`) or program names that start it. */
  images: readonly string[];
  programs: readonly string[];
  /** The program name a launch description carries. */
  program: string;
  label: string;
  /** Why nothing on the command line says the context: where the server takes it from. */
  why: string;
}

const SERVERS: readonly RecognisedOnly[] = [
  {
    images: ['local-ai', 'localai/'],
    programs: ['local-ai'],
    program: 'local-ai',
    label: 'LocalAI',
    why: "it takes each model's context (context_size) and backend options from that model's own YAML file (in the models folder, PRELOAD_MODELS or a gallery entry), which RoPE Lens does not read.",
  },
];

const baseName = (p: string) => p.slice(p.lastIndexOf('/') + 1);

/** The reason a launch of a recognised-only server is not judged, with its program name, or undefined. */
export function recognisedOnly(inv: Invocation): { program: string; why: string } | undefined {
  const image = inv.image?.value.toLowerCase();
  const program = inv.argv[0] ? baseName(inv.argv[0].value) : undefined;
  for (const s of SERVERS) {
    if ((image && s.images.some((w) => image.includes(w))) || (program && s.programs.includes(program)))
      return { program: s.program, why: `${s.label} is recognised but not read: ${s.why}` };
  }
  return undefined;
}
