import { invalid } from '../http';
import { checkBase64, checkMime } from '../media/inline';

/**
 * The interface's rules for POST /v1beta/cachedContents, written again for the
 * simulator (not shared with the package on purpose). Tool configuration
 * names are the Gemini API ones the package assumes.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
	typeof value === 'object' && value !== null && !Array.isArray(value);
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function validateTools(body: Json): Set<string> {
	const declared = new Set<string>();
	if (body.tools === undefined) return declared;
	if (!Array.isArray(body.tools)) invalid('tools', 'tools: must be an array');
	body.tools.forEach((tool, n) => {
		if (!isObject(tool)) invalid(`tools[${n}]`, `tools[${n}]: must be an object`);
		if (tool.functionDeclarations === undefined) return;
		const list = tool.functionDeclarations;
		if (!Array.isArray(list) || !list.length)
			invalid(`tools[${n}].functionDeclarations`, 'functionDeclarations: at least 1 item');
		list.forEach((decl, m) => {
			const where = `tools[${n}].functionDeclarations[${m}]`;
			if (!isObject(decl) || typeof decl.name !== 'string' || !decl.name)
				invalid(`${where}.name`, `${where}.name: required`);
			if (declared.has(decl.name)) invalid(`${where}.name`, `${where}.name: function names must be unique`);
			declared.add(decl.name);
			if (decl.parameters !== undefined && decl.parametersJsonSchema !== undefined) {
				invalid(where, `${where}: parameters and parametersJsonSchema are mutually exclusive`);
			}
			if (decl.response !== undefined && decl.responseJsonSchema !== undefined) {
				invalid(where, `${where}: response and responseJsonSchema are mutually exclusive`);
			}
			if (
				decl.behavior !== undefined &&
				!['UNSPECIFIED', 'BLOCKING', 'NON_BLOCKING'].includes(String(decl.behavior))
			) {
				invalid(`${where}.behavior`, `${where}.behavior: invalid value`);
			}
		});
	});
	return declared;
}

export function validateCachedContentRequest(body: unknown): Json {
	if (!isObject(body)) invalid('body', 'The request body must be a JSON object');
	if (typeof body.model !== 'string' || !/^models\/[^/]+$/.test(body.model)) {
		invalid('model', 'model: must have the form models/{model}');
	}
	if (!Array.isArray(body.contents) || !body.contents.length)
		invalid('contents', 'contents: at least 1 item is required');
	body.contents.forEach((turn, n) => {
		if (!isObject(turn) || (turn.role !== 'user' && turn.role !== 'model')) {
			invalid(`contents[${n}].role`, `contents[${n}].role: must be user or model`);
		}
		if (!Array.isArray(turn.parts) || !turn.parts.length)
			invalid(`contents[${n}].parts`, `contents[${n}].parts: at least 1 part`);
		turn.parts.forEach((part, m) => {
			if (!isObject(part) || !Object.keys(part).length)
				invalid(`contents[${n}].parts[${m}]`, 'a part must not be empty');
			if (part.text !== undefined && typeof part.text !== 'string')
				invalid(`contents[${n}].parts[${m}].text`, 'text must be a string');
			if (part.inlineData !== undefined) {
				const inline = isObject(part.inlineData) ? part.inlineData : {};
				const path = `contents[${n}].parts[${m}].inlineData`;
				checkMime(`${path}.mimeType`, inline.mimeType, () => true);
				checkBase64(`${path}.data`, inline.data);
			}
		});
	});
	if (body.systemInstruction !== undefined) {
		const parts = isObject(body.systemInstruction) ? body.systemInstruction.parts : undefined;
		if (!Array.isArray(parts) || parts.some((p) => !isObject(p) || typeof p.text !== 'string')) {
			invalid('systemInstruction', 'systemInstruction: parts with text are required');
		}
	}
	const declared = validateTools(body);
	const config =
		isObject(body.toolConfig) && isObject(body.toolConfig.functionCallingConfig)
			? body.toolConfig.functionCallingConfig
			: undefined;
	if (
		config?.mode !== undefined &&
		!['MODE_UNSPECIFIED', 'AUTO', 'ANY', 'NONE', 'VALIDATED'].includes(String(config.mode))
	) {
		invalid('toolConfig.functionCallingConfig.mode', 'mode: invalid value');
	}
	const names = config?.allowedFunctionNames;
	if (names !== undefined) {
		const param = 'toolConfig.functionCallingConfig.allowedFunctionNames';
		if (config?.mode !== 'ANY' && config?.mode !== 'VALIDATED')
			invalid(param, `${param}: only with mode ANY or VALIDATED`);
		if (!Array.isArray(names) || names.some((name) => !declared.has(String(name)))) {
			invalid(param, `${param}: every name must match a declared function`);
		}
	}
	if (body.ttl !== undefined && body.expireTime !== undefined)
		invalid('ttl', 'ttl and expireTime are mutually exclusive');
	if (body.ttl !== undefined && (typeof body.ttl !== 'string' || !/^\d+(\.\d{1,9})?s$/.test(body.ttl))) {
		invalid('ttl', 'ttl: must be a duration like "3600s"');
	}
	if (
		body.expireTime !== undefined &&
		(typeof body.expireTime !== 'string' ||
			!RFC3339.test(body.expireTime) ||
			Number.isNaN(Date.parse(body.expireTime)))
	) {
		invalid('expireTime', 'expireTime: must be an RFC 3339 timestamp');
	}
	if (
		body.displayName !== undefined &&
		(typeof body.displayName !== 'string' || [...body.displayName].length > 128)
	) {
		invalid('displayName', 'displayName: at most 128 characters');
	}
	return body;
}
