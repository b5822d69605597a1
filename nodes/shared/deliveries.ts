import { BoundedMap } from './boundedMap';

/**
 * The trigger deliveries this n8n process has started a workflow for, by
 * workflow, node, task and status: a repeated delivery starts nothing. Kept
 * in memory, not in the workflow's static data: saving static data writes the
 * workflow on every start, and deliveries handled at the same moment each save
 * their own copy over the others'. The tasks are also kept on their own, so
 * that a watch of the action node (shared/watch.ts) in this process sees its
 * news arrived.
 */
export class StartedDeliveries {
	private readonly keys: BoundedMap<string, true>;
	private readonly tasks: BoundedMap<string, true>;

	constructor(max = 10_000) {
		this.keys = new BoundedMap(max);
		this.tasks = new BoundedMap(max);
	}

	get size(): number {
		return this.keys.size;
	}

	/**
	 * Records a start, with the task id when its status is final; false when this delivery
	 * started a workflow already. Synchronous: one of racing deliveries wins.
	 */
	claim(key: string, finalTaskId?: string): boolean {
		if (this.keys.has(key)) return false;
		this.keys.set(key, true);
		if (finalTaskId !== undefined) this.tasks.set(finalTaskId, true);
		return true;
	}

	has(key: string): boolean {
		return this.keys.has(key);
	}

	/** Whether a delivery of this task's final status started a workflow in this process. */
	startedFor(taskId: string): boolean {
		return this.tasks.has(taskId);
	}
}

export const startedDeliveries = new StartedDeliveries();

export function deliveryKey(workflowId: unknown, nodeId: string, taskId: string, status: string): string {
	return `${String(workflowId ?? '')}|${nodeId}|${taskId}|${status}`;
}
