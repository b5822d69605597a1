/** The in-process workflow test harness: see engine.ts. */
export * from './engine';
export { HarnessCredentialsHelper } from './credentials-helper';
export { HarnessNodeTypes, PACKAGE_ROOT } from './node-types';
export { gatewayWorkflow } from './gateway-workflow';
export { GATEWAY_TOOL_TYPE, TEST_AGENT_TYPE, agentWorkflow, registerToolTypes } from './tool-node';
export { until } from './until';
