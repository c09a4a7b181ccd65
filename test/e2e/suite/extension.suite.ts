/**
 * Tests that run inside a real VS Code extension host with the `vscode` API. The workspace (made
 * by the driver) holds `llama/config.json` (Llama-2-7B stretched to 16,384 positions with base
 * 10000), `qwen/config.json` (Qwen2.5-7B, a valid setup), `app/settings.json` (not a model),
 * `launch/serve-qwen2.5-128k.sh` (examples/: a vLLM command and a llama-server command with two
 * warnings) and `ollama/Modelfile` (`FROM qwen2.5:7b`, `PARAMETER num_ctx 131072`: a warning, Ollama clamps it).
 * Every wait polls with a deadline; nothing sleeps a fixed time.
 */
import * as vscode from 'vscode';
import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';

/** What a diagnostic says in the editor: its headline and the detail shown as related information. */
function saidIn(d: vscode.Diagnostic): string {
  return [d.message, ...(d.relatedInformation ?? []).map((r) => r.message)].join(' ');
}

const EXT_ID = 'rope-lens.rope-lens';

async function until<T>(probe: () => T | undefined | null | false | PromiseLike<T | undefined | null | false>, what: string, ms = 20000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const ours = (uri: vscode.Uri) => vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'rope-lens');
/** A diagnostic's rule code, whether the code came as a string or as { value, target } (with a docs link). */
const codeOf = (d: vscode.Diagnostic) => (typeof d.code === 'object' ? String(d.code.value) : d.code === undefined ? undefined : String(d.code));

/** Our diagnostic with `code` whose range covers exactly `token` in `doc`, if published. */
function findingOn(doc: vscode.TextDocument, code: string, token: string): vscode.Diagnostic | undefined {
  return ours(doc.uri).find((d) => codeOf(d) === code && doc.getText(d.range) === token);
}

/** The lines [first, last] (0-based) of the command that starts on the first line containing `program`,
 *  following backslash continuations. */
function commandLines(text: string, program: string): [number, number] {
  const lines = text.split('\n');
  const first = lines.findIndex((l) => l.trimStart().startsWith(program));
  assert.ok(first >= 0, `${program} in the script`);
  let last = first;
  while (lines[last].trimEnd().endsWith('\\') && last + 1 < lines.length) last++;
  return [first, last];
}

function workspaceFile(rel: string): vscode.Uri {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri;
  assert.ok(root, 'the driver opens a workspace folder');
  return vscode.Uri.joinPath(root, rel);
}

