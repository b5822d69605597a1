/** The trigger's memory of the deliveries that started a workflow (shared/deliveries.ts). */
import { StartedDeliveries, deliveryKey } from '../../../nodes/shared/deliveries';

describe('StartedDeliveries', () => {
	it('drops a repeated (workflow, node, task, status) and keeps a new status of the same task', () => {
		const started = new StartedDeliveries();
		const key = (status: string, workflow = 'w1') => deliveryKey(workflow, 'node', 'v1', status);
		expect(started.startedFor('v1')).toBe(false);
		expect(started.claim(key('in_progress'))).toBe(true);
		expect(started.startedFor('v1')).toBe(false);
		expect(started.claim(key('completed'), 'v1')).toBe(true);
		expect(started.claim(key('completed'), 'v1')).toBe(false);
		expect(started.has(key('completed'))).toBe(true);
		expect(started.startedFor('v1')).toBe(true);
		expect(started.startedFor('v2')).toBe(false);
		// The same task in another workflow is another delivery.
		expect(started.claim(key('completed', 'w2'), 'v1')).toBe(true);
	});

	it('keeps only the last `max` deliveries, the oldest going first', () => {
		const started = new StartedDeliveries(3);
		for (let i = 0; i < 5; i++) started.claim(deliveryKey('w', 'n', `v${i}`, 'completed'), `v${i}`);
		expect(started.size).toBe(3);
		expect(started.startedFor('v0')).toBe(false);
		expect(started.startedFor('v4')).toBe(true);
		expect(started.claim(deliveryKey('w', 'n', 'v0', 'completed'), 'v0')).toBe(true);
		expect(started.claim(deliveryKey('w', 'n', 'v4', 'completed'), 'v4')).toBe(false);
	});
});
