import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { gatewayRequest } from '../../../shared/transport';
import { readRequestSettings } from '../descriptions';
import type { OperationModule } from '../types';

const PATH = '/v1/user/balance';

/** The interface asks for an empty body with `Content-Type: none`; n8n sends no body on a GET. */
async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const { timeoutMs } = readRequestSettings(this, itemIndex);
	const { body } = await gatewayRequest<IDataObject>(this, {
		method: 'GET',
		path: PATH,
		headers: { 'Content-Type': 'none' },
		kind: 'read',
		timeoutMs: Math.min(timeoutMs, 60_000),
		itemIndex,
	});
	return [{ json: body }];
}

export const getBalance: OperationModule = { description: [], execute };
