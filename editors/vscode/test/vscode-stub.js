'use strict';
// A stand-in for the `vscode` module, for the extension's test: a real VS
// Code cannot be downloaded where the tests run. It has the part of the API
// that the extension and vscode-languageclient 9 use, backed by the real
// files: documents are opened from the disk and edited in memory, saved to
// it; a terminal runs its program for real. What the editor would show
// (messages, diagnostics, the output channel) is recorded for the test, and
// the test answers the dialogs (stub.answer).
//
// It is no model of VS Code beyond that: where it cannot do what VS Code
// does, it throws, so that a test never passes on something it skipped.

const childProcess = require('child_process');
const fs = require('fs');
const path = require('path');
const url = require('url');
// The glob matcher vscode-languageclient depends on.
const mm = require(require.resolve('minimatch', { paths: [path.dirname(require.resolve('vscode-languageclient/package.json'))] }));
const minimatch = mm.minimatch || mm; // v5 exports the function, later ones an object

const version = '1.82.0';

// Events and lifetimes.

class Disposable {
  constructor(fn) { this._fn = fn; }
  static from(...items) { return new Disposable(() => items.forEach((d) => d && d.dispose && d.dispose())); }
  dispose() { if (this._fn) { this._fn(); this._fn = undefined; } }
}

class EventEmitter {
  constructor() {
    this._listeners = new Set();
    this.event = (listener, thisArg, disposables) => {
      const l = thisArg ? listener.bind(thisArg) : listener;
      this._listeners.add(l);
      const d = new Disposable(() => this._listeners.delete(l));
      if (Array.isArray(disposables)) disposables.push(d);
      return d;
    };
  }
  fire(e) { for (const l of [...this._listeners]) l(e); }
  dispose() { this._listeners.clear(); }
}

class CancellationTokenSource {
  constructor() {
    const emitter = new EventEmitter();
    this._emitter = emitter;
    this.token = { isCancellationRequested: false, onCancellationRequested: emitter.event };
  }
  cancel() { this.token.isCancellationRequested = true; this._emitter.fire(); }
  dispose() { this._emitter.dispose(); }
}

class CancellationError extends Error {}

// Values.

class Uri {
  constructor(scheme, fsPath, str) { this.scheme = scheme; this.fsPath = fsPath; this._str = str; this.path = fsPath; }
  static file(p) { return new Uri('file', path.resolve(p), url.pathToFileURL(path.resolve(p)).href); }
  static parse(s) {
    const u = new URL(s);
    if (u.protocol === 'file:') return Uri.file(url.fileURLToPath(u));
    return new Uri(u.protocol.slice(0, -1), u.pathname, s);
  }
  with() { throw new Error('stub: Uri.with'); }
  toString() { return this._str; }
  toJSON() { return this._str; }
}

class Position {
  constructor(line, character) { this.line = line; this.character = character; }
  isBefore(o) { return this.line < o.line || (this.line === o.line && this.character < o.character); }
  isEqual(o) { return this.line === o.line && this.character === o.character; }
}

class Range {
  constructor(a, b, c, d) {
    if (typeof a === 'number') { a = new Position(a, b); b = new Position(c, d); }
    this.start = a; this.end = b;
  }
  get isEmpty() { return this.start.isEqual(this.end); }
}

class Location { constructor(uri, range) { this.uri = uri; this.range = range; } }
class Selection extends Range {}

const DiagnosticSeverity = { Error: 0, Warning: 1, Information: 2, Hint: 3 };
const DiagnosticTag = { Unnecessary: 1, Deprecated: 2 };
class Diagnostic {
  constructor(range, message, severity = DiagnosticSeverity.Error) { this.range = range; this.message = message; this.severity = severity; }
}
class DiagnosticRelatedInformation { constructor(location, message) { this.location = location; this.message = message; } }

