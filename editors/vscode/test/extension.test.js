'use strict';
// The extension's test: its client code (src/) with vscode-languageclient,
// against the real `fwmigrate lsp` over stdio, with the `vscode` module
// stubbed (vscode-stub.js; a real VS Code cannot be downloaded where the
// tests run). editors/vscode/extension_test.go runs it:
//
//   FWMIGRATE_BIN=<go build of cmd/fwmigrate> NODE_PATH=<node_modules with
//   vscode-languageclient> node --test test/extension.test.js

const assert = require('assert/strict');
const childProcess = require('child_process');
const fs = require('fs');
const Module = require('module');
const os = require('os');
const path = require('path');
const { test } = require('node:test');

// require('vscode') is the stub.
const stubPath = path.join(__dirname, 'vscode-stub.js');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return request === 'vscode' ? stubPath : resolve.call(this, request, ...rest);
};
const vscode = require('vscode');
const { stub } = vscode;
const { findBinary } = require('../src/binary');

const bin = process.env.FWMIGRATE_BIN;
assert.ok(bin && path.isAbsolute(bin), 'FWMIGRATE_BIN must name the fwmigrate binary');

// A project with safe fixes in its config and code, an unsafe one, and a
// line whose UTF-16 columns differ from its bytes: nothing to move (layout
// A), so apply's result is the fixes alone: FW701's bump of fw in
// package.json, and the config's fixes made for major 4 (no
// compatibilityVersion: 4), by apply and the editor's fix-all alike.
const config = `export default defineFwConfig({
  app: { head: { title: 'Café 😀 shop' } }, dir: { static: 'public' },
  generate: { routes: ['/a'] },
  sourcemap: { client: true },
})
`;
const files = {
  'fw.config.ts': config,
  'package.json': '{ "dependencies": { "fw": "^3.15.0" } }\n',
  'app/pages/index.vue': '<script setup lang="ts">\nconst route = useRoute()\nconst title = route.meta.name\n</script>\n',
  'app/pages/about.vue': '<script setup lang="ts">\nconst route = useRoute()\nconst t = route.meta.name\n</script>\n',
};

function tree(layout) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fwmigrate-vscode-')));
  for (const [name, text] of Object.entries(layout)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

// script writes an executable shell script.
function script(file, body) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
}

function read(dir) {
  const out = {};
  for (const name of Object.keys(files)) out[name] = fs.readFileSync(path.join(dir, name), 'utf8');
  return out;
}

// applyText applies vscode.TextEdits to text, as the stub's documents do.
function applyText(text, edits) {
  const doc = new stub.TextDocument(vscode.Uri.file('/x'), 'x', text);
  stub.editDocument(doc, edits);
  return doc.getText();
}

// activate loads the extension anew (its module state is per activation)
// in the stub's current workspace.
async function activate() {
  for (const m of ['../src/extension', '../src/binary']) delete require.cache[require.resolve(m)];
  const ext = require('../src/extension');
  const context = { subscriptions: [] };
  await ext.activate(context);
  return { ext, context };
}

async function deactivate({ ext, context }) {
  await ext.deactivate();
  for (const d of context.subscriptions) d.dispose();
}

const onUnix = process.platform !== 'win32';

test('findBinary: the workspace\'s node_modules/.bin first, then the PATH, then none', { skip: !onUnix && 'shell scripts' }, () => {
  const root = tree({ 'apps/web/fw.config.ts': config });
  const pathDir = path.join(root, 'path');
  script(path.join(pathDir, 'fwmigrate'), 'exit 0');
  const local = path.join(root, 'node_modules', '.bin', 'fwmigrate');
  script(local, 'exit 0');
  const env = { PATH: pathDir };
  const o = { folders: [path.join(root, 'apps', 'web')], trusted: true, env, platform: process.platform };
  // A folder below the one that has node_modules (a monorepo's app).
  assert.deepEqual(findBinary(o), { command: local, source: 'node_modules/.bin' });
  // Untrusted: never the workspace's.
  assert.deepEqual(findBinary({ ...o, trusted: false }), { command: path.join(pathDir, 'fwmigrate'), source: 'the PATH' });
  // Not executable: not a candidate.
  fs.chmodSync(local, 0o644);
  assert.equal(findBinary(o).source, 'the PATH');
  // A relative PATH entry would name the workspace's files: skipped.
  assert.equal(findBinary({ ...o, env: { PATH: `node_modules/.bin${path.delimiter}` } }), undefined);
  assert.equal(findBinary({ ...o, env: { PATH: '' } }), undefined);
  // The setting wins, relative to the first folder; one that cannot run says so.
  assert.deepEqual(findBinary({ ...o, setting: '../../path/fwmigrate' }), { command: path.join(pathDir, 'fwmigrate'), source: 'the fwmigrate.path setting', missing: false });
  assert.equal(findBinary({ ...o, setting: 'nope' }).missing, true);
});

