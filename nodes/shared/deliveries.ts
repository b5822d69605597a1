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
	private readonly keys = new Set<string>();
	private readonly tasks = new Set<string>();

	constructor(private readonly max = 10_000) {}

	get size(): number {
		return this.keys.size;
	}

	/**
	 * Records a start, with the task id when its status is final; false when this delivery
	 * started a workflow already. Synchronous: one of racing deliveries wins.
	 */
	claim(key: string, finalTaskId?: string): boolean {
		if (this.keys.has(key)) return false;
		remember(this.keys, key, this.max);
		if (finalTaskId !== undefined) remember(this.tasks, finalTaskId, this.max);
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

/** A set keeps the order its values were added in: past `max`, the oldest goes first. */
function remember(values: Set<string>, value: string, max: number): void {
	values.delete(value);
	values.add(value);
	if (values.size > max) values.delete(values.values().next().value!);
}

export const startedDeliveries = new StartedDeliveries();

export function deliveryKey(workflowId: unknown, nodeId: string, taskId: string, status: string): string {
	return `${String(workflowId ?? '')}|${nodeId}|${taskId}|${status}`;
}