class CodeActionKind {
  constructor(value) { this.value = value; }
  append(part) { return new CodeActionKind(this.value ? `${this.value}.${part}` : part); }
  contains(other) { return this.value === other.value || other.value.startsWith(this.value + '.'); }
  intersects(other) { return this.contains(other) || other.contains(this); }
}
for (const [k, v] of Object.entries({
  Empty: '', QuickFix: 'quickfix', Refactor: 'refactor', RefactorExtract: 'refactor.extract', RefactorInline: 'refactor.inline',
  RefactorMove: 'refactor.move', RefactorRewrite: 'refactor.rewrite', Source: 'source', SourceOrganizeImports: 'source.organizeImports',
  SourceFixAll: 'source.fixAll', Notebook: 'notebook',
})) CodeActionKind[k] = new CodeActionKind(v);
const CodeActionTriggerKind = { Invoke: 1, Automatic: 2 };
class CodeAction { constructor(title, kind) { this.title = title; this.kind = kind; } }

class TextEdit {
  constructor(range, newText) { this.range = range; this.newText = newText; }
  static replace(range, text) { return new TextEdit(range, text); }
  static insert(pos, text) { return new TextEdit(new Range(pos, pos), text); }
  static delete(range) { return new TextEdit(range, ''); }
}

class WorkspaceEdit {
  constructor() { this._edits = new Map(); }
  replace(uri, range, newText) { this._list(uri).push(new TextEdit(range, newText)); }
  insert(uri, pos, newText) { this.replace(uri, new Range(pos, pos), newText); }
  delete(uri, range) { this.replace(uri, range, ''); }
  set(uri, edits) { this._edits.set(uri.toString(), { uri, edits: [...edits] }); }
  has(uri) { return this._edits.has(uri.toString()); }
  get size() { return this._edits.size; }
  entries() { return [...this._edits.values()].map((e) => [e.uri, e.edits]); }
  createFile() { throw new Error('stub: WorkspaceEdit.createFile'); }
  renameFile() { throw new Error('stub: WorkspaceEdit.renameFile'); }
  deleteFile() { throw new Error('stub: WorkspaceEdit.deleteFile'); }
  _list(uri) {
    if (!this._edits.has(uri.toString())) this._edits.set(uri.toString(), { uri, edits: [] });
    return this._edits.get(uri.toString()).edits;
  }
}

class MarkdownString {
  constructor(value = '', supportThemeIcons) { this.value = value; this.supportThemeIcons = supportThemeIcons; }
  appendMarkdown(s) { this.value += s; return this; }
  appendText(s) { this.value += s; return this; }
  appendCodeblock(s) { this.value += '\n```\n' + s + '\n```\n'; return this; }
}
class Hover { constructor(contents, range) { this.contents = Array.isArray(contents) ? contents : [contents]; this.range = range; } }
class SnippetString { constructor(value) { this.value = value; } }
class CompletionItem { constructor(label, kind) { this.label = label; this.kind = kind; } }
class CompletionList { constructor(items = [], isIncomplete = false) { this.items = items; this.isIncomplete = isIncomplete; } }
const CompletionItemKind = Object.fromEntries(['Text', 'Method', 'Function', 'Constructor', 'Field', 'Variable', 'Class', 'Interface', 'Module',
  'Property', 'Unit', 'Value', 'Enum', 'Keyword', 'Snippet', 'Color', 'File', 'Reference', 'Folder', 'EnumMember', 'Constant', 'Struct',
  'Event', 'Operator', 'TypeParameter', 'User', 'Issue'].map((k, i) => [k, i]));
const CompletionItemTag = { Deprecated: 1 };
const CompletionTriggerKind = { Invoke: 0, TriggerCharacter: 1, TriggerForIncompleteCompletions: 2 };
class RelativePattern {
  constructor(base, pattern) { this.baseUri = typeof base === 'string' ? Uri.file(base) : (base.uri || base); this.base = this.baseUri.fsPath; this.pattern = pattern; }
}
const TextDocumentSaveReason = { Manual: 1, AfterDelay: 2, FocusOut: 3 };
const ProgressLocation = { SourceControl: 1, Window: 10, Notification: 15 };
const EndOfLine = { LF: 1, CRLF: 2 };
const FileType = { Unknown: 0, File: 1, Directory: 2, SymbolicLink: 64 };

