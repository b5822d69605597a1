/**
 * n8n unable to reach its own address, in a real n8n: an instance over https whose Node does not
 * trust n8n's own certificate (a private CA without NODE_EXTRA_CA_CERTS, as many containers run).
 * A callback wait begins: n8n's log says why the package's own news is off, once, naming the
 * certificate (the check runs beside the wait, never before it); a wait begun once that is known
 * says it on its items too; the gateway's callbacks still resume both executions with their videos.
 */
import { outputOf } from './n8n';
import { waitFor } from './proc';
import { startN8n, type PackagedN8n, type PartInput } from './start';
import { CREATE_AND_WAIT, callbackWaitOf } from './workflows';

export async function runOwnAddress(input: PartInput): Promise<void> {
	const { checks } = input;
	checks.begin("n8n unable to reach its own address: its Node does not trust n8n's certificate");
	let ctx: PackagedN8n | undefined;
	try {
		// Empty: n8n's Node trusts only the public certificate authorities, not n8n's own certificate.
		ctx = await startN8n(input, { name: 'own-address', env: { NODE_EXTRA_CA_CERTS: '' } });
		await waitsAndSays(ctx);
	} catch (error) {
		checks.broke('own address unreachable', error);
	} finally {
		await ctx?.stop();
	}
}

async function waitsAndSays(ctx: PackagedN8n): Promise<void> {
	const { n8n, checks } = ctx;
	const name = 'own-address';
	const warnings = () =>
		n8n
			.proc!.log()
			.split('\n')
			.filter((line) => line.includes("this n8n process cannot reach n8n's own address"));
	const workflow = callbackWaitOf(
		ctx.credentials,
		'Own address unreachable',
		['Own address 1 [after:6000]', 'Own address 2 [after:6000]'],
		5,
	);
	const created = await n8n.createWorkflow(workflow);
	const wait = async () => {
		const id = await n8n.runManually(created.id, 'Start');
		return { id, record: await n8n.waitExecution(id, 60_000, ['waiting', 'success', 'error', 'crashed']) };
	};
	// Two waits, the second once the first's check is in n8n's log: the log says it once.
	const first = await wait();
	const lines = await waitFor(
		"the warning in n8n's log",
		() => (warnings().length ? warnings() : undefined),
		60_000,
	);
	const second = await wait();
	const ids = [first.id, second.id];
	checks.equal(
		`${name}: the executions wait for their callbacks`,
		[first.record.status, second.record.status],
		['waiting', 'waiting'],
	);
	const offs = outputOf(second.record, CREATE_AND_WAIT).map(
		(item) => (item.json.waitInfo as { ownNewsOff?: string } | undefined)?.ownNewsOff ?? '',
	);
	checks.ok(
		`${name}: each item of a wait begun once the cause is known says the package's own news is off, why (the certificate) and what to set`,
		offs.length === 2 && offs.every((off) => /certificate/i.test(off) && off.includes('NODE_EXTRA_CA_CERTS')),
		offs[0],
	);
	checks.ok(
		`${name}: n8n's log says why, naming the certificate and what to set`,
		/certificate|CERT/.test(lines[0]) && lines[0].includes('NODE_EXTRA_CA_CERTS'),
		lines[0].slice(0, 400),
	);
	const done = await Promise.all(ids.map(async (id) => await n8n.waitExecution(id, 60_000)));
	checks.equal(
		`${name}: the gateway's callbacks still resume each execution with its videos`,
		done.map((record) => outputOf(record, CREATE_AND_WAIT).map((item) => item.json.status)),
		[
			['completed', 'completed'],
			['completed', 'completed'],
		],
	);
	checks.equal(`${name}: the log said it once for the two waits`, warnings().length, 1);
}
