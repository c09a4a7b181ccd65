/**
 * Extension-host test entry in @vscode/test-electron's contract: `run()` resolves when every
 * test passed and rejects otherwise. The same file runs under desktop VS Code (test-electron's
 * `extensionTestsPath`) and, here, inside code-server through the workbench `payload` URL.
 */
import Mocha from 'mocha';
import { addExtensionTests } from './extension.suite';

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 30000, color: false, reporter: 'spec' });
  mocha.suite.emit('pre-require', globalThis, 'rope-lens-suite', mocha);
  addExtensionTests();
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} extension-host test(s) failed`)) : resolve()));
  });
}
