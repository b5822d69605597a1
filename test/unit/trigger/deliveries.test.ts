/** The trigger's memory of the deliveries that started a workflow (GenerationGatewayTrigger/deliveries.ts). */
import { StartedDeliveries, deliveryKey } from '../../../nodes/GenerationGatewayTrigger/deliveries';

describe('StartedDeliveries', () => {
	it('drops a repeated (workflow, node, task, status) and keeps a new status of the same task', () => {
		const started = new StartedDeliveries();
		const key = (status: string, workflow = 'w1') => deliveryKey(workflow, 'node', 'v1', status);
		expect(started.claim(key('in_progress'))).toBe(true);
		expect(started.claim(key('completed'))).toBe(true);
		expect(started.claim(key('completed'))).toBe(false);
		expect(started.has(key('completed'))).toBe(true);
		// The same task in another workflow is another delivery.
		expect(started.claim(key('completed', 'w2'))).toBe(true);
	});

	it('keeps only the last `max` deliveries, the oldest going first', () => {
		const started = new StartedDeliveries(3);
		for (let i = 0; i < 5; i++) started.claim(deliveryKey('w', 'n', `v${i}`, 'completed'));
		expect(started.size).toBe(3);
		expect(started.claim(deliveryKey('w', 'n', 'v0', 'completed'))).toBe(true);
		expect(started.claim(deliveryKey('w', 'n', 'v4', 'completed'))).toBe(false);
	});
});
