import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/**
 * Work the gateway accepted during one run of the node and goes on with, at
 * a cost, whatever happens to the run (video tasks). When the run fails, its
 * error names every such task, so nothing paid for is lost: the user can pick
 * each one up by its id. Kept per execution context (one per node run).
 */

export interface CreatedTask {
	itemIndex: number;
	taskId: string;
}

const createdByRun = new WeakMap<object, CreatedTask[]>();

/** Notes a task the gateway created for item `itemIndex` of this run. */
export function noteCreatedTask(ctx: IExecuteFunctions, itemIndex: number, taskId: string): void {
	let list = createdByRun.get(ctx);
	if (!list) {
		list = [];
		createdByRun.set(ctx, list);
	}
	list.push({ itemIndex, taskId });
}

/** The tasks this run created, in item order. */
export function createdTasks(ctx: IExecuteFunctions): CreatedTask[] {
	return [...(createdByRun.get(ctx) ?? [])].sort((a, b) => a.itemIndex - b.itemIndex);
}

/** What the error of a failed run adds about the tasks it created (empty when none). */
export function createdTasksAdvice(tasks: CreatedTask[]): string {
	if (tasks.length === 0) return '';
	const list = tasks.map((task) => `${task.taskId} (item ${task.itemIndex})`).join(', ');
	const one = tasks.length === 1;
	return `Before it failed, this run created ${one ? 'the video task' : `${tasks.length} video tasks`} ${list}: ${one ? 'it keeps' : 'they keep'} running at the gateway and ${one ? 'is' : 'are'} charged. Get ${one ? 'its video' : 'their videos'} with Video → Wait for Completion and ${one ? 'this task ID' : 'these task IDs'} instead of creating ${one ? 'it' : 'them'} again.`;
}

/** The run's error with the tasks it created named in its description (and `context.createdTasks`). */
export function withCreatedTasks<E extends Error>(ctx: IExecuteFunctions, error: E): E {
	const tasks = createdTasks(ctx);
	if (tasks.length === 0) return error;
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		const advice = createdTasksAdvice(tasks);
		error.description = error.description ? `${error.description} ${advice}` : advice;
		error.context = { ...error.context, createdTasks: tasks.map((task) => ({ ...task })) };
	}
	return error;
}