// Classes vscode-languageclient extends when it is loaded, for features the
// server does not offer: constructible, nothing more.
class CodeLens { constructor(range, command) { this.range = range; this.command = command; } }
class DocumentLink { constructor(range, target) { this.range = range; this.target = target; } }
class InlayHint { constructor(position, label, kind) { this.position = position; this.label = label; this.kind = kind; } }
class TypeHierarchyItem { constructor(kind, name, detail, uri, range, selectionRange) { Object.assign(this, { kind, name, detail, uri, range, selectionRange }); } }
class CallHierarchyItem extends TypeHierarchyItem {}
class SymbolInformation { constructor(name, kind, containerName, location) { Object.assign(this, { name, kind, containerName, location }); } }

// Documents.

class TextDocument {
  constructor(uri, languageId, text) {
    this.uri = uri;
    this.fileName = uri.fsPath;
    this.languageId = languageId;
    this.version = 1;
    this.isDirty = false;
    this.isClosed = false;
    this.isUntitled = false;
    this.eol = EndOfLine.LF;
    this._text = text;
  }
  getText(range) {
    if (!range) return this._text;
    return this._text.slice(this.offsetAt(range.start), this.offsetAt(range.end));
  }
  get lineCount() { return this._text.split('\n').length; }
  // offsetAt and positionAt count UTF-16 units, as VS Code and the protocol.
  offsetAt(p) {
    const lines = this._text.split('\n');
    let off = 0;
    for (let i = 0; i < p.line && i < lines.length; i++) off += lines[i].length + 1;
    return Math.min(off + p.character, this._text.length);
  }
  positionAt(off) {
    const before = this._text.slice(0, off);
    const line = before.split('\n').length - 1;
    return new Position(line, off - (before.lastIndexOf('\n') + 1));
  }
  save() { return workspace._save(this); }
}

function languageOf(file) {
  const base = path.basename(file);
  if (base.startsWith('.env')) return 'dotenv';
  return { '.vue': 'vue', '.ts': 'typescript', '.mts': 'typescript', '.cts': 'typescript', '.js': 'javascript', '.mjs': 'javascript',
    '.cjs': 'javascript', '.tsx': 'typescriptreact', '.jsx': 'javascriptreact', '.json': 'json' }[path.extname(file)] || 'plaintext';
}

// The editor's state, reset for each test by reset().

const state = {};
const record = {};

function newEmitters() {
  return Object.fromEntries(['config', 'trust', 'willSave', 'open', 'change', 'close', 'save', 'folders', 'activeEditor', 'tabs']
    .map((k) => [k, new EventEmitter()]));
}

function reset({ folders = [], settings = {}, trusted = true } = {}) {
  state.folders = folders.map((f, index) => ({ uri: Uri.file(f), name: path.basename(f), index }));
  state.settings = { ...settings };
  state.trusted = trusted;
  state.docs = new Map();
  state.events = newEmitters();
  state.commands = new Map();
  state.answers = [];
  state.activeEditor = undefined;
  record.messages = [];
  record.output = [];
  record.diagnostics = new Map();
  record.providers = [];
  record.terminals = [];
  record.watchers = [];
}
reset();

// answer queues the user's answer to the next dialog (a button's title,
// or undefined to dismiss it).
function answer(...choices) { state.answers.push(...choices); }

function show(kind) {
  return async (message, ...items) => {
    const options = items.length > 0 && typeof items[0] === 'object' && items[0] !== null && !('title' in items[0]) ? items.shift() : {};
    const modal = !!(options && options.modal);
    const choice = state.answers.shift();
    record.messages.push({ kind, message, items, modal, detail: options && options.detail, choice });
    if (choice !== undefined && !items.includes(choice)) throw new Error(`stub: answer ${choice} is not among ${items}`);
    return choice;
  };
}

