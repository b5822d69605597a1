/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/* Starts the simulator by hand: `npx ts-node --transpile-only test/simulator/cli.ts`. */
import { startSimulator } from './server';

void (async () => {
	const sim = await startSimulator();
	process.stdout.write(`Generation Gateway simulator listening on ${sim.url}\n`);
	process.stdout.write(`Keys: ${JSON.stringify(sim.keys)}\n`);
	const stop = () => void sim.stop().then(() => process.exit(0));
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
})();
