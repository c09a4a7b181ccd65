/**
 * launch/cmd-after-entrypoint (error): a container command that starts a shell (`CMD ["sh", "-c",
 * "python -m vllm.entrypoints.openai.api_server …"]`, a shell-form CMD, compose `command: sh -c …`,
 * Kubernetes `args:`) under an engine image whose entrypoint the file keeps. Docker (and compose,
 * and the kubelet for `args:`) appends the command to the image's ENTRYPOINT, so the container runs
 * `vllm serve sh -c "…"`: vLLM is asked to serve a model named `sh` and exits at start. The launch
 * inside the shell is still read and judged as the one meant (the adapters read it). Fix: clear the
 * entrypoint (`ENTRYPOINT []`, compose `entrypoint: []`, Kubernetes `command:` for `args:`).
 */
import type { Fix } from '../../core/findings';
import { ENGINES } from '../../serving/engines';
import { finding } from '../context';
import type { LaunchRule } from './context';

export const CMD_AFTER_ENTRYPOINT = 'launch/cmd-after-entrypoint';

const WHO: Record<string, string> = { CMD: 'Docker appends the CMD', command: 'Compose passes command:', args: 'Kubernetes passes args:' };

export const cmdAfterEntrypointRule: LaunchRule = {
  codes: [CMD_AFTER_ENTRYPOINT],
  check(ctx) {
    const inv = ctx.request.invocation;
    const s = inv?.shellAfterEntrypoint;
    const image = inv?.image?.value;
    if (!s || !image) return [];
    // Whichever engine's image it is (the launch inside may start another engine).
    let ep: { command: string; firstArgument: string } | undefined;
    let label = '';
    for (const e of ENGINES) {
      ep = e.imageEntrypoint?.(image);
      if (ep) {
        label = e.label;
        break;
      }
    }
    if (!ep) return [];
    const fixes: Fix[] = s.fix ? [{ title: s.fix.title, kind: 'other', preferred: true, edits: [{ range: s.fix.range, newText: s.fix.newText }] }] : [];
    return [
      finding(
        CMD_AFTER_ENTRYPOINT,
        'error',
        `The container fails at start: ${label} takes \`${s.shell}\` as ${ep.firstArgument}, after the image's entrypoint.`,
        s.at,
        fixes,
        `${WHO[s.kind]} to the entrypoint of ${image} (${ep.command}), which is kept here: the container runs \`${ep.command} ${s.shell} -c …\`. Clear the entrypoint to run the shell command; the launch inside it is read below as the one meant.`,
      ),
    ];
  },
};
