'use strict';
// Which fwmigrate the extension runs. Plain Node: the test calls it
// without VS Code.
//
// 1. the fwmigrate.path setting, when set (a relative path is taken from
//    the first workspace folder);
// 2. node_modules/.bin/fwmigrate of a workspace folder, or of a folder
//    above it (a monorepo installs it at its root), as the eslint extension
//    finds the project's eslint: the version the project pinned, the one
//    its CI runs. Only in a trusted workspace: it is the workspace's code;
// 3. fwmigrate on the PATH.
//
// undefined when there is none (installHint says what to do).

const fs = require('fs');
const path = require('path');

const NAME = 'fwmigrate';

// runnable reports whether file exists as a file this user may run.
function runnable(file, platform) {
  try {
    if (!fs.statSync(file).isFile()) return false;
    if (platform !== 'win32') fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

// binNames are the names npm gives the command in node_modules/.bin, and
// those a PATH search tries.
function binNames(platform, env) {
  if (platform !== 'win32') return [NAME];
  const exts = (env.PATHEXT || '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean);
  return exts.map((e) => NAME + e.toLowerCase());
}

/**
 * findBinary returns { command, source } or undefined.
 * @param {{setting?: string, folders: string[], trusted: boolean,
 *          env: NodeJS.ProcessEnv, platform: string}} o
 */
function findBinary(o) {
  const names = binNames(o.platform, o.env);
  if (o.setting) {
    const command = path.resolve(o.folders[0] || process.cwd(), o.setting);
    return { command, source: 'the fwmigrate.path setting', missing: !runnable(command, o.platform) };
  }
  if (o.trusted) {
    for (const folder of o.folders) {
      for (let dir = path.resolve(folder); ; dir = path.dirname(dir)) {
        for (const n of names) {
          const command = path.join(dir, 'node_modules', '.bin', n);
          if (runnable(command, o.platform)) return { command, source: 'node_modules/.bin' };
        }
        if (path.dirname(dir) === dir) break;
      }
    }
  }
  for (const dir of (o.env.PATH || o.env.Path || '').split(path.delimiter)) {
    if (!dir || !path.isAbsolute(dir)) continue; // a relative PATH entry would name a file of the workspace
    for (const n of names) {
      const command = path.join(dir, n);
      if (runnable(command, o.platform)) return { command, source: 'the PATH' };
    }
  }
  return undefined;
}

// installHint is the message shown when findBinary finds none.
const installHint =
  'fwmigrate was not found: neither in node_modules/.bin of this workspace nor on the PATH. ' +
  'Install it into the project (npm install --save-dev with the fwmigrate tarballs of a release), ' +
  'or on the PATH (go install ./cmd/fwmigrate in a clone of fwmigrate), or set fwmigrate.path.';

const installURL = 'https://github.com/fwmigrate/fwmigrate#install';

module.exports = { findBinary, installHint, installURL };
