import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/**
 * Paid work the gateway goes on with whatever happens to the run (video tasks),
 * kept per node run: a failed run's error names every task, so nothing paid for is lost.
 */

interface CreatedTask {
	itemIndex: number;
	taskId: string;
	/** A batch wait counts the task's deadline from here. */
	createdAt: number;
}

interface CompletedTask {
	itemIndex: number;
	taskId: string;
	record: IDataObject;
}

interface RunTasks {
	created: CreatedTask[];
	completed: CompletedTask[];
}

const tasksByRun = new WeakMap<object, RunTasks>();

function tasksOf(ctx: IExecuteFunctions): RunTasks {
	let tasks = tasksByRun.get(ctx);
	if (!tasks) {
		tasks = { created: [], completed: [] };
		tasksByRun.set(ctx, tasks);
	}
	return tasks;
}

const byItem = (a: { itemIndex: number }, b: { itemIndex: number }) => a.itemIndex - b.itemIndex;

export function noteCreatedTask(ctx: IExecuteFunctions, itemIndex: number, taskId: string): void {
	tasksOf(ctx).created.push({ itemIndex, taskId, createdAt: Date.now() });
}

export function noteCompletedTask(ctx: IExecuteFunctions, itemIndex: number, record: IDataObject): void {
	tasksOf(ctx).completed.push({ itemIndex, taskId: String(record.id ?? ''), record });
}

export function createdTasks(ctx: IExecuteFunctions): CreatedTask[] {
	return [...(tasksByRun.get(ctx)?.created ?? [])].sort(byItem);
}

function completedTasks(ctx: IExecuteFunctions): CompletedTask[] {
	return [...(tasksByRun.get(ctx)?.completed ?? [])].sort(byItem);
}

/** Records kept whole in an error's text; the others are named by id. */
const RECORDS_IN_TEXT = 20;

const listed = (tasks: Array<{ taskId: string; itemIndex: number }>) =>
	tasks.map((task) => `${task.taskId} (item ${task.itemIndex})`).join(', ');

function createdTasksAdvice(tasks: CreatedTask[], completed: CompletedTask[] = []): string {
	const done = new Set(completed.map((task) => task.taskId));
	const running = tasks.filter((task) => !done.has(task.taskId));
	const parts: string[] = [];
	if (running.length > 0) {
		const one = running.length === 1;
		parts.push(
			`Before it failed, this run created ${one ? 'the video task' : `${running.length} video tasks`} ${listed(running)}: ${one ? 'it keeps' : 'they keep'} running at the gateway and ${one ? 'is' : 'are'} charged. Get ${one ? 'its video' : 'their videos'} with Video → Wait for Completion and ${one ? 'this task ID' : 'these task IDs'} instead of creating ${one ? 'it' : 'them'} again.`,
		);
	}
	if (completed.length > 0) {
		const one = completed.length === 1;
		const shown = completed.slice(0, RECORDS_IN_TEXT).map((task) => task.record);
		const more =
			completed.length > RECORDS_IN_TEXT
				? ` (the first ${RECORDS_IN_TEXT}; Video → Get gives the others')`
				: '';
		parts.push(
			`${one ? 'The video task' : `${completed.length} video tasks`} ${listed(completed)} completed before the run failed: Video → Wait for Completion with ${one ? 'its ID gives its video' : 'their IDs gives their videos'} without a new task. The gateway's ${one ? 'record' : 'records'}${more}: ${JSON.stringify(one ? shown[0] : shown)}`,
		);
	}
	return parts.join(' ');
}

/** Also in `context.createdTasks` / `context.completedTasks`. */
export function withCreatedTasks<E extends Error>(ctx: IExecuteFunctions, error: E): E {
	const tasks = createdTasks(ctx);
	const completed = completedTasks(ctx);
	if (tasks.length === 0 && completed.length === 0) return error;
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		const advice = createdTasksAdvice(tasks, completed);
		error.description = error.description ? `${error.description} ${advice}` : advice;
		error.context = {
			...error.context,
			...(tasks.length
				? { createdTasks: tasks.map(({ itemIndex, taskId }) => ({ itemIndex, taskId })) }
				: {}),
			...(completed.length ? { completedTasks: completed.map((task) => ({ ...task })) } : {}),
		};
	}
	return error;
}
