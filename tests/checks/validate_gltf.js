#!/usr/bin/env node
// Validates a .glb or .gltf file with the Khronos glTF validator; prints the report and exits
// 0 only when it has no errors and no warnings (1 otherwise, 2 on a usage or setup problem).
'use strict';
const fs = require('fs');
const path = require('path');

let validator;
try {
  validator = require(path.join(__dirname, '../../scripts/node/node_modules/gltf-validator'));
} catch (e) {
  console.error('validate_gltf: gltf-validator is not installed (run scripts/setup.sh)');
  process.exit(2);
}

const file = process.argv[2];
if (!file || process.argv.length > 3) {
  console.error('usage: validate_gltf.js FILE.glb|FILE.gltf');
  process.exit(2);
}

const bytes = new Uint8Array(fs.readFileSync(file));
// External resources (a .bin beside a .gltf) are read relative to the file.
const externalResourceFunction = (uri) =>
  new Promise((resolve, reject) => {
    fs.readFile(path.resolve(path.dirname(file), decodeURIComponent(uri)), (err, data) =>
      err ? reject(err.toString()) : resolve(new Uint8Array(data)));
  });

validator
  .validateBytes(bytes, { uri: path.basename(file), maxIssues: 100, externalResourceFunction })
  .then((report) => {
    console.log(JSON.stringify(report, null, 2));
    const { numErrors, numWarnings } = report.issues;
    process.exit(numErrors === 0 && numWarnings === 0 ? 0 : 1);
  })
  .catch((err) => {
    console.error('validate_gltf: ' + err);
    process.exit(1);
  });