test('no project in the workspace: idle, no message; a config created starts the server', async () => {
  const dir = tree({ 'src/a.ts': 'export {}\n' });
  stub.reset({ folders: [dir], settings: { 'fwmigrate.path': bin } });
  const a = await activate();
  assert.deepEqual(stub.record.messages, []);
  assert.equal(stub.record.output.length, 0);
  assert.deepEqual(serverPids(), [], 'a server started');
  await vscode.commands.executeCommand('fwmigrate.migrateProject', vscode.Uri.file(path.join(dir, 'src/a.ts')));
  assert.equal(stub.record.messages.at(-1).message, 'fwmigrate: this workspace holds no fw.config.*: nothing to migrate.');
  fs.writeFileSync(path.join(dir, 'fw.config.ts'), config);
  const watcher = stub.record.watchers.find((w) => w.glob === '**/fw.config.*');
  // Two events at once (a config and its copy) start one server.
  watcher.create.fire(vscode.Uri.file(path.join(dir, 'fw.config.ts')));
  watcher.create.fire(vscode.Uri.file(path.join(dir, 'fw.config.ts')));
  for (let i = 0; serverPids().length === 0; i++) {
    assert.ok(i < 100, 'no server once the project was created');
    await new Promise((r) => setTimeout(r, 50));
  }
  await new Promise((r) => setTimeout(r, 500));
  assert.equal(serverPids().length, 1, 'two servers started');
  assert.match(stub.record.output.join(''), new RegExp(`fwmigrate: ${bin} \\(from the fwmigrate.path setting\\)`));
  await deactivate(a);
});

test('no fwmigrate anywhere: how to install', async () => {
  const dir = tree(files);
  const PATH = process.env.PATH;
  process.env.PATH = fs.mkdtempSync(path.join(os.tmpdir(), 'empty-'));
  try {
    stub.reset({ folders: [dir] });
    stub.answer('Install instructions');
    const a = await activate();
    const m = stub.record.messages.find((x) => x.kind === 'error');
    assert.ok(m, 'no error message');
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(stub.record.messages.at(-1), { kind: 'openExternal', message: 'https://github.com/fwmigrate/fwmigrate#install' });
    assert.match(m.message, /fwmigrate was not found: neither in node_modules\/\.bin of this workspace nor on the PATH/);
    assert.match(m.message, /go install \.\/cmd\/fwmigrate/);
    assert.deepEqual(m.items, ['Install instructions', 'Open Settings']);
    await deactivate(a);
  } finally {
    process.env.PATH = PATH;
  }
});

