// Lints TypeScript texts (a JSON array of strings read from stdin) with the package's ESLint config, each
// as the file named by argv[3] (argv[2]: the project's root), and prints each text's messages as JSON. A
// child process: ESLint loads its flat config as an ES module, which jest's module system does not.
import { readFileSync } from 'node:fs';

import { ESLint } from 'eslint';

const eslint = new ESLint({ cwd: process.argv[2] });
const texts = JSON.parse(readFileSync(0, 'utf8'));
const results = [];
for (const text of texts) {
	const [result] = await eslint.lintText(text, { filePath: process.argv[3] });
	results.push(result.messages.map(({ ruleId, line, message }) => ({ ruleId, line, message })));
}
process.stdout.write(JSON.stringify(results));