const workspace = {
  get workspaceFolders() { return state.folders.length ? state.folders : undefined; },
  get isTrusted() { return state.trusted; },
  get textDocuments() { return [...state.docs.values()]; },
  notebookDocuments: [],
  get onDidChangeConfiguration() { return state.events.config.event; },
  get onDidGrantWorkspaceTrust() { return state.events.trust.event; },
  get onWillSaveTextDocument() { return state.events.willSave.event; },
  get onDidOpenTextDocument() { return state.events.open.event; },
  get onDidChangeTextDocument() { return state.events.change.event; },
  get onDidCloseTextDocument() { return state.events.close.event; },
  get onDidSaveTextDocument() { return state.events.save.event; },
  get onDidChangeWorkspaceFolders() { return state.events.folders.event; },
  onDidOpenNotebookDocument: new EventEmitter().event,
  onDidChangeNotebookDocument: new EventEmitter().event,
  onDidSaveNotebookDocument: new EventEmitter().event,
  onDidCloseNotebookDocument: new EventEmitter().event,
  getConfiguration(section) {
    const prefix = section ? section + '.' : '';
    return {
      get: (key, def) => (prefix + key in state.settings ? state.settings[prefix + key] : def),
      has: (key) => prefix + key in state.settings,
      inspect: () => undefined,
      update: () => { throw new Error('stub: the extension must not change settings'); },
    };
  },
  getWorkspaceFolder(uri) { return state.folders.find((f) => within(f.uri.fsPath, uri.fsPath)); },
  asRelativePath(p) {
    const file = typeof p === 'string' ? p : p.fsPath;
    const f = state.folders.find((x) => within(x.uri.fsPath, file));
    return f ? path.relative(f.uri.fsPath, file) : file;
  },
  createFileSystemWatcher(glob) {
    const w = { glob, create: new EventEmitter(), change: new EventEmitter(), delete: new EventEmitter() };
    record.watchers.push(w);
    return { onDidCreate: w.create.event, onDidChange: w.change.event, onDidDelete: w.delete.event, dispose() {}, ignoreCreateEvents: false };
  },
  async findFiles(include, exclude, max = Infinity) {
    const out = [];
    const skip = (p) => exclude && (minimatch(p, exclude, { dot: true }) || minimatch(p + '/x', exclude, { dot: true }));
    const walk = (dir) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (out.length >= max || skip(p)) continue;
        if (e.isDirectory()) walk(p);
        else if (minimatch(p, include, { dot: true })) out.push(Uri.file(p));
      }
    };
    for (const f of state.folders) walk(f.uri.fsPath);
    return out;
  },
  async applyEdit(edit) {
    for (const [uri, edits] of edit.entries()) {
      const doc = state.docs.get(uri.toString()) || (await workspace.openTextDocument(uri));
      editDocument(doc, edits);
    }
    return true;
  },
  async openTextDocument(uri) {
    if (!(uri instanceof Uri)) uri = Uri.file(uri);
    const have = state.docs.get(uri.toString());
    if (have) return have;
    const doc = new TextDocument(uri, languageOf(uri.fsPath), fs.readFileSync(uri.fsPath, 'utf8'));
    state.docs.set(uri.toString(), doc);
    state.events.open.fire(doc);
    return doc;
  },
  async saveAll() {
    for (const d of state.docs.values()) if (d.isDirty) await workspace._save(d);
    return true;
  },
  async _save(doc) {
    fs.writeFileSync(doc.uri.fsPath, doc.getText());
    doc.isDirty = false;
    state.events.save.fire(doc);
    return true;
  },
  fs: {
    async stat(uri) { const st = fs.statSync(uri.fsPath); return { type: st.isDirectory() ? FileType.Directory : FileType.File }; },
  },
};