export function addExtensionTests(): void {
  describe('RoPE Lens in the extension host', () => {
    it('activates on a JSON document and registers its commands', async () => {
      const doc = await vscode.workspace.openTextDocument(workspaceFile('qwen/config.json'));
      await vscode.window.showTextDocument(doc);
      const ext = vscode.extensions.getExtension(EXT_ID);
      assert.ok(ext, `${EXT_ID} is loaded`);
      await until(() => ext.isActive, 'activation');
      const commands = await vscode.commands.getCommands(true);
      for (const c of ['ropeLens.openInspector', 'ropeLens.checkAsModelConfig', 'ropeLens.describeDocument']) {
        assert.ok(commands.includes(c), `command ${c}`);
      }
      const contributed = (ext.packageJSON.contributes.commands as { command: string }[]).map((c) => c.command);
      assert.ok(contributed.includes('ropeLens.runKernelBenchmarks'), 'the benchmark command is contributed');
      const stats = await vscode.commands.executeCommand<{ activateMs: number; serverReadyMs?: number }>('ropeLens.activationStats', true);
      assert.ok(Number.isFinite(stats.activateMs));
      const out = process.env.ROPE_LENS_STATS_FILE;
      if (out) writeFileSync(out, JSON.stringify({ ...stats, vscode: vscode.version }));
    });

    it('shows coded diagnostics with a docs link on a model config', async () => {
      const uri = workspaceFile('llama/config.json');
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
      const diags = await until(() => {
        const d = ours(uri);
        return d.length ? d : undefined;
      }, 'rope-lens diagnostics');
      for (const d of diags) {
        const code = d.code as { value: string; target: vscode.Uri };
        assert.equal(typeof code.value, 'string');
        // One page per rule: docs/rules/<code>.md (the .vsix ships them, else the repository's copy).
        assert.ok(code.target.path.endsWith(`/docs/rules/${code.value}.md`), `docs link of ${code.value}: ${code.target.toString()}`);
      }
    });

    it('stays silent on JSON that is not a model config', async () => {
      const uri = workspaceFile('app/settings.json');
      await vscode.workspace.openTextDocument(uri);
      // The server has looked at it once describe answers for it.
      const d = await until(async () => await vscode.commands.executeCommand<{ kind: string } | null>('ropeLens.describeDocument', uri), 'describe');
      assert.equal(d.kind, 'other');
      assert.deepEqual(ours(uri), []);
    });

    it('hovers rope_theta with the bound numbers', async () => {
      const uri = workspaceFile('llama/config.json');
      const doc = await vscode.workspace.openTextDocument(uri);
      const pos = doc.positionAt(doc.getText().indexOf('"rope_theta"') + 3);
      const hovers = await until(async () => {
        const h = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, pos);
        return h?.length ? h : undefined;
      }, 'hover');
      const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : (c as vscode.MarkdownString).value))).join('\n');
      assert.match(text, /b\*\(L, d\)/);
      assert.match(text, /16,384/);
    });

    it('applies the preferred quick fix, saves, and the finding clears', async () => {
      const uri = workspaceFile('llama/config.json');
      const doc = await vscode.workspace.openTextDocument(uri);
      const before = doc.getText();
      // Let the server finish the bounds its fixes probe (candidate bases are checked off-thread).
      await vscode.commands.executeCommand('ropeLens.describeDocument', uri, true);
      let fix: vscode.CodeAction | undefined;
      let fixed: vscode.Diagnostic | undefined;
      await until(async () => {
        for (const d of ours(uri)) {
          // Code 1.100 returns [] when the kind is passed as a string; filter by kind here instead.
          const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, d.range);
          fix = actions?.find((a) => a.isPreferred && a.kind?.value === 'quickfix');
          if (fix) {
            fixed = d;
            return true;
          }
        }
        return false;
      }, 'a preferred quick fix');
      assert.ok(fix?.edit && fixed, 'a preferred quick fix with an edit');
      assert.ok(await vscode.workspace.applyEdit(fix.edit), 'edit applied');
      assert.ok(await doc.save(), 'saved');
      const onDisk = readFileSync(uri.fsPath, 'utf8');
      assert.notEqual(onDisk, before);
      assert.deepEqual(
        Object.keys(JSON.parse(onDisk)).filter((k) => k in JSON.parse(before)),
        Object.keys(JSON.parse(before)),
      );
      const code = (fixed.code as { value: string }).value;
      await until(
        () => !ours(uri).some((d) => (d.code as { value: string }).value === code && d.range.start.line === fixed!.range.start.line),
        `${code} to clear`,
      );
    });

    // Launch files. Shell scripts are parsed with tree-sitter-bash, which the server loads
    // asynchronously and then re-checks open documents: every wait below is on a published state.
    const SCRIPT = 'launch/serve-qwen2.5-128k.sh';

    it("puts the llama-server findings on the script's own tokens", async function () {
      this.timeout(60000);
      const uri = workspaceFile(SCRIPT);
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc);
      assert.equal(doc.languageId, 'shellscript');
      await until(
        () => findingOn(doc, 'launch/implicit-linear', '4') && findingOn(doc, 'launch/length-exceeds-derived', '"$CTX"'),
        'launch/implicit-linear on `--rope-scale 4` and launch/length-exceeds-derived on `-c "$CTX"`',
        45000,
      );
      const [first, last] = commandLines(doc.getText(), 'llama-server');
      for (const d of ours(uri)) {
        assert.equal(d.severity, vscode.DiagnosticSeverity.Warning, `${codeOf(d)} is a warning`);
        assert.ok(d.range.start.line >= first && d.range.end.line <= last, `${codeOf(d)} lies on the llama-server command`);
      }
      assert.match(saidIn(findingOn(doc, 'launch/implicit-linear', '4')!), /linear/);
    });

    it('hovers the llama-server command with what llama-server derives', async function () {
      this.timeout(60000);
      const uri = workspaceFile(SCRIPT);
      const doc = await vscode.workspace.openTextDocument(uri);
      const [first] = commandLines(doc.getText(), 'llama-server');
      const pos = new vscode.Position(first, 3);
      const text = await until(
        async () => {
          const h = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, pos);
          const t = (h ?? []).flatMap((x) => x.contents.map((c) => (typeof c === 'string' ? c : (c as vscode.MarkdownString).value))).join('\n');
          return /llama\.cpp launch/.test(t) ? t : undefined;
        },
        'the launch hover on llama-server',
        45000,
      );
      assert.match(text, /\| llama\.cpp derives \| 32,768/);
      assert.match(text, /\| requested \| 131,072/);
      assert.match(text, /\| trained context \| 32,768/);
      assert.match(text, /caps the context there/);
    });

    it('applies the preferred fix for --rope-scale alone on the llama-server line only', async function () {
      this.timeout(60000);
      const uri = workspaceFile(SCRIPT);
      const doc = await vscode.workspace.openTextDocument(uri);
      const finding = await until(() => findingOn(doc, 'launch/implicit-linear', '4'), 'launch/implicit-linear', 45000);
      const before = doc.getText();
      // Code 1.100 returns [] when the kind is passed as a string; filter by kind here instead.
      let offered = '';
      const fix = await until(
        async () => {
          const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, finding.range);
          offered = (actions ?? [])
            .map((a) => `${a.title} [${a.kind?.value}${a.isPreferred ? ', preferred' : ''}; ${(a.diagnostics ?? []).map(codeOf).join(', ')}]`)
            .join(' | ');
          return actions?.find((a) => a.isPreferred && a.kind?.value === 'quickfix' && /--rope-scaling/.test(a.title));
        },
        'a preferred quick fix for launch/implicit-linear',
        45000,
      ).catch((e: Error) => {
        throw new Error(`${e.message}; offered: ${offered || 'nothing'}`);
      });
      assert.match(fix.title, /--rope-scaling yarn --yarn-orig-ctx 32768/);
      assert.ok(fix.edit, 'the fix carries an edit');
      assert.ok(await vscode.workspace.applyEdit(fix.edit), 'edit applied');
      assert.ok(await doc.save(), 'saved');

      // Only the llama-server command's line(s) differ: everything above and below is unchanged.
      const after = readFileSync(uri.fsPath, 'utf8');
      assert.notEqual(after, before);
      const [first, last] = commandLines(before, 'llama-server');
      const b = before.split('\n'),
        a = after.split('\n');
      const tail = b.length - 1 - last;
      assert.deepEqual(a.slice(0, first), b.slice(0, first), 'lines above the llama-server command unchanged');
      assert.deepEqual(a.slice(a.length - tail), b.slice(b.length - tail), 'lines below the llama-server command unchanged');
      assert.match(a.slice(first, a.length - tail).join('\n'), /--rope-scale 4\b.*--rope-scaling yarn/s);

      await until(
        () => ours(uri).length > 0 && !ours(uri).some((d) => codeOf(d) === 'launch/implicit-linear'),
        'launch/implicit-linear to clear (with the file re-checked)',
        45000,
      );
    });

    it('gives a Modelfile the ollama-modelfile language and flags num_ctx past what Ollama accepts', async function () {
      this.timeout(60000);
      const uri = workspaceFile('ollama/Modelfile');
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc);
      assert.equal(doc.languageId, 'ollama-modelfile');
      // qwen2.5:7b is read as the model Ollama's library converted (Qwen2.5-7B-Instruct, GGUF context 32,768).
      const d = await until(() => findingOn(doc, 'launch/length-exceeds-derived', '131072'), 'launch/length-exceeds-derived on `131072`', 45000);
      assert.equal(d.severity, vscode.DiagnosticSeverity.Warning);
      assert.match(saidIn(d), /assumed from the Ollama library tag qwen2\.5:7b/);
      assert.match(d.message, /clamps num_ctx 131,072 to 32,768/);
      assert.deepEqual(ours(uri).map(codeOf), ['launch/length-exceeds-derived'], 'the only finding');
    });

    it('answers ropeLens.describeDocument for the Inspector', async () => {
      const uri = workspaceFile('qwen/config.json');
      const d = await vscode.commands.executeCommand<{ kind: string; rope: { base: { value: number }; contextLength: { value: number } } }>(
        'ropeLens.describeDocument',
        uri,
      );
      assert.equal(d.kind, 'model-config');
      assert.equal(d.rope.base.value, 1000000);
      assert.equal(d.rope.contextLength.value, 131072);
    });
  });
}
