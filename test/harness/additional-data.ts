/**
 * The per-execution context n8n's CLI builds (`getBase()` in
 * workflow-execute-additional-data.ts) without its database, task runners and
 * sub-workflow machinery: what WorkflowExecute and the node contexts read.
 */
import { ExecutionLifecycleHooks, ExternalSecretsProxy } from 'n8n-core';
import type {
	IConnections,
	IDataObject,
	INode,
	IPinData,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	IWorkflowSettings,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { UserError } from 'n8n-workflow';

import type { HarnessCredentialsHelper } from './credentials-helper';

/** A workflow as exported from n8n (Download / copy): only nodes and connections are required. */
export interface WorkflowJson {
	id?: string;
	name?: string;
	nodes: INode[];
	connections: IConnections;
	settings?: IWorkflowSettings;
	staticData?: IDataObject;
	pinData?: IPinData;
	[key: string]: unknown;
}

/** Fills the database fields an exported workflow JSON lacks. */
export function toWorkflowBase(workflow: IWorkflowBase | WorkflowJson): IWorkflowBase {
	const now = new Date();
	return {
		active: false,
		isArchived: false,
		createdAt: now,
		updatedAt: now,
		activeVersionId: null,
		settings: {},
		...(workflow as Partial<IWorkflowBase>),
		id: String(workflow.id ?? 'harness-workflow'),
		name: String(workflow.name ?? 'Harness workflow'),
		nodes: workflow.nodes,
		connections: workflow.connections,
	};
}

export interface AdditionalDataOptions {
	executionId: string;
	mode: WorkflowExecuteMode;
	workflow: IWorkflowBase;
	credentialsHelper: HarnessCredentialsHelper;
	/** Base of the webhook / resume URLs nodes see, e.g. `$execution.resumeUrl`. */
	instanceBaseUrl: string;
}

const notAvailable = (what: string) => async (): Promise<never> => {
	throw new UserError(`${what} is not available in the workflow test harness`);
};

export function buildAdditionalData(options: AdditionalDataOptions): IWorkflowExecuteAdditionalData {
	const base = options.instanceBaseUrl.replace(/\/+$/, '');
	const hooks = new ExecutionLifecycleHooks(options.mode, options.executionId, options.workflow);
	return {
		hooks,
		executionId: options.executionId,
		workflowId: options.workflow.id,
		credentialsHelper: options.credentialsHelper,
		externalSecretsProxy: new ExternalSecretsProxy(),
		currentNodeExecutionIndex: 0,
		variables: {},
		restApiUrl: `${base}/rest`,
		instanceBaseUrl: `${base}/`,
		formBaseUrl: `${base}/form`,
		formWaitingBaseUrl: `${base}/form-waiting`,
		formTestBaseUrl: `${base}/form-test`,
		webhookBaseUrl: `${base}/webhook`,
		webhookWaitingBaseUrl: `${base}/webhook-waiting`,
		webhookTestBaseUrl: `${base}/webhook-test`,
		mcpBaseUrl: `${base}/mcp`,
		mcpTestBaseUrl: `${base}/mcp-test`,
		logAiEvent: () => {},
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		executeWorkflow: notAvailable('Executing a sub-workflow'),
		startRunnerTask: notAvailable('The task runner (Code node)'),
	};
}
