#!/usr/bin/env node
// What n8n's package scanner and installer see: packs the package (after
// `npm run build`), checks that the tarball holds only what n8n needs, and
// lints the packed JavaScript and package.json with the scanner's rule set
// (@n8n/eslint-plugin-community-nodes, recommended: the rules
// @n8n/scan-community-package runs on a published tarball). Before trusting a
// clean result it lints a deliberately broken copy of a packed file and fails
// unless the forbidden import and global are reported, so the check cannot
// pass because it linted nothing.
//
//   node scripts/check-pack.mjs      (exit 1 on any finding)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const work = mkdtempSync(path.join(tmpdir(), 'gg-pack-'));
const failures = [];

try {
	// 1. The file list: dist/, package.json, README.md, LICENSE, nothing else.
	const [packed] = JSON.parse(
		execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: root, encoding: 'utf8' }),
	);
	const files = packed.files.map((f) => f.path).sort();
	const allowed = (file) => file.startsWith('dist/') || ['package.json', 'README.md', 'LICENSE'].includes(file);
	for (const file of files.filter((f) => !allowed(f))) failures.push(`packed but not needed by n8n: ${file}`);
	for (const needed of ['package.json', 'README.md', 'LICENSE']) {
		if (!files.includes(needed)) failures.push(`missing from the tarball: ${needed}`);
	}
	const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
	const referenced = [pkg.main, ...pkg.n8n.nodes, ...pkg.n8n.credentials].filter(Boolean);
	for (const file of referenced.map((f) => path.posix.normalize(f))) {
		if (!files.includes(file)) failures.push(`package.json refers to ${file}, which the tarball lacks`);
	}
	console.log(`tarball ${packed.filename}: ${files.length} files, ${packed.size} bytes packed, ${packed.unpackedSize} unpacked`);

	// 2. The scanner's rules over the packed JavaScript and package.json.
	execFileSync('tar', ['-xzf', path.join(work, packed.filename), '-C', work]);
	const pkgDir = path.join(work, 'package');
	const recommended = n8nCommunityNodesPlugin.configs.recommended;
	const eslint = new ESLint({
		cwd: pkgDir,
		overrideConfigFile: true,
		overrideConfig: [
			{ files: ['**/*.js'], ...recommended, languageOptions: { sourceType: 'commonjs', ecmaVersion: 2023 } },
			{
				files: ['package.json'],
				...recommended,
				languageOptions: { parser: tseslint.parser, parserOptions: { extraFileExtensions: ['.json'] } },
			},
		],
	});
	const report = async (patterns) =>
		(await eslint.lintFiles(patterns)).flatMap((result) =>
			result.messages.map((m) => `${path.relative(pkgDir, result.filePath)}:${m.line} ${m.ruleId ?? ''} ${m.message}`),
		);
	const findings = await report(['**/*.js', 'package.json']);
	failures.push(...findings);
	console.log(`scanner rules over the packed package: ${findings.length} finding(s)`);

	// 3. Proof that the rules bite on packed (CommonJS) code.
	const probe = path.join(pkgDir, 'dist', 'probe.js');
	writeFileSync(probe, "'use strict';\nconst axios = require('axios');\nsetTimeout(() => axios.get('x'), 1);\n");
	const caught = await report(['dist/probe.js']);
	rmSync(probe);
	const bites = ['no-restricted-imports', 'no-restricted-globals'].every((rule) => caught.some((f) => f.includes(rule)));
	if (!bites) failures.push(`the rules did not catch a forbidden require and setTimeout in packed code: ${caught.join('; ')}`);
} finally {
	rmSync(work, { recursive: true, force: true });
}

if (failures.length) {
	console.error(failures.map((f) => `  ${f}`).join('\n'));
	console.error(`check-pack: ${failures.length} problem(s)`);
	process.exit(1);
}
console.log('check-pack: the tarball holds only what n8n needs and passes the scanner rules');
