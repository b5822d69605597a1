/**
 * The deliveries this n8n process has started a workflow for, by workflow,
 * node, task and status: a repeated delivery starts nothing. Kept in memory,
 * not in the workflow's static data: saving static data writes the workflow
 * on every start, and deliveries handled at the same moment each save their
 * own copy over the others'.
 */
export class StartedDeliveries {
	private readonly keys = new Set<string>();

	constructor(private readonly max = 10_000) {}

	get size(): number {
		return this.keys.size;
	}

	/** Records a start; false when this delivery started a workflow already. Synchronous: one of racing deliveries wins. */
	claim(key: string): boolean {
		if (this.keys.has(key)) return false;
		this.keys.add(key);
		// A set keeps the order its keys were added in: the oldest goes first.
		if (this.keys.size > this.max) this.keys.delete(this.keys.values().next().value!);
		return true;
	}

	has(key: string): boolean {
		return this.keys.has(key);
	}
}

export const startedDeliveries = new StartedDeliveries();

export function deliveryKey(workflowId: unknown, nodeId: string, taskId: string, status: string): string {
	return `${String(workflowId ?? '')}|${nodeId}|${taskId}|${status}`;
}
