/**
 * ICredentialsHelper for in-process runs. n8n's own implementation lives in the
 * `n8n` CLI package (database, encryption, overwrites); this one serves the
 * plain data given to the run, per credential type, and otherwise follows the
 * CLI's logic: defaults from the type's properties, expressions in values
 * resolved, and the type's `authenticate` block applied (generic or function),
 * with n8n-workflow's expression engine resolving `={{$credentials.x}}`.
 */
import { Credentials, getAdditionalKeys } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialsExpressionResolveValues,
	IDataObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeParameters,
	INodeProperties,
	IRequestOptionsSimplified,
	IWorkflowDataProxyAdditionalKeys,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { ICredentialsHelper, NodeHelpers, UserError, Workflow, deepCopy, isExpression } from 'n8n-workflow';

import type { HarnessNodeTypes } from './node-types';

/** Credential data keyed by credential type name, e.g. `generationGatewayBearerApi`. */
export type CredentialsByType = Record<string, ICredentialDataDecryptedObject>;

export class HarnessCredentialsHelper extends ICredentialsHelper {
	constructor(
		private readonly types: HarnessNodeTypes,
		private readonly data: CredentialsByType = {},
	) {
		super();
	}

	/** A one-node workflow to resolve expressions outside a run (like the CLI's mockNode). */
	private mockWorkflow(): { workflow: Workflow; node: INode } {
		const node: INode = {
			id: 'credential-mock',
			name: 'Credential',
			type: 'n8n-nodes-base.noOp',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		};
		const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes: this.types });
		return { workflow, node };
	}

	getParentTypes(name: string): string[] {
		const parents = this.types.getCredentialType(name).extends ?? [];
		return parents.flatMap((parent) => [parent, ...this.getParentTypes(parent)]);
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		const credentialType = this.types.getCredentialType(type);
		const merged: INodeProperties[] = [];
		for (const parent of credentialType.extends ?? []) {
			NodeHelpers.mergeNodeProperties(merged, this.getCredentialsProperties(parent));
		}
		NodeHelpers.mergeNodeProperties(merged, credentialType.properties);
		return merged;
	}

	isCredentialUsableByNode(credentialType: string, nodeType: string): boolean {
		if (!this.types.recognizesCredential(credentialType)) return true;
		const type = this.types.getCredentialType(credentialType);
		if (!type.restrictToSupportedNodes) return true;
		const prefix = `${this.types.packageName}.`;
		return (type.supportedNodes ?? []).some((name) => nodeType === `${prefix}${name}` || nodeType === name);
	}

	/** The given data with the type's defaults filled in and expressions resolved. */
	resolveData(
		type: string,
		raw: ICredentialDataDecryptedObject,
		mode: WorkflowExecuteMode = 'internal',
		additionalKeys: IWorkflowDataProxyAdditionalKeys = {},
		resolveValues?: ICredentialsExpressionResolveValues,
	): ICredentialDataDecryptedObject {
		const withDefaults = NodeHelpers.getNodeParameters(
			this.getCredentialsProperties(type),
			raw as INodeParameters,
			true,
			false,
			null,
			null,
		) as ICredentialDataDecryptedObject;
		if (resolveValues) {
			const { workflow, runExecutionData, runIndex, itemIndex, node, connectionInputData } = resolveValues;
			return workflow.expression.getParameterValue(
				withDefaults as INodeParameters,
				runExecutionData,
				runIndex,
				itemIndex,
				node.name,
				connectionInputData,
				mode,
				additionalKeys,
				undefined,
				false,
				withDefaults,
			) as ICredentialDataDecryptedObject;
		}
		const { workflow, node } = this.mockWorkflow();
		return workflow.expression.getComplexParameterValue(
			node,
			withDefaults as INodeParameters,
			mode,
			additionalKeys,
			undefined,
			undefined,
			withDefaults,
		) as ICredentialDataDecryptedObject;
	}

	/** How many times n8n loaded a credential through this helper (one helper per request or run). */
	loads = 0;

	async getDecrypted(
		additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		mode: WorkflowExecuteMode,
		_executeData?: unknown,
		raw?: boolean,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		this.loads++;
		const given = this.data[type];
		if (!given) {
			throw new UserError(`No data for credential type "${type}": pass it in RunOptions.credentials`);
		}
		if (raw) return deepCopy(given);
		const additionalKeys = getAdditionalKeys(additionalData, mode, null, { isCredential: true });
		return this.resolveData(type, deepCopy(given), mode, additionalKeys, expressionResolveValues);
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = this.types.getCredentialType(typeName);
		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions as IHttpRequestOptions);
		}
		if (authenticate?.type !== 'generic') return requestOptions as IHttpRequestOptions;

		const context = workflow && node ? { workflow, node } : this.mockWorkflow();
		const resolve = (value: unknown): unknown => {
			if (!isExpression(value)) return value;
			const result = context.workflow.expression.getSimpleParameterValue(
				context.node,
				value as string,
				'internal',
				{ $credentials: credentials },
				undefined,
				'',
			);
			return result ? result.toString() : '';
		};
		const target = requestOptions as unknown as Record<string, IDataObject | undefined>;
		requestOptions.headers ??= {};
		// headers / qs / body / auth: each key and value may be an expression.
		for (const [outerKey, entries] of Object.entries(authenticate.properties)) {
			const bag = (target[outerKey] ??= {});
			for (const [key, value] of Object.entries(entries as IDataObject)) {
				bag[String(resolve(key))] = resolve(value) as IDataObject[string];
			}
		}
		return requestOptions as IHttpRequestOptions;
	}

	/** The type's `test.request` with expressions resolved and `authenticate` applied. */
	async testRequest(typeName: string, data: ICredentialDataDecryptedObject): Promise<IHttpRequestOptions> {
		const { test } = this.types.getCredentialType(typeName);
		if (!test?.request) throw new UserError(`Credential type "${typeName}" has no test.request`);
		const credentials = this.resolveData(typeName, deepCopy(data));
		const { workflow, node } = this.mockWorkflow();
		const request = workflow.expression.getComplexParameterValue(
			node,
			deepCopy(test.request) as unknown as INodeParameters,
			'internal',
			{ $credentials: credentials },
		) as unknown as IHttpRequestOptions;
		return await this.authenticate(credentials, typeName, request, workflow, node);
	}

	/** As the CLI: refresh an empty or expired `expirable` hidden field through the type's hook. */
	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		_node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const { preAuthentication } = this.types.getCredentialType(typeName);
		const expirable = this.getCredentialsProperties(typeName).find(
			(property) => property.type === 'hidden' && property.typeOptions?.expirable === true,
		);
		if (!expirable || typeof preAuthentication !== 'function') return undefined;
		if (credentials[expirable.name] !== '' && !credentialsExpired) return undefined;
		const output = (await preAuthentication.call(helpers, credentials)) as ICredentialDataDecryptedObject;
		if (output[expirable.name] === undefined) return undefined;
		// n8n saves the refreshed value; we keep it for the rest of this run.
		this.data[typeName] = { ...this.data[typeName], ...output };
		return Object.assign(credentials, output);
	}

	async runPreAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const { preAuthentication } = this.types.getCredentialType(typeName);
		if (typeof preAuthentication !== 'function') return undefined;
		return (
			((await preAuthentication.call(helpers, credentials)) as ICredentialDataDecryptedObject) ?? undefined
		);
	}

	async getCredentials(nodeCredentials: INodeCredentialsDetails, type: string): Promise<Credentials> {
		return new Credentials({ id: nodeCredentials.id, name: nodeCredentials.name }, type);
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}
}
