import type { INodeProperties, NodePropertyTypes } from 'n8n-workflow';

type Choice = { name: string; value: string };

/**
 * One form field: its label, parameter name and type, then its other settings in the order given.
 * The lint's form rules read object literals only: test/unit/shared/formLint.test.ts applies them
 * to the form as built.
 */
export function field(
	displayName: string,
	name: string,
	type: NodePropertyTypes,
	settings: Omit<INodeProperties, 'displayName' | 'name' | 'type'>,
): INodeProperties {
	return { displayName, name, type, ...settings };
}

/** Choices shown as their values (e.g. png, 16:9). */
export const valueOptions = (values: readonly string[]): Choice[] =>
	values.map((value) => ({ name: value, value }));

/** Choices from label to value, in the order written. */
export const labelledOptions = (labels: Record<string, string>): Choice[] =>
	Object.entries(labels).map(([name, value]) => ({ name, value }));

/** Model Default first: it sends nothing and the model decides. */
export const withModelDefault = (values: readonly string[]): Choice[] => [
	{ name: 'Model Default', value: '' },
	...valueOptions(values),
];
