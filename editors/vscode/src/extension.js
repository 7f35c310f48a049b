'use strict';
// fwmigrate for VS Code: a client of `fwmigrate lsp` (vscode-languageclient)
// for the files of a fw project (fw.config.*, .env files, .vue files and
// scripts, tsconfig.json). The server does the work: diagnostics, quickfixes,
// the source.fixAll.fwmigrate action, hovers, completion. The extension
// finds the binary (binary.js), starts the server, runs the fix-all on save
// when asked to, and runs "Migrate this project" in a terminal.

const path = require('path');
const vscode = require('vscode');
const { LanguageClient, State, CodeActionRequest, ExecuteCommandRequest } = require('vscode-languageclient/node');
const { findBinary, installHint, installURL } = require('./binary');

const FIX_ALL = 'source.fixAll.fwmigrate';

// The documents the server reads: those of projects, and the files a check
// reads besides the code.
const selector = [
  ...['vue', 'typescript', 'javascript', 'typescriptreact', 'javascriptreact'].map((language) => ({ scheme: 'file', language })),
  { scheme: 'file', pattern: '**/fw.config.*' },
  { scheme: 'file', pattern: '**/.env*' },
  { scheme: 'file', pattern: '**/tsconfig.json' },
];

let client; // the LanguageClient, from its start to its stop
let started; // client.start()'s promise
let binary; // what findBinary found for it
let output;

async function activate(context) {
  output = vscode.window.createOutputChannel('fwmigrate');
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand('fwmigrate.migrateProject', migrate),
    vscode.commands.registerCommand('fwmigrate.restart', restart),
    vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('fwmigrate.path') && restart()),
    vscode.workspace.onDidGrantWorkspaceTrust(restart),
    vscode.workspace.onWillSaveTextDocument(fixAllOnSave),
  );
  // A project created after the window opened starts the server.
  const configs = vscode.workspace.createFileSystemWatcher('**/fw.config.*', false, true, true);
  context.subscriptions.push(configs, configs.onDidCreate(() => client || start()));
  await start();
}

async function deactivate() {
  await stop();
}

// hasProject reports whether the workspace holds a fw.config.*: in another
// workspace (a TypeScript project without fw) the extension stays idle.
async function hasProject() {
  const found = await vscode.workspace.findFiles('**/fw.config.*', '**/node_modules/**', 1);
  return found.length > 0;
}

// start starts the client unless it runs; calls while it starts wait for
// that start (activation and a config created at once start one client).
let starting;
function start() {
  if (!starting) starting = startClient().finally(() => { starting = undefined; });
  return starting;
}

async function startClient() {
  if (client || !(await hasProject())) return;
  const folders = (vscode.workspace.workspaceFolders || []).map((f) => f.uri.fsPath);
  binary = findBinary({
    setting: vscode.workspace.getConfiguration('fwmigrate').get('path'),
    folders,
    trusted: vscode.workspace.isTrusted,
    env: process.env,
    platform: process.platform,
  });
  if (!binary || binary.missing) {
    const why = binary ? `${binary.command} (${binary.source}) is not a program this user can run.` : installHint;
    binary = undefined;
    showInstallHint(why);
    return;
  }
  output.appendLine(`fwmigrate: ${binary.command} (from ${binary.source})`);
  // npm's .cmd shims on Windows run through the shell only.
  const shell = process.platform === 'win32' && /\.(cmd|bat)$/i.test(binary.command);
  const serverOptions = {
    command: shell ? `"${binary.command}"` : binary.command,
    args: ['lsp'],
    options: { cwd: folders[0], shell },
  };
  const clientOptions = {
    documentSelector: selector,
    outputChannel: output,
    synchronize: {
      // Settings, baselines and package.json are read from the disk: the
      // server checks the projects again when they change.
      // So are the files a branch switch changes under closed editors.
      fileEvents: [
        vscode.workspace.createFileSystemWatcher('**/{*.json,.env*,fw.config.*}'),
        vscode.workspace.createFileSystemWatcher('**/*.{vue,ts,tsx,js,jsx,mjs,cjs,mts,cts}'),
      ],
    },
  };
  const c = new LanguageClient('fwmigrate', 'fwmigrate', serverOptions, clientOptions);
  client = c;
  started = c.start().catch((err) => {
    output.appendLine(`fwmigrate lsp did not start: ${err.message}`);
    vscode.window.showErrorMessage(`fwmigrate lsp (${binary.command}) did not start: ${err.message}`);
    if (client === c) client = undefined;
    throw err;
  });
  await started.catch(() => {});
}

// ready returns the client once it has started, starting it if need be;
// undefined when it could not start.
async function ready() {
  if (!client) await start();
  if (client) await started.catch(() => {});
  return client;
}

