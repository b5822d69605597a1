import type { INodeCredentialDescription, INodeProperties, IWebhookDescription } from 'n8n-workflow';

import { scopeModelConditions } from '../../shared/catalog';
import type { GatewayCredentialName } from '../../shared/credentials';
import { RESOURCE_CREDENTIAL } from '../../shared/credentials';
import { account } from './account';
import { cachedContent } from './cachedContent';
import { requestOptionsField } from './descriptions';
import { image } from './image';
import { message } from './message';
import { response } from './response';
import { speech } from './speech';
import type { OperationModule, ResourceModule } from './types';
import { video } from './video';
import { videoWait } from './videoWait';

/** Every resource of the node, in the order the form lists them. */
export const RESOURCES: ResourceModule[] = [
	account,
	cachedContent,
	image,
	message,
	response,
	speech,
	video,
	videoWait,
];

const byName = <T extends { name: string }>(a: T, b: T) => a.name.localeCompare(b.name);

export function findOperation(resource: string, operation: string): OperationModule | undefined {
	return RESOURCES.find((r) => r.value === resource)?.operations.find((o) => o.value === operation)?.module;
}

/** The webhooks every operation asks n8n to route to the node, each once (by method and path). */
export function nodeWebhooks(): IWebhookDescription[] {
	const byRoute = new Map<string, IWebhookDescription>();
	for (const resource of RESOURCES)
		for (const { module } of resource.operations)
			for (const webhook of module.webhooks ?? [])
				byRoute.set(`${String(webhook.httpMethod)} ${String(webhook.path)}`, webhook);
	return [...byRoute.values()];
}

/** One credential entry per credential type, shown only for the resources that use it. */
export function credentialDescriptions(): INodeCredentialDescription[] {
	const resourcesBy = new Map<GatewayCredentialName, string[]>();
	for (const resource of RESOURCES) {
		const credential = RESOURCE_CREDENTIAL[resource.value];
		resourcesBy.set(credential, [...(resourcesBy.get(credential) ?? []), resource.value]);
	}
	return [...resourcesBy].map(([name, resources]) => ({
		name,
		required: true,
		displayOptions: { show: { resource: resources } },
	}));
}

export function nodeProperties(): INodeProperties[] {
	const resourceField: INodeProperties = {
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: [...RESOURCES]
			.sort(byName)
			.map((r) => ({ name: r.name, value: r.value, description: r.description })),
		default: 'image',
	};
	const operationFields: INodeProperties[] = RESOURCES.filter((r) => r.operations.length).map((r) => {
		const firstOperation = r.operations[0].value;
		return {
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [r.value] } },
			default: firstOperation,
			options: [...r.operations]
				.sort(byName)
				.map((o) => ({ name: o.name, value: o.value, action: o.action, description: o.description })),
		};
	});
	const fields = RESOURCES.flatMap((r) => r.operations.flatMap((o) => o.module.description));
	return scopeModelConditions([resourceField, ...operationFields, ...fields, requestOptionsField]);
}