// editDocument applies edits (vscode.TextEdit, in one document's positions)
// to doc, last first, and tells the listeners as VS Code does.
function editDocument(doc, edits) {
  const sorted = [...edits].sort((a, b) => doc.offsetAt(b.range.start) - doc.offsetAt(a.range.start));
  const changes = [];
  for (const e of sorted) {
    const start = doc.offsetAt(e.range.start);
    const end = doc.offsetAt(e.range.end);
    changes.push({ range: new Range(doc.positionAt(start), doc.positionAt(end)), rangeOffset: start, rangeLength: end - start, text: e.newText });
    doc._text = doc._text.slice(0, start) + e.newText + doc._text.slice(end);
  }
  doc.version++;
  doc.isDirty = true;
  state.events.change.fire({ document: doc, contentChanges: changes, reason: undefined });
}

// willSave fires onWillSaveTextDocument as VS Code does before a save, and
// returns the edits the listeners asked for through waitUntil.
async function willSave(doc, reason = TextDocumentSaveReason.Manual) {
  const waits = [];
  state.events.willSave.fire({ document: doc, reason, waitUntil: (p) => waits.push(p) });
  const edits = [];
  for (const w of waits) edits.push(...((await w) || []));
  return { asked: waits.length, edits };
}

function within(dir, file) {
  const rel = path.relative(dir, file);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

const window = {
  createOutputChannel(name) {
    const ch = {
      name,
      append: (s) => record.output.push(s),
      appendLine: (s) => record.output.push(s + '\n'),
      replace: (s) => record.output.push(s),
      clear() {}, show() {}, hide() {}, dispose() {},
    };
    return ch;
  },
  showErrorMessage: show('error'),
  showWarningMessage: show('warning'),
  showInformationMessage: show('information'),
  get activeTextEditor() { return state.activeEditor; },
  visibleTextEditors: [],
  get onDidChangeActiveTextEditor() { return state.events.activeEditor.event; },
  tabGroups: { all: [], get onDidChangeTabs() { return state.events.tabs.event; } },
  async showTextDocument(doc) {
    state.activeEditor = { document: doc };
    state.events.activeEditor.fire(state.activeEditor);
    return state.activeEditor;
  },
  async withProgress(_options, task) { return task({ report() {} }, new CancellationTokenSource().token); },
  // A terminal runs its program for real (no shell, as shellPath and
  // shellArgs ask), and records what it printed and how it ended.
  createTerminal(options) {
    const t = { options, output: '', shown: false };
    t.exit = new Promise((resolve) => {
      const p = childProcess.spawn(options.shellPath, options.shellArgs || [], { cwd: options.cwd, env: { ...process.env, ...(options.env || {}) } });
      p.stdout.on('data', (d) => { t.output += d; });
      p.stderr.on('data', (d) => { t.output += d; });
      p.on('error', (err) => { t.output += String(err); resolve(-1); });
      p.on('close', (code) => resolve(code));
    });
    record.terminals.push(t);
    return { name: options.name, show() { t.shown = true; }, sendText() { throw new Error('stub: the terminal runs its program, not a shell'); }, dispose() {} };
  },
};

// A diagnostic collection records what the client sets.
function createDiagnosticCollection(name) {
  const set = (uri, diags) => {
    if (Array.isArray(uri)) { for (const [u, d] of uri) set(u, d); return; }
    if (diags === undefined) record.diagnostics.delete(uri.toString());
    else record.diagnostics.set(uri.toString(), diags);
    for (const w of diagnosticWaiters) w();
  };
  return {
    name,
    set,
    delete: (uri) => set(uri, undefined),
    clear: () => record.diagnostics.clear(),
    get: (uri) => record.diagnostics.get(uri.toString()),
    has: (uri) => record.diagnostics.has(uri.toString()),
    forEach: (cb) => record.diagnostics.forEach((d, u) => cb(Uri.parse(u), d)),
    dispose() {},
  };
}
const diagnosticWaiters = new Set();

// waitDiagnostics resolves with the diagnostics of uri once ok accepts
// them; it rejects after ms.
function waitDiagnostics(uri, ok, ms = 30000) {
  return new Promise((resolve, reject) => {
    const check = () => {
      const d = record.diagnostics.get(uri.toString());
      if (d && ok(d)) { diagnosticWaiters.delete(check); clearTimeout(timer); resolve(d); }
    };
    const timer = setTimeout(() => {
      diagnosticWaiters.delete(check);
      reject(new Error(`no diagnostics of ${uri} as wanted within ${ms} ms; the last: ${JSON.stringify(record.diagnostics.get(uri.toString()))}`));
    }, ms);
    diagnosticWaiters.add(check);
    check();
  });
}

function matchScore(selector, doc) {
  const filters = Array.isArray(selector) ? selector : [selector];
  let score = 0;
  for (const f of filters) {
    if (typeof f === 'string') { if (f === doc.languageId) score = Math.max(score, 10); continue; }
    if (f.scheme && f.scheme !== doc.uri.scheme) continue;
    if (f.language && f.language !== doc.languageId) continue;
    if (f.pattern) {
      const glob = typeof f.pattern === 'string' ? f.pattern : path.join(f.pattern.base, f.pattern.pattern);
      if (!minimatch(doc.uri.fsPath, glob, { dot: true })) continue;
    }
    score = Math.max(score, f.language ? 10 : 5);
  }
  return score;
}

const register = (kind) => (selector, provider, metadata) => {
  const entry = { kind, selector, provider, metadata };
  const list = record.providers; // this test's: reset() makes a new one
  list.push(entry);
  return new Disposable(() => list.includes(entry) && list.splice(list.indexOf(entry), 1));
};

const languages = {
  createDiagnosticCollection,
  match: matchScore,
  registerCodeActionsProvider: register('codeActions'),
  registerHoverProvider: register('hover'),
  registerCompletionItemProvider: register('completion'),
};
// A provider for a feature the server does not offer is never registered:
// the stub throws where one would be.
for (const name of ['CallHierarchy', 'CodeLens', 'Color', 'Declaration', 'Definition', 'DocumentFormattingEdit', 'DocumentHighlight',
  'DocumentLink', 'DocumentRangeFormattingEdit', 'DocumentSymbol', 'FoldingRange', 'Implementation', 'InlayHints', 'InlineCompletionItem',
  'InlineValues', 'OnTypeFormattingEdit', 'Reference', 'Rename', 'SelectionRange', 'SignatureHelp', 'TypeDefinition', 'TypeHierarchy',
  'WorkspaceSymbol', 'LinkedEditingRange', 'DocumentSemanticTokens', 'DocumentRangeSemanticTokens']) {
  languages[`register${name}Provider`] = () => { throw new Error(`stub: register${name}Provider: the server offers no such feature`); };
}

const commands = {
  registerCommand(id, fn) {
    if (state.commands.has(id)) throw new Error(`command '${id}' already exists`);
    state.commands.set(id, fn);
    return new Disposable(() => state.commands.delete(id));
  },
  async executeCommand(id, ...args) {
    const fn = state.commands.get(id);
    if (!fn) throw new Error(`command '${id}' not found`);
    return fn(...args);
  },
};

const env = {
  appName: 'Visual Studio Code (stub)',
  language: 'en',
  machineId: 'stub',
  uiKind: 1,
  async openExternal(uri) { record.messages.push({ kind: 'openExternal', message: uri.toString() }); return true; },
};

const UIKind = { Desktop: 1, Web: 2 };

module.exports = {
  version,
  Disposable, EventEmitter, CancellationTokenSource, CancellationError,
  Uri, Position, Range, Selection, Location,
  Diagnostic, DiagnosticSeverity, DiagnosticTag, DiagnosticRelatedInformation,
  CodeAction, CodeActionKind, CodeActionTriggerKind, TextEdit, WorkspaceEdit,
  MarkdownString, Hover, SnippetString, CompletionItem, CompletionList, CompletionItemKind, CompletionItemTag, CompletionTriggerKind,
  RelativePattern, TextDocumentSaveReason, ProgressLocation, EndOfLine, FileType, UIKind,
  CodeLens, DocumentLink, InlayHint, TypeHierarchyItem, CallHierarchyItem, SymbolInformation,
  workspace, window, languages, commands, env,
  // For the test.
  stub: { reset, answer, record, state, editDocument, willSave, waitDiagnostics, TextDocument },
};
