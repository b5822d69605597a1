// Lints TypeScript text read from stdin with the package's ESLint config, as the file named by argv[3]
// (argv[2]: the project's root), and prints the messages as JSON. A child process: ESLint loads its
// flat config as an ES module, which jest's module system does not.
import { readFileSync } from 'node:fs';

import { ESLint } from 'eslint';

const eslint = new ESLint({ cwd: process.argv[2] });
const [result] = await eslint.lintText(readFileSync(0, 'utf8'), { filePath: process.argv[3] });
process.stdout.write(
	JSON.stringify(result.messages.map(({ ruleId, line, message }) => ({ ruleId, line, message }))),
);