test('a session: diagnostics, quickfix, fix-all as apply makes it, fix on save, Migrate this project', { skip: !onUnix && 'shell scripts' }, async (t) => {
  const dir = tree(files);
  // The project's own fwmigrate, and a decoy on the PATH that must not run.
  fs.mkdirSync(path.join(dir, 'node_modules', '.bin'), { recursive: true });
  fs.symlinkSync(bin, path.join(dir, 'node_modules', '.bin', 'fwmigrate'));
  const decoy = fs.mkdtempSync(path.join(os.tmpdir(), 'decoy-'));
  script(path.join(decoy, 'fwmigrate'), 'echo "the PATH\'s fwmigrate ran" >&2; exit 3');
  const PATH = process.env.PATH;
  process.env.PATH = `${decoy}${path.delimiter}${PATH}`;
  t.after(() => { process.env.PATH = PATH; });

  stub.reset({ folders: [dir], settings: { 'fwmigrate.trace.server': 'messages' } });
  const a = await activate();
  const out = () => stub.record.output.join('');
  assert.match(out(), new RegExp(`fwmigrate: ${path.join(dir, 'node_modules', '.bin', 'fwmigrate')} \\(from node_modules/.bin\\)`));
  // fwmigrate.trace.server is the client's trace setting.
  assert.match(out(), /Sending request 'initialize/);

  const cfg = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(dir, 'fw.config.ts')));
  const diags = await stub.waitDiagnostics(cfg.uri, (d) => d.some((x) => x.code && (x.code.value || x.code) === 'FW107'));
  const fw107 = diags.find((x) => (x.code.value || x.code) === 'FW107');
  const at = config.indexOf('static');
  const line = config.slice(0, at).split('\n').length - 1;
  const col = at - (config.lastIndexOf('\n', at) + 1); // UTF-16 units, as JavaScript counts
  assert.deepEqual([fw107.range.start.line, fw107.range.start.character, fw107.range.end.character], [line, col, col + 'static'.length]);
  assert.equal(fw107.severity, vscode.DiagnosticSeverity.Error);

  const provider = stub.record.providers.find((p) => p.kind === 'codeActions');
  assert.ok(provider, 'no code action provider');
  assert.deepEqual(provider.metadata.providedCodeActionKinds.map((k) => k.value), ['quickfix', 'source.fixAll', 'source.fixAll.fwmigrate']);
  const token = new vscode.CancellationTokenSource().token;
  const ask = (doc, range, only, triggerKind) =>
    provider.provider.provideCodeActions(doc, range, { diagnostics: only ? [] : [fw107], only, triggerKind }, token);

  // The quickfix of FW107, as the lightbulb asks.
  const quick = await ask(cfg, fw107.range, undefined, vscode.CodeActionTriggerKind.Automatic);
  const rename = quick.find((x) => x.title.includes('(FW107)'));
  assert.ok(rename && rename.isPreferred && rename.kind.value === 'quickfix', JSON.stringify(quick.map((x) => x.title)));
  assert.ok(!quick.some((x) => x.kind.value === 'source.fixAll.fwmigrate'), 'the lightbulb got the fix-all');

  // editor.codeActionsOnSave asks for source.fixAll: one action, the
  // project's safe fixes.
  const whole = new vscode.Range(0, 0, cfg.lineCount, 0);
  const fixes = await ask(cfg, whole, vscode.CodeActionKind.SourceFixAll, vscode.CodeActionTriggerKind.Automatic);
  assert.equal(fixes.length, 1, JSON.stringify(fixes.map((x) => x.title)));
  const [fixAll] = fixes;
  assert.equal(fixAll.kind.value, 'source.fixAll.fwmigrate');
  assert.match(fixAll.title, /\(5 fixes\)/);
  const fixed = {};
  for (const [uri, edits] of fixAll.edit.entries()) {
    fixed[path.relative(dir, uri.fsPath)] = applyText(fs.readFileSync(uri.fsPath, 'utf8'), edits);
  }
  assert.deepEqual(Object.keys(fixed).sort(), ['app/pages/about.vue', 'app/pages/index.vue', 'fw.config.ts', 'package.json']);
  assert.match(fixed['fw.config.ts'], /dir: \{ public: 'public' \}/);
  assert.doesNotMatch(fixed['fw.config.ts'], /compatibilityVersion/, 'the config\'s fixes are not major 4\'s');
  assert.match(fixed['package.json'], /"fw": "\^4\./);
  assert.match(fixed['fw.config.ts'], /client: true/, 'the unsafe fix was made');
  assert.match(fixed['app/pages/index.vue'], /const title = route\.name\n/);

  // fwmigrate.fixAllOnSave: the saved file's part of the fixes, on its
  // unsaved text; off, nothing.
  const page = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(dir, 'app/pages/about.vue')));
  stub.editDocument(page, [new vscode.TextEdit(new vscode.Range(2, 0, 2, 0), '// ünïcode 😀\nconst n = route.meta.name\n')]);
  await stub.waitDiagnostics(page.uri, (d) => d.filter((x) => (x.code.value || x.code) === 'FW606').length === 2);
  assert.equal((await stub.willSave(page)).asked, 0, 'fixAllOnSave is off by default');
  stub.state.settings['fwmigrate.fixAllOnSave'] = true;
  assert.equal((await stub.willSave(page, vscode.TextDocumentSaveReason.AfterDelay)).asked, 0, 'an auto save fixed');
  const saved = await stub.willSave(page);
  assert.equal(saved.asked, 1);
  assert.equal(applyText(page.getText(), saved.edits),
    '<script setup lang="ts">\nconst route = useRoute()\n// ünïcode 😀\nconst n = route.name\nconst t = route.name\n</script>\n');
  stub.state.settings['fwmigrate.fixAllOnSave'] = false;

  // Migrate this project: unsaved files first (dismissed: nothing runs).
  stub.answer(undefined);
  await vscode.commands.executeCommand('fwmigrate.migrateProject', page.uri);
  assert.equal(stub.record.terminals.length, 0);
  assert.match(stub.record.messages.at(-1).message, /save app\/pages\/about\.vue first/);
  // Undo the page's edit, as the file on disk has it.
  stub.editDocument(page, [new vscode.TextEdit(new vscode.Range(0, 0, page.lineCount, 0), files['app/pages/about.vue'])]);
  page.isDirty = false;
  // The preview runs apply --dry-run, which changes nothing.
  stub.answer('Preview (dry run)');
  await vscode.commands.executeCommand('fwmigrate.migrateProject', page.uri);
  let term = stub.record.terminals.at(-1);
  assert.deepEqual([term.options.shellPath, term.options.shellArgs, term.options.cwd],
    [path.join(dir, 'node_modules', '.bin', 'fwmigrate'), ['apply', '--dry-run', 'fw.config.ts'], dir]);
  assert.equal(await term.exit, 1, term.output); // 1: there are changes to make
  assert.ok(term.shown);
  assert.match(term.output, /\+\+\+ b\/app\/pages\/index\.vue/);
  assert.deepEqual(read(dir), files);
  // Migrate: the real apply, whose files are the fix-all's.
  const dialog = stub.record.messages.at(-1);
  assert.equal(dialog.message, 'Migrate fw.config.ts?');
  stub.answer('Migrate');
  await vscode.commands.executeCommand('fwmigrate.migrateProject', page.uri);
  term = stub.record.terminals.at(-1);
  assert.deepEqual(term.options.shellArgs, ['apply', 'fw.config.ts']);
  assert.equal(await term.exit, 0, term.output);
  assert.deepEqual(read(dir), { ...files, ...fixed });
  assert.doesNotMatch(out() + term.output, /the PATH's fwmigrate ran/);

  // A file outside any project: the server says so.
  const outside = tree({ 'x.ts': 'export {}\n' });
  await vscode.commands.executeCommand('fwmigrate.migrateProject', vscode.Uri.file(path.join(outside, 'x.ts')));
  assert.match(stub.record.messages.at(-1).message, /is in no project: no fw\.config\.\* in its folder or above/);

  const server = serverPids();
  assert.equal(server.length, 1, 'fwmigrate lsp is not a child of this process');
  await deactivate(a);
  // The server is gone with the client.
  for (let i = 0; serverPids().length > 0; i++) {
    assert.ok(i < 100, `fwmigrate lsp (pid ${server}) still runs after deactivate`);
    await new Promise((r) => setTimeout(r, 50));
  }
});

// serverPids are the pids of the `fwmigrate lsp` processes this process
// started (Linux's /proc; elsewhere none are seen).
function serverPids() {
  if (!fs.existsSync('/proc/self/stat')) return [];
  const out = [];
  for (const pid of fs.readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (ppid === process.pid && cmd[1] === 'lsp' && !stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) out.push(pid);
    } catch {
      // gone meanwhile
    }
  }
  return out;
}
