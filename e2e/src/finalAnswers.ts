/**
 * Who answered a final callback 5xx, read from the simulator's record of the delivery. A final
 * callback answered 5xx must be one that asks the gateway to call again: the node's 503 with
 * Retry-After (it could not confirm the task or read the task list), or n8n's own 503 when its
 * database pool could not give it a connection in time under a burst (n8n 2.41: "Database is not
 * ready!"). One 500 of n8n's is no defect either: n8n 2.41 reads an execution's status and its data
 * in two queries, so a callback read while another process resumes the execution sees "waiting" with
 * data from after the resume, and fails on it in n8n's own waiting-webhook code before the node runs:
 * on a run already taken ("reading 'inputOverride'" in preserveInputOverride) or on an emptied stack
 * of nodes to run ("reading 'node'" in disableNode). The other callback resumes the execution. A 500,
 * or a 503 from anything else, is a defect: its class starts with "other".
 */
import type { CallbackDelivery } from '../../test/simulator/video/tasks';

/** n8n's torn read: the message, then the first frame of its stack in n8n's waiting-webhook code. */
const tornRead =
	/reading '(?:inputOverride|node)'.*?\\n\s+at (?:\w+\.)?(?:preserveInputOverride|disableNode) \(/;

export function whoAnswered5xx(d: Pick<CallbackDelivery, 'httpStatus' | 'retryAfter' | 'answer'>): string {
	const answer = d.answer ?? '';
	if (d.httpStatus === 503 && d.retryAfter !== undefined && /"error"/.test(answer)) {
		return 'the node asks again (Retry-After)';
	}
	if (d.httpStatus === 503 && /Database is not ready/i.test(answer)) return "n8n's database pool timed out";
	if (d.httpStatus === 500 && tornRead.test(answer)) {
		return 'n8n read the execution while another process resumed it';
	}
	return `other: ${d.httpStatus} ${answer.slice(0, 80)}`;
}