async function stop() {
  const c = client;
  client = undefined;
  if (!c) return;
  // A client is stopped once it has started (or failed to).
  if (await started.then(() => true, () => false)) await c.stop();
}

async function restart() {
  await stop();
  await start();
}

async function showInstallHint(why) {
  const open = 'Install instructions';
  const settings = 'Open Settings';
  const choice = await vscode.window.showErrorMessage(why, open, settings);
  if (choice === open) vscode.env.openExternal(vscode.Uri.parse(installURL));
  if (choice === settings) vscode.commands.executeCommand('workbench.action.openSettings', 'fwmigrate.path');
}

// fixAllOnSave: with fwmigrate.fixAllOnSave, a file saved by the user gets
// its part of the project's safe fixes first (the edits of
// source.fixAll.fwmigrate in that file). editor.codeActionsOnSave with
// "source.fixAll.fwmigrate" makes the whole project's instead.
function fixAllOnSave(event) {
  const doc = event.document;
  if (!client || client.state !== State.Running || event.reason !== vscode.TextDocumentSaveReason.Manual) return;
  if (!vscode.workspace.getConfiguration('fwmigrate', doc).get('fixAllOnSave')) return;
  if (!vscode.languages.match(selector, doc)) return;
  event.waitUntil(fixAllEdits(doc));
}

async function fixAllEdits(doc) {
  const uri = client.code2ProtocolConverter.asUri(doc.uri);
  const actions = await client.sendRequest(CodeActionRequest.type, {
    textDocument: { uri },
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    context: { diagnostics: [], only: [FIX_ALL], triggerKind: 2 },
  });
  const action = (actions || []).find((a) => a.kind === FIX_ALL && a.edit && a.edit.changes);
  if (!action) return [];
  return client.protocol2CodeConverter.asTextEdits(action.edit.changes[uri] || []);
}

// migrate is "Migrate this project": the server names the project of the
// file (fwmigrate.migrate) and the `fwmigrate apply` that migrates it, run
// in a terminal where the user sees its report. apply moves and rewrites
// the files on disk as one journaled transaction behind its git guard, so
// unsaved changes in the project are saved first.
async function migrate(uri) {
  if (!(uri instanceof vscode.Uri)) uri = vscode.window.activeTextEditor && vscode.window.activeTextEditor.document.uri;
  if (!uri || uri.scheme !== 'file') {
    vscode.window.showInformationMessage('fwmigrate: open a file of the project to migrate (its fw.config.*, a page, ...).');
    return;
  }
  if (!(await ready())) {
    // No server: the install hint was shown, or there is no project.
    if (!(await hasProject())) vscode.window.showInformationMessage('fwmigrate: this workspace holds no fw.config.*: nothing to migrate.');
    return;
  }
  let target;
  try {
    target = await client.sendRequest(ExecuteCommandRequest.type, { command: 'fwmigrate.migrate', arguments: [uri.toString()] });
  } catch (err) {
    vscode.window.showErrorMessage(`fwmigrate: ${err.message}`);
    return;
  }
  const unsaved = vscode.workspace.textDocuments.filter((d) => d.isDirty && d.uri.scheme === 'file' && within(target.cwd, d.uri.fsPath));
  if (unsaved.length > 0) {
    const save = 'Save All';
    const names = unsaved.map((d) => path.relative(target.cwd, d.uri.fsPath)).join(', ');
    const choice = await vscode.window.showWarningMessage(
      `fwmigrate apply migrates the files on disk: save ${names} first.`, { modal: true }, save);
    if (choice !== save || !(await vscode.workspace.saveAll(false))) return;
  }
  const run = 'Migrate';
  const preview = 'Preview (dry run)';
  const choice = await vscode.window.showWarningMessage(
    `Migrate ${vscode.workspace.asRelativePath(target.config)}?`,
    {
      modal: true,
      detail: 'fwmigrate apply moves the sources into app/ where the project needs it and makes the safe fixes, ' +
        'as one transaction it can finish or undo. It refuses files with uncommitted changes in git. ' +
        'The preview prints the patch and changes nothing.',
    },
    run, preview);
  if (!choice) return;
  const args = choice === run ? target.args : [target.args[0], '--dry-run', ...target.args.slice(1)];
  const terminal = vscode.window.createTerminal({ name: 'fwmigrate apply', cwd: target.cwd, shellPath: binary.command, shellArgs: args });
  terminal.show();
  return terminal;
}

// within reports whether file is dir or lies below it.
function within(dir, file) {
  const rel = path.relative(dir, file);
  return rel === '' || (!rel.startsWith('..' + path.sep) && rel !== '..' && !path.isAbsolute(rel));
}

module.exports = { activate, deactivate };
