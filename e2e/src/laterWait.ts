/**
 * A human approval after the video, in a real n8n: Create and Wait by callback, then n8n's Wait node
 * (On Webhook Call, POST, no authentication), then a second one. The video resumes its node; the
 * gateway then sends its final callback once more to the address it was given, as an at-least-once
 * sender does. That copy must resume nothing: n8n answers it at once (404) or holds it unanswered (a
 * Wait node followed by another: n8n keeps the request for a later response), and the approval goes
 * on only on its own call, with its own body.
 *
 * In queue mode (`watchLog`: the log of the worker that started the wait) the worker never sees the
 * webhook process resume the execution: its own watch posts once the tasks are final, and that one post
 * (n8n's 404 at the wait's own address) must end its watch without resuming the approval.
 */
import { videoTasks } from '../../test/simulator/video/tasks';
import { http } from './http';
import { outputOf } from './n8n';
import { sleep, waitFor } from './proc';
import type { Context, Workflow } from './workflows';
import { CREATE_AND_WAIT, callbackWaitOf } from './workflows';

const APPROVAL = 'Approval';
const SECOND = 'Second Approval';
/** How long the repeated callback is given, as a gateway that hangs up at 10 s. */
const SENDER_TIMEOUT_MS = 10_000;

const waitNode = (name: string, x: number) => ({
	name,
	type: 'n8n-nodes-base.wait',
	typeVersion: 1.1,
	position: [x, 0],
	parameters: { resume: 'webhook', httpMethod: 'POST', options: {} },
	webhookId: `${name.toLowerCase().replace(/ /g, '-')}-${Date.now()}`,
});

function withApproval(workflow: Workflow): Workflow {
	return {
		...workflow,
		nodes: [...workflow.nodes, waitNode(APPROVAL, 900), waitNode(SECOND, 1100)],
		connections: {
			...workflow.connections,
			[CREATE_AND_WAIT]: { main: [[{ node: APPROVAL, type: 'main', index: 0 }]] },
			[APPROVAL]: { main: [[{ node: SECOND, type: 'main', index: 0 }]] },
		},
	};
}

/**
 * After the resume: a read at 30 s, the 15 s head start, the minute a claim handed to n8n holds, a
 * post n8n may hold for its whole 60 s, and room for a retry a post would get.
 */
const WATCH_DONE_MS = 200_000;

export async function runLaterWait(ctx: Context, watchLog?: () => string): Promise<void> {
	const { n8n, sim, checks } = ctx;
	const name = `later-wait${watchLog ? ' (queue mode)' : ''}: Create and Wait by callback, then a Wait node`;
	const prompt = `later-wait-${Date.now()} [after:2500]`;
	const workflow = withApproval(
		callbackWaitOf(ctx.credentials, 'Later wait: video then approval', [prompt], 5),
	);
	const created = await n8n.createWorkflow(workflow);
	const executionId = await n8n.runManually(created.id, 'Start');
	// The video resumed its node; the execution now waits at the approval.
	const atApproval = await waitFor(
		`execution ${executionId} to wait at the approval`,
		async () => {
			const record = await n8n.execution(executionId);
			if (!['waiting', 'success', 'error', 'crashed', 'canceled'].includes(record.status)) return undefined;
			// Waiting at the video node still: its items are the tasks as created.
			if (record.status === 'waiting' && record.data.resultData.lastNodeExecuted !== APPROVAL)
				return undefined;
			return record;
		},
		120_000,
		500,
	);
	checks.equal(`${name}: the execution waits at the approval`, atApproval.status, 'waiting');
	checks.equal(
		`${name}: after the video node went on with its video`,
		outputOf(atApproval, CREATE_AND_WAIT)[0]?.json.status,
		'completed',
	);
	const taskId = String(outputOf(atApproval, CREATE_AND_WAIT)[0]?.json.id);
	// One run of the approval so far: the one that put it to wait.
	const runsOfApproval = (record: typeof atApproval) =>
		(record.data.resultData.runData[APPROVAL] ?? []).length;
	const task = videoTasks(sim).tasks.get(taskId);
	const callbackUrl = String(task?.callbackUrl);
	checks.ok(
		`${name}: the task's callback address is the wait's own (…/video-wait)`,
		new URL(callbackUrl).pathname.endsWith(`/webhook-waiting/${executionId}/video-wait`),
		callbackUrl.replace(/\?.*$/, ''),
	);

	if (watchLog) {
		// The worker's watch: its one post after the resume, answered 404, and nothing more.
		await sleep(WATCH_DONE_MS);
		const posts = watchLog()
			.split('\n')
			.filter((line) => line.includes(`video task ${taskId} is completed`) && line.includes('posted it to'));
		checks.equal(`${name}: the worker's watch posted once after the resume`, posts.length, 1);
		checks.ok(
			`${name}: to the wait's own address, answered 404 or held unanswered and not sent again`,
			// n8n 1.123's resume URL has no signature to redact.
			/video-wait(\?…)? \((HTTP 404|no answer[^)]*)\)/.test(posts[0] ?? '') &&
				!/to be posted again/.test(posts[0] ?? ''),
			posts,
		);
		const after = await n8n.execution(executionId);
		checks.equal(`${name}: the approval still waits after the worker's post`, after.status, 'waiting');
		checks.equal(
			`${name}: the approval was not run by it`,
			runsOfApproval(after),
			runsOfApproval(atApproval),
		);
	}

	// The gateway's final callback, once more, to the address it was given.
	const copy = await http(callbackUrl, {
		method: 'POST',
		body: { id: taskId, status: 'completed' },
		timeoutMs: SENDER_TIMEOUT_MS,
	}).then(
		(answer) => answer.status,
		() => 'held',
	);
	checks.ok(
		`${name}: n8n answers the repeated final callback 404 (no wait of that path) or holds it unanswered`,
		copy === 404 || copy === 'held',
		copy,
	);
	await sleep(2_000);
	const still = await n8n.execution(executionId);
	checks.equal(`${name}: the approval still waits after the repeated callback`, still.status, 'waiting');
	checks.equal(
		`${name}: the approval was not run again by it`,
		runsOfApproval(still),
		runsOfApproval(atApproval),
	);

	// The approval's own call: the bare resume URL with its token.
	const approvalUrl = callbackUrl.replace(/\/video-wait(?=\?|$)/, '');
	const approved = await http(approvalUrl, { method: 'POST', body: { approved: true } });
	checks.equal(`${name}: the approval's own call is taken`, approved.status, 200);
	await waitFor(
		`execution ${executionId} to wait at the second approval`,
		async () =>
			(await n8n.execution(executionId)).data.resultData.lastNodeExecuted === SECOND ? true : undefined,
		60_000,
		500,
	);
	const second = await http(approvalUrl, { method: 'POST', body: { second: true } });
	checks.equal(`${name}: the second approval's own call is taken`, second.status, 200);
	const done = await n8n.waitExecution(executionId, 60_000);
	checks.equal(`${name}: the execution went on`, done.status, 'success');
	checks.equal(
		`${name}: the approval went on with its own call's body, not the gateway's record`,
		(outputOf(done, APPROVAL)[0]?.json.body as { approved?: boolean } | undefined)?.approved,
		true,
	);
}
